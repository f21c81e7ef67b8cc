package insights

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// hour is the Unix time of an hour of 2026 (a Monday, 2 March, at 0:00 UTC,
// plus h hours).
func hour(h int) int64 {
	return time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC).Add(time.Duration(h) * time.Hour).Unix()
}

// counts are the counts of a site: page views and searches over two days.
var counts = []Count{
	{Key{Hour: hour(1), EventType: "page_view", DisplayContext: "site", Space: "sp", Page: "a"}, 3},
	{Key{Hour: hour(2), EventType: "page_view", DisplayContext: "site", Space: "sp", Page: "b", Authenticated: true}, 2},
	{Key{Hour: hour(2), EventType: "page_view", DisplayContext: "embed", Space: "sp", URLPath: "/gone"}, 1},
	{Key{Hour: hour(25), EventType: "search_type_query", DisplayContext: "site", Query: "install"}, 4},
	{Key{Hour: hour(26), EventType: "page_view", DisplayContext: "site", Space: "sp", Page: "a", SiteSection: "docs"}, 5},
}

// query is q, as JSON, checked at now.
func query(t *testing.T, q string) *Query {
	t.Helper()
	var out Query
	if err := json.Unmarshal([]byte(q), &out); err != nil {
		t.Fatal(err)
	}
	if err := out.Check(time.Unix(hour(30), 0)); err != nil {
		t.Fatalf("Check(%s): %v", q, err)
	}
	return &out
}

func day(d int) time.Time { return time.Date(2026, 3, 2+d, 0, 0, 0, 0, time.UTC) }

func ptr(s string) *string { return &s }

// TestAggregate: the counts that pass the filters, summed by the columns
// grouped by, ordered and cut as asked, as the columns selected.
func TestAggregate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, query string
		want        []TableColumn
	}{
		{"nothing grouped: the sum", `{"range":"last7Days"}`,
			[]TableColumn{{"eventsCount", []any{int64(15)}}}},
		{"nothing found: a count of 0", `{"range":"last7Days","where":[{"column":"eventType","values":["ask_question"]}]}`,
			[]TableColumn{{"eventsCount", []any{int64(0)}}}},
		{"grouped by day: in time", `{"range":"last7Days","groupBy":[{"column":"datetime"}]}`,
			[]TableColumn{{"datetime", []any{day(0), day(1)}}, {"eventsCount", []any{int64(6), int64(9)}}}},
		{"grouped by type: most events first", `{"range":"last7Days","groupBy":[{"column":"eventType"}]}`,
			[]TableColumn{{"eventType", []any{"page_view", "search_type_query"}}, {"eventsCount", []any{int64(11), int64(4)}}}},
		{"pages: null when not found", `{"range":"last7Days","groupBy":[{"column":"page"}],"where":[{"column":"eventType","values":["page_view"]}],"order":{"by":{"column":"page"},"direction":"asc"}}`,
			[]TableColumn{{"page", []any{nil, PageValue{ptr("a"), "sp"}, PageValue{ptr("b"), "sp"}}}, {"eventsCount", []any{int64(1), int64(8), int64(2)}}}},
		{"filter on a page", `{"range":"last7Days","select":[{"column":"eventsCount"}],"where":[{"column":"page","values":[{"page":"a","space":"sp"}]}]}`,
			[]TableColumn{{"eventsCount", []any{int64(8)}}}},
		{"notIn", `{"range":"last7Days","where":[{"column":"displayContext","operator":"notIn","values":["site"]}]}`,
			[]TableColumn{{"eventsCount", []any{int64(1)}}}},
		{"compared by hour of day", `{"range":"last7Days","where":[{"column":"hourOfDay","operator":"greaterThanOrEqual","values":[2]}]}`,
			[]TableColumn{{"eventsCount", []any{int64(3 + 5)}}}},
		{"before a time", `{"range":"last7Days","where":[{"column":"datetime","operator":"lessThan","values":["2026-03-03T00:00:00Z"]}]}`,
			[]TableColumn{{"eventsCount", []any{int64(6)}}}},
		{"a value of another kind matches nothing", `{"range":"last7Days","where":[{"column":"hourOfDay","values":["two"]}]}`,
			[]TableColumn{{"eventsCount", []any{int64(0)}}}},
		{"null section, by week and authentication", `{"range":"last7Days","groupBy":[{"column":"siteSection"},{"column":"datetime","interval":"week"},{"column":"visitorAuthenticated"}],"order":{"by":{"column":"eventsCount"},"direction":"asc"},"limit":2}`,
			[]TableColumn{{"siteSection", []any{nil, "docs"}}, {"datetime", []any{day(0), day(0)}}, {"visitorAuthenticated", []any{true, false}}, {"eventsCount", []any{int64(2), int64(5)}}}},
		{"day of week and search text", `{"range":"last7Days","select":[{"column":"eventSearchQuery"},{"column":"dayOfWeek"}],"groupBy":[{"column":"dayOfWeek"},{"column":"eventSearchQuery"}],"where":[{"column":"eventType","values":["search_type_query"]}]}`,
			[]TableColumn{{"eventSearchQuery", []any{"install"}}, {"dayOfWeek", []any{int64(2)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Aggregate(query(t, tt.query), slices.Values(counts))
			if diff := cmp.Diff(Table{Columns: tt.want}, got); diff != "" {
				t.Errorf("Aggregate(%s) (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

// TestAggregateLimit: at most MaxResults rows unless a limit says fewer.
func TestAggregateLimit(t *testing.T) {
	t.Parallel()
	var many []Count
	for i := range MaxResults + 5 {
		many = append(many, Count{Key{Hour: hour(0), URLPath: "/p" + string(rune('a'+i%26)) + string(rune('a'+i/26))}, 1})
	}
	got := Aggregate(query(t, `{"range":"last7Days","groupBy":[{"column":"urlPath"}]}`), slices.Values(many))
	if n := len(got.Columns[0].Values); n != MaxResults {
		t.Errorf("rows = %d, want %d", n, MaxResults)
	}
}
