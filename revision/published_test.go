package revision

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

func TestPublishedCache(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	site, err := db.CreateSite(ctx, boot.Organization.ID, store.NewSite{Type: quire.SiteBasic, Title: "Docs",
		Visibility: quire.VisibilityPublic, NewSpace: &store.NewSpace{Title: "Docs"}})
	if err != nil {
		t.Fatal(err)
	}
	r := New(db, "")
	clock := time.Unix(1000, 0)
	answer := []byte(`{"object":"published-content-site"}`)
	r.now = func() time.Time { return clock }

	commits := db.Commits()
	got, err := r.PublishedSite(ctx, site.ID, commits)
	if err != nil || got.Title != "Docs" {
		t.Fatalf("PublishedSite = %+v, %v", got, err)
	}
	r.KeepPublishedAnswer("key", answer)
	got.Title = "changed by the caller"
	st, err := r.PublishedStructure(ctx, got, commits)
	if err != nil || len(st.AllSiteSpaces()) != 1 {
		t.Fatalf("PublishedStructure = %+v, %v", st, err)
	}

	// A write through another server is not seen until the entries age out.
	title := "Renamed"
	if _, err := db.UpdateSite(ctx, site.ID, store.SiteUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	if got, err := r.PublishedSite(ctx, site.ID, commits); err != nil || got.Title != "Docs" {
		t.Errorf("fresh cached site = %+v, %v; want the cached copy, unchanged by its caller", got, err)
	}
	if again, _ := r.PublishedStructure(ctx, site, commits); again != st {
		t.Error("a fresh structure was read anew")
	}
	if b, ok := r.PublishedAnswer("key"); !ok || string(b) != string(answer) {
		t.Errorf("fresh answer = %q, %v; want it kept", b, ok)
	}
	clock = clock.Add(PublishedTTL)
	if got, err := r.PublishedSite(ctx, site.ID, commits); err != nil || got.Title != title {
		t.Errorf("stale cached site = %+v, %v; want it read anew", got, err)
	}
	if again, _ := r.PublishedStructure(ctx, site, commits); again == st {
		t.Error("a stale structure was kept")
	}
	if b, ok := r.PublishedAnswer("key"); ok {
		t.Errorf("stale answer %q was kept", b)
	}
}
