package api

import (
	"net/http"
	"net/url"
	"path"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/sso"
)

// A pending SAML sign-in lives in the browser that started it, in a cookie
// whose value package sso signs and verifies.

// samlStateCookie is the cookie holding a pending sign-in. Its path is the
// provider's sign-in folder, so sign-ins through different providers do not
// clash.
const samlStateCookie = "quire_saml"

// setSAMLState keeps the pending sign-in st through provider p in the
// browser until it expires.
func (s *Server) setSAMLState(w http.ResponseWriter, r *http.Request, p *quire.SAMLProvider, st sso.State) error {
	value, err := s.saml.SignState(r.Context(), st)
	if err != nil {
		return err
	}
	c := s.samlStateCookie(r, p)
	c.Value = value
	c.MaxAge = int(time.Until(st.Expires).Seconds())
	http.SetCookie(w, c)
	return nil
}

// clearSAMLState forgets the browser's pending sign-in through p.
func (s *Server) clearSAMLState(w http.ResponseWriter, r *http.Request, p *quire.SAMLProvider) {
	c := s.samlStateCookie(r, p)
	c.MaxAge = -1
	http.SetCookie(w, c)
}

// readSAMLState returns the browser's pending sign-in through p, if its
// cookie is there, signed by a server of this database, and not expired.
func (s *Server) readSAMLState(r *http.Request, p *quire.SAMLProvider) (sso.State, error) {
	c, err := r.Cookie(samlStateCookie)
	if err != nil {
		return sso.State{}, sso.ErrNoState
	}
	return s.saml.VerifyState(r.Context(), c.Value, p.ID)
}

// samlStateCookie is the cookie's attributes. The identity provider posts
// its answer from another site, so over HTTPS the cookie is SameSite=None
// (which browsers accept only when Secure); over plain HTTP (a local
// server) it names no SameSite, which browsers still send on a top-level
// POST made within two minutes of setting it.
func (s *Server) samlStateCookie(r *http.Request, p *quire.SAMLProvider) *http.Cookie {
	c := &http.Cookie{Name: samlStateCookie, Path: "/", HttpOnly: true}
	if u, err := url.Parse(s.wire.SAMLServiceOf(p).ACSURL); err == nil {
		c.Path = path.Dir(u.Path)
		c.Secure = u.Scheme == "https"
	}
	if c.Secure || r.TLS != nil {
		c.Secure, c.SameSite = true, http.SameSiteNoneMode
	}
	return c
}
