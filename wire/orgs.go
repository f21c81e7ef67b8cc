package wire

import (
	"encoding/json"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// User is how the API shows a user.
type User struct {
	Object      string `json:"object"`
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Email       string `json:"email"`
	PhotoURL    string `json:"photoURL,omitempty"`
	URLs        URLs   `json:"urls"`
}

// User shows a user as the API answers it.
func (l Links) User(u *quire.User) User {
	return User{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL,
		URLs: URLs{Location: l.API("/users/" + u.ID)}}
}

// Organization is how the API shows an organization, with what the caller
// may do in it.
type Organization struct {
	Object       string                  `json:"object"`
	ID           string                  `json:"id"`
	Title        string                  `json:"title"`
	CreatedAt    string                  `json:"createdAt"`
	EmailDomains []string                `json:"emailDomains"`
	Hostname     string                  `json:"hostname,omitempty"`
	Type         string                  `json:"type"`
	DefaultRole  *string                 `json:"defaultRole"`
	SSO          bool                    `json:"sso"`
	AI           bool                    `json:"ai"`
	InviteLinks  bool                    `json:"inviteLinks"`
	Plan         string                  `json:"plan"`
	MergeRules   json.RawMessage         `json:"mergeRules"`
	URLs         URLs                    `json:"urls"`
	Trial        Trial                   `json:"trial"`
	Permissions  OrganizationPermissions `json:"permissions"`
}

// Trial is how the API shows an organization's trial: self-hosted Quire has
// none.
type Trial struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

// OrganizationPermissions is how the API shows what the caller may do in an
// organization.
type OrganizationPermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	OwnTeam            bool `json:"ownTeam"`
	CreateContent      bool `json:"createContent"`
	CreateOpenAPISpec  bool `json:"createOpenAPISpec"`
	ViewBilling        bool `json:"viewBilling"`
	ListMembers        bool `json:"listMembers"`
	ListTeams          bool `json:"listTeams"`
	ListIntegrations   bool `json:"listIntegrations"`
	ListInstallations  bool `json:"listInstallations"`
	InstallIntegration bool `json:"installIntegration"`
}

// selfHostedPlan is the plan every organization of a self-hosted Quire is on:
// nothing is billed and no feature is held back.
const selfHostedPlan = "enterprise_2024"

// Organization shows an organization, with what the caller may do in it as
// the API answers it.
func (l Links) Organization(o *quire.Organization, me *quire.Member) Organization {
	p := quire.PermissionsOf(me)
	return Organization{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: Time(o.CreatedAt),
		EmailDomains: o.EmailDomains, Hostname: o.Hostname, Type: "business", DefaultRole: Role(o.DefaultRole),
		SSO: o.SSO, AI: o.AI, InviteLinks: o.InviteLinks, Plan: selfHostedPlan, MergeRules: o.MergeRules,
		URLs:  URLs{Location: l.API("/orgs/" + o.ID), App: quire.AppOrgURL(l.PublicURL, o.ID)},
		Trial: Trial{Status: "notapplicable"},
		Permissions: OrganizationPermissions{
			View: p.View, Access: p.Access, Admin: p.Admin, OwnTeam: p.OwnTeam, CreateContent: p.CreateContent,
			CreateOpenAPISpec: p.CreateContent, ViewBilling: p.Admin, ListMembers: p.View, ListTeams: p.View,
			ListIntegrations: p.Access, ListInstallations: p.Admin, InstallIntegration: p.Admin,
		},
	}
}

// Member is how the API shows a member of an organization.
type Member struct {
	Object     string  `json:"object"`
	ID         string  `json:"id"`
	Role       *string `json:"role"`
	User       User    `json:"user"`
	Disabled   bool    `json:"disabled"`
	JoinedAt   string  `json:"joinedAt"`
	LastSeenAt string  `json:"lastSeenAt,omitempty"`
	SSO        bool    `json:"sso"`
	Spaces     int     `json:"spaces"`
	Teams      int     `json:"teams"`
	Sites      int     `json:"sites"`
	URLs       URLs    `json:"urls"`
}

// Member shows a member of an organization as the API answers it.
func (l Links) Member(m *quire.Member) Member {
	return Member{
		Object: "member", ID: m.User.ID, Role: Role(m.Role), User: l.User(&m.User), Disabled: m.Disabled,
		JoinedAt: Time(m.JoinedAt), SSO: m.SSO, Spaces: m.Spaces, Teams: m.Teams, Sites: m.Sites,
		URLs: URLs{Location: l.API("/orgs/" + m.OrgID + "/members/" + m.User.ID)}, LastSeenAt: OptTime(m.LastSeenAt),
	}
}

// Team is how the API shows a team.
type Team struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Members     int             `json:"members"`
	Spaces      int             `json:"spaces"`
	CreatedAt   string          `json:"createdAt"`
	Permissions TeamPermissions `json:"permissions"`
	URLs        URLs            `json:"urls"`
}

// TeamPermissions is how the API shows what the caller may do with a team.
type TeamPermissions struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// Team renders a team for a caller whose role in it is myRole ("" if none).
func (l Links) Team(t *quire.Team, me *quire.Member, myRole quire.TeamRole) Team {
	return Team{
		Object: "team", ID: t.ID, Title: t.Title, Members: t.Members, Spaces: t.Spaces, CreatedAt: Time(t.CreatedAt),
		Permissions: TeamPermissions{Admin: quire.CanManageTeam(me, myRole), View: true},
		URLs:        URLs{Location: l.API("/orgs/" + t.OrgID + "/teams/" + t.ID)},
	}
}

