package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/app"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/internal/llm"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/site"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/translate"
)

// shutdownTimeout bounds how long in-flight requests may take to finish.
const shutdownTimeout = 30 * time.Second

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("serve", "quire serve [--addr HOST:PORT] [--data DIR] [--db URL] [--blobs DIR|URL] [--public-url URL]", stderr)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "address to listen on (env QUIRE_ADDR)")
	cfg.storeFlags(fs)
	fs.StringVar(&cfg.PublicURL, "public-url", cfg.PublicURL, "URL clients reach this server at; default http://ADDR (env QUIRE_PUBLIC_URL)")
	cfg.orgCreationFlag(fs)
	cfg.gitFlags(fs)
	cfg.dnsFlag(fs)
	cfg.rateLimitFlags(fs)
	cfg.gcGraceFlag(fs, "gc-grace")
	cfg.cacheBudgetFlag(fs)
	conns := limitFlags(fs)
	if helped, err := parse(fs, args, stdout); helped || err != nil {
		return err
	}
	orgCreation, err := cfg.orgCreation()
	if err != nil {
		return usageError(fs, err)
	}
	if cfg.GCGrace < 0 {
		return usageError(fs, errGCGrace)
	}
	if cfg.CacheBudget < 0 {
		return usageError(fs, errCacheBudget)
	}
	if _, err := cfg.RateLimits.parse(); err != nil {
		return usageError(fs, err)
	}
	if _, err := cfg.dns(); err != nil {
		return usageError(fs, err)
	}
	return serveStore(ctx, cfg, orgCreation, conns, stdout, stderr, firstStart)
}

// startFunc prepares a store before serve answers: the first start, or the
// demo's content. cfg.Addr is the address taken by then.
type startFunc func(ctx context.Context, db *store.DB, blobs blob.Store, cfg Config, stdout io.Writer) error

// serveStore serves cfg's store until ctx is done, after start.
func serveStore(ctx context.Context, cfg Config, orgCreation api.OrgCreation, conns *limits, stdout, stderr io.Writer, start startFunc) error {
	logs := newBatchedLog(stderr)
	defer logs.Close()
	log := slog.New(slog.NewJSONHandler(logs, nil))
	secretKey, err := cfg.secretKey()
	if err != nil {
		return err
	}
	model, err := cfg.model()
	if err != nil {
		return err
	}
	blobs, err := cfg.blobStore(ctx)
	if err != nil {
		return err
	}
	rates, err := cfg.RateLimits.parse()
	if err != nil {
		return err
	}
	limiter := ratelimit.NewLimiter()
	dns, err := cfg.dns()
	if err != nil {
		return err
	}
	if cfg.CacheBudget > 0 { // set before anything caches
		lru.Default.SetTotal(cfg.CacheBudget)
	}

	db, err := store.Open(ctx, cfg.DB, cfg.Data)
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer db.Close()

	ln, err := conns.listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	if cfg.Addr != ln.Addr().String() && cfg.PublicURL == "" {
		cfg.Addr = ln.Addr().String() // port 0 was asked for: say which port was taken
	}
	if err := start(ctx, db, blobs, cfg, stdout); err != nil {
		ln.Close()
		return err
	}

	reader := revision.New(db, appHost(cfg.publicURL()))
	sites := site.New(db, site.Config{PublicURL: cfg.publicURL(), Reader: reader, Blobs: blobs, Model: model, Logger: log,
		RateLimit: rates.ip, AskRateLimit: rates.ask, Limiter: limiter})
	// One author carries out the writes that answer to rules, for the API,
	// the app and the background jobs alike; it judges custom merge rules
	// on the API's shapes (package wire).
	author := &authoring.Author{DB: db, Blobs: blobs, Fetcher: outbound.Fetcher{AllowPrivate: cfg.AllowPrivateFetch},
		AppHost: appHost(cfg.publicURL()), PublicURL: strings.TrimRight(cfg.publicURL(), "/")}
	web, err := app.New(db, app.Config{PublicURL: cfg.publicURL(), Reader: reader, Blobs: blobs, Logger: log,
		Asker: ask.New(db, reader, model, ""), DNS: dns, Author: author})
	if err != nil {
		return err
	}
	if cfg.GitKnownHosts != "" {
		if err := gitsync.CheckKnownHosts(cfg.GitKnownHosts); err != nil {
			return fmt.Errorf("--git-known-hosts: %w", err)
		}
	}
	git := &gitsync.Syncer{DB: db, Blobs: blobs, SecretKey: secretKey, CacheDir: filepath.Join(cfg.Data, "git"), PollInterval: cfg.GitPoll, Log: log,
		Remotes: outbound.Remotes{AllowPrivate: cfg.AllowPrivateFetch, AllowFile: cfg.GitAllowFile}, KnownHosts: cfg.GitKnownHosts}
	apiSrv := api.New(db, api.Config{
		PublicURL: cfg.publicURL(), Logger: log, OrgCreation: orgCreation,
		Blobs:     blobs,
		Fetcher:   outbound.Fetcher{AllowPrivate: cfg.AllowPrivateFetch},
		SecretKey: secretKey,
		Model:     model,
		Reader:    reader,
		// SAML sign-ins started from the app's sign-in page end in
		// an app session.
		StartSession: web.StartSession,
		Git:          git,
		RateLimits:   rates.api(limiter),
		Sites:        sites,
		DNS:          dns,
		Author:       author,
	})
	srv := &http.Server{
		// Sites first (their hostnames and /sites/), then the app's pages,
		// then the API, which answers everything else (/v1/, /healthz …).
		Handler:           conns.handler(sites.Wrap(web.Wrap(apiSrv))),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelError), // JSON lines too, without touching slog's default
	}
	// The insights the sites counted since their last write are written
	// once they are served no more, before the store closes.
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := sites.FlushInsights(ctx); err != nil {
			log.Error("writing the sites' insights", "err", err)
		}
	}()
	// Background jobs stop, and are waited for, before the store closes.
	defer startJobs(ctx, db, cfg, git, author, blobs, model, apiSrv.PDFPrinter(), dns, log)()
	defer shareRateLimits(ctx, db, limiter, log)()

	log.Info("quire serving", "addr", ln.Addr().String(), "public_url", cfg.publicURL(), "db", db.Dialect())
	return serveUntilDone(ctx, srv, ln, log)
}

