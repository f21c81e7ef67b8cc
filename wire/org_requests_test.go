package wire_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

func TestOrgRequests(t *testing.T) {
	org := func() validator { return &wire.CreateOrganization{} }
	update := func() validator { return &wire.UpdateOrganization{} }
	member := func() validator { return &wire.UpdateMemberInOrganization{} }
	team := func() validator { return &wire.CreateOrganizationTeam{} }
	teamMembers := func() validator { return &wire.UpdateMembersInOrganizationTeam{} }
	teamMember := func() validator { return &wire.AddMemberToOrganizationTeam{} }
	invite := func() validator { return &wire.InviteUsersToOrganization{} }
	link := func() validator { return &wire.CreateOrganizationInvite{} }
	grant := func() validator { return &wire.UpdatePermission{} }
	grants := func() validator { return &wire.InviteUsersAndTeams{} }
	runRequests(t, []requestCase{
		{"org title required", `{}`, org, "title: is required"},
		{"org valid", `{"title":"Acme"}`, org, ""},
		{"update null title", `{"title":null}`, update, "title: must be a string"},
		{"update null sso", `{"sso":null}`, update, "sso: must be a boolean"},
		{"update hostname removed", `{"hostname":null,"defaultRole":null}`, update, ""},
		{"member role", `{"role":"owner"}`, member, "role: must be one of admin, create, review, edit, comment, read or null"},
		{"member guest", `{"role":null}`, member, ""},
		{"team title required", `{}`, team, "title: is required"},
		{"team title long", `{"title":"` + strings.Repeat("x", 65) + `"}`, team, "title: must be 1 to 64 characters"},
		{"team rename", `{"title":"T"}`, func() validator { return &wire.UpdateTeamInOrganization{} }, ""},
		{"team members role", `{"memberships":{"b":{"role":"x"},"a":{"role":"y"}}}`, teamMembers, "memberships.a.role: must be owner or member"},
		{"team member role", `{"role":"x"}`, teamMember, "role: must be owner or member"},
		{"team member none", `{}`, teamMember, ""},
		{"invite emails required", `{}`, invite, "emails: is required"},
		{"invite emails empty", `{"emails":[]}`, invite, "emails: must list 1 to 100 addresses"},
		{"invite role", `{"emails":[{"email":"a@b.co","role":"x"}]}`, invite, "emails[0].role: must be one of admin, create, review, edit, comment, read or null"},
		{"invite sso null", `{"emails":["a@b.co"],"sso":null}`, invite, "sso: must be a boolean"},
		{"link both", `{"space":"s","collection":"c"}`, link, "space: give a space or a collection, not both"},
		{"link role required", `{}`, link, "role: is required"},
		{"link level required", `{"space":"s"}`, link, "level: is required"},
		{"link level", `{"space":"s","level":"x"}`, link, "level: must be one of admin, create, review, edit, comment, read"},
		{"link update neither", `{}`, func() validator { return &wire.UpdateOrganizationInvite{} }, "role: give role (an organization invite) or level (a space or collection invite)"},
		{"grant role required", `{}`, grant, "role: is required (a role, or null to remove access)"},
		{"grant removed", `{"role":null}`, grant, ""},
		{"grants none", `{"role":"read"}`, grants, "users: give at least one user or team (users or teams)"},
		{"grants users", `{"role":"read","users":["u"]}`, grants, ""},
	})
}

func TestOrgRequestValues(t *testing.T) {
	var li wire.CreateOrganizationInvite
	if err := quire.DecodeJSON([]byte(`{"collection":"c","level":"edit"}`), &li); err != nil {
		t.Fatal(err)
	}
	if err := li.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := li.Invite("o", "u"); got.Target != quire.TargetCollection || got.TargetID != "c" || got.Role != quire.RoleEdit || got.OrgID != "o" || got.CreatedBy != "u" {
		t.Errorf("Invite = %+v", got)
	}
	up := wire.UpdateOrganizationInvite{Level: quire.Optional[string]{Set: true, Value: "read"}}
	if _, err := up.NewRole(quire.TargetOrganization); quire.ErrorMessage(err) != "role: is required for an organization invite" {
		t.Errorf("NewRole(organization) = %v", err)
	}
	if role, err := up.NewRole(quire.TargetSpace); err != nil || role != quire.RoleRead {
		t.Errorf("NewRole(space) = %v, %v", role, err)
	}
	var m wire.UpdateMemberInOrganization
	if m.NewRole() != nil {
		t.Error("NewRole of an empty body should be nil")
	}
}
