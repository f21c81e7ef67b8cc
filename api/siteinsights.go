package api

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Site insights (the reference's site-insights operations) over what the
// published sites count (site/insights.go): events per site, UTC hour,
// type, display context, section, site space, page, path of a page not
// found, search text and whether the visitor was authenticated. Nothing
// identifies a visitor, a session, an address, a device or a referrer, so
// the columns about them are refused with 400 naming the column; no
// visitor-auth claim is kept, so visitor segments are by authentication
// only. Reading insights needs role read on the organization, as reading
// the site; tracking events through the API needs a token too (the
// published sites count their own without one).

// insightEventTypes is the reference's SiteInsightsEventType.
var insightEventTypes = []string{"page_view", "page_markdown_request", "search_open", "search_type_query", "search_open_result",
	"page_post_feedback", "page_post_feedback_comment", "agent_feedback", "ask_question", "ask_view", "ask_rate_response",
	"link_click", "api_client_open", "api_client_request", "ad_click", "ad_display", "trademark_click", "llms_request",
	"mcp_request", "rss_request"}

var insightDisplayContexts = []string{"site", "server", "embed", "mcp"}

const (
	maxTrackedEvents   = 100             // events of one POST SITE/insights/events
	trackedEventSkew   = 5 * time.Minute // how far an event's timestamp may be from now
	maxInsightsResults = 1000
)

// insightPageJSON is a page column's value: the page ("null" when not
// found) of a space.
type insightPageJSON struct {
	Page  *string `json:"page"`
	Space string  `json:"space"`
}

// insightColumn is a column of an aggregation, as asked.
type insightColumn struct {
	Column   string `json:"column"`
	Interval string `json:"interval"`
}

// insightValue is a column's value of a count (datetime's at its interval,
// a day by default); nil for a column Quire does not count by.
func insightValue(col insightColumn, c store.InsightCount) any {
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
		return insightPageJSON{Page: &c.Page, Space: c.Space}
	case "urlPath":
		return c.URLPath
	case "eventSearchQuery":
		return c.Query
	case "visitorAuthenticated":
		return c.Authenticated
	}
	return nil
}

// checkInsightColumn refuses the columns Quire does not count.
func checkInsightColumn(field string, col insightColumn) error {
	switch col.Column {
	case "datetime":
		switch col.Interval {
		case "", "hour", "day", "week", "month":
			return nil
		}
		return errorf(quire.CodeInvalid, "%s.interval: must be hour, day, week or month", field)
	case "dayOfWeek", "hourOfDay", "eventType", "displayContext", "siteSection", "siteSpace", "page", "urlPath",
		"eventSearchQuery", "visitorAuthenticated", "eventsCount":
		return nil
	case "visitorsCount", "sessionsCount":
		return errorf(quire.CodeInvalid, "%s.column: %s is not counted: Quire keeps no visitor or session identifier (no cookie, no address)", field, col.Column)
	case "":
		return errorf(quire.CodeInvalid, "%s.column: is required", field)
	}
	return errorf(quire.CodeInvalid, "%s.column: %s is not counted: Quire counts events by time, eventType, displayContext, siteSection, siteSpace, page, urlPath, eventSearchQuery and visitorAuthenticated", field, col.Column)
}

// insightFilter is a condition of where.
type insightFilter struct {
	insightColumn
	Values   []json.RawMessage `json:"values"`
	Operator string            `json:"operator"`
}

// insightsAggregation is the reference's SiteInsightsQueryEventsAggregation.
type insightsAggregation struct {
	Select  []insightColumn `json:"select"`
	GroupBy []insightColumn `json:"groupBy"`
	Where   []insightFilter `json:"where"`
	Order   *struct {
		By        insightColumn `json:"by"`
		Direction string        `json:"direction"`
	} `json:"order"`
	Range json.RawMessage `json:"range"`
	Limit *int            `json:"limit"`

	from, to time.Time
	now      time.Time
}

var insightRanges = map[string]time.Duration{
	"lastYear": 365 * 24 * time.Hour, "last3Months": 90 * 24 * time.Hour, "last30Days": 30 * 24 * time.Hour,
	"last7Days": 7 * 24 * time.Hour, "last24Hours": 24 * time.Hour,
}

