package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/webhook"
)

// Delivering webhooks. The deliveries are rows of the store's outbox,
// written with the changes they tell of; workers claim due ones with a
// lease (FOR UPDATE SKIP LOCKED on PostgreSQL), so several servers on one
// database may all run them and none sends a delivery another holds.

// Defaults of a Deliverer's zero fields.
const (
	// WebhookTimeout bounds one attempt, connection to last byte read.
	WebhookTimeout = 10 * time.Second
	// WebhookPollInterval is how often an idle sender looks for due
	// deliveries, with one cheap read.
	WebhookPollInterval = time.Second
	// WebhookLease is how long a sender holds a claimed delivery: well above
	// WebhookTimeout. A delivery whose sender died is sent again after it.
	WebhookLease = time.Minute
	// WebhookFirstRetry is the wait after a first failed attempt; each next
	// one is up to three times longer, up to WebhookMaxRetryDelay.
	WebhookFirstRetry    = 10 * time.Second
	WebhookMaxRetryDelay = 2 * time.Hour
	// WebhookRetryFor is how long a delivery is retried before it is given up.
	WebhookRetryFor = 24 * time.Hour
	// WebhookDisableFailures failed attempts in a row, the first at least
	// WebhookDisableAfter ago, turn a webhook off.
	WebhookDisableFailures = 20
	WebhookDisableAfter    = 24 * time.Hour
	// WebhookSenders is how many deliveries a server sends at once.
	WebhookSenders = 4
	// WebhookKeep is how long the log keeps finished deliveries.
	WebhookKeep = 30 * 24 * time.Hour
	// MaxWebhookResponseBytes is how much of a receiver's answer is read
	// and kept in the log.
	MaxWebhookResponseBytes = 16 << 10
)

// Deliverer sends webhook deliveries. Zero durations and counts take the
// defaults above; tests shorten them.
type Deliverer struct {
	DB      *store.DB
	Sealer  *webhook.Sealer
	Fetcher outbound.Fetcher // its AllowPrivate also allows plain http URLs
	Log     *slog.Logger

	Poll, Lease                         time.Duration
	FirstRetry, MaxRetryDelay, RetryFor time.Duration
	Disable                             store.DisablePolicy
	Senders                             int
	Keep                                time.Duration
	pruneEvery                          time.Duration // how often the log is pruned; an hour when 0
	initOnce                            sync.Once
}

func (d *Deliverer) init() {
	d.initOnce.Do(func() {
		d.Poll = cmp.Or(d.Poll, WebhookPollInterval)
		d.Lease = cmp.Or(d.Lease, WebhookLease)
		d.FirstRetry = cmp.Or(d.FirstRetry, WebhookFirstRetry)
		d.MaxRetryDelay = cmp.Or(d.MaxRetryDelay, WebhookMaxRetryDelay)
		d.RetryFor = cmp.Or(d.RetryFor, WebhookRetryFor)
		d.Keep = cmp.Or(d.Keep, WebhookKeep)
		d.pruneEvery = cmp.Or(d.pruneEvery, time.Hour)
		d.Fetcher.Timeout = cmp.Or(d.Fetcher.Timeout, WebhookTimeout)
		if d.Disable == (store.DisablePolicy{}) {
			d.Disable = store.DisablePolicy{Failures: WebhookDisableFailures, After: WebhookDisableAfter}
		}
		if d.Senders <= 0 {
			d.Senders = WebhookSenders
		}
		if d.Log == nil {
			d.Log = slog.New(slog.DiscardHandler)
		}
	})
}

// Run sends due deliveries with Senders at once, and prunes the log, until
// ctx ends.
func (d *Deliverer) Run(ctx context.Context) {
	d.init()
	var wg sync.WaitGroup
	for range d.Senders {
		wg.Go(func() { d.runSender(ctx) })
	}
	wg.Go(func() { d.runPruner(ctx) })
	wg.Wait()
}

func (d *Deliverer) runSender(ctx context.Context) {
	every(ctx, d.Poll, func() {
		due, err := d.DB.WebhookDeliveriesDue(ctx)
		if err == nil && due {
			_, err = d.DeliverDue(ctx)
		}
		if err != nil && ctx.Err() == nil {
			d.Log.Error("deliver webhooks", "err", err)
		}
	})
}

func (d *Deliverer) runPruner(ctx context.Context) {
	every(ctx, d.pruneEvery, func() {
		if n, err := d.DB.PruneWebhookDeliveries(ctx, d.DB.Now().Add(-d.Keep)); err != nil && ctx.Err() == nil {
			d.Log.Error("prune webhook deliveries", "err", err)
		} else if n > 0 {
			d.Log.Info("pruned webhook deliveries", "deliveries", n)
		}
	})
}

