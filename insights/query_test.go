package insights

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
)

// TestCheck: what an aggregation may ask, and the message naming the field
// of what it may not.
func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct{ query, err string }{
		{`{"range":"last30Days"}`, ""},
		{`{"range":{"from":"2026-03-01T10:30:00Z","to":"2026-03-02T00:00:00Z"}}`, ""},
		{`{}`, "range: is required"},
		{`{"range":"lastWeek"}`, "range: must be lastYear"},
		{`{"range":{"from":"2026-03-02T00:00:00Z","to":"2026-03-01T00:00:00Z"}}`, "range.to: must be after range.from"},
		{`{"range":{"from":"2026-03-02T00:00:00Z"}}`, "range: must be lastYear"},
		{`{"range":"last7Days","select":[{"column":"visitorsCount"}]}`, "select[0].column: visitorsCount is not counted"},
		{`{"range":"last7Days","select":[{"column":"referrer"}]}`, "select[0].column: referrer is not counted: Quire counts events by"},
		{`{"range":"last7Days","select":[{}]}`, "select[0].column: is required"},
		{`{"range":"last7Days","select":[{"column":"page"}]}`, "select[0]: page must also be in groupBy"},
		{`{"range":"last7Days","groupBy":[{"column":"eventsCount"}]}`, "groupBy[0].column: eventsCount is a count"},
		{`{"range":"last7Days","groupBy":[{"column":"datetime","interval":"year"}]}`, "groupBy[0].interval: must be hour, day, week or month"},
		{`{"range":"last7Days","where":[{"column":"eventsCount","values":[1]}]}`, "where[0].column: filter on the columns counted by"},
		{`{"range":"last7Days","where":[{"column":"page","operator":"lessThan","values":[1]}]}`, "where[0].operator: lessThan applies to datetime"},
		{`{"range":"last7Days","where":[{"column":"hourOfDay","operator":"lessThan","values":[1,2]}]}`, "where[0].values: lessThan takes one value"},
		{`{"range":"last7Days","where":[{"column":"hourOfDay","operator":"like","values":[1]}]}`, "where[0].operator: must be in, notIn"},
		{`{"range":"last7Days","order":{"by":{"column":"eventsCount"},"direction":"up"}}`, "order.direction: must be asc or desc"},
		{`{"range":"last7Days","order":{"by":{"column":"page"},"direction":"asc"}}`, "order.by: page must also be in groupBy"},
		{`{"range":"last7Days","limit":0}`, "limit: must be from 1 to 1000"},
		{`{"range":"last7Days","limit":1001}`, "limit: must be from 1 to 1000"},
	}
	now := time.Date(2026, 3, 9, 12, 30, 0, 0, time.UTC)
	for _, tt := range tests {
		var q Query
		if err := json.Unmarshal([]byte(tt.query), &q); err != nil {
			t.Fatal(err)
		}
		err := q.Check(now)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("Check(%s) = %v", tt.query, err)
		case tt.err != "" && (quire.ErrorCode(err) != quire.CodeInvalid || !strings.Contains(quire.ErrorMessage(err), tt.err)):
			t.Errorf("Check(%s) = %v, want invalid: %s…", tt.query, err, tt.err)
		}
	}
}

// TestSpan: a preset range ends with the current hour; a custom one starts
// at the hour of its from.
func TestSpan(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 9, 12, 30, 0, 0, time.UTC)
	tests := []struct {
		rng      string
		from, to time.Time
	}{
		{`"last24Hours"`, time.Date(2026, 3, 8, 13, 0, 0, 0, time.UTC), time.Date(2026, 3, 9, 13, 0, 0, 0, time.UTC)},
		{`"last7Days"`, time.Date(2026, 3, 2, 13, 0, 0, 0, time.UTC), time.Date(2026, 3, 9, 13, 0, 0, 0, time.UTC)},
		{`{"from":"2026-03-01T10:30:00+01:00","to":"2026-03-02T00:00:00Z"}`, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		q := Query{Range: json.RawMessage(tt.rng)}
		if err := q.Check(now); err != nil {
			t.Fatal(err)
		}
		if from, to := q.Span(); !from.Equal(tt.from) || !to.Equal(tt.to) {
			t.Errorf("Span of %s = %v, %v; want %v, %v", tt.rng, from, to, tt.from, tt.to)
		}
	}
}
