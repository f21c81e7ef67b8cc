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

// shareLinkRequest is the body of POST and PATCH SITE/share-links…: name is
// required on POST; PATCH takes at least one of name and active.
type shareLinkRequest struct {
	Name   quire.Optional[string] `json:"name"`
	Active quire.Optional[bool]   `json:"active"`

	create bool
}

func (b *shareLinkRequest) Validate() error {
	if b.create && (!b.Name.Set || b.Name.Null) {
		return errorf(quire.CodeInvalid, "name: is required")
	}
	if !b.create && !b.Name.Set && !b.Active.Set {
		return errorf(quire.CodeInvalid, "name: give name or active")
	}
	if b.Name.Set && b.Name.Null {
		return errorf(quire.CodeInvalid, "name: must be a string")
	}
	return quire.FirstError(checkString("name", b.Name, 0, 50), checkBool("active", b.Active))
}

func (s *Server) createSiteShareLink(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	body := shareLinkRequest{create: true}
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
	var body shareLinkRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	l, err := s.db.UpdateShareLink(r.Context(), site.ID, r.PathValue("shareLinkId"), setValue(body.Name), setValue(body.Active))
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
