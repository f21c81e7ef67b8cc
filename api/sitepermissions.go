package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
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
func (s *Server) siteContent(r *http.Request, need quire.Role) (store.Content, error) {
	site, _, err := s.site(r, need)
	if err != nil {
		return store.Content{}, err
	}
	return store.Content{Kind: "site", ID: site.ID, OrgID: site.OrgID, Level: quire.LevelInherit}, nil
}

// removeSiteGrant answers 205 when it removed a grant, 204 when there was
// none, as the reference says.
func (s *Server) removeSiteGrant(principalKind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := s.siteContent(r, quire.RoleAdmin)
		if err != nil {
			return err
		}
		revoked, err := s.db.RevokeGrant(r.Context(), c, principalKind, principalID(r, principalKind))
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

// listSiteAccess lists every member who reads the site, with their role on
// it and where it comes from; role filters to one role, as on spaces.
func (s *Server) listSiteAccess(w http.ResponseWriter, r *http.Request) error {
	c, err := s.siteContent(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listAccess(w, r, s.db, c, func(a *store.Access) wire.SiteAccess { return s.wire.SiteAccess(c.OrgID, c.ID, a) })
}
