package app

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// An organization's settings, for its admins: members and their roles,
// teams and their members, and the SSO providers with their metadata.

type teamView struct {
	Team    *quire.Team
	Members []*quire.TeamMembership
}

type orgSettingsData struct {
	Org     *quire.Organization
	Me      *quire.Member
	Invites invitesView
	Roles   []quire.Role
	Members []*quire.Member
	Teams   []teamView
	SSO     []samlView
	Domains domainsView
}

func (s *Server) orgSettingsPage(w http.ResponseWriter, r *http.Request) error {
	return s.showOrgSettings(w, r, invitesView{})
}

// showOrgSettings answers the organization's settings, with the invites
// just made (whose links are shown only then).
func (s *Server) showOrgSettings(w http.ResponseWriter, r *http.Request, made invitesView) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	ctx, all := r.Context(), store.Page{Limit: maxListed}
	d := orgSettingsData{Me: me, Roles: roleChoices}
	if d.Org, err = s.db.Organization(ctx, me.OrgID); err != nil {
		return err
	}
	if d.Invites, err = s.invitesView(ctx, d.Org, made); err != nil {
		return err
	}
	if d.Members, err = listAll(s.db.ListMembers(ctx, me.OrgID, store.MemberFilter{Ascending: true}, all)); err != nil {
		return err
	}
	teams, err := listAll(s.db.ListTeams(ctx, me.OrgID, store.TeamFilter{}, all))
	if err != nil {
		return err
	}
	for _, t := range teams {
		members, err := listAll(s.db.ListTeamMembers(ctx, me.OrgID, t.ID, all))
		if err != nil {
			return err
		}
		d.Teams = append(d.Teams, teamView{Team: t, Members: members})
	}
	providers, err := listAll(s.db.ListSAMLProviders(ctx, me.OrgID, all))
	if err != nil {
		return err
	}
	for _, p := range providers {
		d.SSO = append(d.SSO, s.samlView(p))
	}
	if d.Domains, err = s.domainsView(ctx, d.Org, strings.ToLower(r.URL.Query().Get("domain"))); err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "settings-org", "Settings · "+d.Org.Title, d)
}

// orgSettingsURL is where a form of the organization's settings leads back.
func orgSettingsURL(orgID string) string { return quire.AppPath(orgSettingsPath, orgID) }

// changeMemberRole sets a member's role ("none" makes them a guest), as
// PATCH O/members/{userId}: admins only; the last admin stays (409).
func (s *Server) changeMemberRole(w http.ResponseWriter, r *http.Request) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	m, err := s.db.Member(r.Context(), me.OrgID, r.PathValue("userId"))
	if err != nil {
		return err
	}
	role, err := formRole(r, "role")
	if err != nil {
		return err
	}
	if _, err := s.db.UpdateMemberRole(r.Context(), me.OrgID, m.User.ID, role); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}

// removeMember removes a member, as DELETE O/members/{userId} does for
// admins; the last admin stays (409).
func (s *Server) removeMember(w http.ResponseWriter, r *http.Request) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	m, err := s.db.Member(r.Context(), me.OrgID, r.PathValue("userId"))
	if err != nil {
		return err
	}
	if err := s.db.RemoveMember(r.Context(), me.OrgID, m.User.ID, me.User.ID); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}

// createTeam creates an empty team, as PUT O/teams: admins only.
func (s *Server) createTeam(w http.ResponseWriter, r *http.Request) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	title, err := formValue(r, "title", 1, 64)
	if err != nil {
		return err
	}
	if _, err := s.db.CreateTeam(r.Context(), me.OrgID, title, nil); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}

// managedTeam loads the team of the path for who may manage its members:
// the organization's admins and the team's owners, as the API allows.
func (s *Server) managedTeam(r *http.Request) (*quire.Team, *quire.Member, error) {
	me, err := s.orgMembership(r)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.db.Team(r.Context(), me.OrgID, r.PathValue("teamId"))
	if err != nil {
		return nil, nil, err
	}
	role, err := s.db.TeamRole(r.Context(), t.ID, me.User.ID)
	if err == nil && !quire.CanManageTeam(me, role) {
		err = quire.Errorf(quire.CodeForbidden, "only organization admins and team owners may manage this team")
	}
	return t, me, err
}

// addTeamMember adds a member of the organization to a team, as PUT
// O/teams/{teamId}/members/{userId}.
func (s *Server) addTeamMember(w http.ResponseWriter, r *http.Request) error {
	t, me, err := s.managedTeam(r)
	if err != nil {
		return err
	}
	id, err := formValue(r, "user", 1, 256)
	if err != nil {
		return err
	}
	role := quire.TeamMember
	if r.PostForm.Get("role") == string(quire.TeamOwner) {
		role = quire.TeamOwner
	}
	if err := s.db.PutTeamMember(r.Context(), me.OrgID, t.ID, id, role); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}

// removeTeamMember takes a member out of a team, as DELETE
// O/teams/{teamId}/members/{userId}.
func (s *Server) removeTeamMember(w http.ResponseWriter, r *http.Request) error {
	t, me, err := s.managedTeam(r)
	if err != nil {
		return err
	}
	if err := s.db.RemoveTeamMember(r.Context(), me.OrgID, t.ID, r.PathValue("userId")); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}
