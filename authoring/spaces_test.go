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

func TestTransferTarget(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	from := f.space.OrgID
	other, err := f.db.CreateOrganization(ctx, "Other", nil, f.userID)
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := f.db.InitOrganization(ctx, "Elsewhere", "bob@example.com", "Bob")
	if err != nil {
		t.Fatal(err)
	}
	reader, err := f.db.AddUser(ctx, other.ID, "cy@example.com", "Cy", quire.RoleRead)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.AddUser(ctx, from, "cy@example.com", "Cy", quire.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		user, to string
		want     quire.Code
	}{
		{"admin of both", f.userID, other.ID, ""},
		{"the same organization", f.userID, from, quire.CodeInvalid},
		{"not a member of the target", f.userID, stranger.Organization.ID, quire.CodeNotFound},
		{"no such organization", f.userID, "nope", quire.CodeNotFound},
		{"reader of the target", reader.User.ID, other.ID, quire.CodeForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, "TransferTarget", f.author.TransferTarget(ctx, tc.user, from, tc.to), tc.want)
		})
	}
}
