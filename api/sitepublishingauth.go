package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// A site's publishing auth (the reference's site-publishing-auth
// operations) is how its visitor-auth visitors are admitted: the key that
// signs their tokens, where to sign in and out, and Quire's extension, the
// issuer tokens must name. Only those who manage the site (role create, as
// for its share links) read it, since it shows the key.

func (s *Server) getSitePublishingAuth(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	auth, err := s.db.SitePublishingAuth(r.Context(), site.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.SitePublishingAuthOf(auth))
}

func (s *Server) updateSitePublishingAuth(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body wire.SitePublishingAuthUpdate
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	auth, err := s.db.UpdateSitePublishingAuth(r.Context(), site.ID, body.Update())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.SitePublishingAuthOf(auth))
}

// regenerateSitePublishingAuth gives the site a new key: visitors' tokens
// signed with the old one, and the cookies that keep them, stop working at
// once (within revision.PublishedTTL on other servers).
func (s *Server) regenerateSitePublishingAuth(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	auth, err := s.db.RegenerateSitePublishingAuth(r.Context(), site.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.SitePublishingAuthOf(auth))
}
