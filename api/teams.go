package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// team loads the team named in the path, the caller's membership of its
// organization and the caller's role in the team ("" if none).
func (s *Server) team(r *http.Request) (*quire.Team, *quire.Member, quire.TeamRole, error) {
	me, err := s.membership(r)
	if err != nil {
		return nil, nil, "", err
	}
	t, err := s.db.Team(r.Context(), me.OrgID, r.PathValue("teamId"))
	if err != nil {
		return nil, nil, "", err
	}
	role, err := s.db.TeamRole(r.Context(), t.ID, me.User.ID)
	return t, me, role, err
}

// managedTeam is team for operations on a team's members: org admins and the
// team's owners only.
func (s *Server) managedTeam(r *http.Request) (*quire.Team, *quire.Member, error) {
	t, me, role, err := s.team(r)
	if err == nil && !quire.CanManageTeam(me, role) {
		err = errorf(quire.CodeForbidden, "only organization admins and team owners may manage this team")
	}
	return t, me, err
}

// adminTeam is team for changes to the team itself: org admins only.
func (s *Server) adminTeam(r *http.Request) (*quire.Team, *quire.Member, quire.TeamRole, error) {
	t, me, role, err := s.team(r)
	if err == nil {
		err = requireAdmin(me)
	}
	return t, me, role, err
}

func (s *Server) listTeams(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	var team func(*quire.Team) wire.Team
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.Team], error) {
		q := query(r)
		var owner *string
		if q.Has("owner") {
			owner = new(q.Get("owner"))
		}
		list, err := s.author.Teams(ctx, me.OrgID, q.Get("title"), owner, p)
		if err != nil {
			return nil, err
		}
		team, err = s.teamsJSON(ctx, me)
		return list, err
	}, func(t *quire.Team) wire.Team { return team(t) })
}

// teamsJSON shapes the teams of a list as me sees them: each with whether
// me owns it.
func (s *Server) teamsJSON(ctx context.Context, me *quire.Member) (func(*quire.Team) wire.Team, error) {
	owned, err := s.db.OwnedTeams(ctx, me.OrgID, me.User.ID)
	if err != nil {
		return nil, err
	}
	return func(t *quire.Team) wire.Team { return s.wire.Team(t, me, ownerRole(owned[t.ID])) }, nil
}

func (s *Server) createTeam(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	var body wire.CreateOrganizationTeam
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	t, err := s.db.CreateTeam(r.Context(), me.OrgID, *body.Title, body.Members)
	if err != nil {
		return err
	}
	out := s.wire.Team(t, me, "")
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getTeam(w http.ResponseWriter, r *http.Request) error {
	t, me, role, err := s.team(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Team(t, me, role))
}

func (s *Server) deleteTeam(w http.ResponseWriter, r *http.Request) error {
	t, me, _, err := s.adminTeam(r)
	if err != nil {
		return err
	}
	if err := s.db.DeleteTeam(r.Context(), me.OrgID, t.ID); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) updateTeam(w http.ResponseWriter, r *http.Request) error {
	t, me, role, err := s.adminTeam(r)
	if err != nil {
		return err
	}
	var body wire.UpdateTeamInOrganization
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if t, err = s.db.RenameTeam(r.Context(), me.OrgID, t.ID, *body.Title); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Team(t, me, role))
}

func (s *Server) listTeamMembers(w http.ResponseWriter, r *http.Request) error {
	t, me, _, err := s.team(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.TeamMembership], error) {
		return s.db.ListTeamMembers(ctx, me.OrgID, t.ID, p)
	}, func(tm *quire.TeamMembership) wire.TeamMemberItem {
		item := wire.TeamMemberItem{Organization: s.wire.Member(&tm.Member), Team: wire.TeamMember{Role: tm.Role}}
		item.Permissions.View = true
		return item
	})
}

func (s *Server) updateTeamMembers(w http.ResponseWriter, r *http.Request) error {
	var body wire.UpdateMembersInOrganizationTeam
	return s.writeTeamMembers(w, r, &body, func(ctx context.Context, orgID, teamID string) error {
		return s.db.UpdateTeamMembers(ctx, orgID, teamID, body.Update())
	})
}

func (s *Server) putTeamMember(w http.ResponseWriter, r *http.Request) error {
	var body wire.AddMemberToOrganizationTeam
	return s.writeTeamMembers(w, r, &body, func(ctx context.Context, orgID, teamID string) error {
		return s.db.PutTeamMember(ctx, orgID, teamID, r.PathValue("userId"), body.TeamRole())
	})
}

// writeTeamMembers checks that the caller manages the team in the path,
// reads the request into body, changes the team's members with write and
// answers 204.
func (s *Server) writeTeamMembers(w http.ResponseWriter, r *http.Request, body validator, write func(ctx context.Context, orgID, teamID string) error) error {
	t, me, err := s.managedTeam(r)
	if err != nil {
		return err
	}
	if err := readRequest(w, r, body); err != nil {
		return err
	}
	if err := write(r.Context(), me.OrgID, t.ID); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) removeTeamMember(w http.ResponseWriter, r *http.Request) error {
	t, me, err := s.managedTeam(r)
	if err != nil {
		return err
	}
	if err := s.db.RemoveTeamMember(r.Context(), me.OrgID, t.ID, r.PathValue("userId")); err != nil {
		return err
	}
	return noContent(w)
}
