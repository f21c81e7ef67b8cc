package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/store"
)

// HostnameCheckInterval is how often every custom hostname is proved again.
const HostnameCheckInterval = time.Hour

// HostnameGrace is how long a custom hostname stays served after its
// proof went away: a DNS outage or a zone being moved does not take a site
// down, and a hostname whose owner took the record off (or gave the name
// to someone else) is served no more within three days.
const HostnameGrace = 72 * time.Hour

// DNS statuses of a check (authoring.CheckHostname).
const (
	DNSPassed     = authoring.DNSPassed
	DNSWrongCNAME = authoring.DNSWrongCNAME
	DNSNoCNAME    = authoring.DNSNoCNAME
)

// CheckHostname checks h's DNS now and keeps the outcome: the one check,
// authoring.CheckHostname, under the name the app and the checker call.
func CheckHostname(ctx context.Context, db *store.DB, dns *dnscheck.Checker, h store.SiteHostname, grace time.Duration) (*store.HostnameCheck, error) {
	return authoring.CheckHostname(ctx, db, dns, h, grace)
}

// CheckHostnames proves every custom hostname again, reporting how many
// were not proved.
func CheckHostnames(ctx context.Context, db *store.DB, dns *dnscheck.Checker, grace time.Duration) (failed int, err error) {
	hs, err := db.SiteHostnames(ctx)
	if err != nil {
		return 0, err
	}
	for _, h := range hs {
		c, err := CheckHostname(ctx, db, dns, h, grace)
		if err != nil {
			return failed, fmt.Errorf("%s: %w", h.Hostname, err)
		}
		if c.Status != DNSPassed {
			failed++
		}
	}
	return failed, nil
}

// RunHostnameChecker proves the custom hostnames at start and then every
// interval until ctx ends. Checking is idempotent, so several servers on
// one database may all run it.
func RunHostnameChecker(ctx context.Context, db *store.DB, dns *dnscheck.Checker, interval, grace time.Duration, log *slog.Logger) {
	every(ctx, interval, func() {
		n, err := CheckHostnames(ctx, db, dns, grace)
		if err != nil && ctx.Err() == nil {
			log.Error("check custom hostnames", "err", err)
		} else if n > 0 {
			log.Info("custom hostnames not proved by DNS", "hostnames", n)
		}
	})
}
