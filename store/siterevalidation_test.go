package store_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestRevalidationCallsJoin: changes queued while a call waits join it,
// each tag once, up to MaxRevalidationTags; then, and while it is being
// made or retried, they make a call of their own.
func TestRevalidationCallsJoin(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	b, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	site, err := db.CreateSite(ctx, b.Organization.ID, store.NewSite{Type: quire.SiteBasic, Title: "Docs", Visibility: quire.VisibilityPublic})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetSiteRevalidation(ctx, site.ID, "https://renderer.example/~gitbook/revalidate", []byte("sealed")); err != nil {
		t.Fatal(err)
	}
	pending := func() int {
		t.Helper()
		r, err := db.SiteRevalidation(ctx, site.ID)
		if err != nil {
			t.Fatal(err)
		}
		return r.Pending
	}
	for i := range store.MaxRevalidationTags {
		if err := db.QueueRevalidation(ctx, site.ID, fmt.Sprintf("space:%d", i), "site:"+site.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := pending(); n != 2 { // 64 space tags and the site's: 65
		t.Fatalf("%d calls, want 2", n)
	}
	c, err := db.ClaimRevalidationCall(ctx, time.Minute)
	if err != nil || c == nil {
		t.Fatalf("claim: %v, %v", c, err)
	}
	if len(c.Tags) != store.MaxRevalidationTags || c.Tags[0] != "space:0" || c.Tags[1] != "site:"+site.ID || c.Tags[63] != "space:62" {
		t.Errorf("first call's tags %v", c.Tags)
	}
	// The first call is being made: a change joins the second.
	if err := db.QueueRevalidation(ctx, site.ID, "space:new"); err != nil {
		t.Fatal(err)
	}
	if n := pending(); n != 2 {
		t.Fatalf("%d calls, want 2", n)
	}
	// The first fails and waits to be retried: a change does not join it.
	if err := db.FinishRevalidationCall(ctx, c, store.RevalidationAttempt{Status: 500, Error: "down", NextAttemptAt: db.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	second, err := db.ClaimRevalidationCall(ctx, time.Minute)
	if err != nil || second == nil || !slices.Equal(second.Tags, []string{"space:63", "site:" + site.ID, "space:new"}) {
		t.Fatalf("second call: %+v, %v", second, err)
	}
	if err := db.FinishRevalidationCall(ctx, second, store.RevalidationAttempt{Done: true, Status: 200}); err != nil {
		t.Fatal(err)
	}
	if err := db.QueueRevalidation(ctx, site.ID, "space:later"); err != nil {
		t.Fatal(err)
	}
	if n := pending(); n != 2 { // the one retried, the one new
		t.Fatalf("%d calls, want 2", n)
	}
	r, err := db.SiteRevalidation(ctx, site.ID)
	if err != nil || r.LastStatus != 200 || r.LastError != "" || r.LastAttemptAt.IsZero() {
		t.Errorf("outcome %+v, %v", r, err)
	}
}
