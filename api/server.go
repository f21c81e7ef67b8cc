// Package api serves Quire's HTTP API under /v1.
package api

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/integration"
	"github.com/quiredocs/quire/internal/llm"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/sso"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/web"
	"github.com/quiredocs/quire/webhook"
	"github.com/quiredocs/quire/wire"
)

// Config configures the API server.
type Config struct {
	// PublicURL is where clients reach this server, e.g. https://docs.example.com;
	// urls.location fields are built from it.
	PublicURL string
	Logger    *slog.Logger
	// Blobs holds file bytes; required for file uploads and downloads.
	Blobs blob.Store
	// Fetcher fetches files given by URL; its zero value refuses private addresses.
	Fetcher outbound.Fetcher
	// SecretKey (32 bytes) encrypts integration and webhook secrets with AES-256-GCM; when
	// nil, a key made on first use and kept in the database does.
	SecretKey []byte
	// Model answers questions (O/ask) from the sections found for them; when
	// nil, answers quote the best section.
	Model *llm.Model
	// Imports bounds what website imports and batches fetching files by URL
	// fetch, for how long, and how many run at once (limits.go), when New
	// makes the Author.
	Imports ImportLimits
	// Author carries out the writes that answer to rules (authoring):
	// the one the server shares with the app and the background jobs. When
	// nil, New makes one over db, Blobs, Fetcher and Imports.
	Author *authoring.Author
	// OrgCreation says who may create organizations with POST /v1/orgs:
	// anyone ("" too), members (not guests) of some organization, or none.
	OrgCreation OrgCreation
	// Reader reads revisions and keeps the API's encoded answers; the
	// published sites share it so that both share its caches. Servers
	// sharing one must have the same PublicURL, which answers hold. When
	// nil, New makes one.
	Reader *revision.Reader
	// StartSession, when set, starts a web app session of the user in the
	// browser of r (setting its cookie): SAML sign-ins started for the app
	// (start?app=1) end there rather than in a page showing an API token.
	StartSession func(w http.ResponseWriter, r *http.Request, userID string) error
	// Git runs Git sync; the server only queues its operations. When nil,
	// New makes one over db that reaches the remotes Fetcher may (no
	// file:// ones).
	Git *gitsync.Syncer
	// RateLimits bound requests per token and per client address
	// (ratelimits.go); the zero value limits nothing.
	RateLimits RateLimits
	// Sites tells what the published sites show a visitor without claims,
	// for search and ask over a site (sitesearch.go); without it, they fail.
	Sites PublishedSites
	// DNS proves custom hostnames (customhostnames.go); nil asks the
	// system resolver.
	DNS *dnscheck.Checker
}

// Server is the HTTP API.
type Server struct {
	db          *store.DB
	log         *slog.Logger
	publicURL   string
	wire        wire.Links // the answers' shapes and their addresses
	mux         *http.ServeMux
	handler     http.Handler
	blobs       blob.Store
	publisher   *integration.Publisher // publishes integrations: their images, script and sealed secrets
	author      *authoring.Author      // authoring batches and imports, and the count of those fetching (limits.go)
	orgCreation *orgCreation           // who may create organizations, and how many lately (orgcreation.go)
	reader      *revision.Reader       // reads revisions, with the caches of what is derived from them and of encoded answers
	asker       *ask.Asker             // answers questions (O/ask)
	model       *llm.Model             // the configured model; nil when none (translations refuse to run)
	pdf         *pdfState              // PDF links' key and the printer of PDF exports (pdf.go)
	files       fileLinks              // the key that signs files' download URLs (filelinks.go)
	fetcher     outbound.Fetcher       // fetches the pages embeds show (embeds.go)
	embeds      *lru.Cache[string, keptEmbed]
	metrics     *metrics
	keepAlive   time.Duration // how often quiet event streams say they are alive
	openAPIState
	saml *sso.Keys // the secrets of SAML sign-ins, read once
	// startSession starts a web app session (Config.StartSession); nil
	// when there is no app.
	startSession func(w http.ResponseWriter, r *http.Request, userID string) error
	git          *gitsync.Syncer // queues Git sync operations (git.go)

	// Webhooks (webhooks.go): what seals their signing secrets, and whether
	// their URLs may be http (Fetcher.AllowPrivate) as well as https.
	webhookSealer *webhook.Sealer
	allowPrivate  bool

	limits RateLimits // per token and per client address (ratelimits.go)
	sites  PublishedSites

	dns *dnscheck.Checker // proves custom hostnames (customhostnames.go)

	siteKeys siteTokenKeys // the key site tokens are signed with (sitetokens.go)

	readTimeout  time.Duration // for a request body to arrive (deadline.go)
	writeTimeout time.Duration // for an answer to be taken, from its first byte
}

