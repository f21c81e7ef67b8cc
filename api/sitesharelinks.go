package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// A site's share links (the reference's site-share-links): those who manage
// the site (role create on it) list, create, rename, revoke (active false)
// and delete them. Each link's key opens the published share-link site: it
// is in the link's urls.published, as the reference shows it, and in key, an
// extra. The operations that take shareKey accept the key of any active
// link; a revoked or deleted link's key opens nothing, cookies included.

func (s *Server) listSiteShareLinks(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	search := query(r).Get("search")
	if err := quire.CheckLen("search", search, 0, 50); err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*store.ShareLink], error) {
		return s.db.ListShareLinks(ctx, site.ID, search, p)
	}, func(l *store.ShareLink) wire.SiteShareLink { return s.wire.SiteShareLink(site, l) })
}

func (s *Server) createSiteShareLink(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	body := wire.SiteShareLinkInput{Create: true}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	l, err := s.db.CreateShareLink(r.Context(), site.ID, body.Name.Value)
	if err != nil {
		return err
	}
	return writeCreated(w, s.url("/orgs/"+site.OrgID+"/sites/"+site.ID+"/share-links/"+l.ID), s.wire.SiteShareLink(site, l))
}

func (s *Server) updateSiteShareLink(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body wire.SiteShareLinkInput
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	name, active := body.Changes()
	l, err := s.db.UpdateShareLink(r.Context(), site.ID, r.PathValue("shareLinkId"), name, active)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.SiteShareLink(site, l))
}

// deleteSiteShareLink answers 205 when the link was deleted, 204 when there
// was none, as the reference says.
func (s *Server) deleteSiteShareLink(w http.ResponseWriter, r *http.Request) error {
	return s.removeSiteItem(w, r, "shareLinkId", s.db.DeleteShareLink)
}
