// Package insights is the query engine of site insights (the reference's
// site-insights operations): what an aggregation asks for and its checks,
// and the sums of the stored counts of a site's events by the columns it
// groups by, filtered, ordered and cut as it says; and the question and
// visitor statistics drawn from the same counts. It is pure: the counts
// are read by store, and the answers written by api.
//
// The published sites count events per site, UTC hour, type, display
// context, section, site space, page, path of a page not found, search
// text and whether the visitor was authenticated. Nothing identifies a
// visitor, a session, an address, a device or a referrer, so the columns
// about them are refused, naming the column.
package insights

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/quiredocs/quire"
)

// MaxResults bounds the rows of an aggregation, and the values of a filter.
const MaxResults = 1000

// Key is what an event is counted by; store keeps the counts of keys
// (store.InsightKey).
type Key struct {
	SiteID         string
	Hour           int64 // Unix seconds of the UTC hour
	EventType      string
	DisplayContext string
	SiteSection    string
	SiteSpace      string
	Space          string
	Page           string // "" for a page not found, or an event of no page
	URLPath        string
	Query          string // a search's text, "" for other events
	Authenticated  bool
}

// Count is the events counted of a key in its hour.
type Count struct {
	Key
	Events int64
}

// Column is a column of an aggregation, as asked: datetime has an
// interval (a day by default).
type Column struct {
	Column   string `json:"column"`
	Interval string `json:"interval"`
}

// eventsCount is the column of the sums.
var eventsCount = Column{Column: "eventsCount"}

// Filter is a condition of where: the column's value is among Values (in,
// the default), is not (notIn), or compares to the one value.
type Filter struct {
	Column
	Values   []json.RawMessage `json:"values"`
	Operator string            `json:"operator"`
}

// Order is how an aggregation's rows are ordered.
type Order struct {
	By        Column `json:"by"`
	Direction string `json:"direction"` // asc or desc
}

// Query is the reference's SiteInsightsQueryEventsAggregation: the counts of
// Range that pass Where, summed by GroupBy, in Order, at most Limit of them,
// as the columns of Select (GroupBy and eventsCount when it is empty).
type Query struct {
	Select  []Column        `json:"select"`
	GroupBy []Column        `json:"groupBy"`
	Where   []Filter        `json:"where"`
	Order   *Order          `json:"order"`
	Range   json.RawMessage `json:"range"`
	Limit   *int            `json:"limit"`

	from, to time.Time // set by Check
}

// Ranges are the preset ranges, by name, each ending with the current hour.
var Ranges = map[string]time.Duration{
	"lastYear": 365 * 24 * time.Hour, "last3Months": 90 * 24 * time.Hour, "last30Days": 30 * 24 * time.Hour,
	"last7Days": 7 * 24 * time.Hour, "last24Hours": 24 * time.Hour,
}

// Span is the hours whose counts a checked query reads: from its first,
// up to to.
func (q *Query) Span() (from, to time.Time) { return q.from, q.to }

// Check validates q, now being the time it is asked at, and sets its span.
func (q *Query) Check(now time.Time) error {
	if err := q.checkRange(now); err != nil {
		return err
	}
	for i, c := range q.Select {
		if err := checkColumn("select["+strconv.Itoa(i)+"]", c); err != nil {
			return err
		}
	}
	for i, c := range q.GroupBy {
		if err := checkColumn("groupBy["+strconv.Itoa(i)+"]", c); err != nil {
			return err
		}
		if c.Column == "eventsCount" {
			return quire.Errorf(quire.CodeInvalid, "groupBy[%d].column: eventsCount is a count, not a group", i)
		}
	}
	for i, c := range q.Select {
		if c.Column != "eventsCount" && !slices.Contains(q.GroupBy, c) {
			return quire.Errorf(quire.CodeInvalid, "select[%d]: %s must also be in groupBy", i, c.Column)
		}
	}
	for i, f := range q.Where {
		if err := f.check("where[" + strconv.Itoa(i) + "]"); err != nil {
			return err
		}
	}
	if q.Order != nil {
		if err := checkColumn("order.by", q.Order.By); err != nil {
			return err
		}
		if q.Order.Direction != "asc" && q.Order.Direction != "desc" {
			return quire.Errorf(quire.CodeInvalid, "order.direction: must be asc or desc")
		}
		if q.Order.By.Column != "eventsCount" && !slices.Contains(q.GroupBy, q.Order.By) {
			return quire.Errorf(quire.CodeInvalid, "order.by: %s must also be in groupBy", q.Order.By.Column)
		}
	}
	if q.Limit != nil && (*q.Limit < 1 || *q.Limit > MaxResults) {
		return quire.Errorf(quire.CodeInvalid, "limit: must be from 1 to %d", MaxResults)
	}
	return nil
}

