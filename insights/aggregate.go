package insights

import (
	"cmp"
	"encoding/json"
	"iter"
	"slices"
	"strings"
	"time"
)

// PageValue is a page column's value: the page (nil when not found) of a
// space.
type PageValue struct {
	Page  *string `json:"page"`
	Space string  `json:"space"`
}

// Table is an aggregation's answer: its columns, each with one value a row.
type Table struct {
	Columns []TableColumn `json:"columns"`
}

// TableColumn is a column of a Table.
type TableColumn struct {
	Column string `json:"column"`
	Values []any  `json:"values"`
}

// group is a row of an aggregation.
type group struct {
	values []any // of GroupBy
	events int64
}

// Aggregate sums the counts that pass q's filters (q checked, the counts
// those of its span) by its GroupBy, in its order, cut at its limit, as
// the columns of its Select.
func Aggregate(q *Query, counts iter.Seq[Count]) Table {
	groups := map[string]*group{}
	var order []*group
	for c := range counts {
		if slices.ContainsFunc(q.Where, func(f Filter) bool { return !f.keeps(c) }) {
			continue
		}
		values := make([]any, len(q.GroupBy))
		for i, col := range q.GroupBy {
			values[i] = value(col, c)
		}
		key, _ := json.Marshal(values)
		g, ok := groups[string(key)]
		if !ok {
			g = &group{values: values}
			groups[string(key)] = g
			order = append(order, g)
		}
		g.events += c.Events
	}
	if len(q.GroupBy) == 0 && len(order) == 0 {
		order = append(order, &group{}) // the count of nothing is 0
	}
	sortGroups(order, q)
	limit := MaxResults
	if q.Limit != nil {
		limit = *q.Limit
	}
	order = order[:min(len(order), limit)]
	sel := q.Select
	if len(sel) == 0 {
		sel = append(slices.Clone(q.GroupBy), eventsCount)
	}
	out := Table{Columns: []TableColumn{}}
	for _, col := range sel {
		tc := TableColumn{Column: col.Column, Values: make([]any, len(order))}
		i := slices.Index(q.GroupBy, col)
		for j, g := range order {
			if col.Column == "eventsCount" {
				tc.Values[j] = g.events
			} else {
				tc.Values[j] = g.values[i]
			}
		}
		out.Columns = append(out.Columns, tc)
	}
	return out
}

// sortGroups orders groups as q asks: by default in time when grouped by
// datetime, else by most events.
func sortGroups(groups []*group, q *Query) {
	by, desc := eventsCount, true
	if q.Order != nil {
		by, desc = q.Order.By, q.Order.Direction == "desc"
	} else if i := slices.IndexFunc(q.GroupBy, func(c Column) bool { return c.Column == "datetime" }); i >= 0 {
		by, desc = q.GroupBy[i], false
	}
	at := slices.Index(q.GroupBy, by)
	slices.SortStableFunc(groups, func(x, y *group) int {
		var n int
		if by.Column == "eventsCount" {
			n = cmp.Compare(x.events, y.events)
		} else {
			n = compare(x.values[at], y.values[at])
		}
		if desc {
			return -n
		}
		return n
	})
}

// value is a column's value of a count (datetime's at its interval, a day
// by default); nil for a column Quire does not count by.
func value(col Column, c Count) any {
	nullable := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	t := time.Unix(c.Hour, 0).UTC()
	switch col.Column {
	case "datetime":
		switch col.Interval {
		case "hour":
		case "week":
			t = time.Date(t.Year(), t.Month(), t.Day()-(int(t.Weekday())+6)%7, 0, 0, 0, 0, time.UTC)
		case "month":
			t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
		default: // day
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		}
		return t
	case "dayOfWeek":
		return int64((int(t.Weekday())+6)%7 + 1)
	case "hourOfDay":
		return int64(t.Hour())
	case "eventType":
		return c.EventType
	case "displayContext":
		return c.DisplayContext
	case "siteSection":
		return nullable(c.SiteSection)
	case "siteSpace":
		return nullable(c.SiteSpace)
	case "page":
		if c.Page == "" { // a page not found, or an event of no page
			return nil
		}
		return PageValue{Page: &c.Page, Space: c.Space}
	case "urlPath":
		return c.URLPath
	case "eventSearchQuery":
		return c.Query
	case "visitorAuthenticated":
		return c.Authenticated
	}
	return nil
}

// keeps reports whether count c passes filter f.
func (f *Filter) keeps(c Count) bool {
	v := value(Column{Column: f.Column.Column, Interval: "hour"}, c)
	if f.Operator == "" || f.Operator == "in" || f.Operator == "notIn" {
		in := slices.ContainsFunc(f.Values, func(raw json.RawMessage) bool { return compare(v, decode(f.Column.Column, raw)) == 0 })
		return in == (f.Operator != "notIn")
	}
	n := compare(v, decode(f.Column.Column, f.Values[0]))
	switch f.Operator {
	case "greaterThan":
		return n > 0
	case "greaterThanOrEqual":
		return n >= 0
	case "lessThan":
		return n < 0
	}
	return n <= 0
}

// decode reads a filter's value as value shows column's.
func decode(column string, raw json.RawMessage) any {
	var v any
	switch column {
	case "datetime":
		var t time.Time
		if json.Unmarshal(raw, &t) != nil {
			return struct{}{} // matches nothing
		}
		return t.UTC()
	case "dayOfWeek", "hourOfDay":
		var n int64
		if json.Unmarshal(raw, &n) != nil {
			return struct{}{}
		}
		return n
	case "page":
		var p *PageValue
		if json.Unmarshal(raw, &p) != nil {
			return struct{}{}
		}
		if p == nil {
			return nil
		}
		return *p
	}
	if json.Unmarshal(raw, &v) != nil {
		return struct{}{}
	}
	return v
}

// compare orders two values of a column; values of other kinds differ.
func compare(a, b any) int {
	switch x := a.(type) {
	case nil:
		if b == nil {
			return 0
		}
		return -1
	case time.Time:
		if y, ok := b.(time.Time); ok {
			return x.Compare(y)
		}
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmp.Compare(boolInt(x), boolInt(y))
		}
	case PageValue:
		if y, ok := b.(PageValue); ok {
			return cmp.Or(strings.Compare(x.Space, y.Space), cmp.Compare(derefOr(x.Page), derefOr(y.Page)))
		}
	}
	if b == nil {
		return 1
	}
	return 2 // not comparable: never equal
}

func derefOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
