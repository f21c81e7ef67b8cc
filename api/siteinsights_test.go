package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

type insightsOut struct {
	Columns []struct {
		Column string `json:"column"`
		Values []any  `json:"values"`
	} `json:"columns"`
}

// rows turns columns into rows of "v1|v2|…" strings.
func (o insightsOut) rows() []string {
	if len(o.Columns) == 0 {
		return nil
	}
	out := make([]string, len(o.Columns[0].Values))
	for i := range out {
		var parts []string
		for _, c := range o.Columns {
			if _, ok := c.Values[i].(map[string]any); ok {
				parts = append(parts, "page")
			} else {
				parts = append(parts, fmt.Sprint(c.Values[i]))
			}
		}
		out[i] = strings.Join(parts, "|")
	}
	return out
}

// TestSiteInsights: the published site counts page views (and pages not
// found), searches and questions, written in a batch; the aggregation
// answers them grouped, filtered and ordered, in the reference's shapes;
// events tracked through the API count too; what Quire does not count is
// refused naming the column.
func TestSiteInsights(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	siteID, _, _ := publishedSearchSite(t, e)
	base := "/sites/" + siteID + "/"
	for _, p := range []string{"", "installing", "installing", "nowhere", "~search?q=" + url.QueryEscape("Installer  Root"), "~ask?q=installer"} {
		e.visit(t, base+p)
	}
	if err := e.sites.FlushInsights(t.Context()); err != nil {
		t.Fatal(err)
	}
	agg := sitePath(e.env, siteID, "/insights/events/aggregate")
	var out insightsOut
	siteRefCall(t, e.env, e.admin.token, "POST", agg, map[string]any{"range": "last24Hours", "groupBy": []any{map[string]any{"column": "eventType"}},
		"order": map[string]any{"by": map[string]any{"column": "eventType"}, "direction": "asc"}}, http.StatusOK).Decode(t, &out)
	if got := strings.Join(out.rows(), ","); got != "ask_question|1,page_view|4,search_type_query|1" {
		t.Errorf("by event type: %s", got)
	}
	// Pages not found, by path; searches by their text.
	siteRefCall(t, e.env, e.admin.token, "POST", agg, map[string]any{"range": "last7Days",
		"select":  []any{map[string]any{"column": "urlPath"}, map[string]any{"column": "eventsCount"}},
		"groupBy": []any{map[string]any{"column": "urlPath"}},
		"where": []any{map[string]any{"column": "eventType", "values": []string{"page_view"}},
			map[string]any{"column": "page", "values": []any{nil}}}}, http.StatusOK).Decode(t, &out)
	if got := strings.Join(out.rows(), ","); got != "/nowhere|1" {
		t.Errorf("not found: %s", got)
	}
	siteRefCall(t, e.env, e.admin.token, "POST", agg, map[string]any{"range": "last30Days",
		"groupBy": []any{map[string]any{"column": "eventSearchQuery"}},
		"where":   []any{map[string]any{"column": "eventType", "values": []string{"search_type_query"}}}}, http.StatusOK).Decode(t, &out)
	if got := strings.Join(out.rows(), ","); got != "installer root|1" {
		t.Errorf("searches: %s", got)
	}
	// By day, and in total.
	siteRefCall(t, e.env, e.admin.token, "POST", agg, map[string]any{"range": "lastYear",
		"groupBy": []any{map[string]any{"column": "datetime", "interval": "day"}, map[string]any{"column": "page"}},
		"where":   []any{map[string]any{"column": "eventType", "operator": "notIn", "values": []string{"search_type_query", "ask_question"}}}}, http.StatusOK).Decode(t, &out)
	if len(out.Columns) != 3 || out.Columns[0].Column != "datetime" || len(out.Columns[0].Values) < 2 {
		t.Errorf("by day and page: %+v", out)
	}
	siteRefCall(t, e.env, e.admin.token, "POST", agg, map[string]any{"range": map[string]any{"from": time.Now().Add(-time.Hour).Format(time.RFC3339), "to": time.Now().Add(time.Hour).Format(time.RFC3339)},
		"select": []any{map[string]any{"column": "eventsCount"}}}, http.StatusOK).Decode(t, &out)
	if got := strings.Join(out.rows(), ","); got != "6" {
		t.Errorf("total: %s", got)
	}

	// Events tracked through the API count as the site's own.
	track := sitePath(e.env, siteID, "/insights/events")
	session := map[string]any{"visitorId": "v", "sessionId": "s", "cookies": map[string]any{}, "userAgent": "x", "language": nil, "referrer": nil,
		"visitorAuthClaims": map[string]any{"plan": "pro"}}
	loc := map[string]any{"url": "https://docs.example.com/x", "siteSection": nil, "siteSpace": nil, "siteShareKey": nil, "page": nil, "space": nil, "revision": nil}
	siteRefCall(t, e.env, e.admin.token, "POST", track, map[string]any{"events": []any{
		map[string]any{"type": "ask_question", "query": "why", "session": session, "location": loc},
		map[string]any{"type": "link_click", "session": session, "location": loc},
	}}, http.StatusNoContent)
	siteRefCall(t, e.env, e.admin.token, "POST", agg, map[string]any{"range": "last24Hours", "groupBy": []any{map[string]any{"column": "visitorAuthenticated"}}}, http.StatusOK).Decode(t, &out)
	if got := strings.Join(out.rows(), ","); got != "false|6,true|2" {
		t.Errorf("by authentication: %s", got)
	}
	var segs listOut[struct {
		Title  string
		Events int
	}]
	siteRefCall(t, e.env, e.admin.token, "GET", sitePath(e.env, siteID, "/insights/visitor-segments"), nil, http.StatusOK).Decode(t, &segs)
	if len(segs.Items) != 2 || segs.Items[0].Events != 2 || segs.Items[1].Events != 6 {
		t.Errorf("segments %+v", segs.Items)
	}
	var stats struct {
		Total       int
		WeeklyPulse []int
		Feedback    struct{ Unrated int }
	}
	siteRefCall(t, e.env, e.admin.token, "GET", sitePath(e.env, siteID, "/question-stats"), nil, http.StatusOK).Decode(t, &stats)
	if stats.Total != 2 || stats.Feedback.Unrated != 2 || len(stats.WeeklyPulse) != 13 || stats.WeeklyPulse[12] != 2 {
		t.Errorf("question stats %+v", stats)
	}
	siteRefCall(t, e.env, e.admin.token, "GET", sitePath(e.env, siteID, "/question-stats?from="+url.QueryEscape(time.Now().Add(2*time.Hour).Format(time.RFC3339))+"&to="+url.QueryEscape(time.Now().Add(3*time.Hour).Format(time.RFC3339))), nil, http.StatusOK).Decode(t, &stats)
	if stats.Total != 0 {
		t.Errorf("question stats of a later range %+v", stats)
	}

	// What is not counted, and bad bodies, are refused naming the field.
	for _, c := range []struct {
		path string
		body any
		want string
	}{
		{agg, map[string]any{}, "range"},
		{agg, map[string]any{"range": "lastDecade"}, "range"},
		{agg, map[string]any{"range": "last7Days", "select": []any{map[string]any{"column": "visitorsCount"}}}, "visitorsCount"},
		{agg, map[string]any{"range": "last7Days", "groupBy": []any{map[string]any{"column": "referrer"}}}, "groupBy[0].column"},
		{agg, map[string]any{"range": "last7Days", "select": []any{map[string]any{"column": "page"}}}, "select[0]"},
		{agg, map[string]any{"range": "last7Days", "limit": 0}, "limit"},
		{agg, map[string]any{"range": "last7Days", "where": []any{map[string]any{"column": "page", "operator": "lessThan", "values": []any{nil}}}}, "where[0].operator"},
		{track, map[string]any{}, "events"},
		{track, map[string]any{"events": []any{map[string]any{"type": "teleport", "session": session, "location": loc}}}, "events[0].type"},
		{track, map[string]any{"events": []any{map[string]any{"type": "page_view", "session": session}}}, "events[0].location"},
		{track, map[string]any{"events": []any{map[string]any{"type": "page_view", "session": session, "location": loc, "timestamp": time.Now().Add(-time.Hour).Format(time.RFC3339)}}}, "events[0].timestamp"},
	} {
		e.call(t, e.admin.token, "POST", c.path, c.body).wantError(t, http.StatusBadRequest, c.want)
	}
	e.call(t, e.admin.token, "GET", sitePath(e.env, siteID, "/question-stats?topic=t1"), nil).wantError(t, http.StatusBadRequest, "topic")

	// Readers of the organization read insights; outsiders see no site.
	reader := e.addUser(t, "read", "Rita Reader")
	siteRefCall(t, e.env, reader.token, "POST", agg, map[string]any{"range": "last7Days"}, http.StatusOK)
	out2 := e.outsider(t)
	for _, c := range []struct{ method, path string }{{"POST", agg}, {"POST", track}, {"GET", sitePath(e.env, siteID, "/insights/visitor-segments")}, {"GET", sitePath(e.env, siteID, "/question-stats")}} {
		e.call(t, out2.token, c.method, c.path, map[string]any{"range": "last7Days", "events": []any{}}).wantError(t, http.StatusNotFound)
	}
}
