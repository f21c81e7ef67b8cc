package app

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The tokens page: the signed-in user's own API tokens, made and revoked.

type tokensData struct {
	Tokens   []store.Token
	NewToken string // just made: shown this once
	NewLabel string
	Sessions int
}

func (s *Server) tokensPage(w http.ResponseWriter, r *http.Request) error {
	return s.showTokens(w, r, "", "")
}

func (s *Server) showTokens(w http.ResponseWriter, r *http.Request, token, label string) error {
	u := user(r.Context())
	list, err := s.db.ListTokens(r.Context(), u.ID)
	if err != nil {
		return err
	}
	n, err := s.db.CountUserSessions(r.Context(), u.ID, s.now())
	if err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "tokens", "API tokens", tokensData{Tokens: list, NewToken: token, NewLabel: label, Sessions: n})
}

// createToken makes a token and shows it, once, in the answer (not stored
// anywhere a redirect could show it again).
func (s *Server) createToken(w http.ResponseWriter, r *http.Request) error {
	label := strings.TrimSpace(r.PostForm.Get("label"))
	if err := quire.CheckLen("label", label, 0, 100); err != nil {
		return err
	}
	token, err := s.db.CreateLabeledToken(r.Context(), user(r.Context()).ID, label)
	if err != nil {
		return err
	}
	return s.showTokens(w, r, token, label)
}

// revokeToken revokes one of the user's tokens; the API refuses it at once.
func (s *Server) revokeToken(w http.ResponseWriter, r *http.Request) error {
	if err := s.db.RevokeToken(r.Context(), user(r.Context()).ID, r.PathValue("hash")); err != nil {
		return err
	}
	http.Redirect(w, r, "/tokens", http.StatusSeeOther)
	return nil
}
