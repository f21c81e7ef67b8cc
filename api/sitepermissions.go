package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Members' and teams' roles on a site (the reference's site-permissions and
// site-users): grants kept as those on spaces and collections are
// (store.GrantRoles, content kind "site"). A member's role on the site is the
// stronger of their organization role and the roles granted on the site to
// them and their teams (siteRole): a guest granted edit reads and edits the
// site as an editor of the organization would. Those who read the site read
// its grants; its admins (role admin on it) change them, as on spaces.

// siteContent is the site named in the path as the subject of grants,
// requiring the caller's role on it to be at least need.
func (s *Server) siteContent(r *http.Request, need quire.Role) (*quire.Site, store.Content, error) {
	site, _, err := s.site(r, need)
	if err != nil {
		return nil, store.Content{}, err
	}
	return site, store.Content{Kind: "site", ID: site.ID, OrgID: site.OrgID, Level: quire.LevelInherit}, nil
}

func (s *Server) inviteToSite(w http.ResponseWriter, r *http.Request) error {
	_, c, err := s.siteContent(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	var body inviteRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if err := s.db.GrantRoles(r.Context(), c, body.Users, body.Teams, body.role()); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) updateSiteGrant(principalKind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		_, c, err := s.siteContent(r, quire.RoleAdmin)
		if err != nil {
			return err
		}
		return s.setGrant(w, r, c, principalKind) // null removes the grant, as on spaces
	}
}

// removeSiteGrant answers 205 when it removed a grant, 204 when there was
// none, as the reference says.
func (s *Server) removeSiteGrant(principalKind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		_, c, err := s.siteContent(r, quire.RoleAdmin)
		if err != nil {
			return err
		}
		id := r.PathValue("userId")
		if principalKind == "team" {
			id = r.PathValue("teamId")
		}
		revoked, err := s.db.RevokeGrant(r.Context(), c, principalKind, id)
		if err != nil {
			return err
		}
		if !revoked {
			return noContent(w)
		}
		w.WriteHeader(http.StatusResetContent)
		return nil
	}
}

func (s *Server) listSiteUserGrants(w http.ResponseWriter, r *http.Request) error {
	_, c, err := s.siteContent(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*store.UserGrant], error) {
		return s.db.ListUserGrants(ctx, c.ID, p)
	}, func(g *store.UserGrant) userPermissionJSON {
		return userPermissionJSON{Permission: g.Role, User: s.userJSON(&g.User)}
	})
}

func (s *Server) listSiteTeamGrants(w http.ResponseWriter, r *http.Request) error {
	_, c, err := s.siteContent(r, quire.RoleRead)
	if err != nil {
		return err
	}
	var team func(*quire.Team) teamJSON
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
	}, func(g *store.TeamGrant) teamPermissionJSON {
		return teamPermissionJSON{Permission: g.Role, Team: team(&g.Team)}
	})
}

// siteAccessJSON is the reference's UserSitePermission.
type siteAccessJSON struct {
	Permission quire.Role     `json:"permission"`
	User       userJSON       `json:"user"`
	Origin     siteOriginJSON `json:"origin"`
	Disabled   bool           `json:"disabled"`
}

// siteOriginJSON is where a member's role on a site comes from: the
// organization, or a grant on the site (to them, or to one of their teams).
type siteOriginJSON struct {
	Type         string `json:"type"`
	Organization string `json:"organization,omitempty"`
	Site         string `json:"site,omitempty"`
	Reason       string `json:"reason,omitempty"`
}

// listSiteAccess lists every member who reads the site, with their role on
// it and where it comes from; role filters to one role, as on spaces.
func (s *Server) listSiteAccess(w http.ResponseWriter, r *http.Request) error {
	site, c, err := s.siteContent(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*store.Access], error) {
		var only *quire.Role
		if q := query(r); q.Has("role") {
			role, ok := quire.ParseRole(q.Get("role"))
			if !ok {
				return nil, errorf(quire.CodeInvalid, "role: must be one of admin, create, review, edit, comment, read")
			}
			only = &role
		}
		return s.db.ListContentAccess(ctx, c, only, p)
	}, func(a *store.Access) siteAccessJSON {
		origin := siteOriginJSON{Type: "organization", Organization: site.OrgID}
		if a.Granted {
			origin = siteOriginJSON{Type: "site", Site: site.ID, Reason: "team"}
			if a.Direct {
				origin.Reason = "member"
			}
		}
		return siteAccessJSON{Permission: a.Role, User: s.userJSON(&a.User), Origin: origin, Disabled: a.Disabled}
	})
}