func (b *insightsAggregation) validate() error {
	if len(b.Range) == 0 || string(b.Range) == "null" {
		return errorf(quire.CodeInvalid, "range: is required")
	}
	var preset string
	var custom struct {
		From *time.Time `json:"from"`
		To   *time.Time `json:"to"`
	}
	switch {
	case json.Unmarshal(b.Range, &preset) == nil:
		d, ok := insightRanges[preset]
		if !ok {
			return errorf(quire.CodeInvalid, "range: must be lastYear, last3Months, last30Days, last7Days, last24Hours or {from, to}")
		}
		// The current hour counts: the range ends at the next.
		b.to = b.now.UTC().Truncate(time.Hour).Add(time.Hour)
		b.from = b.to.Add(-d)
	case json.Unmarshal(b.Range, &custom) == nil && custom.From != nil && custom.To != nil:
		b.from, b.to = custom.From.UTC().Truncate(time.Hour), custom.To.UTC()
		if !b.to.After(*custom.From) {
			return errorf(quire.CodeInvalid, "range.to: must be after range.from")
		}
	default:
		return errorf(quire.CodeInvalid, "range: must be lastYear, last3Months, last30Days, last7Days, last24Hours or {from, to}")
	}
	for i, c := range b.Select {
		if err := checkInsightColumn("select["+strconv.Itoa(i)+"]", c); err != nil {
			return err
		}
	}
	for i, c := range b.GroupBy {
		if err := checkInsightColumn("groupBy["+strconv.Itoa(i)+"]", c); err != nil {
			return err
		}
		if c.Column == "eventsCount" {
			return errorf(quire.CodeInvalid, "groupBy[%d].column: eventsCount is a count, not a group", i)
		}
	}
	for i, c := range b.Select {
		if c.Column != "eventsCount" && !slices.Contains(b.GroupBy, c) {
			return errorf(quire.CodeInvalid, "select[%d]: %s must also be in groupBy", i, c.Column)
		}
	}
	for i, f := range b.Where {
		field := "where[" + strconv.Itoa(i) + "]"
		if err := checkInsightColumn(field, f.insightColumn); err != nil {
			return err
		}
		if f.Column == "eventsCount" {
			return errorf(quire.CodeInvalid, "%s.column: filter on the columns counted by, not on eventsCount", field)
		}
		switch f.Operator {
		case "", "in", "notIn":
		case "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual":
			if f.Column != "datetime" && f.Column != "dayOfWeek" && f.Column != "hourOfDay" {
				return errorf(quire.CodeInvalid, "%s.operator: %s applies to datetime, dayOfWeek and hourOfDay only", field, f.Operator)
			}
			if len(f.Values) != 1 {
				return errorf(quire.CodeInvalid, "%s.values: %s takes one value", field, f.Operator)
			}
		default:
			return errorf(quire.CodeInvalid, "%s.operator: must be in, notIn, greaterThan, greaterThanOrEqual, lessThan or lessThanOrEqual", field)
		}
		if len(f.Values) > maxInsightsResults {
			return errorf(quire.CodeInvalid, "%s.values: must hold at most %d values", field, maxInsightsResults)
		}
	}
	if b.Order != nil {
		if err := checkInsightColumn("order.by", b.Order.By); err != nil {
			return err
		}
		if b.Order.Direction != "asc" && b.Order.Direction != "desc" {
			return errorf(quire.CodeInvalid, "order.direction: must be asc or desc")
		}
		if b.Order.By.Column != "eventsCount" && !slices.Contains(b.GroupBy, b.Order.By) {
			return errorf(quire.CodeInvalid, "order.by: %s must also be in groupBy", b.Order.By.Column)
		}
	}
	if b.Limit != nil && (*b.Limit < 1 || *b.Limit > maxInsightsResults) {
		return errorf(quire.CodeInvalid, "limit: must be from 1 to %d", maxInsightsResults)
	}
	return nil
}

