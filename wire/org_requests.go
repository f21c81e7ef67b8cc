package wire

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of organizations, their members, teams, invites and
// grants (Contract §4.2–§4.4), named after the reference's operations and
// schemas. Each Validate names the field and the rule it breaks, in the
// order the fields are checked, so one body has one answer.

// CreateOrganization is the body of POST /v1/orgs, the reference's
// CreateOrganization.
type CreateOrganization struct {
	Title        *string  `json:"title"`
	EmailDomains []string `json:"emailDomains"`
}

// Validate checks the title, which is required, then the e-mail domains.
func (b *CreateOrganization) Validate() error {
	if err := quire.CheckRequired("title", b.Title != nil); err != nil {
		return err
	}
	return quire.FirstError(quire.CheckOrgTitle("title", *b.Title), quire.CheckEmailDomains("emailDomains", b.EmailDomains))
}

// UpdateOrganization is the body of PATCH /v1/orgs/{organizationId}, the
// reference's updateOrganizationById.
type UpdateOrganization struct {
	Title        quire.Optional[string]          `json:"title"`
	EmailDomains quire.Optional[[]string]        `json:"emailDomains"`
	Hostname     quire.Optional[string]          `json:"hostname"`
	DefaultRole  quire.Optional[string]          `json:"defaultRole"`
	SSO          quire.Optional[bool]            `json:"sso"`
	AI           quire.Optional[bool]            `json:"ai"`
	InviteLinks  quire.Optional[bool]            `json:"inviteLinks"`
	MergeRules   quire.Optional[json.RawMessage] `json:"mergeRules"`
}

// Validate checks the fields given, in this order, and re-encodes mergeRules.
// A null hostname removes it and a null defaultRole means guest; the other
// fields may not be null.
func (b *UpdateOrganization) Validate() error {
	if b.Title.Set {
		if b.Title.Null {
			return quire.Errorf(quire.CodeInvalid, "title: must be a string")
		}
		if err := quire.CheckOrgTitle("title", b.Title.Value); err != nil {
			return err
		}
	}
	if b.EmailDomains.Set {
		if err := quire.CheckEmailDomains("emailDomains", b.EmailDomains.Value); err != nil {
			return err
		}
	}
	if h := b.Hostname.Value; b.Hostname.Set && (h != "" || !b.Hostname.Null) {
		if err := quire.CheckOrgHostname("hostname", h); err != nil {
			return err
		}
	}
	if _, err := quire.ParseRoleOrNull("defaultRole", b.DefaultRole); b.DefaultRole.Set && err != nil {
		return err
	}
	if err := quire.FirstError(checkBool("sso", b.SSO), checkBool("ai", b.AI), checkBool("inviteLinks", b.InviteLinks)); err != nil {
		return err
	}
	if b.MergeRules.Set {
		rules, err := quire.CheckMergeRules("mergeRules", b.MergeRules.Value, b.MergeRules.Null)
		if err != nil {
			return err
		}
		b.MergeRules.Value = rules
	}
	return nil
}

// Update is the store's form of a validated b.
func (b *UpdateOrganization) Update() store.OrganizationUpdate {
	u := store.OrganizationUpdate{
		Title: setValue(b.Title), Hostname: setValue(b.Hostname),
		SSO: setValue(b.SSO), AI: setValue(b.AI), InviteLinks: setValue(b.InviteLinks),
	}
	if b.EmailDomains.Set {
		domains := b.EmailDomains.Value
		if domains == nil {
			domains = []string{}
		}
		u.EmailDomains = &domains
	}
	if b.DefaultRole.Set {
		role, _ := quire.ParseRoleOrNull("defaultRole", b.DefaultRole)
		u.DefaultRole = &role
	}
	if b.MergeRules.Set {
		u.MergeRules = b.MergeRules.Value
	}
	return u
}

// UpdateMemberInOrganization is the body of PATCH O/members/{userId}, the
// reference's updateMemberInOrganizationById: a role, null for guest, or
// nothing to change.
type UpdateMemberInOrganization struct {
	Role quire.Optional[string] `json:"role"`
}

// Validate checks the role, when given.
func (b *UpdateMemberInOrganization) Validate() error {
	if !b.Role.Set {
		return nil
	}
	_, err := quire.ParseRoleOrNull("role", b.Role)
	return err
}

// NewRole is the role a validated b gives, nil when it changes nothing;
// null is guest.
func (b *UpdateMemberInOrganization) NewRole() *quire.Role { return OptionalRole(b.Role) }

// OptionalRole is a validated role or null (guest), nil when not given.
func OptionalRole(o quire.Optional[string]) *quire.Role {
	if !o.Set {
		return nil
	}
	role, _ := quire.ParseRoleOrNull("role", o)
	return &role
}

// checkTeamTitle checks a team's title, which is required.
func checkTeamTitle(title *string) error {
	if err := quire.CheckRequired("title", title != nil); err != nil {
		return err
	}
	return quire.CheckLen("title", *title, 1, 64)
}

