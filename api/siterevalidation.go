package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/wire"
)

// A site's renderer revalidation endpoint (issue 30), Quire's extension:
// where the GitBook renderer serving the site hears, signed, the cache tags
// of what changed (store.SiteRevalidation). Only the site's admins set,
// read and remove it: the calls go where they say. The secret is never
// answered back.

func (s *Server) getSiteRevalidation(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	rv, err := s.db.SiteRevalidation(r.Context(), site.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.SiteRevalidationOf(rv))
}

func (s *Server) putSiteRevalidation(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	body := wire.PutSiteRevalidation{PlainHTTP: s.allowPrivate}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	rv, err := authoring.SetSiteRevalidation(r.Context(), s.webhookSealer, site.ID, *body.URL, *body.Secret)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.SiteRevalidationOf(rv))
}

func (s *Server) deleteSiteRevalidation(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	if err := s.db.DeleteSiteRevalidation(r.Context(), site.ID); err != nil {
		return err
	}
	return noContent(w)
}
