package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
)

type User struct {
	Object      string `json:"object"`
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Email       string `json:"email"`
	PhotoURL    string `json:"photoURL,omitempty"`
	URLs        URLs   `json:"urls"`
}

func (l Links) User(u *quire.User) User {
	return User{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL,
		URLs: URLs{Location: l.API("/users/" + u.ID)}}
}

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

type Trial struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

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

func (l Links) Member(m *quire.Member) Member {
	return Member{
		Object: "member", ID: m.User.ID, Role: Role(m.Role), User: l.User(&m.User), Disabled: m.Disabled,
		JoinedAt: Time(m.JoinedAt), SSO: m.SSO, Spaces: m.Spaces, Teams: m.Teams, Sites: m.Sites,
		URLs: URLs{Location: l.API("/orgs/" + m.OrgID + "/members/" + m.User.ID)}, LastSeenAt: OptTime(m.LastSeenAt),
	}
}

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
