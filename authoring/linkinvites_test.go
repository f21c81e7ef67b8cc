package authoring_test

import (
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// TestLinkInviteTarget checks who may administer invites to what: the
// organization's admins for the organization, admins of a space or
// collection for it, and nothing of another organization or deleted.
func TestLinkInviteTarget(t *testing.T) {
	f := newIntegrationFixture(t) // other, otherSpace and trash besides the space
	ctx := t.Context()
	org := f.space.OrgID
	coll, err := f.db.CreateCollection(ctx, org, "Guides", "")
	if err != nil {
		t.Fatal(err)
	}
	reader, err := f.db.AddUser(ctx, org, "cy@example.com", "Cy", quire.RoleRead)
	if err != nil {
		t.Fatal(err)
	}
	guest, err := f.db.AddUser(ctx, org, "gus@example.com", "Gus", quire.RoleGuest)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.GrantRoles(ctx, store.Content{Kind: "space", ID: f.space.ID, OrgID: org, Level: f.space.DefaultLevel}, []string{reader.User.ID}, nil, quire.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	member := func(userID string) *quire.Member {
		m, err := f.db.Member(ctx, org, userID)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	admin, cy, gus := member(f.userID), member(reader.User.ID), member(guest.User.ID)
	for _, tc := range []struct {
		name   string
		me     *quire.Member
		target quire.InviteTarget
		id     string
		want   quire.Code
		role   quire.Role
	}{
		{"admin, organization", admin, quire.TargetOrganization, "", "", quire.RoleAdmin},
		{"reader, organization", cy, quire.TargetOrganization, "", quire.CodeForbidden, quire.RoleRead},
		{"admin, space", admin, quire.TargetSpace, f.space.ID, "", quire.RoleAdmin},
		{"admin, collection", admin, quire.TargetCollection, coll.ID, "", quire.RoleAdmin},
		{"granted admin of the space", cy, quire.TargetSpace, f.space.ID, "", quire.RoleAdmin},
		{"reader, collection", cy, quire.TargetCollection, coll.ID, quire.CodeForbidden, quire.RoleRead},
		{"guest, space", gus, quire.TargetSpace, f.space.ID, quire.CodeNotFound, ""},
		{"another organization's space", admin, quire.TargetSpace, f.otherSpace.ID, quire.CodeNotFound, ""},
		{"deleted space", admin, quire.TargetSpace, f.trash.ID, quire.CodeNotFound, ""},
		{"no such collection", admin, quire.TargetCollection, "nope", quire.CodeNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.author.LinkInviteTarget(ctx, tc.me, tc.target, tc.id)
			wantCode(t, "LinkInviteTarget", err, tc.want)
			if tc.role != "" && got.Role != tc.role {
				t.Fatalf("role %q, want %q", got.Role, tc.role)
			}
			if err == nil && (tc.target == quire.TargetSpace) != (got.Space != nil) {
				t.Fatalf("target %+v for a %s", got, tc.target)
			}
		})
	}
}
