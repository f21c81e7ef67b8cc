package site

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// Requests at once for the former paths of one revision share one walk:
// every one of them gets the same map. A walk that fails is not kept.
func TestFormerPathsWalkOncePerRevision(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"start", "intro"} {
		cr, err := db.CreateChangeRequest(ctx, sp.ID, "", boot.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.EditChangeRequest(ctx, sp.ID, cr.ID, boot.User.ID, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
			if tr.Pages["a"] == nil {
				tr.Pages["a"] = &content.Page{ID: "a", Title: "A", Kind: content.KindDocument}
				tr.Root = append(tr.Root, "a")
			}
			tr.Pages["a"].Slug = slug
			return tr, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.MergeChangeRequest(ctx, sp.ID, cr.ID, boot.User.ID); err != nil {
			t.Fatal(err)
		}
	}
	if sp, err = db.Space(ctx, sp.ID); err != nil {
		t.Fatal(err)
	}
	s := New(db, Config{})
	v, err := s.cfg.Reader.Open(ctx, sp, sp.RevisionID, nil)
	if err != nil {
		t.Fatal(err)
	}

	got := make([]map[string]string, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = s.formerPaths(ctx, v) })
	}
	wg.Wait()
	for i, m := range got {
		if m["start"] != "a" || len(m) != 1 {
			t.Fatalf("request %d: former paths %v, want start → a", i, m)
		}
		if reflect.ValueOf(m).UnsafePointer() != reflect.ValueOf(got[0]).UnsafePointer() {
			t.Errorf("request %d walked apart from request 0", i)
		}
	}

	// A revision whose parent cannot be read: nothing is kept, the next
	// request walks again.
	broken := *v
	broken.Revision = &store.Revision{ID: "broken", SpaceID: sp.ID, Parents: []string{"missing"}, Root: v.Revision.Root}
	first := s.formerPaths(ctx, &broken)
	if _, kept := s.moved.Get(sp.ID + "\x00broken"); kept || len(first) != 0 {
		t.Errorf("a failed walk was kept (%v) or found something: %v", kept, first)
	}
	if again := s.formerPaths(ctx, &broken); reflect.ValueOf(again).UnsafePointer() == reflect.ValueOf(first).UnsafePointer() {
		t.Error("a failed walk was not tried again")
	}
}
