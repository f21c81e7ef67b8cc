package api

import (
	"encoding/json"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/jsonappend"
)

// Wire shapes: what clients see. They follow the contract and the reference
// schemas; domain types stay free of presentation.

// timeJSON formats a timestamp as ISO 8601 in UTC with milliseconds.
func timeJSON(t time.Time) string { return t.UTC().Format(jsonappend.TimeLayout) }

// optTimeJSON is timeJSON, or "" (omitted) for the zero time: never.
func optTimeJSON(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return timeJSON(t)
}

// roleJSON is a role, or null for guests.
func roleJSON(r quire.Role) *string {
	if r == quire.RoleGuest {
		return nil
	}
	s := string(r)
	return &s
}

func (s *Server) url(path string) string { return s.publicURL + "/v1" + path }

type urlsJSON struct {
	Location string `json:"location,omitempty"`
	App      string `json:"app,omitempty"`
}

type userJSON struct {
	Object      string   `json:"object"`
	ID          string   `json:"id"`
	DisplayName string   `json:"displayName"`
	Email       string   `json:"email"`
	PhotoURL    string   `json:"photoURL,omitempty"`
	URLs        urlsJSON `json:"urls"`
}

func (s *Server) userJSON(u *quire.User) userJSON {
	return userJSON{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL,
		URLs: urlsJSON{Location: s.url("/users/" + u.ID)}}
}

type orgJSON struct {
	Object       string          `json:"object"`
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	CreatedAt    string          `json:"createdAt"`
	EmailDomains []string        `json:"emailDomains"`
	Hostname     string          `json:"hostname,omitempty"`
	Type         string          `json:"type"`
	DefaultRole  *string         `json:"defaultRole"`
	SSO          bool            `json:"sso"`
	AI           bool            `json:"ai"`
	InviteLinks  bool            `json:"inviteLinks"`
	Plan         string          `json:"plan"`
	MergeRules   json.RawMessage `json:"mergeRules"`
	URLs         urlsJSON        `json:"urls"`
	Trial        trialJSON       `json:"trial"`
	Permissions  orgPermsJSON    `json:"permissions"`
}

type trialJSON struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

type orgPermsJSON struct {
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

func (s *Server) orgJSON(o *quire.Organization, me *quire.Member) orgJSON {
	p := quire.PermissionsOf(me)
	return orgJSON{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: timeJSON(o.CreatedAt),
		EmailDomains: o.EmailDomains, Hostname: o.Hostname, Type: "business", DefaultRole: roleJSON(o.DefaultRole),
		SSO: o.SSO, AI: o.AI, InviteLinks: o.InviteLinks, Plan: selfHostedPlan, MergeRules: o.MergeRules,
		URLs:  urlsJSON{Location: s.url("/orgs/" + o.ID), App: quire.AppOrgURL(s.publicURL, o.ID)},
		Trial: trialJSON{Status: "notapplicable"},
		Permissions: orgPermsJSON{
			View: p.View, Access: p.Access, Admin: p.Admin, OwnTeam: p.OwnTeam, CreateContent: p.CreateContent,
			CreateOpenAPISpec: p.CreateContent, ViewBilling: p.Admin, ListMembers: p.View, ListTeams: p.View,
			ListIntegrations: p.Access, ListInstallations: p.Admin, InstallIntegration: p.Admin,
		},
	}
}

type memberJSON struct {
	Object     string   `json:"object"`
	ID         string   `json:"id"`
	Role       *string  `json:"role"`
	User       userJSON `json:"user"`
	Disabled   bool     `json:"disabled"`
	JoinedAt   string   `json:"joinedAt"`
	LastSeenAt string   `json:"lastSeenAt,omitempty"`
	SSO        bool     `json:"sso"`
	Spaces     int      `json:"spaces"`
	Teams      int      `json:"teams"`
	Sites      int      `json:"sites"`
	URLs       urlsJSON `json:"urls"`
}

func (s *Server) memberJSON(m *quire.Member) memberJSON {
	return memberJSON{
		Object: "member", ID: m.User.ID, Role: roleJSON(m.Role), User: s.userJSON(&m.User), Disabled: m.Disabled,
		JoinedAt: timeJSON(m.JoinedAt), SSO: m.SSO, Spaces: m.Spaces, Teams: m.Teams, Sites: m.Sites,
		URLs: urlsJSON{Location: s.url("/orgs/" + m.OrgID + "/members/" + m.User.ID)}, LastSeenAt: optTimeJSON(m.LastSeenAt),
	}
}

type teamJSON struct {
	Object      string        `json:"object"`
	ID          string        `json:"id"`
	Title       string        `json:"title"`
	Members     int           `json:"members"`
	Spaces      int           `json:"spaces"`
	CreatedAt   string        `json:"createdAt"`
	Permissions teamPermsJSON `json:"permissions"`
	URLs        urlsJSON      `json:"urls"`
}

type teamPermsJSON struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// teamJSON renders a team for a caller whose role in it is myRole ("" if none).
func (s *Server) teamJSON(t *quire.Team, me *quire.Member, myRole quire.TeamRole) teamJSON {
	return teamJSON{
		Object: "team", ID: t.ID, Title: t.Title, Members: t.Members, Spaces: t.Spaces, CreatedAt: timeJSON(t.CreatedAt),
		Permissions: teamPermsJSON{Admin: quire.CanManageTeam(me, myRole), View: true},
		URLs:        urlsJSON{Location: s.url("/orgs/" + t.OrgID + "/teams/" + t.ID)},
	}
}