// CreateOrganizationTeam is the body of PUT O/teams, the reference's
// createOrganizationTeam.
type CreateOrganizationTeam struct {
	Title   *string  `json:"title"`
	Members []string `json:"members"`
}

// Validate checks the title.
func (b *CreateOrganizationTeam) Validate() error { return checkTeamTitle(b.Title) }

// UpdateTeamInOrganization is the body of PATCH O/teams/{teamId}, the
// reference's updateTeamInOrganizationById.
type UpdateTeamInOrganization struct {
	Title *string `json:"title"`
}

// Validate checks the title.
func (b *UpdateTeamInOrganization) Validate() error { return checkTeamTitle(b.Title) }

// MaxTeamChanges bounds the users one PUT O/teams/{teamId}/members changes.
const MaxTeamChanges = 1000

// UpdateMembersInOrganizationTeam is the body of PUT
// O/teams/{teamId}/members, the reference's schema of that name.
type UpdateMembersInOrganizationTeam struct {
	Add         []string `json:"add"`
	Remove      []string `json:"remove"`
	Memberships map[string]struct {
		Role string `json:"role"`
	} `json:"memberships"`
}

// Validate checks the size of the change and each membership's role, by
// user id, so that of several bad roles the same one is named each time.
func (b *UpdateMembersInOrganizationTeam) Validate() error {
	if len(b.Add)+len(b.Remove)+len(b.Memberships) > MaxTeamChanges {
		return quire.Errorf(quire.CodeInvalid, "body: at most %d users may be changed at once", MaxTeamChanges)
	}
	for _, id := range slices.Sorted(maps.Keys(b.Memberships)) {
		if _, err := quire.ParseTeamRole("memberships."+id+".role", b.Memberships[id].Role); err != nil {
			return err
		}
	}
	return nil
}

// Update is the store's form of a validated b.
func (b *UpdateMembersInOrganizationTeam) Update() store.TeamMembersUpdate {
	u := store.TeamMembersUpdate{Add: b.Add, Remove: b.Remove, Memberships: map[string]quire.TeamRole{}}
	for id, m := range b.Memberships {
		u.Memberships[id], _ = quire.ParseTeamRole("role", m.Role)
	}
	return u
}

// AddMemberToOrganizationTeam is the body of PUT
// O/teams/{teamId}/members/{userId}, the reference's
// addMemberToOrganizationTeamById.
type AddMemberToOrganizationTeam struct {
	Role *string `json:"role"`
}

// Validate checks the role, when given.
func (b *AddMemberToOrganizationTeam) Validate() error {
	if b.Role == nil {
		return nil
	}
	_, err := quire.ParseTeamRole("role", *b.Role)
	return err
}

// TeamRole is the role a validated b gives: omitted (""), a new member
// joins as member and an existing one keeps their role.
func (b *AddMemberToOrganizationTeam) TeamRole() quire.TeamRole {
	if b.Role == nil {
		return ""
	}
	role, _ := quire.ParseTeamRole("role", *b.Role)
	return role
}

// MaxInvites bounds the addresses of one invite request.
const MaxInvites = 100

// InviteEmail is an entry of emails: an address, or {email, role}.
type InviteEmail struct {
	Email string
	Role  quire.Optional[string] // set only in the object form
}