// DeliverDue claims and sends due deliveries one after the other until
// none is left, and returns how many attempts it made. When ctx ends in the
// middle of one, the delivery is given back, not counted as failed.
func (d *Deliverer) DeliverDue(ctx context.Context) (int, error) {
	d.init()
	n := 0
	for ctx.Err() == nil {
		c, err := d.DB.ClaimWebhookDelivery(ctx, d.Lease)
		if err != nil || c == nil {
			return n, err
		}
		var a store.DeliveryAttempt
		if _, err := (lease.Watch{DB: d.DB, Lease: d.Lease}).Run(ctx, c.Lease(), func(ctx context.Context) error {
			a = d.send(ctx, c)
			return nil
		}); err != nil {
			return n, err
		}
		disabled, err := d.DB.FinishWebhookDelivery(ctx, c, a, d.Disable)
		if err != nil {
			return n, fmt.Errorf("finish webhook delivery %s: %w", c.ID, err)
		}
		if disabled {
			d.Log.Warn("webhook turned off after repeated failures", "webhook", c.WebhookID, "error", a.Error)
		}
		n++
	}
	return n, ctx.Err()
}

// send makes one attempt of a claimed delivery.
func (d *Deliverer) send(ctx context.Context, c *store.ClaimedDelivery) (a store.DeliveryAttempt) {
	defer func() {
		if !a.Delivered {
			a.NextAttemptAt = d.nextAttempt(c)
		}
	}()
	secret, err := d.Sealer.Open(ctx, c.WebhookID, c.Secret)
	if err != nil {
		d.Log.Error("open webhook secret", "webhook", c.WebhookID, "err", err)
		a.Error = "the webhook's secret could not be opened on the server"
		return a
	}
	if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "https" && !d.Fetcher.AllowPrivate) {
		a.Error = "the URL must be an https URL"
		return a
	}
	ts := d.DB.Now().Unix()
	body := []byte(c.Payload)
	header := http.Header{
		webhook.HeaderTimestamp: {strconv.FormatInt(ts, 10)},
		webhook.HeaderSignature: {webhook.Sign(secret, ts, body)},
		webhook.HeaderEvent:     {string(c.Event)},
		webhook.HeaderDelivery:  {c.ID},
		"User-Agent":            {"Quire-Webhooks/1"},
	}
	start := time.Now()
	res, err := d.Fetcher.Post(ctx, c.URL, header, body, MaxWebhookResponseBytes)
	a.Duration = time.Since(start)
	if err != nil {
		a.Error = err.Error() // outbound's message: never the addresses dialed
		if e, ok := errors.AsType[*outbound.Error](err); ok {
			d.Log.Info("webhook delivery failed", "webhook", c.WebhookID, "delivery", c.ID, "err", e)
		}
		return a
	}
	a.ResponseStatus = res.Status
	// Kept as text: valid UTF-8, without the NUL PostgreSQL refuses.
	a.ResponseBody = strings.ReplaceAll(strings.ToValidUTF8(string(res.Body), "\uFFFD"), "\x00", "\uFFFD")
	if a.Delivered = res.Status >= 200 && res.Status < 300; !a.Delivered {
		a.Error = fmt.Sprintf("the receiver answered %d %s", res.Status, http.StatusText(res.Status))
	}
	return a
}

// nextAttempt is when a delivery that failed its attempts so far is tried
// again: after retryWait, and at the latest when its RetryFor runs out;
// zero, giving it up, once it has.
func (d *Deliverer) nextAttempt(c *store.ClaimedDelivery) time.Time {
	now, deadline := d.DB.Now(), c.CreatedAt.Add(d.RetryFor)
	if !now.Before(deadline) {
		return time.Time{}
	}
	next := now.Add(retryWait(d.FirstRetry, d.MaxRetryDelay, c.Attempts))
	if next.After(deadline) {
		next = deadline
	}
	return next
}

// retryWait is the wait before the next attempt of work that failed its
// attempts so far: an exponential backoff with full jitter, a wait drawn
// between first and first·3ⁿ⁻¹, capped at most.
func retryWait(first, most time.Duration, attempts int) time.Duration {
	ceiling := first
	for i := 1; i < attempts && ceiling < most; i++ {
		ceiling *= 3
	}
	ceiling = max(min(ceiling, most), first)
	return first + rand.N(ceiling-first+1)
}
