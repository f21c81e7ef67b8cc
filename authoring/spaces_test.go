package authoring_test

import (
	"encoding/json"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

func TestCheckSpaceUpdate(t *testing.T) {
	title, emoji := "New", "📘"
	live, locked := quire.EditLive, quire.EditLocked
	inCollection, public := quire.VisibilityInCollection, quire.VisibilityPublic
	level := quire.LevelInherit
	top := &quire.Space{ID: "s1", EditMode: quire.EditLive}
	nested := &quire.Space{ID: "s2", ParentID: "c1", EditMode: quire.EditLive}
	lockedSpace := &quire.Space{ID: "s3", EditMode: quire.EditLocked}
	for _, tc := range []struct {
		name string
		sp   *quire.Space
		role quire.Role
		u    store.SpaceUpdate
		want quire.Code // "" allows
	}{
		{"editor renames", top, quire.RoleEdit, store.SpaceUpdate{Title: &title, Emoji: &emoji}, ""},
		{"nothing", top, quire.RoleEdit, store.SpaceUpdate{}, ""},
		{"editor sets visibility", top, quire.RoleEdit, store.SpaceUpdate{Visibility: &public}, quire.CodeForbidden},
		{"editor sets level", top, quire.RoleEdit, store.SpaceUpdate{DefaultLevel: &level}, quire.CodeForbidden},
		{"editor locks", top, quire.RoleEdit, store.SpaceUpdate{EditMode: &locked}, quire.CodeForbidden},
		{"editor sets merge rules", top, quire.RoleEdit, store.SpaceUpdate{MergeRules: json.RawMessage(`{}`)}, quire.CodeForbidden},
		{"admin sets visibility", top, quire.RoleAdmin, store.SpaceUpdate{Visibility: &public}, ""},
		{"in-collection at the top level", top, quire.RoleAdmin, store.SpaceUpdate{Visibility: &inCollection}, quire.CodeInvalid},
		{"in-collection before the role", top, quire.RoleEdit, store.SpaceUpdate{Visibility: &inCollection}, quire.CodeInvalid},
		{"in-collection in a collection", nested, quire.RoleAdmin, store.SpaceUpdate{Visibility: &inCollection}, ""},
		{"rename while locked", lockedSpace, quire.RoleAdmin, store.SpaceUpdate{Title: &title}, quire.CodeForbidden},
		{"rename and unlock", lockedSpace, quire.RoleAdmin, store.SpaceUpdate{Title: &title, EditMode: &live}, ""},
		{"settings while locked", lockedSpace, quire.RoleAdmin, store.SpaceUpdate{Visibility: &public}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, "CheckSpaceUpdate", authoring.CheckSpaceUpdate(tc.sp, tc.role, tc.u), tc.want)
		})
	}
}

// TestUpdateSpace checks that a refused update writes nothing and an
// allowed one is stored.
func TestUpdateSpace(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	title, public := "Renamed", quire.VisibilityPublic
	if _, err := f.author.UpdateSpace(ctx, f.space, quire.RoleEdit, store.SpaceUpdate{Title: &title, Visibility: &public}); quire.ErrorCode(err) != quire.CodeForbidden {
		t.Fatalf("editor setting visibility: %v, want forbidden", err)
	}
	if sp, err := f.db.Space(ctx, f.space.ID); err != nil || sp.Title != "Docs" {
		t.Fatalf("after a refused update: %+v, %v; want the title kept", sp, err)
	}
	sp, err := f.author.UpdateSpace(ctx, f.space, quire.RoleAdmin, store.SpaceUpdate{Title: &title, Visibility: &public})
	if err != nil || sp.Title != title || sp.Visibility != public {
		t.Fatalf("admin update: %+v, %v", sp, err)
	}
}

