package jobs

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/webhook"
)

// Revalidation calls (issue 30): telling the GitBook renderer that serves
// a site which of its cached answers changed, by POSTing {"tags":[…]},
// signed, to the site's revalidation endpoint. The calls are rows queued
// with the changes (store.SiteRevalidation); workers claim due ones with a
// lease, as webhook deliveries are, and retry a failed call with a backoff
// up to RevalidateMaxAttempts attempts.

// Defaults of a Revalidator's zero fields.
const (
	// RevalidateTimeout bounds one call, connection to last byte read.
	RevalidateTimeout = 10 * time.Second
	// RevalidatePollInterval is how often an idle worker looks for due
	// calls, with one cheap read.
	RevalidatePollInterval = time.Second
	// RevalidateLease is how long a worker holds a claimed call: well
	// above RevalidateTimeout.
	RevalidateLease = time.Minute
	// RevalidateFirstRetry is the wait after a first failed attempt; each
	// next one is up to three times longer, up to RevalidateMaxRetryDelay.
	RevalidateFirstRetry    = 5 * time.Second
	RevalidateMaxRetryDelay = 10 * time.Minute
	// RevalidateMaxAttempts is how many times a call is tried before it is
	// given up: about an hour of retries with the delays above.
	RevalidateMaxAttempts = 10
	// maxRevalidateResponseBytes is how much of the renderer's answer is
	// read: only its status matters.
	maxRevalidateResponseBytes = 4 << 10
)

// Revalidator makes revalidation calls. Zero durations and counts take the
// defaults above; tests shorten them.
type Revalidator struct {
	DB      *store.DB
	Sealer  *webhook.Sealer
	Fetcher outbound.Fetcher // its AllowPrivate also allows plain http URLs
	Log     *slog.Logger

	Poll, Lease               time.Duration
	FirstRetry, MaxRetryDelay time.Duration
	MaxAttempts               int
	initOnce                  sync.Once
}

func (v *Revalidator) init() {
	v.initOnce.Do(func() {
		v.Poll = cmp.Or(v.Poll, RevalidatePollInterval)
		v.Lease = cmp.Or(v.Lease, RevalidateLease)
		v.FirstRetry = cmp.Or(v.FirstRetry, RevalidateFirstRetry)
		v.MaxRetryDelay = cmp.Or(v.MaxRetryDelay, RevalidateMaxRetryDelay)
		v.MaxAttempts = cmp.Or(v.MaxAttempts, RevalidateMaxAttempts)
		v.Fetcher.Timeout = cmp.Or(v.Fetcher.Timeout, RevalidateTimeout)
		if v.Log == nil {
			v.Log = slog.New(slog.DiscardHandler)
		}
	})
}

// Run makes due calls until ctx ends.
func (v *Revalidator) Run(ctx context.Context) {
	v.init()
	every(ctx, v.Poll, func() {
		due, err := v.DB.RevalidationCallsDue(ctx)
		if err == nil && due {
			_, err = v.CallDue(ctx)
		}
		if err != nil && ctx.Err() == nil {
			v.Log.Error("revalidation calls", "err", err)
		}
	})
}

// CallDue claims and makes due calls one after the other until none is
// left, and returns how many attempts it made.
func (v *Revalidator) CallDue(ctx context.Context) (int, error) {
	v.init()
	n := 0
	for ctx.Err() == nil {
		c, err := v.DB.ClaimRevalidationCall(ctx, v.Lease)
		if err != nil || c == nil {
			return n, err
		}
		var a store.RevalidationAttempt
		out, err := (lease.Watch{DB: v.DB, Lease: v.Lease, Max: v.MaxAttempts,
			GiveUp: "given up: the call was claimed too often by workers that stopped"}).Run(ctx, c.Lease(), func(ctx context.Context) error {
			a = v.call(ctx, c)
			return nil
		})
		if err != nil {
			return n, err
		}
		if !out.GaveUp {
			if err := v.DB.FinishRevalidationCall(ctx, c, a); err != nil {
				return n, fmt.Errorf("finish revalidation call %s: %w", c.ID, err)
			}
		}
		n++
	}
	return n, ctx.Err()
}

// call makes one attempt of a claimed call.
func (v *Revalidator) call(ctx context.Context, c *store.RevalidationCall) (a store.RevalidationAttempt) {
	defer func() {
		if !a.Done && c.Attempts < v.MaxAttempts {
			a.NextAttemptAt = v.DB.Now().Add(retryWait(v.FirstRetry, v.MaxRetryDelay, c.Attempts))
		}
		if !a.Done {
			v.Log.Info("revalidation call failed", "site", c.SiteID, "attempt", c.Attempts, "err", a.Error)
		}
	}()
	secret, err := v.Sealer.Open(ctx, webhook.RevalidationSealID(c.SiteID), c.Secret)
	if err != nil {
		v.Log.Error("open revalidation secret", "site", c.SiteID, "err", err)
		a.Error = "the secret could not be opened on the server"
		return a
	}
	if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "https" && !v.Fetcher.AllowPrivate) {
		a.Error = "the URL must be an https URL"
		return a
	}
	body, err := json.Marshal(struct {
		Tags []string `json:"tags"`
	}{c.Tags})
	if err != nil {
		a.Error = err.Error()
		return a
	}
	header := http.Header{
		"Content-Type":                      {"application/json"},
		webhook.HeaderRevalidationSignature: {webhook.SignRevalidation(secret, body)},
		"User-Agent":                        {"Quire-Revalidate/1"},
	}
	res, err := v.Fetcher.Post(ctx, c.URL, header, body, maxRevalidateResponseBytes)
	if err != nil {
		a.Error = err.Error() // outbound's message: never the addresses dialed
		return a
	}
	a.Status = res.Status
	if a.Done = res.Status >= 200 && res.Status < 300; !a.Done {
		a.Error = fmt.Sprintf("the renderer answered %d %s", res.Status, http.StatusText(res.Status))
	}
	return a
}
