package store_test

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestInsightCounts: batches add to the stored counts of their keys
// without announcing a change (caches keep), reads keep to the range and
// types asked, counts of a deleted site are dropped, and deleting a site
// deletes its counts.
func TestInsightCounts(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	b, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	site, err := db.CreateSite(ctx, b.Organization.ID, store.NewSite{Type: quire.SiteBasic, Title: "Docs", Visibility: quire.VisibilityPublic})
	if err != nil {
		t.Fatal(err)
	}
	hour := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	view := store.InsightKey{SiteID: site.ID, Hour: hour.Unix(), EventType: "page_view", DisplayContext: "site", Space: "s", Page: "p"}
	search := store.InsightKey{SiteID: site.ID, Hour: hour.Add(time.Hour).Unix(), EventType: "search_type_query", DisplayContext: "site", Query: "install"}
	gone := store.InsightKey{SiteID: "no-such-site", Hour: hour.Unix(), EventType: "page_view", DisplayContext: "site"}
	commits := db.Commits()
	if err := db.AddInsightCounts(ctx, map[store.InsightKey]int64{view: 2, search: 1, gone: 5}); err != nil {
		t.Fatal(err)
	}
	if err := db.AddInsightCounts(ctx, map[store.InsightKey]int64{view: 3}); err != nil {
		t.Fatal(err)
	}
	if db.Commits() != commits {
		t.Error("writing counts announced a change")
	}
	all, err := db.InsightCounts(ctx, site.ID, hour, hour.Add(2*time.Hour))
	if err != nil || len(all) != 2 {
		t.Fatalf("counts %+v, %v", all, err)
	}
	views, err := db.InsightCounts(ctx, site.ID, hour, hour.Add(2*time.Hour), "page_view")
	if err != nil || len(views) != 1 || views[0].Events != 5 || views[0].InsightKey != view {
		t.Errorf("page views %+v, %v", views, err)
	}
	if first, _ := db.InsightCounts(ctx, site.ID, hour, hour.Add(time.Hour)); len(first) != 1 || first[0].EventType != "page_view" {
		t.Errorf("first hour %+v", first)
	}
	if other, _ := db.InsightCounts(ctx, "no-such-site", hour, hour.Add(time.Hour)); len(other) != 0 {
		t.Errorf("a deleted site's counts were kept: %+v", other)
	}
	if err := db.DeleteSite(ctx, site.ID); err != nil {
		t.Fatal(err)
	}
	if left, _ := db.InsightCounts(ctx, site.ID, hour, hour.Add(2*time.Hour)); len(left) != 0 {
		t.Errorf("counts of a deleted site: %+v", left)
	}
}
