package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/store"
)

// Default rate limits: none per API token (scripts and the benchmark send
// thousands of requests a second with one), and per client address for
// what needs no token: the published sites, sign-in and requests with a
// refused token, and, more tightly, the sites' Ask, which may call a model.
const (
	defaultRateToken = "0"
	defaultRateIP    = "1200/min"
	defaultRateAsk   = "30/min"
)

// rateSyncEvery is how often servers on PostgreSQL add their counts to the
// database and learn the others': the limit is shared to within it.
const rateSyncEvery = time.Second

// rateLimitConfig holds the rate limit settings as written.
type rateLimitConfig struct {
	Token, IP, Ask string
}

func defaultRateLimits() rateLimitConfig {
	c := rateLimitConfig{Token: defaultRateToken, IP: defaultRateIP, Ask: defaultRateAsk}
	for env, dst := range map[string]*string{"QUIRE_RATE_LIMIT_TOKEN": &c.Token, "QUIRE_RATE_LIMIT_IP": &c.IP, "QUIRE_RATE_LIMIT_ASK": &c.Ask} {
		if v := os.Getenv(env); v != "" {
			*dst = v
		}
	}
	return c
}

// rateLimitFlags adds --rate-limit-token, --rate-limit-ip and
// --rate-limit-ask.
func (c *Config) rateLimitFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.RateLimits.Token, "rate-limit-token", c.RateLimits.Token,
		"requests per API token, N/s, N/min, N/hour or N/day; 0 for no limit (env QUIRE_RATE_LIMIT_TOKEN)")
	fs.StringVar(&c.RateLimits.IP, "rate-limit-ip", c.RateLimits.IP,
		"requests per client address to published sites and to the API without a valid token; 0 for no limit (env QUIRE_RATE_LIMIT_IP)")
	fs.StringVar(&c.RateLimits.Ask, "rate-limit-ask", c.RateLimits.Ask,
		"questions per client address to published sites' Ask; 0 for no limit (env QUIRE_RATE_LIMIT_ASK)")
}

// rates reads the rate limit settings.
type rates struct{ token, ip, ask ratelimit.Rate }

func (c rateLimitConfig) parse() (r rates, err error) {
	for _, f := range []struct {
		name, env, value string
		dst              *ratelimit.Rate
	}{
		{"--rate-limit-token", "QUIRE_RATE_LIMIT_TOKEN", c.Token, &r.token},
		{"--rate-limit-ip", "QUIRE_RATE_LIMIT_IP", c.IP, &r.ip},
		{"--rate-limit-ask", "QUIRE_RATE_LIMIT_ASK", c.Ask, &r.ask},
	} {
		if *f.dst, err = ratelimit.ParseRate(f.value); err != nil {
			return r, fmt.Errorf("%s (env %s): %w", f.name, f.env, err)
		}
	}
	return r, nil
}

// api is the API's share of the limits.
func (r rates) api(l *ratelimit.Limiter) api.RateLimits {
	return api.RateLimits{Token: r.token, IP: r.ip, Limiter: l}
}

// shareRateLimits makes the servers on one PostgreSQL database share their
// counts, until the returned function stops it; one server on SQLite needs
// no sharing.
func shareRateLimits(ctx context.Context, db *store.DB, l *ratelimit.Limiter, log *slog.Logger) (stop func()) {
	if db.Dialect() != "postgres" {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.SyncEvery(ctx, db, rateSyncEvery, func(err error) { log.Warn("rate limits: sharing counts", "err", err) })
	}()
	return func() { cancel(); <-done }
}
