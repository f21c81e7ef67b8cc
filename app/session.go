package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/quiredocs/quire"
)

// A session lives in the browser as the cookie quire.SessionCookie, whose
// value is the session's id; the store keeps only its hash (store.Session).

// csrfCookie holds the CSRF token of forms shown before sign-in, which have
// no session to derive one from (double-submit).
const csrfCookie = "quire_csrf"

// csrfField is the form field (and csrfHeader the header, for fetch) that
// carries the CSRF token of a request that changes state.
const (
	csrfField  = "csrf"
	csrfHeader = "X-CSRF-Token"
)

// maxFormBytes bounds the forms the app reads.
const maxFormBytes = 64 << 10

// withSession adds the request's live session, and its user, to ctx. A
// cookie naming no live session is cleared.
func (s *Server) withSession(ctx context.Context, w http.ResponseWriter, r *http.Request) context.Context {
	c, err := r.Cookie(quire.SessionCookie)
	if err != nil || c.Value == "" {
		return ctx
	}
	_, u, err := s.db.SessionUser(ctx, c.Value)
	if err != nil {
		if quire.ErrorCode(err) != quire.CodeUnauthorized {
			s.cfg.Logger.Error("app: read session", "error", err)
		}
		s.clearCookie(w, r, quire.SessionCookie)
		return ctx
	}
	return context.WithValue(context.WithValue(ctx, userKey{}, u), sessionKey{}, c.Value)
}

// sessionID is the id of the request's live session, "" for none.
func sessionID(ctx context.Context) string {
	id, _ := ctx.Value(sessionKey{}).(string)
	return id
}

// StartSession signs the user in to the app in this browser: a new session
// and its cookie. The API's SAML sign-in calls it (api.Config.StartSession).
func (s *Server) StartSession(w http.ResponseWriter, r *http.Request, userID string) error {
	id, sess, err := s.db.CreateSession(r.Context(), userID)
	if err != nil {
		return err
	}
	http.SetCookie(w, s.cookie(r, quire.SessionCookie, id, sess.ExpiresAt))
	s.clearCookie(w, r, csrfCookie)
	return nil
}

// cookie is an app cookie: HttpOnly, SameSite=Lax, Secure over HTTPS.
func (s *Server) cookie(r *http.Request, name, value string, expires time.Time) *http.Cookie {
	return &http.Cookie{
		Name: name, Value: value, Path: "/", Expires: expires, HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: r.TLS != nil || strings.HasPrefix(s.cfg.PublicURL, "https://"),
	}
}

func (s *Server) clearCookie(w http.ResponseWriter, r *http.Request, name string) {
	c := s.cookie(r, name, "", time.Time{})
	c.MaxAge = -1
	http.SetCookie(w, c)
}

// csrfToken is the token the forms of this answer must send back: derived
// from the session's id when signed in, else the double-submit cookie's,
// which it sets when missing.
func (s *Server) csrfToken(w http.ResponseWriter, r *http.Request) string {
	if id := sessionID(r.Context()); id != "" {
		return sessionCSRF(id)
	}
	if c, err := r.Cookie(csrfCookie); err == nil && len(c.Value) >= 26 {
		return c.Value
	}
	token := rand.Text()
	http.SetCookie(w, s.cookie(r, csrfCookie, token, time.Time{}))
	return token
}

// sessionCSRF is the CSRF token of a session: a hash of its id, which only
// its browser holds, so it needs no storage and cannot be forged.
func sessionCSRF(id string) string {
	sum := sha256.Sum256([]byte("quire app csrf\x00" + id))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

var errCSRF = quire.Errorf(quire.CodeForbidden, "this form has expired or did not come from Quire: reload the page and try again")

// checkCSRF refuses a request that changes state unless it comes from the
// app's own pages: a same-origin request (Sec-Fetch-Site, Origin) carrying
// the token of its session, or before sign-in that of its cookie. Its body
// is read no further than limit bytes.
func (s *Server) checkCSRF(r *http.Request, limit int64) error {
	if err := s.origin.Check(r); err != nil {
		return quire.Errorf(quire.CodeForbidden, "cross-origin request refused")
	}
	r.Body = http.MaxBytesReader(nil, r.Body, limit)
	if err := r.ParseForm(); err != nil {
		return quire.Errorf(quire.CodeInvalid, "the form could not be read")
	}
	got := r.Header.Get(csrfHeader)
	if got == "" {
		got = r.PostForm.Get(csrfField)
	}
	want := ""
	if id := sessionID(r.Context()); id != "" {
		want = sessionCSRF(id)
	} else if c, err := r.Cookie(csrfCookie); err == nil {
		want = c.Value
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return errCSRF
	}
	return nil
}

// localPath is next when it is a path of this server, else "/": sign-in
// never sends anyone to another site. The path is cleaned here exactly as
// http.Redirect cleans it, and checked after cleaning, so "/./\evil.com"
// cannot become "/\evil.com" on its way out. Browsers read a backslash as a
// slash and drop tabs and line breaks, so none of those may appear at all.
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.ContainsRune(next, '\\') || strings.ContainsFunc(next, unicode.IsControl) {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || strings.ContainsRune(u.Path, '\\') {
		return "/"
	}
	p, query, hasQuery := strings.Cut(next, "?")
	cleaned := path.Clean(p)
	if strings.HasSuffix(p, "/") && !strings.HasSuffix(cleaned, "/") {
		cleaned += "/"
	}
	if strings.HasPrefix(cleaned, "//") {
		return "/"
	}
	if hasQuery {
		cleaned += "?" + query
	}
	return cleaned
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
