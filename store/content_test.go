package store_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// contentSpace opens a fresh store with a space and a change request in it.
func contentSpace(t *testing.T) (db *store.DB, spaceID, userID string, c *quire.ChangeRequest) {
	t.Helper()
	db, _, _, _ = openRaw(t)
	sp, userID := docsSpace(t, db)
	c, err := db.CreateChangeRequest(t.Context(), sp.ID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	return db, sp.ID, userID, c
}

// docsSpace makes an organization with a space, "Docs", in db, and returns
// the space and the organization's first user (its admin).
func docsSpace(tb testing.TB, db *store.DB) (sp *quire.Space, userID string) {
	tb.Helper()
	boot, err := db.InitOrganization(tb.Context(), "Org", "ada@example.com", "Ada")
	if err != nil {
		tb.Fatal(err)
	}
	if sp, err = db.CreateSpace(tb.Context(), boot.Organization.ID, store.NewSpace{Title: "Docs"}); err != nil {
		tb.Fatal(err)
	}
	return sp, boot.User.ID
}

// addPages returns an edit adding pages with the given ids and bodies at the top level.
func addPages(bodies map[string]string) store.EditFunc {
	return func(now time.Time, t *content.Tree) (*content.Tree, error) {
		for _, id := range slices.Sorted(maps.Keys(bodies)) {
			t.Pages[id] = &content.Page{ID: id, Title: "T " + id, Slug: id, Kind: content.KindDocument, Markdown: bodies[id]}
			t.Root = append(t.Root, id)
		}
		return t, nil
	}
}

func TestEditChangeRequestStoresRevisions(t *testing.T) {
	db, spaceID, userID, c := contentSpace(t)
	ctx := t.Context()
	c1, err := db.EditChangeRequest(ctx, spaceID, c.ID, userID, addPages(map[string]string{"a": "Alpha\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if c1.RevisionID == c.RevisionID {
		t.Fatal("the request's revision did not move")
	}
	rev, tree, err := db.RevisionTree(ctx, spaceID, c1.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Parents) != 1 || rev.Parents[0] != c.RevisionID || rev.Type != store.RevisionEdits || rev.CreatedBy != userID {
		t.Errorf("revision %+v", rev)
	}
	if tree.Pages["a"].Markdown != "Alpha\n" || len(tree.Root) != 1 {
		t.Errorf("tree %+v", tree)
	}
	// The earlier revision is unchanged: revisions are immutable.
	_, old, err := db.RevisionTree(ctx, spaceID, c.RevisionID)
	if err != nil || len(old.Pages) != 0 {
		t.Errorf("first revision has %d pages, %v", len(old.Pages), err)
	}
	// A revision is found only in its own space.
	if _, err := db.Revision(ctx, "other-space", c1.RevisionID); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Errorf("revision of another space: %v", err)
	}
}

func TestEditChangeRequestFailureChangesNothing(t *testing.T) {
	db, spaceID, userID, c := contentSpace(t)
	ctx := t.Context()
	_, objectsBefore, _ := db.ContentStats(ctx)
	boom := errors.New("boom")
	_, err := db.EditChangeRequest(ctx, spaceID, c.ID, userID, func(now time.Time, t *content.Tree) (*content.Tree, error) {
		return nil, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	after, err := db.ChangeRequest(ctx, spaceID, c.ID)
	if err != nil || after.RevisionID != c.RevisionID {
		t.Errorf("revision moved to %s after a failed edit (%v)", after.RevisionID, err)
	}
	if _, objectsAfter, _ := db.ContentStats(ctx); objectsAfter != objectsBefore {
		t.Errorf("objects grew from %d to %d bytes", objectsBefore, objectsAfter)
	}
}

func TestSameContentIsStoredOnce(t *testing.T) {
	db, spaceID, userID, c := contentSpace(t)
	ctx := t.Context()
	bodies := map[string]string{}
	for i := range 100 {
		bodies[fmt.Sprintf("p%03d", i)] = fmt.Sprintf("Body %d with enough words to matter for the byte count.\n", i)
	}
	if _, err := db.EditChangeRequest(ctx, spaceID, c.ID, userID, addPages(bodies)); err != nil {
		t.Fatal(err)
	}
	n1, b1, _ := db.ContentStats(ctx)
	// A second request adding the very same pages stores nothing new.
	c2, err := db.CreateChangeRequest(ctx, spaceID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(ctx, spaceID, c2.ID, userID, addPages(bodies)); err != nil {
		t.Fatal(err)
	}
	n2, b2, _ := db.ContentStats(ctx)
	if n2 != n1 {
		t.Errorf("adding the same 100 pages again stored %d objects, %d bytes", n2-n1, b2-b1)
	}
	// Editing one page stores that page, not the space.
	if _, err := db.EditChangeRequest(ctx, spaceID, c2.ID, userID, func(now time.Time, t *content.Tree) (*content.Tree, error) {
		t.Pages["p050"].Markdown = "Changed.\n"
		return t, nil
	}); err != nil {
		t.Fatal(err)
	}
	n3, b3, _ := db.ContentStats(ctx)
	if n3-n2 > 4 || b3-b2 > 10_000 {
		t.Errorf("editing one page of 100 stored %d objects, %d bytes", n3-n2, b3-b2)
	}
}

func TestMergeAndUpdate(t *testing.T) {
	db, spaceID, userID, a := contentSpace(t)
	ctx := t.Context()
	b, err := db.CreateChangeRequest(ctx, spaceID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(ctx, spaceID, a.ID, userID, addPages(map[string]string{"a": "one\ntwo\nthree\n"})); err != nil {
		t.Fatal(err)
	}
	merged, err := db.MergeChangeRequest(ctx, spaceID, a.ID, userID)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.Space(ctx, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Status != quire.StatusMerged || merged.RevisionMerged != sp.RevisionID {
		t.Fatalf("merged request %+v, space revision %s", merged, sp.RevisionID)
	}
	rev, err := db.Revision(ctx, spaceID, sp.RevisionID)
	if err != nil || rev.Type != store.RevisionMerge || rev.MergedFrom != a.ID || len(rev.Parents) != 2 {
		t.Fatalf("merge revision %+v, %v", rev, err)
	}
	// b forked before the merge: updating it pulls page a in.
	b, err = db.UpdateChangeRequestFromSpace(ctx, spaceID, b.ID, userID)
	if err != nil {
		t.Fatal(err)
	}
	if b.RevisionMergedAncestor != sp.RevisionID || b.Base() != sp.RevisionID {
		t.Errorf("updated request %+v", b)
	}
	_, tree, _ := db.RevisionTree(ctx, spaceID, b.RevisionID)
	if _, ok := tree.Pages["a"]; !ok {
		t.Error("update did not bring the space's page in")
	}
	// Conflicting edits of the same line: 409 naming the page; nothing changes.
	edit := func(line string) store.EditFunc {
		return func(now time.Time, t *content.Tree) (*content.Tree, error) {
			t.Pages["a"].Markdown = "one\n" + line + "\nthree\n"
			return t, nil
		}
	}
	c, _ := db.CreateChangeRequest(ctx, spaceID, "", userID)
	if _, err := db.EditChangeRequest(ctx, spaceID, b.ID, userID, edit("TWO")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(ctx, spaceID, c.ID, userID, edit("2")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, spaceID, b.ID, userID); err != nil {
		t.Fatal(err)
	}
	before, _ := db.Space(ctx, spaceID)
	_, err = db.MergeChangeRequest(ctx, spaceID, c.ID, userID)
	var conflict *content.ConflictError
	if !errors.As(err, &conflict) || quire.ErrorCode(err) != quire.CodeConflict || len(conflict.Conflicts) != 1 || conflict.Conflicts[0].PageID != "a" {
		t.Fatalf("conflicting merge: %v", err)
	}
	after, _ := db.Space(ctx, spaceID)
	cAfter, _ := db.ChangeRequest(ctx, spaceID, c.ID)
	if after.RevisionID != before.RevisionID || cAfter.Status == quire.StatusMerged {
		t.Error("a conflicting merge changed the space or the request")
	}
}

// TestMergeChecks: MergeChangeRequest finds the request by id or number and
// answers, in this order, a missing request, a locked space, a request
// already merged; the answer it returns is the row as stored.
func TestMergeChecks(t *testing.T) {
	db, spaceID, userID, a := contentSpace(t)
	ctx := t.Context()
	if _, err := db.EditChangeRequest(ctx, spaceID, a.ID, userID, addPages(map[string]string{"a": "one\n"})); err != nil {
		t.Fatal(err)
	}
	merged, err := db.MergeChangeRequest(ctx, spaceID, fmt.Sprint(a.Number), userID) // by number
	if err != nil {
		t.Fatal(err)
	}
	stored, err := db.ChangeRequest(ctx, spaceID, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stored, merged); diff != "" {
		t.Errorf("merged request differs from the stored one (-stored +returned):\n%s", diff)
	}
	open, err := db.CreateChangeRequest(ctx, spaceID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	setMode := func(m quire.EditMode) {
		t.Helper()
		if _, err := db.UpdateSpace(ctx, spaceID, store.SpaceUpdate{EditMode: &m}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name string
		mode quire.EditMode
		ref  string
		code quire.Code
		msg  string
	}{
		{"missing", quire.EditLive, "nope", quire.CodeNotFound, "change request not found"},
		{"missing number", quire.EditLive, "99", quire.CodeNotFound, "change request not found"},
		{"missing in a locked space", quire.EditLocked, "nope", quire.CodeNotFound, "change request not found"},
		{"merged", quire.EditLive, a.ID, quire.CodeInvalid, fmt.Sprintf("change request #%d is already merged", a.Number)},
		{"merged in a locked space", quire.EditLocked, a.ID, quire.CodeForbidden, "the space is locked: unlock it (editMode live) to edit"},
		{"open in a locked space", quire.EditLocked, open.ID, quire.CodeForbidden, "the space is locked: unlock it (editMode live) to edit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			setMode(tt.mode)
			_, err := db.MergeChangeRequest(ctx, spaceID, tt.ref, userID)
			if quire.ErrorCode(err) != tt.code || err.Error() != tt.msg {
				t.Errorf("err = %v (%s), want %q (%s)", err, quire.ErrorCode(err), tt.msg, tt.code)
			}
		})
	}
}

// TestChangeRequestNumbersGoOn: numbers follow the highest a space has, also
// in a database made before spaces had a numbering row, and are not given
// again when the last request is deleted.
func TestChangeRequestNumbersGoOn(t *testing.T) {
	t.Parallel()
	db, raw, _, _ := openRaw(t)
	sp, userID := docsSpace(t, db)
	create := func(want int) *quire.ChangeRequest {
		t.Helper()
		c, err := db.CreateChangeRequest(t.Context(), sp.ID, "", userID)
		if err != nil || c.Number != want {
			t.Fatalf("change request %+v, %v; want number %d", c, err, want)
		}
		return c
	}
	create(1)
	create(2)
	if _, err := raw.Exec("DELETE FROM change_request_numbers"); err != nil { // as before migration 0037
		t.Fatal(err)
	}
	last := create(3)
	if _, err := raw.Exec("DELETE FROM change_requests WHERE id = '" + last.ID + "'"); err != nil {
		t.Fatal(err)
	}
	create(4)
}