// appHost is the host (and port) of publicURL, "" when it has none.
func appHost(publicURL string) string {
	if u, err := url.Parse(publicURL); err == nil {
		return u.Host
	}
	return ""
}

// startJobs runs the background jobs until the returned function stops them
// and waits for them to end.
func startJobs(ctx context.Context, db *store.DB, cfg Config, git *gitsync.Syncer, author *authoring.Author, blobs blob.Collectable, model *llm.Model,
	pdfs *jobs.PDFPrinter, dns *dnscheck.Checker, log *slog.Logger) (stop func()) {
	jobsCtx, stopJobs := context.WithCancel(context.WithoutCancel(ctx))
	var running sync.WaitGroup
	running.Go(func() { webhookDeliverer(db, cfg, log).Run(jobsCtx) })
	running.Go(func() { revalidator(db, cfg, log).Run(jobsCtx) })
	running.Go(func() { jobs.RunPurger(jobsCtx, db, jobs.PurgeInterval, log) })
	running.Go(func() { jobs.RunHostnameChecker(jobsCtx, db, dns, jobs.HostnameCheckInterval, jobs.HostnameGrace, log) })
	running.Go(func() {
		jobs.RunSpecProcessor(jobsCtx, db, outbound.Fetcher{AllowPrivate: cfg.AllowPrivateFetch}, jobs.SpecPollInterval, log)
	})
	running.Go(func() { jobs.RunSearchIndexer(jobsCtx, db, jobs.SearchIndexInterval, log) })
	running.Go(func() {
		// Import runs fetch as the synchronous imports do, one at a time.
		jobs.RunImporter(jobsCtx, db, author, jobs.ImportPollInterval, log)
	})
	running.Go(func() {
		// Translation runs ask the configured model; without one, each
		// run queued before the model was removed fails saying so.
		w := &jobs.Translator{DB: db, Author: author, Translate: translate.Translator{Model: model}}
		w.Run(jobsCtx, jobs.TranslationPollInterval, log)
	})
	running.Go(func() { jobs.RunGitSync(jobsCtx, git, jobs.GitSyncInterval, log) })
	// PDFs are printed when a link's request asks; this prints those whose
	// printer died while nobody waits.
	running.Go(func() { pdfs.Run(jobsCtx, jobs.PDFPollInterval) })
	running.Go(func() { jobs.RunCollector(jobsCtx, collector(db, cfg, blobs), jobs.GCFirstDelay, jobs.GCInterval, log) })
	return func() { stopJobs(); running.Wait() }
}

// serveUntilDone serves on ln until ctx is done, then lets in-flight
// requests finish, for up to shutdownTimeout.
func serveUntilDone(ctx context.Context, srv *http.Server, ln net.Listener, log *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining in-flight requests")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// firstStart creates "My Organization", its owner and a token when the store
// is empty, prints the token once and writes it to <data>/initial-token.
func firstStart(ctx context.Context, db *store.DB, _ blob.Store, cfg Config, stdout io.Writer) error {
	b, err := db.InitIfEmpty(ctx, "My Organization", "owner@localhost", "Owner")
	if err != nil || b == nil {
		return err
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return err
	}
	path := filepath.Join(cfg.Data, "initial-token")
	if err := os.WriteFile(path, []byte(b.Token+"\n"), 0o600); err != nil {
		return fmt.Errorf("write initial token: %w", err)
	}
	fmt.Fprintf(stdout, `Quire is ready. Created organization %q (%s) with owner %s.
API token (shown once, also saved to %s):

    %s

Try it:

    curl -H "Authorization: Bearer %s" %s/v1/orgs/%s/members

`, b.Organization.Title, b.Organization.ID, b.User.Email, path, b.Token, b.Token, cfg.publicURL(), b.Organization.ID)
	return nil
}
