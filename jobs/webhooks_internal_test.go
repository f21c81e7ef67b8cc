package jobs

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestWebhookBackoff: after the nth failed attempt the wait is drawn
// between the first retry's and 3ⁿ⁻¹ times it, capped; never past the
// delivery's retry window, and none once the window has passed.
func TestWebhookBackoff(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := created
	db.Now = func() time.Time { return now }
	d := &Deliverer{DB: db}
	d.init()
	c := &store.ClaimedDelivery{WebhookDelivery: quire.WebhookDelivery{CreatedAt: created}}
	for n, ceiling := range map[int]time.Duration{1: 10 * time.Second, 2: 30 * time.Second, 3: 90 * time.Second, 6: 2430 * time.Second, 20: 2 * time.Hour} {
		c.Attempts = n
		for range 50 {
			wait := d.nextAttempt(c).Sub(now)
			if wait < d.FirstRetry || wait > ceiling {
				t.Fatalf("after attempt %d waits %v, want %v to %v", n, wait, d.FirstRetry, ceiling)
			}
		}
	}
	now = created.Add(WebhookRetryFor - time.Minute)
	c.Attempts = 20
	if next := d.nextAttempt(c); !next.Equal(created.Add(WebhookRetryFor)) {
		t.Errorf("near the end of the window: next %v, want the window's end", next)
	}
	now = created.Add(WebhookRetryFor)
	if next := d.nextAttempt(c); !next.IsZero() {
		t.Errorf("past the window: next %v, want given up", next)
	}
}
