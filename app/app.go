// Package app is Quire's web app: server-rendered pages where people sign
// in, find and read their organizations' documentation, and manage their
// API tokens. Its routes come from the patterns of package quire
// (applinks.go), which the API's urls.app links are built from. It makes
// the same permission checks as the API, through the same store and quire
// functions, and imports neither api nor site.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/web"
)

// Config configures the app.
type Config struct {
	// PublicURL is the main address, e.g. https://quire.example.com (no
	// trailing slash).
	PublicURL string
	Reader    *revision.Reader // shared with the API and the sites, for their caches
	Blobs     blob.Store       // the bytes of files and images; nil shows none
	// Author carries out the writes that answer to rules (merges, the
	// editor's batches, reviews), and judges custom merge rules on what its
	// RulesEnv renders: the one cmd/quire shares with the API and the
	// background jobs. Required.
	Author *authoring.Author
	Logger *slog.Logger
	// Asker answers the ask box, with the server's model if it has one;
	// nil answers by quoting the best source.
	Asker *ask.Asker
	// DNS proves e-mail domains and custom hostnames (dnscheck); nil asks
	// the system resolver.
	DNS *dnscheck.Checker
}

// Server serves the app; it is safe for concurrent use.
type Server struct {
	db     *store.DB
	cfg    Config
	mux    *http.ServeMux
	assets web.Assets
	origin *http.CrossOriginProtection
}

// New returns the app of db. cfg.Author is required: the app's writes go
// through the same services as the API's.
func New(db *store.DB, cfg Config) (*Server, error) {
	if cfg.Author == nil {
		return nil, errors.New("app: Config.Author is required")
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Reader == nil {
		cfg.Reader = revision.New(db, "")
	}
	if cfg.DNS == nil {
		cfg.DNS = dnscheck.New("")
	}
	s := &Server{db: db, cfg: cfg, mux: http.NewServeMux(), assets: loadAssets(), origin: http.NewCrossOriginProtection()}
	s.routes()
	return s, nil
}

// prefixes are the paths the app answers, besides "/" itself; every other
// path (/v1/, /healthz, /metrics, /sites/ …) goes on to the next handler.
var prefixes = []string{"/o/", "/s/", "/c/", "/integrations/", "/signin", "/signout", "/tokens", "/~app/"}

// Wrap returns a handler serving the app's paths and passing every other
// request to next.
func (s *Server) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.owns(r.URL.Path) {
			s.serve(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) owns(path string) bool {
	if path == "/" {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(path, p) || strings.TrimSuffix(p, "/") == path {
			return true
		}
	}
	return false
}

// serve routes an app request: the session is read once, and paths the app
// owns without a route answer its 404 page.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &web.StatusWriter{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.cfg.Logger.Error("app: panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if sw.Status == 0 {
				s.writeError(sw, r, errors.New("panic"))
			}
		}
	}()
	r = r.WithContext(s.withSession(r.Context(), sw, r))
	if _, pattern := s.mux.Handler(r); pattern == "" {
		s.writeError(sw, r, quire.Errorf(quire.CodeNotFound, "page not found"))
	} else {
		s.mux.ServeHTTP(sw, r)
	}
	// One line per request, never its query (sign-in links carry tokens).
	s.cfg.Logger.Info("app request", "method", r.Method, "path", r.URL.Path, "status", sw.Status, "duration", time.Since(start))
}

// handlerFunc is an app handler: it writes its answer or returns an error,
// which writeError answers.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle registers a page anyone may open.
func (s *Server) handle(pattern string, h handlerFunc) {
	s.mux.Handle(pattern, s.adapt(h, false, maxFormBytes))
}

// handleSignedIn registers a page for signed-in users; others are sent to
// sign in first.
func (s *Server) handleSignedIn(pattern string, h handlerFunc) {
	s.mux.Handle(pattern, s.adapt(h, true, maxFormBytes))
}

// handleSignedInUpTo is handleSignedIn for posts whose bodies may be up to
// limit bytes, more than a form's (the editor's saves and uploads).
func (s *Server) handleSignedInUpTo(pattern string, limit int64, h handlerFunc) {
	s.mux.Handle(pattern, s.adapt(h, true, limit))
}

func (s *Server) adapt(h handlerFunc, signedIn bool, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if signedIn && user(r.Context()) == nil {
			s.toSignIn(w, r)
			return
		}
		if r.Method == http.MethodPost {
			if err := s.checkCSRF(r, limit); err != nil {
				s.writeError(w, r, err)
				return
			}
			// A signed-in user's post is audited as the API's writes are
			// (api/audit.go); signing in and out are sessions, not writes.
			if u := user(r.Context()); u != nil && !strings.HasPrefix(r.URL.Path, "/signout") {
				r = r.WithContext(store.WithAudit(r.Context(), web.AuditIntent(r, u, quire.AuditSourceApp)))
			}
		}
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// toSignIn sends a visitor who is not signed in to the sign-in page, to
// come back to where they were going.
func (s *Server) toSignIn(w http.ResponseWriter, r *http.Request) {
	to := "/signin"
	if r.Method == http.MethodGet && r.URL.Path != "/" {
		to += "?next=" + urlQueryEscape(r.URL.RequestURI())
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// now is the app's clock: the store's, which tests set.
func (s *Server) now() time.Time { return s.db.Now() }

type userKey struct{}
type sessionKey struct{}

// user is the signed-in user of a request, nil for none.
func user(ctx context.Context) *quire.User {
	u, _ := ctx.Value(userKey{}).(*quire.User)
	return u
}