// TestCreateIn creates spaces and collections where the viewer may, and
// refuses the rest without writing; duplicating refuses one who cannot see
// the space's collection.
func TestCreateIn(t *testing.T) {
	f := newIntegrationFixture(t) // another organization with a space, a deleted space
	ctx := t.Context()
	org := f.space.OrgID
	coll, err := f.db.CreateCollection(ctx, org, "Guides", "")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := f.db.CreateCollection(ctx, f.other.ID, "Theirs", "")
	if err != nil {
		t.Fatal(err)
	}
	editor, err := f.db.AddUser(ctx, org, "ed@example.com", "Ed", quire.RoleEdit)
	if err != nil {
		t.Fatal(err)
	}
	creator, err := f.db.AddUser(ctx, org, "cy@example.com", "Cy", quire.RoleCreate)
	if err != nil {
		t.Fatal(err)
	}
	viewer := func(userID string) *quire.Viewer {
		v, err := f.db.Viewer(ctx, org, userID, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name, user, parent string
		want               quire.Code
	}{
		{"creator, top level", creator.User.ID, "", ""},
		{"creator, collection", creator.User.ID, coll.ID, ""},
		{"editor, top level", editor.User.ID, "", quire.CodeForbidden},
		{"editor, collection", editor.User.ID, coll.ID, quire.CodeForbidden},
		{"another organization's collection", f.userID, foreign.ID, quire.CodeInvalid},
		{"no such collection", f.userID, "nope", quire.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.countSpaces(t)
			sp, err := f.author.CreateSpace(ctx, viewer(tc.user), org, store.NewSpace{Title: "New", ParentID: tc.parent})
			wantCode(t, "CreateSpace", err, tc.want)
			if err == nil && sp.ParentID != tc.parent {
				t.Fatalf("created in %q, want %q", sp.ParentID, tc.parent)
			}
			if err != nil && f.countSpaces(t) != before {
				t.Fatal("a refused space was created")
			}
			c, err := f.author.CreateCollection(ctx, viewer(tc.user), org, "Sub", tc.parent)
			wantCode(t, "CreateCollection", err, tc.want)
			if err == nil && c.ParentID != tc.parent {
				t.Fatalf("collection in %q, want %q", c.ParentID, tc.parent)
			}
		})
	}

	inside, err := f.db.CreateSpace(ctx, org, store.NewSpace{Title: "Inside", ParentID: coll.ID})
	if err != nil {
		t.Fatal(err)
	}
	if dup, err := f.author.DuplicateSpace(ctx, inside, creator.User.ID); err != nil || dup.ParentID != coll.ID || dup.ID == inside.ID {
		t.Fatalf("duplicate: %+v, %v", dup, err)
	}
	if _, err := f.author.DuplicateSpace(ctx, inside, editor.User.ID); quire.ErrorCode(err) != quire.CodeForbidden {
		t.Fatalf("editor duplicating: %v, want forbidden", err)
	}
	// Rita, a guest, reads the space by a grant, not its collection:
	// refused, not told of a bad parent.
	rita, err := f.db.AddUser(ctx, org, "rita@example.com", "Rita", quire.RoleGuest)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.GrantRoles(ctx, store.Content{Kind: "space", ID: inside.ID, OrgID: org, Level: inside.DefaultLevel, Ancestors: inside.Ancestors}, []string{rita.User.ID}, nil, quire.RoleCreate); err != nil {
		t.Fatal(err)
	}
	if err := f.author.CheckCreateIn(ctx, viewer(rita.User.ID), org, coll.ID); quire.ErrorCode(err) != quire.CodeInvalid {
		t.Fatalf("Rita creating in the collection: %v, want invalid", err)
	}
	if _, err := f.author.DuplicateSpace(ctx, inside, rita.User.ID); quire.ErrorCode(err) != quire.CodeForbidden {
		t.Fatalf("duplicating out of an unseen collection: %v, want forbidden", err)
	}
}

// countSpaces counts the spaces stored, deleted or not.
func (f *fixture) countSpaces(t *testing.T) int {
	t.Helper()
	var n int
	if err := f.raw.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM spaces").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
