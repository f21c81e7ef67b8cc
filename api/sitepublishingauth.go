package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
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

// sitePublishingAuthUpdate is the body of PATCH SITE/publishing/auth, the
// reference's SitePublishingAuthUpdate: backend (only "custom"; absent
// keeps it), fallbackURL and logoutURL (null removes one), and issuer.
type sitePublishingAuthUpdate struct {
	Backend     quire.Optional[string] `json:"backend"`
	FallbackURL quire.Optional[string] `json:"fallbackURL"`
	LogoutURL   quire.Optional[string] `json:"logoutURL"`
	Issuer      quire.Optional[string] `json:"issuer"`
}

func (b *sitePublishingAuthUpdate) Validate() error {
	if b.Backend.Set {
		switch {
		case b.Backend.Null:
			return errorf(quire.CodeInvalid, "backend: must be %q", wire.BackendCustom)
		case b.Backend.Value == "integration":
			return errorf(quire.CodeInvalid, `backend: "integration" is not supported: Quire has no visitor-auth integrations; use "custom" and sign visitors' tokens with the site's privateKey`)
		case b.Backend.Value != wire.BackendCustom:
			return errorf(quire.CodeInvalid, "backend: must be %q", wire.BackendCustom)
		}
	}
	return quire.FirstError(
		checkRemovable(b.FallbackURL, func(v string) error {
			return quire.CheckAbsoluteURL("fallbackURL", v, quire.MaxSitePublishingAuthURL)
		}),
		checkRemovable(b.LogoutURL, func(v string) error {
			return quire.CheckAbsoluteURL("logoutURL", v, quire.MaxSitePublishingAuthURL)
		}),
		checkRemovable(b.Issuer, func(v string) error { return quire.CheckLen("issuer", v, 1, quire.MaxIssuer) }),
	)
}

func (s *Server) updateSitePublishingAuth(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body sitePublishingAuthUpdate
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	auth, err := s.db.UpdateSitePublishingAuth(r.Context(), site.ID, store.SitePublishingAuthUpdate{
		FallbackURL: setValue(body.FallbackURL), LogoutURL: setValue(body.LogoutURL), Issuer: setValue(body.Issuer),
	})
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