// New builds the API server over a store.
func New(db *store.DB, cfg Config) *Server {
	s := &Server{
		db:          db,
		log:         cfg.Logger,
		publicURL:   strings.TrimRight(cfg.PublicURL, "/"),
		wire:        wire.Links{PublicURL: strings.TrimRight(cfg.PublicURL, "/")},
		mux:         http.NewServeMux(),
		blobs:       cfg.Blobs,
		publisher:   &integration.Publisher{DB: db, Blobs: cfg.Blobs, SecretKey: cfg.SecretKey},
		orgCreation: newOrgCreation(cfg.OrgCreation),
		metrics:     newMetrics(),
		keepAlive:   keepAliveInterval,
		saml:        sso.NewKeys(db),
		pdf:         &pdfState{},
		fetcher:     cfg.Fetcher,
		embeds:      newEmbeds(),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.reader = cfg.Reader
	s.startSession = cfg.StartSession
	s.webhookSealer, s.allowPrivate = &webhook.Sealer{DB: db, Key: cfg.SecretKey}, cfg.Fetcher.AllowPrivate
	s.limits = cfg.RateLimits
	s.sites = cfg.Sites
	s.dns = cfg.DNS
	if s.dns == nil {
		s.dns = dnscheck.New("")
	}
	if s.limits.Limiter == nil {
		s.limits.Limiter = ratelimit.NewLimiter()
	}
	if s.reader == nil {
		s.reader = revision.New(db, s.appHost())
	}
	s.author = cfg.Author
	if s.author == nil {
		s.author = newAuthor(db, cfg, s.appHost())
	}
	s.git = cfg.Git
	if s.git == nil {
		s.git = &gitsync.Syncer{DB: db, Blobs: cfg.Blobs, SecretKey: cfg.SecretKey, Remotes: outbound.Remotes{AllowPrivate: cfg.Fetcher.AllowPrivate}}
	}
	s.readTimeout, s.writeTimeout = readBodyTimeout, writeTimeout
	s.asker = ask.New(db, s.reader, cfg.Model, s.publicURL)
	s.model = cfg.Model
	s.pdf.printer = &jobs.PDFPrinter{DB: db, Blobs: cfg.Blobs, Print: s.printExport, Log: s.log}
	s.routes()
	s.mux.HandleFunc("/", s.noRoute)
	s.handler = s.withDeadlines(s.withRequestID(s.withLog(s.withRecover(s.mux))))
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// handlerFunc is a handler that returns its error for one place to write.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle registers an authenticated API route.
func (s *Server) handle(pattern string, fn handlerFunc) { s.handleLimit(pattern, MaxBodyBytes, fn) }

// handleLimit registers an authenticated API route taking bodies of up to
// limit bytes.
func (s *Server) handleLimit(pattern string, limit int64, fn handlerFunc) {
	s.record(pattern, false)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		s.allowBody(w, r, limit)
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		a, err := s.authenticate(r)
		if err == nil {
			err = s.limitToken(w, a.limitKey())
		} else if limited := s.limitIP(w, r); limited != nil {
			err = limited // refused tokens count against the address: no guessing at speed
		}
		if err == nil && a.grant != nil {
			err = s.allowInstallation(r, pattern, a.grant)
		}
		if err == nil && a.site != nil {
			err = s.allowSiteToken(r, pattern, a.site)
		}
		if err == nil {
			r = withCaller(r, a.user)
			if info := requestInfoOf(r.Context()); info != nil {
				info.grant, info.site = a.grant, a.site
			}
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				tagRead(w, r)
				err = fn(w, r)
			} else {
				err = s.audited(w, r, a.user, fn)
			}
		}
		if err != nil {
			s.writeError(w, r, err)
		}
	})
}

