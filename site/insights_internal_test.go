package site

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// Insights are counted in memory and written in one batch: nothing reaches
// the database before the flush, which adds to what is there; HEAD reads
// are not counted; a search is kept folded; a flood of distinct keys is
// bounded; counts older than kept are deleted.
func TestInsightsBatched(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	st, err := db.CreateSite(ctx, boot.Organization.ID, store.NewSite{Type: quire.SiteBasic, Title: "Docs", Visibility: quire.VisibilityPublic})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC)
	s := New(db, Config{})
	s.now = func() time.Time { return now }
	rq := &request{site: st, rest: "guide/nowhere", visitor: &Visitor{}}
	get, head := httptest.NewRequest("GET", "/", nil), httptest.NewRequest("HEAD", "/", nil)
	for range 3 {
		s.countEvent(get, rq, "page_view", "site", location{}, "", "")
	}
	s.countEvent(head, rq, "page_view", "site", location{}, "", "")
	s.countEvent(get, rq, "search_type_query", "site", location{}, "", "  Install   GUIDE ")
	hour := now.Truncate(time.Hour)
	read := func() []store.InsightCount {
		t.Helper()
		counts, err := db.InsightCounts(ctx, st.ID, hour, hour.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return counts
	}
	if got := read(); len(got) != 0 {
		t.Fatalf("written before the flush: %+v", got)
	}
	old := hour.Add(-3 * 365 * 24 * time.Hour)
	if err := db.AddInsightCounts(ctx, map[store.InsightKey]int64{{SiteID: st.ID, Hour: old.Unix(), EventType: "page_view", DisplayContext: "site"}: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.FlushInsights(ctx); err != nil {
		t.Fatal(err)
	}
	s.countEvent(get, rq, "page_view", "site", location{}, "", "")
	if err := s.FlushInsights(ctx); err != nil {
		t.Fatal(err)
	}
	if kept, err := db.InsightCounts(ctx, st.ID, old, old.Add(time.Hour)); err != nil || len(kept) != 0 {
		t.Errorf("counts older than kept: %+v, %v", kept, err)
	}
	got := map[string]store.InsightCount{}
	for _, c := range read() {
		got[c.EventType] = c
	}
	if v := got["page_view"]; v.Events != 4 || v.URLPath != "/guide/nowhere" || v.Page != "" || v.Hour != hour.Unix() {
		t.Errorf("page views %+v", v)
	}
	if q := got["search_type_query"]; q.Events != 1 || q.Query != "install guide" || q.URLPath != "" {
		t.Errorf("search %+v", q)
	}

	for i := range maxInsightKeys + 10 {
		s.countEvent(get, &request{site: st, rest: "p" + string(rune('a'+i%26)) + time.Duration(i).String(), visitor: &Visitor{}}, "page_view", "site", location{}, "", "")
	}
	s.insights.mu.Lock()
	held := len(s.insights.counts)
	s.insights.timer.Stop() // the test is over: no write after it
	s.insights.mu.Unlock()
	if held != maxInsightKeys {
		t.Errorf("%d distinct counts held, want at most %d", held, maxInsightKeys)
	}
}