// UserPermission is how the API shows a user's role on a space or
// collection.
type UserPermission struct {
	Permission quire.Role `json:"permission"`
	User       User       `json:"user"`
}

// TeamPermission is how the API shows a team's role on a space or
// collection.
type TeamPermission struct {
	Permission quire.Role `json:"permission"`
	Team       Team       `json:"team"`
}

// Invitation is one invite made: Quire's extension of the answer.
type Invitation struct {
	Email     string  `json:"email"`
	Role      *string `json:"role"`
	Key       string  `json:"key"` // {inviteId} of joinOrganizationWithInvite
	URL       string  `json:"url"` // where the app lets its holder join
	ExpiresAt string  `json:"expiresAt"`
}

// InviteResult shows the invites made by POST O/invites, each with the link
// its holder joins by; nobody is added at once.
func (l Links) InviteResult(made []*quire.Invite) InviteResult {
	out := InviteResult{Users: []string{}, Invited: len(made), Invites: []Invitation{}}
	for _, inv := range made {
		out.Invites = append(out.Invites, Invitation{Email: inv.Email, Role: Role(inv.Role), Key: inv.Key,
			URL: quire.InviteAppURL(l.PublicURL, inv.OrgID, inv.Key), ExpiresAt: Time(inv.ExpiresAt)})
	}
	return out
}

// InviteResult is how the API shows the answer of POST O/invites: who was
// added and the invites made.
type InviteResult struct {
	Users   []string     `json:"users"`   // accounts added now: none, they join later
	Invited int          `json:"invited"` // invites made
	Invites []Invitation `json:"invites"` // Quire's extension: the links to pass on
}

// LinkInvite is how the API shows an invite link to an organization, space
// or collection.
type LinkInvite struct {
	Object     string          `json:"object"`
	ID         string          `json:"id"`
	Role       json.RawMessage `json:"role,omitempty"`  // the organization's
	Level      json.RawMessage `json:"level,omitempty"` // a space's or collection's
	Redundant  bool            `json:"redundant"`
	Space      *Space          `json:"space,omitempty"`
	Collection *Collection     `json:"collection,omitempty"`
	Key        string          `json:"key,omitempty"` // Quire's extension, on creation only
	URL        string          `json:"url,omitempty"` // Quire's extension, on creation only
}

// MemberSpace is how the API shows a space a member can reach, with their
// role on it.
type MemberSpace struct {
	Permission quire.Role `json:"permission"`
	Space      Space      `json:"space"`
}

// MemberTeam is how the API shows a team of a member, with their role in
// it.
type MemberTeam struct {
	Team   Team       `json:"team"`
	Member TeamMember `json:"member"`
}

// TeamMember is how the API shows a member's role in a team.
type TeamMember struct {
	Role quire.TeamRole `json:"role"`
}

// TeamMemberItem is how the API shows a member of a team, with their role
// in it.
type TeamMemberItem struct {
	Organization Member     `json:"organization"`
	Team         TeamMember `json:"team"`
	Permissions  struct {
		View bool `json:"view"`
	} `json:"permissions"`
}

// Token is an API token as listed.
type Token struct {
	Object    string    `json:"object"`
	ID        string    `json:"id"`
	Label     string    `json:"label"`
	CreatedAt time.Time `json:"createdAt"`
	User      User      `json:"user"`
}

// Token shows an API token, without its secret as the API answers it.
func (l Links) Token(t store.OwnedToken) Token {
	return Token{Object: "api-token", ID: t.Hash, Label: t.Label, CreatedAt: t.CreatedAt.UTC(), User: l.User(t.User)}
}

// InviteTarget is the space or collection a link invite is to, if any, with
// the caller's role on it.
type InviteTarget struct {
	Space      *quire.Space
	Collection *quire.Collection
	Role       quire.Role
}

// LinkInvite shows a link invite to a caller with role on its target;
// it is redundant when that role already gives what the invite does.
func (l Links) LinkInvite(li *quire.LinkInvite, t InviteTarget, me *quire.Member) LinkInvite {
	out := LinkInvite{Object: "invite", ID: li.ID, Key: li.Key}
	if li.Key != "" {
		out.URL = quire.InviteAppURL(l.PublicURL, li.OrgID, li.Key)
	}
	switch li.Target {
	case quire.TargetOrganization:
		out.Role, out.Redundant = rawRole(li.Role), me.Role.AtLeast(li.Role)
	case quire.TargetSpace:
		sp := l.Space(t.Space, t.Role)
		out.Level, out.Redundant, out.Space = rawRole(li.Role), t.Role.AtLeast(li.Role), &sp
	case quire.TargetCollection:
		c := l.Collection(t.Collection, t.Role)
		out.Level, out.Redundant, out.Collection = rawRole(li.Role), t.Role.AtLeast(li.Role), &c
	}
	return out
}

// rawRole is a role as JSON, or null for guests.
func rawRole(r quire.Role) json.RawMessage {
	b, _ := json.Marshal(Role(r))
	return b
}