// record keeps a route for the OpenAPI document.
func (s *Server) record(pattern string, public bool) {
	method, path, _ := strings.Cut(pattern, " ")
	s.routeList = append(s.routeList, route{method: method, path: path, public: public})
}

// handlePublic registers a route that needs no token.
func (s *Server) handlePublic(pattern string, fn handlerFunc) {
	s.record(pattern, true)
	limited := pattern != "GET /healthz" // load balancers ask often, from one address
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		err := error(nil)
		if limited {
			err = s.limitPublic(w, r)
		}
		if err == nil {
			tagRead(w, r)
			err = fn(w, r)
		}
		if err != nil {
			s.writeError(w, r, err)
		}
	})
}

// noRoute answers, in our JSON error shape instead of ServeMux's
// text/plain, what no route matches: 405 with Allow when the path is served
// for other methods, else 404. It is the mux's "/" route, so that a request
// is matched once: asking the mux first, then serving, matched it twice.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	probe := *r
	for _, m := range routeMethods {
		probe.Method = m
		if _, pattern := s.mux.Handler(&probe); pattern != "/" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.writeError(w, r, errorf(quire.CodeMethodNotAllowed, "method %s is not allowed here", r.Method))
		return
	}
	s.writeError(w, r, errorf(quire.CodeNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
}

// routeMethods are the methods routes are registered with, in the order
// ServeMux lists them in Allow; HEAD is served wherever GET is.
var routeMethods = []string{"DELETE", "GET", "HEAD", "PATCH", "POST", "PUT"}

// requestInfo is what the API keeps of a request in its context: one value,
// set once by withRequestID and completed by authentication, so a request
// is not copied for each.
type requestInfo struct {
	id     string
	caller *quire.User
	// grant is what an installation token was granted; nil for API tokens.
	grant *installationGrant
	// site is what a site token reaches; nil for other tokens.
	site *siteGrant
	// query is the parsed query of rawQuery (see query).
	query    url.Values
	rawQuery string
}

type requestInfoKey struct{}

func requestInfoOf(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return info
}

func requestID(ctx context.Context) string {
	if info := requestInfoOf(ctx); info != nil {
		return info.id
	}
	return ""
}

// withCaller records the authenticated caller of r.
func withCaller(r *http.Request, user *quire.User) *http.Request {
	if info := requestInfoOf(r.Context()); info != nil {
		info.caller = user
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, &requestInfo{caller: user}))
}

func (s *Server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// 63 random bits from the runtime's generator, in 16 hex digits: an
		// id to find a request by in the logs, not a secret, so not worth
		// crypto/rand's cost.
		id := strconv.FormatUint(rand.Uint64()|1<<63, 16)
		w.Header()["X-Request-Id"] = []string{id}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, &requestInfo{id: id})))
	})
}

// withLog writes one structured line per request, and counts it.
func (s *Server) withLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &web.StatusWriter{ResponseWriter: w}
		s.metrics.inFlight.Inc()
		defer s.metrics.inFlight.Dec()
		next.ServeHTTP(rec, r)
		s.metrics.observe(r.Pattern, rec.Status, time.Since(start)) // the mux sets Pattern on r
		// The record is made by hand, without the caller's program counter
		// that Logger.LogAttrs looks up for every line (no source is logged).
		if h := s.log.Handler(); h.Enabled(r.Context(), slog.LevelInfo) {
			line := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
			line.AddAttrs(
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", rec.Status),
				slog.Duration("duration", time.Since(start)),
				slog.String("request_id", requestID(r.Context())))
			h.Handle(r.Context(), line)
		}
	})
}

// withRecover turns a panicking handler into a logged 500.
func (s *Server) withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.writeError(w, r, &quire.Error{Code: quire.CodeInternal, Message: "internal error", Err: panicError{p}})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type panicError struct{ v any }

func (p panicError) Error() string { return "panic: " + fmt.Sprint(p.v) }
