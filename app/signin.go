package app

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
)

// Signing in: through an organization's SAML identity provider (the API's
// sign-in routes, which end in a session here), with a one-time link that
// `quire admin login-link` prints, or with an API token.

type providerLink struct {
	Label, StartURL string
}

type signInData struct {
	Org       *quire.Organization // whose providers are listed; nil for none
	Providers []providerLink
	Next      string
	Error     string
}

// signInPage lists the SSO providers of the organization of ?org=, or of
// the server's only organization, and the other ways to sign in.
func (s *Server) signInPage(w http.ResponseWriter, r *http.Request) error {
	if user(r.Context()) != nil {
		http.Redirect(w, r, localPath(r.URL.Query().Get("next")), http.StatusSeeOther)
		return nil
	}
	return s.showSignIn(w, r, http.StatusOK, "")
}

func (s *Server) showSignIn(w http.ResponseWriter, r *http.Request, status int, message string) error {
	d := signInData{Next: localPath(r.FormValue("next")), Error: message}
	var err error
	if id := r.URL.Query().Get("org"); id != "" {
		d.Org, err = s.db.Organization(r.Context(), id)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			d.Org, err = nil, nil
		}
	} else {
		d.Org, err = s.db.SoleOrganization(r.Context())
	}
	if err != nil {
		return err
	}
	if d.Org != nil {
		providers, err := s.db.SSOLogins(r.Context(), d.Org.ID)
		if err != nil {
			return err
		}
		for _, p := range providers {
			if p.Active() {
				d.Providers = append(d.Providers, providerLink{Label: p.Label,
					StartURL: "/v1/orgs/" + p.OrgID + "/saml/" + p.ID + "/start?app=1"})
			}
		}
	}
	return s.render(w, r, status, "signin", "Sign in", d)
}

// signInWithToken starts a session for the owner of the API token posted.
func (s *Server) signInWithToken(w http.ResponseWriter, r *http.Request) error {
	token := strings.TrimSpace(r.PostForm.Get("token"))
	u, err := s.db.UserByToken(r.Context(), token)
	if quire.ErrorCode(err) == quire.CodeUnauthorized || token == "" {
		return s.showSignIn(w, r, http.StatusUnauthorized, "That API token is not valid.")
	}
	if err != nil {
		return err
	}
	return s.signedIn(w, r, u.ID)
}

type linkData struct{ Token, Next string }

// loginLinkPage asks to confirm a one-time link before using it up: mail
// scanners and link previews open links, and must not spend them.
func (s *Server) loginLinkPage(w http.ResponseWriter, r *http.Request) error {
	return s.render(w, r, http.StatusOK, "signin-link", "Sign in", linkData{Token: r.URL.Query().Get("token"), Next: localPath(r.URL.Query().Get("next"))})
}

// signInWithLink uses up a one-time link and starts a session of its user.
func (s *Server) signInWithLink(w http.ResponseWriter, r *http.Request) error {
	userID, err := s.db.UseLoginLink(r.Context(), r.PostForm.Get("token"))
	if quire.ErrorCode(err) == quire.CodeUnauthorized {
		return s.showSignIn(w, r, http.StatusUnauthorized, "This sign-in link is not valid: it was already used or has expired. Ask for a new one.")
	}
	if err != nil {
		return err
	}
	return s.signedIn(w, r, userID)
}

// signedIn starts the session of a user who just signed in and sends them
// on; a session already in this browser ends first.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request, userID string) error {
	if id := sessionID(r.Context()); id != "" {
		if err := s.db.DeleteSession(r.Context(), id); err != nil {
			return err
		}
	}
	if err := s.StartSession(w, r, userID); err != nil {
		return err
	}
	http.Redirect(w, r, localPath(r.PostForm.Get("next")), http.StatusSeeOther)
	return nil
}

// signOut ends this browser's session.
func (s *Server) signOut(w http.ResponseWriter, r *http.Request) error {
	if err := s.db.DeleteSession(r.Context(), sessionID(r.Context())); err != nil {
		return err
	}
	s.clearCookie(w, r, quire.SessionCookie)
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
	return nil
}

// signOutEverywhere ends every session of the user, in every browser.
func (s *Server) signOutEverywhere(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.db.DeleteUserSessions(r.Context(), user(r.Context()).ID); err != nil {
		return err
	}
	s.clearCookie(w, r, quire.SessionCookie)
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
	return nil
}
