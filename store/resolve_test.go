package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// conflictingRequest returns a store whose space has page "a" with line
// "TWO" and an open change request that made the same line "2".
func conflictingRequest(t *testing.T) (db *store.DB, spaceID, userID string, c *quire.ChangeRequest) {
	t.Helper()
	ctx := t.Context()
	db, spaceID, userID, first := contentSpace(t)
	if _, err := db.EditChangeRequest(ctx, spaceID, first.ID, userID, addPages(map[string]string{"a": "one\ntwo\nthree\n"})); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, spaceID, first.ID, userID); err != nil {
		t.Fatal(err)
	}
	edit := func(line string) store.EditFunc {
		return func(now time.Time, t *content.Tree) (*content.Tree, error) {
			t.Pages["a"].Markdown = "one\n" + line + "\nthree\n"
			return t, nil
		}
	}
	main, err := db.CreateChangeRequest(ctx, spaceID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = db.CreateChangeRequest(ctx, spaceID, "", userID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(ctx, spaceID, main.ID, userID, edit("TWO")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, spaceID, main.ID, userID); err != nil {
		t.Fatal(err)
	}
	if c, err = db.EditChangeRequest(ctx, spaceID, c.ID, userID, edit("2")); err != nil {
		t.Fatal(err)
	}
	return db, spaceID, userID, c
}

func TestUpdateChangeRequestResolving(t *testing.T) {
	tests := []struct {
		name string
		res  content.Resolution
		want string
	}{
		{"keep the space's", content.Resolution{Keep: content.KeepOurs}, "one\nTWO\nthree\n"},
		{"keep the request's", content.Resolution{Keep: content.KeepTheirs}, "one\n2\nthree\n"},
		{"edited by hand", content.Resolution{Keep: content.KeepEdited, Title: "Alpha", Markdown: "one\n2 (TWO)\nthree\n"}, "one\n2 (TWO)\nthree\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, spaceID, userID, c := conflictingRequest(t)
			ctx := t.Context()
			sp, err := db.Space(ctx, spaceID)
			if err != nil {
				t.Fatal(err)
			}
			var conflict *content.ConflictError
			// Without resolutions, with another page's only, or made against
			// an older revision of the space: 409, and nothing changes.
			for _, opts := range []store.UpdateOptions{
				{},
				{Resolve: map[string]content.Resolution{"other": tt.res}},
				{Resolve: map[string]content.Resolution{"a": tt.res}, SpaceRevision: c.Base()},
			} {
				_, err := db.UpdateChangeRequestResolving(ctx, spaceID, c.ID, userID, opts)
				if !errors.As(err, &conflict) || quire.ErrorCode(err) != quire.CodeConflict || conflict.Conflicts[0].PageID != "a" {
					t.Fatalf("update with %+v: %v", opts, err)
				}
			}
			if after, _ := db.ChangeRequest(ctx, spaceID, c.ID); after.RevisionID != c.RevisionID {
				t.Fatal("a refused update moved the request")
			}
			up, err := db.UpdateChangeRequestResolving(ctx, spaceID, c.ID, userID, store.UpdateOptions{
				Resolve: map[string]content.Resolution{"a": tt.res}, SpaceRevision: sp.RevisionID})
			if err != nil {
				t.Fatal(err)
			}
			if up.Base() != sp.RevisionID || up.RevisionMergedAncestor != sp.RevisionID {
				t.Errorf("updated request %+v, space at %s", up, sp.RevisionID)
			}
			rev, tree, err := db.RevisionTree(ctx, spaceID, up.RevisionID)
			if err != nil {
				t.Fatal(err)
			}
			if rev.Type != store.RevisionUpdate || len(rev.Parents) != 2 || rev.Parents[0] != c.RevisionID || rev.Parents[1] != sp.RevisionID {
				t.Errorf("update revision %+v", rev)
			}
			if got := tree.Pages["a"].Markdown; got != tt.want {
				t.Errorf("page a = %q, want %q", got, tt.want)
			}
			if tt.res.Title != "" && tree.Pages["a"].Title != tt.res.Title {
				t.Errorf("page a's title = %q, want %q", tree.Pages["a"].Title, tt.res.Title)
			}
			// Up to date now: the request merges, and the space has the page as resolved.
			if _, err := db.MergeChangeRequest(ctx, spaceID, c.ID, userID); err != nil {
				t.Fatal(err)
			}
			sp, _ = db.Space(ctx, spaceID)
			if _, tree, _ = db.RevisionTree(ctx, spaceID, sp.RevisionID); tree.Pages["a"].Markdown != tt.want {
				t.Errorf("merged page a = %q, want %q", tree.Pages["a"].Markdown, tt.want)
			}
		})
	}
}