// keeps reports whether count c passes filter f.
func (f *insightFilter) keeps(c store.InsightCount) bool {
	v := insightValue(insightColumn{Column: f.Column, Interval: "hour"}, c)
	if f.Operator == "" || f.Operator == "in" || f.Operator == "notIn" {
		in := slices.ContainsFunc(f.Values, func(raw json.RawMessage) bool { return compareInsight(v, decodeInsight(f.Column, raw)) == 0 })
		return in == (f.Operator != "notIn")
	}
	n := compareInsight(v, decodeInsight(f.Column, f.Values[0]))
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

// decodeInsight reads a filter's value as insightValue shows column's.
func decodeInsight(column string, raw json.RawMessage) any {
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
		var p *insightPageJSON
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

// compareInsight orders two values of a column; values of other kinds
// differ.
func compareInsight(a, b any) int {
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
	case insightPageJSON:
		if y, ok := b.(insightPageJSON); ok {
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

// insightGroup is a row of an aggregation's answer.
type insightGroup struct {
	values []any // of groupBy
	events int64
}

// aggregateSiteEvents answers POST SITE/insights/events/aggregate: the
// counts of the range that pass where, summed by groupBy, in order, as
// columns of select (groupBy and eventsCount when it is empty).
func (s *Server) aggregateSiteEvents(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	body := insightsAggregation{now: s.db.Now()}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	counts, err := s.db.InsightCounts(r.Context(), site.ID, body.from, body.to)
	if err != nil {
		return err
	}
	groups := map[string]*insightGroup{}
	var order []*insightGroup
	for _, c := range counts {
		if !slices.ContainsFunc(body.Where, func(f insightFilter) bool { return !f.keeps(c) }) {
			values := make([]any, len(body.GroupBy))
			for i, col := range body.GroupBy {
				values[i] = insightValue(col, c)
			}
			key, _ := json.Marshal(values)
			g, ok := groups[string(key)]
			if !ok {
				g = &insightGroup{values: values}
				groups[string(key)] = g
				order = append(order, g)
			}
			g.events += c.Events
		}
	}
	if len(body.GroupBy) == 0 && len(order) == 0 {
		order = append(order, &insightGroup{}) // the count of nothing is 0
	}
	sortInsightGroups(order, &body)
	limit := maxInsightsResults
	if body.Limit != nil {
		limit = *body.Limit
	}
	order = order[:min(len(order), limit)]
	sel := body.Select
	if len(sel) == 0 {
		sel = append(slices.Clone(body.GroupBy), insightColumn{Column: "eventsCount"})
	}
	type columnJSON struct {
		Column string `json:"column"`
		Values []any  `json:"values"`
	}
	out := struct {
		Columns []columnJSON `json:"columns"`
	}{Columns: []columnJSON{}}
	for _, col := range sel {
		cj := columnJSON{Column: col.Column, Values: make([]any, len(order))}
		i := slices.Index(body.GroupBy, col)
		for j, g := range order {
			if col.Column == "eventsCount" {
				cj.Values[j] = g.events
			} else {
				cj.Values[j] = g.values[i]
			}
		}
		out.Columns = append(out.Columns, cj)
	}
	return writeJSON(w, http.StatusOK, out)
}

// sortInsightGroups orders groups as b asks: by default in time when
// grouped by datetime, else by most events.
func sortInsightGroups(groups []*insightGroup, b *insightsAggregation) {
	by, desc := insightColumn{Column: "eventsCount"}, true
	if b.Order != nil {
		by, desc = b.Order.By, b.Order.Direction == "desc"
	} else if i := slices.IndexFunc(b.GroupBy, func(c insightColumn) bool { return c.Column == "datetime" }); i >= 0 {
		by, desc = b.GroupBy[i], false
	}
	at := slices.Index(b.GroupBy, by)
	slices.SortStableFunc(groups, func(x, y *insightGroup) int {
		var n int
		if by.Column == "eventsCount" {
			n = cmp.Compare(x.events, y.events)
		} else {
			n = compareInsight(x.values[at], y.values[at])
		}
		if desc {
			return -n
		}
		return n
	})
}

// visitorSegmentJSON is the reference's SiteInsightsVisitorSegment.
type visitorSegmentJSON struct {
	Title    string         `json:"title"`
	Claims   map[string]any `json:"claims"`
	Events   int64          `json:"events"`
	Visitors int64          `json:"visitors"`
	Sessions int64          `json:"sessions"`
}

// listSiteVisitorSegments answers GET SITE/insights/visitor-segments: the
// events of the last 30 days of visitors with a visitor-auth token and
// without one. Claims are not kept, so a segment's claims are {}; visitors
// and sessions are not counted (0).
func (s *Server) listSiteVisitorSegments(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	to := s.db.Now().UTC().Truncate(time.Hour).Add(time.Hour)
	counts, err := s.db.InsightCounts(r.Context(), site.ID, to.Add(-insightRanges["last30Days"]), to)
	if err != nil {
		return err
	}
	var auth, anon int64
	for _, c := range counts {
		if c.Authenticated {
			auth += c.Events
		} else {
			anon += c.Events
		}
	}
	items := []visitorSegmentJSON{}
	for _, seg := range []struct {
		title  string
		events int64
	}{{"Authenticated visitors", auth}, {"Anonymous visitors", anon}} {
		if seg.events > 0 {
			items = append(items, visitorSegmentJSON{Title: seg.title, Claims: map[string]any{}, Events: seg.events})
		}
	}
	return writeJSON(w, http.StatusOK, listJSON[visitorSegmentJSON]{Items: items, Count: len(items)})
}

// getSiteQuestionStats answers GET SITE/question-stats from the questions
// asked of the site (ask_question events) from from to to (the last 3
// months by default): every question gets one answer, which nobody rates
// and nothing classifies, so those counts are of "unrated" and "unknown".
func (s *Server) getSiteQuestionStats(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	q := query(r)
	now := s.db.Now().UTC()
	to := now.Truncate(time.Hour).Add(time.Hour)
	from := to.Add(-13 * 7 * 24 * time.Hour)
	for _, p := range []struct {
		name string
		t    *time.Time
	}{{"from", &from}, {"to", &to}} {
		if v := q.Get(p.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return errorf(quire.CodeInvalid, "%s: must be a date-time (RFC 3339)", p.name)
			}
			*p.t = t.UTC()
		}
	}
	for _, name := range []string{"topic", "relevance", "channelType", "answered"} {
		if len(q[name]) > 0 {
			return errorf(quire.CodeInvalid, "%s: Quire does not classify questions; leave it out", name)
		}
	}
	if !to.After(from) {
		return errorf(quire.CodeInvalid, "to: must be after from")
	}
	counts, err := s.db.InsightCounts(r.Context(), site.ID, from.Truncate(time.Hour), to, "ask_question")
	if err != nil {
		return err
	}
	var total int64
	pulse := make([]int64, 13)
	channels := map[string]int64{}
	pulseStart := now.Truncate(time.Hour).Add(time.Hour).Add(-13 * 7 * 24 * time.Hour)
	for _, c := range counts {
		total += c.Events
		channels[c.DisplayContext] += c.Events
		if week := int(time.Unix(c.Hour, 0).Sub(pulseStart) / (7 * 24 * time.Hour)); week >= 0 && week < 13 {
			pulse[week] += c.Events
		}
	}
	return writeJSON(w, http.StatusOK, map[string]any{
		"total": total, "answers": total,
		"feedback":     map[string]int64{"positive": 0, "negative": 0, "unrated": total},
		"answered":     map[string]int64{"yes": 0, "partially": 0, "no": 0},
		"relevance":    map[string]int64{"relevant": 0, "spam": 0, "off-topic": 0, "unclear": 0},
		"types":        map[string]int64{"exploring": 0, "how-to": 0, "troubleshooting": 0, "reference": 0, "unknown": total},
		"channelTypes": channels, "channels": map[string]int64{}, "weeklyPulse": pulse,
	})
}

// trackedEvent is an event of POST SITE/insights/events: what Quire keeps
// of the reference's SiteInsightsEvent. The session (cookies, address,
// user agent, referrer, claims) is read only to know whether the visitor
// was authenticated, and kept no further.
type trackedEvent struct {
	Type     string `json:"type"`
	Query    string `json:"query"`
	Location *struct {
		URL            string  `json:"url"`
		DisplayContext string  `json:"displayContext"`
		SiteSection    *string `json:"siteSection"`
		SiteSpace      *string `json:"siteSpace"`
		Space          *string `json:"space"`
		Page           *string `json:"page"`
	} `json:"location"`
	Session *struct {
		VisitorAuthClaims map[string]any `json:"visitorAuthClaims"`
	} `json:"session"`
	Timestamp *time.Time `json:"timestamp"`
}

type trackEventsBody struct {
	Events []trackedEvent `json:"events"`
}

func (b *trackEventsBody) validate() error {
	if b.Events == nil {
		return errorf(quire.CodeInvalid, "events: is required")
	}
	if len(b.Events) > maxTrackedEvents {
		return errorf(quire.CodeInvalid, "events: must hold at most %d events", maxTrackedEvents)
	}
	for i, e := range b.Events {
		field := "events[" + strconv.Itoa(i) + "]"
		if !slices.Contains(insightEventTypes, e.Type) {
			return errorf(quire.CodeInvalid, "%s.type: must be one of %s", field, strings.Join(insightEventTypes, ", "))
		}
		if e.Session == nil {
			return errorf(quire.CodeInvalid, "%s.session: is required", field)
		}
		l := e.Location
		if l == nil {
			return errorf(quire.CodeInvalid, "%s.location: is required", field)
		}
		if u, err := url.Parse(l.URL); err != nil || !u.IsAbs() || len(l.URL) > 2048 {
			return errorf(quire.CodeInvalid, "%s.location.url: must be an absolute URL", field)
		}
		if l.DisplayContext != "" && !slices.Contains(insightDisplayContexts, l.DisplayContext) {
			return errorf(quire.CodeInvalid, "%s.location.displayContext: must be site, server, embed or mcp", field)
		}
		for name, v := range map[string]*string{"siteSection": l.SiteSection, "siteSpace": l.SiteSpace, "space": l.Space, "page": l.Page} {
			if v != nil && len(*v) > 256 {
				return errorf(quire.CodeInvalid, "%s.location.%s: must be at most 256 characters", field, name)
			}
		}
		if (e.Type == "search_type_query" || e.Type == "ask_question") && e.Query == "" {
			return errorf(quire.CodeInvalid, "%s.query: is required", field)
		}
		if err := quire.CheckLen(field+".query", e.Query, 0, 1000); err != nil {
			return err
		}
	}
	return nil
}

// trackSiteEvents answers POST SITE/insights/events: the events are
// counted, as the published site counts its own, and written at once.
func (s *Server) trackSiteEvents(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	var body trackEventsBody
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	now := s.db.Now().UTC()
	counts := map[store.InsightKey]int64{}
	for i, e := range body.Events {
		at := now
		if e.Timestamp != nil {
			if d := e.Timestamp.Sub(now); d > trackedEventSkew || d < -trackedEventSkew {
				return errorf(quire.CodeInvalid, "events[%d].timestamp: must be within 5 minutes of now", i)
			}
			at = e.Timestamp.UTC()
		}
		l := e.Location
		k := store.InsightKey{SiteID: site.ID, Hour: at.Truncate(time.Hour).Unix(), EventType: e.Type,
			DisplayContext: cmp.Or(l.DisplayContext, "site"), SiteSection: derefOr(l.SiteSection), SiteSpace: derefOr(l.SiteSpace),
			Space: derefOr(l.Space), Page: derefOr(l.Page), Authenticated: len(e.Session.VisitorAuthClaims) > 0}
		if k.Page == "" && (e.Type == "page_view" || e.Type == "search_open_result") {
			if u, err := url.Parse(l.URL); err == nil {
				k.URLPath = truncateRunes(u.EscapedPath(), 512)
			}
		}
		if e.Type == "search_type_query" {
			k.Query = truncateRunes(strings.ToLower(strings.Join(strings.Fields(e.Query), " ")), 128)
		}
		counts[k]++
	}
	if err := s.db.AddInsightCounts(r.Context(), counts); err != nil {
		return err
	}
	return noContent(w)
}

func truncateRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
