package authoring_test

import (
	"reflect"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

func TestInviteRoles(t *testing.T) {
	edit, guest := quire.RoleEdit, quire.RoleGuest
	for _, tc := range []struct {
		name     string
		invitees []authoring.Invitee
		role     *quire.Role
		want     []quire.Role
	}{
		{"the organization's default", []authoring.Invitee{{Email: "a@x.io"}}, nil, []quire.Role{quire.RoleRead}},
		{"the request's role", []authoring.Invitee{{Email: "a@x.io"}}, &edit, []quire.Role{quire.RoleEdit}},
		{"the request's guest", []authoring.Invitee{{Email: "a@x.io"}}, &guest, []quire.Role{quire.RoleGuest}},
		{"each its own first", []authoring.Invitee{{Email: "a@x.io", Role: &guest}, {Email: "b@x.io"}}, &edit, []quire.Role{quire.RoleGuest, quire.RoleEdit}},
		{"none", nil, &edit, []quire.Role{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := []quire.Role{}
			for i, in := range authoring.InviteRoles(tc.invitees, tc.role, quire.RoleRead) {
				if in.Email != tc.invitees[i].Email {
					t.Fatalf("invite %d is %q, want %q", i, in.Email, tc.invitees[i].Email)
				}
				got = append(got, in.Role)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("roles %v, want %v", got, tc.want)
			}
		})
	}
}

// TestInviteMembers checks that the organization's default role, as
// stored, is the one given when neither the invitee nor the request says.
func TestInviteMembers(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	comment := quire.RoleComment
	if _, err := f.db.UpdateOrganization(ctx, f.space.OrgID, store.OrganizationUpdate{DefaultRole: &comment}); err != nil {
		t.Fatal(err)
	}
	edit := quire.RoleEdit
	made, err := f.author.InviteMembers(ctx, f.space.OrgID, f.userID, []authoring.Invitee{{Email: "bo@example.com"}, {Email: "cy@example.com", Role: &edit}, {Email: "ada@example.com"}}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]quire.Role{}
	for _, in := range made {
		got[in.Email] = in.Role
	}
	// Ada is a member already: not invited.
	if want := map[string]quire.Role{"bo@example.com": quire.RoleComment, "cy@example.com": quire.RoleEdit}; !reflect.DeepEqual(got, want) {
		t.Fatalf("invited %v, want %v", got, want)
	}
	if _, err := f.author.InviteMembers(ctx, "nope", f.userID, []authoring.Invitee{{Email: "bo@example.com"}}, nil, false); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Fatalf("into no organization: %v, want not found", err)
	}
}