// UnmarshalJSON reads either form, refusing an object without a role.
func (e *InviteEmail) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Email)
	}
	var o struct {
		Email string                 `json:"email"`
		Role  quire.Optional[string] `json:"role"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return quire.Errorf(quire.CodeInvalid, "emails: each must be an e-mail address or an object with email and role")
	}
	e.Email, e.Role = o.Email, o.Role
	if !o.Role.Set {
		return quire.Errorf(quire.CodeInvalid, "emails: an object needs a role (null for a guest)")
	}
	return nil
}

// InviteUsersToOrganization is the body of POST O/invites, the reference's
// schema of that name.
type InviteUsersToOrganization struct {
	Emails []InviteEmail          `json:"emails"`
	Role   quire.Optional[string] `json:"role"`
	SSO    quire.Optional[bool]   `json:"sso"`
}

// Validate checks the addresses and their roles, then the role and sso.
func (b *InviteUsersToOrganization) Validate() error {
	if err := quire.CheckRequired("emails", b.Emails != nil); err != nil {
		return err
	}
	if len(b.Emails) == 0 || len(b.Emails) > MaxInvites {
		return quire.Errorf(quire.CodeInvalid, "emails: must list 1 to %d addresses", MaxInvites)
	}
	for i, e := range b.Emails {
		field := fmt.Sprintf("emails[%d]", i)
		if err := quire.CheckEmail(field, e.Email); err != nil {
			return err
		}
		if e.Role.Set {
			if _, err := quire.ParseRoleOrNull(field+".role", e.Role); err != nil {
				return err
			}
		}
	}
	if b.Role.Set {
		if _, err := quire.ParseRoleOrNull("role", b.Role); err != nil {
			return err
		}
	}
	return checkBool("sso", b.SSO)
}

// CreateOrganizationInvite is the body of POST O/link-invites, the
// reference's schema of that name: {role}, or {level, space}, or {level,
// collection}.
type CreateOrganizationInvite struct {
	Role       quire.Optional[string] `json:"role"`
	Level      quire.Optional[string] `json:"level"`
	Space      *string                `json:"space"`
	Collection *string                `json:"collection"`

	invite quire.LinkInvite // target and role, set by Validate
}

// Validate checks the target and the role or level it takes.
func (b *CreateOrganizationInvite) Validate() (err error) {
	switch {
	case b.Space != nil && b.Collection != nil:
		return quire.Errorf(quire.CodeInvalid, "space: give a space or a collection, not both")
	case b.Space != nil:
		b.invite.Target, b.invite.TargetID = quire.TargetSpace, *b.Space
	case b.Collection != nil:
		b.invite.Target, b.invite.TargetID = quire.TargetCollection, *b.Collection
	default:
		b.invite.Target = quire.TargetOrganization
		if err := quire.CheckRequired("role", b.Role.Set); err != nil {
			return err
		}
		b.invite.Role, err = quire.ParseRoleOrNull("role", b.Role)
		return err
	}
	b.invite.Role, err = contentLevel(b.Level)
	return err
}

// Invite is the link invite a validated b makes in orgID, by createdBy.
func (b *CreateOrganizationInvite) Invite(orgID, createdBy string) quire.LinkInvite {
	li := b.invite
	li.OrgID, li.CreatedBy = orgID, createdBy
	return li
}

// contentLevel reads the level a space or collection invite gives: a role,
// since guests of content have none.
func contentLevel(o quire.Optional[string]) (quire.Role, error) {
	if err := quire.CheckRequired("level", o.Set); err != nil {
		return quire.RoleGuest, err
	}
	role, ok := quire.ParseRole(o.Value)
	if !ok {
		return role, quire.Errorf(quire.CodeInvalid, "level: must be one of admin, create, review, edit, comment, read")
	}
	return role, nil
}

// UpdateOrganizationInvite is the body of PATCH
// O/link-invites/{inviteId}, the reference's updateOrganizationInviteById:
// {role} for an organization invite, {level} for a space's or collection's.
type UpdateOrganizationInvite struct {
	Role  quire.Optional[string] `json:"role"`
	Level quire.Optional[string] `json:"level"`
}

// Validate checks that one of role and level is given.
func (b *UpdateOrganizationInvite) Validate() error {
	if b.Role.Set == b.Level.Set {
		return quire.Errorf(quire.CodeInvalid, "role: give role (an organization invite) or level (a space or collection invite)")
	}
	return nil
}

// NewRole is the role b gives an invite to target, refused when b gives
// the other field.
func (b *UpdateOrganizationInvite) NewRole(target quire.InviteTarget) (quire.Role, error) {
	if target == quire.TargetOrganization {
		if !b.Role.Set {
			return quire.RoleGuest, quire.Errorf(quire.CodeInvalid, "role: is required for an organization invite")
		}
		return quire.ParseRoleOrNull("role", b.Role)
	}
	if !b.Level.Set {
		return quire.RoleGuest, quire.Errorf(quire.CodeInvalid, "level: is required for a %s invite", target)
	}
	return contentLevel(b.Level)
}

// parseGrantRole reads a role or null (null removes the grant).
func parseGrantRole(v quire.Optional[string]) (quire.Role, error) {
	if !v.Set {
		return "", quire.Errorf(quire.CodeInvalid, "role: is required (a role, or null to remove access)")
	}
	return quire.ParseRoleOrNull("role", v)
}

// UpdatePermission is the body of PATCH …/permissions/{users|teams}/{id}
// (the reference's updateUserPermissionInSpace and its kin): a role, or null
// to remove the grant.
type UpdatePermission struct {
	Role quire.Optional[string] `json:"role"`
}

// Validate checks the role, which is required.
func (b *UpdatePermission) Validate() error {
	_, err := parseGrantRole(b.Role)
	return err
}

// Grant is the role a validated b grants; guest removes the grant.
func (b *UpdatePermission) Grant() quire.Role {
	role, _ := parseGrantRole(b.Role)
	return role
}

// InviteUsersAndTeams is the body of POST …/permissions, the reference's
// schema of that name: a role for up to 1000 users and teams.
type InviteUsersAndTeams struct {
	UpdatePermission
	Users []string `json:"users"`
	Teams []string `json:"teams"`
}

// Validate checks the role, then the number of users and teams.
func (b *InviteUsersAndTeams) Validate() error {
	if err := b.UpdatePermission.Validate(); err != nil {
		return err
	}
	if len(b.Users)+len(b.Teams) == 0 {
		return quire.Errorf(quire.CodeInvalid, "users: give at least one user or team (users or teams)")
	}
	if len(b.Users)+len(b.Teams) > 1000 {
		return quire.Errorf(quire.CodeInvalid, "users: at most 1000 users and teams at once")
	}
	return nil
}
