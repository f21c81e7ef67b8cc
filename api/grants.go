package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Grants give users and teams a role on a space, a collection or a site,
// with the same handlers for all three: grantSubject tells them apart. A
// site's grants are kept as those on spaces and collections are
// (store.GrantRoles, content kind "site"); a member's role on a site is the
// stronger of their organization role and the roles granted on it to them
// and their teams, so a guest granted edit edits the site as an editor of the
// organization would. The one difference is the reference's: removing a
// site's grant answers whether there was one (removeGrant).

// grantSubject loads what the path names as the subject of grants,
// requiring the caller's role on it to be at least need: s.content for a
// space or a collection, s.siteContent for a site.
type grantSubject func(r *http.Request, need quire.Role) (store.Content, error)

// content loads the space or collection named in the path as the subject of
// grants, requiring the caller's role on it to be at least need.
func (s *Server) content(r *http.Request, need quire.Role) (store.Content, error) {
	if r.PathValue("spaceId") != "" {
		sp, _, err := s.space(r, need)
		if err != nil {
			return store.Content{}, err
		}
		return store.Content{Kind: "space", ID: sp.ID, OrgID: sp.OrgID, Level: sp.DefaultLevel, Ancestors: sp.Ancestors}, nil
	}
	c, _, err := s.collection(r, need)
	if err != nil {
		return store.Content{}, err
	}
	return store.Content{Kind: "collection", ID: c.ID, OrgID: c.OrgID, Level: c.DefaultLevel, Ancestors: c.Ancestors}, nil
}

// siteContent is the site named in the path as the subject of grants,
// requiring the caller's role on it to be at least need.
func (s *Server) siteContent(r *http.Request, need quire.Role) (store.Content, error) {
	site, _, err := s.site(r, need)
	if err != nil {
		return store.Content{}, err
	}
	return store.Content{Kind: "site", ID: site.ID, OrgID: site.OrgID, Level: quire.LevelInherit}, nil
}

// invite grants a role to users and teams. Contract: reference
// InviteUsersAndTeams; null removes their grants.
func (s *Server) invite(on grantSubject) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := on(r, quire.RoleAdmin)
		if err != nil {
			return err
		}
		var body wire.InviteUsersAndTeams
		if err := readRequest(w, r, &body); err != nil {
			return err
		}
		if err := s.db.GrantRoles(r.Context(), c, body.Users, body.Teams, body.Grant()); err != nil {
			return err
		}
		return noContent(w)
	}
}

func (s *Server) listUserGrants(on grantSubject) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := on(r, quire.RoleRead)
		if err != nil {
			return err
		}
		return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*store.UserGrant], error) {
			return s.db.ListUserGrants(ctx, c.ID, p)
		}, func(g *store.UserGrant) wire.UserPermission {
			return wire.UserPermission{Permission: g.Role, User: s.wire.User(&g.User)}
		})
	}
}

func (s *Server) listTeamGrants(on grantSubject) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := on(r, quire.RoleRead)
		if err != nil {
			return err
		}
		var team func(*quire.Team) wire.Team
		return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*store.TeamGrant], error) {
			list, err := s.db.ListTeamGrants(ctx, c.ID, p)
			if err != nil {
				return nil, err
			}
			me, err := s.db.Membership(ctx, c.OrgID, caller(ctx).ID)
			if err != nil {
				return nil, err
			}
			team, err = s.teamsJSON(ctx, me)
			return list, err
		}, func(g *store.TeamGrant) wire.TeamPermission {
			return wire.TeamPermission{Permission: g.Role, Team: team(&g.Team)}
		})
	}
}

// listAccess lists everyone who can access the content, with their
// effective role; role filters to one role. A site's list also says where
// each role comes from.
func (s *Server) listAccess(on grantSubject) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := on(r, quire.RoleRead)
		if err != nil {
			return err
		}
		if c.Kind == "site" {
			return listAccessAs(w, r, s.db, c, func(a *store.Access) wire.SiteAccess { return s.wire.SiteAccess(c.OrgID, c.ID, a) })
		}
		return listAccessAs(w, r, s.db, c, func(a *store.Access) wire.UserPermission {
			return wire.UserPermission{Permission: a.Role, User: s.wire.User(&a.User)}
		})
	}
}

// listAccessAs writes the page of those who can access c, with their
// effective role, as toJSON makes each; the query's role filters to one
// role.
func listAccessAs[J any](w http.ResponseWriter, r *http.Request, db *store.DB, c store.Content, toJSON func(*store.Access) J) error {
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*store.Access], error) {
		var only *quire.Role
		if q := query(r); q.Has("role") {
			role, ok := quire.ParseRole(q.Get("role"))
			if !ok {
				return nil, errorf(quire.CodeInvalid, "role: must be one of admin, create, review, edit, comment, read")
			}
			only = &role
		}
		return db.ListContentAccess(ctx, c, only, p)
	}, toJSON)
}

// updateGrant sets (or, with null, removes) one user's or team's role.
func (s *Server) updateGrant(on grantSubject, principalKind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := on(r, quire.RoleAdmin)
		if err != nil {
			return err
		}
		var body wire.UpdatePermission
		if err := readRequest(w, r, &body); err != nil {
			return err
		}
		users, teams := []string{principalID(r, principalKind)}, []string(nil)
		if principalKind == "team" {
			users, teams = nil, users
		}
		if err := s.db.GrantRoles(r.Context(), c, users, teams, body.Grant()); err != nil {
			return err
		}
		return noContent(w)
	}
}

// removeGrant removes one user's or team's role. On a space or a
// collection it answers 204; on a site, 205 when it removed a grant and
// 204 when there was none, as the reference says.
func (s *Server) removeGrant(on grantSubject, principalKind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := on(r, quire.RoleAdmin)
		if err != nil {
			return err
		}
		revoked, err := s.db.RevokeGrant(r.Context(), c, principalKind, principalID(r, principalKind))
		if err != nil {
			return err
		}
		if c.Kind != "site" {
			return noContent(w)
		}
		return resetOrNoContent(w, revoked)
	}
}

// principalID is the user or team the path names, by principalKind.
func principalID(r *http.Request, principalKind string) string {
	if principalKind == "team" {
		return r.PathValue("teamId")
	}
	return r.PathValue("userId")
}