// checkRange reads Range: a preset's name or {from, to}.
func (q *Query) checkRange(now time.Time) error {
	if len(q.Range) == 0 || string(q.Range) == "null" {
		return quire.Errorf(quire.CodeInvalid, "range: is required")
	}
	var preset string
	var custom struct {
		From *time.Time `json:"from"`
		To   *time.Time `json:"to"`
	}
	switch {
	case json.Unmarshal(q.Range, &preset) == nil:
		d, ok := Ranges[preset]
		if !ok {
			return quire.Errorf(quire.CodeInvalid, "range: must be lastYear, last3Months, last30Days, last7Days, last24Hours or {from, to}")
		}
		// The current hour counts: the range ends at the next.
		q.to = now.UTC().Truncate(time.Hour).Add(time.Hour)
		q.from = q.to.Add(-d)
	case json.Unmarshal(q.Range, &custom) == nil && custom.From != nil && custom.To != nil:
		q.from, q.to = custom.From.UTC().Truncate(time.Hour), custom.To.UTC()
		if !q.to.After(*custom.From) {
			return quire.Errorf(quire.CodeInvalid, "range.to: must be after range.from")
		}
	default:
		return quire.Errorf(quire.CodeInvalid, "range: must be lastYear, last3Months, last30Days, last7Days, last24Hours or {from, to}")
	}
	return nil
}

// check validates a filter, named field in messages.
func (f *Filter) check(field string) error {
	if err := checkColumn(field, f.Column); err != nil {
		return err
	}
	if f.Column.Column == "eventsCount" {
		return quire.Errorf(quire.CodeInvalid, "%s.column: filter on the columns counted by, not on eventsCount", field)
	}
	switch f.Operator {
	case "", "in", "notIn":
	case "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual":
		if c := f.Column.Column; c != "datetime" && c != "dayOfWeek" && c != "hourOfDay" {
			return quire.Errorf(quire.CodeInvalid, "%s.operator: %s applies to datetime, dayOfWeek and hourOfDay only", field, f.Operator)
		}
		if len(f.Values) != 1 {
			return quire.Errorf(quire.CodeInvalid, "%s.values: %s takes one value", field, f.Operator)
		}
	default:
		return quire.Errorf(quire.CodeInvalid, "%s.operator: must be in, notIn, greaterThan, greaterThanOrEqual, lessThan or lessThanOrEqual", field)
	}
	if len(f.Values) > MaxResults {
		return quire.Errorf(quire.CodeInvalid, "%s.values: must hold at most %d values", field, MaxResults)
	}
	return nil
}

// checkColumn refuses the columns Quire does not count.
func checkColumn(field string, col Column) error {
	switch col.Column {
	case "datetime":
		switch col.Interval {
		case "", "hour", "day", "week", "month":
			return nil
		}
		return quire.Errorf(quire.CodeInvalid, "%s.interval: must be hour, day, week or month", field)
	case "dayOfWeek", "hourOfDay", "eventType", "displayContext", "siteSection", "siteSpace", "page", "urlPath",
		"eventSearchQuery", "visitorAuthenticated", "eventsCount":
		return nil
	case "visitorsCount", "sessionsCount":
		return quire.Errorf(quire.CodeInvalid, "%s.column: %s is not counted: Quire keeps no visitor or session identifier (no cookie, no address)", field, col.Column)
	case "":
		return quire.Errorf(quire.CodeInvalid, "%s.column: is required", field)
	}
	return quire.Errorf(quire.CodeInvalid, "%s.column: %s is not counted: Quire counts events by time, eventType, displayContext, siteSection, siteSpace, page, urlPath, eventSearchQuery and visitorAuthenticated", field, col.Column)
}
