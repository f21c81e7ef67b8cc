// Package site serves published docs sites as HTML: each published site at
// /sites/{siteId}/ of the main address and at the root of its hostname
// (under its basename), with navigation, search, ask, llms.txt, sitemaps
// and an MCP server, for the visitors its visibility admits. It reads
// content through package revision and never imports api.
package site

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/llm"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/web"
)

// Config configures the published sites.
type Config struct {
	// PublicURL is the main address, e.g. https://quire.example.com (no
	// trailing slash); sites without a hostname are under its /sites/.
	PublicURL string
	Reader    *revision.Reader // shared with the API, so both share its caches
	Blobs     blob.Store       // the bytes of files and images
	Model     *llm.Model       // answers Ask; nil answers extractively
	Logger    *slog.Logger
	// RateLimit bounds the requests of each client address (IP) to the
	// sites, and Ask those to their Ask endpoints (~ask), which cost most;
	// zero Rates limit nothing. Limiter counts them (the API's, so that an
	// address has one budget for both); nil makes one.
	RateLimit, AskRateLimit ratelimit.Rate
	Limiter                 *ratelimit.Limiter
}

// Server serves published sites; it is safe for concurrent use.
type Server struct {
	db       *store.DB
	cfg      Config
	mainHost string // host of PublicURL, lower case, without port
	hosts    *lru.Cache[string, cachedHost]
	access   *access
	now      func() time.Time

	assets    web.Assets
	answers   *lru.Cache[string, *cachedAnswer] // rendered pages and text answers, see cache.go
	redirects *lru.Cache[string, string]        // redirect lookups: section id, "" for none
	conds     *lru.Cache[string, []string]      // page conditions of trees, by root

	insights *insights  // counts of page views, searches and questions, see insights.go
	asker    *ask.Asker // answers ~ask, see ask.go

	moved   *lru.Cache[string, map[string]string] // former page paths of spaces, see redirects.go
	movedMu sync.Mutex                            // guards walking
	walking map[string]*formerWalk                // walks of history under way, by the key of moved
}

// cachedHost is the site served at a hostname ("" for none), as of commits.
type cachedHost struct {
	siteID  string
	commits uint64
	built   time.Time
}

// New returns the published-site server of db.
func New(db *store.DB, cfg Config) *Server {
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Reader == nil {
		cfg.Reader = revision.New(db, "")
	}
	s := &Server{
		db: db, cfg: cfg, hosts: lru.New[string, cachedHost]("site.hosts"), access: newAccess(db), now: time.Now,
		assets:    loadAssets(),
		answers:   lru.New[string, *cachedAnswer]("site.answers"),
		redirects: lru.New[string, string]("site.redirects"),
		conds:     lru.New[string, []string]("site.conditions"),
		moved:     lru.New[string, map[string]string]("site.moved"),
		walking:   map[string]*formerWalk{},
		asker:     ask.New(db, cfg.Reader, cfg.Model, cfg.PublicURL),
	}
	s.insights = newInsights(db, func() time.Time { return s.now() }, func(err error) {
		s.cfg.Logger.Error("published sites: writing insights", "err", err)
	})
	if s.cfg.Limiter == nil {
		s.cfg.Limiter = ratelimit.NewLimiter()
	}
	if u, err := url.Parse(cfg.PublicURL); err == nil {
		s.mainHost = strings.ToLower(u.Hostname())
	}
	return s
}

// Wrap returns a handler that serves the published sites and passes every
// other request to next: requests for a site's hostname, and those under
// /sites/ of the main address.
func (s *Server) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if asset, ok := strings.CutPrefix(r.URL.Path, "/sites/~assets/"); ok && s.assets.Serve(w, r, asset) {
			return // on every host, for the error pages of sites that cannot be read
		}
		if host := requestHost(r); host != s.mainHost && host != "" {
			id, err := s.siteAtHost(r.Context(), host)
			if err == nil && id != "" {
				s.observe(w, r, func(w http.ResponseWriter) {
					if s.allowRate(w, r) {
						s.serveSite(w, r, id, "")
					}
				})
				return
			}
		}
		if rest, ok := strings.CutPrefix(r.URL.Path, "/sites/"); ok {
			id, _, _ := strings.Cut(rest, "/")
			if id != "" {
				s.observe(w, r, func(w http.ResponseWriter) {
					if s.allowRate(w, r) {
						s.serveSite(w, r, id, "/sites/"+id)
					}
				})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// requestHost is the lower-case host of r without its port.
func requestHost(r *http.Request) string {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// siteAtHost returns the id of the site whose hostname is host, "" when
// none; answers are cached as published sites are (revision.PublishedTTL).
func (s *Server) siteAtHost(ctx context.Context, host string) (string, error) {
	commits, now := s.db.Commits(), s.now()
	if e, ok := s.hosts.Get(host); ok && e.commits == commits && now.Sub(e.built) < revision.PublishedTTL {
		return e.siteID, nil
	}
	id, err := s.db.SiteIDByHostname(ctx, host)
	if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
		return "", err
	}
	s.hosts.Add(host, cachedHost{siteID: id, commits: commits, built: now}, len(host)+64)
	return id, nil
}
