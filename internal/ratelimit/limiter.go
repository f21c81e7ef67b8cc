package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Rate is how many requests a key may make per span of time; a zero Limit
// allows any number.
type Rate struct {
	Limit int
	Per   time.Duration
}

// On reports whether the rate limits anything.
func (r Rate) On() bool { return r.Limit > 0 && r.Per > 0 }

// String writes r as ParseRate reads it.
func (r Rate) String() string {
	if !r.On() {
		return "0"
	}
	for _, u := range rateUnits {
		if r.Per == u.span {
			return strconv.Itoa(r.Limit) + "/" + u.name
		}
	}
	return strconv.Itoa(r.Limit) + "/" + r.Per.String()
}

var rateUnits = []struct {
	name string
	span time.Duration
}{{"s", time.Second}, {"min", time.Minute}, {"hour", time.Hour}, {"day", 24 * time.Hour}}

// ParseRate reads a rate written N/UNIT, UNIT one of s, min, hour, day or
// a Go duration (10s, 5m); "0" (or "") is no limit.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return Rate{}, nil
	}
	n, unit, ok := strings.Cut(s, "/")
	limit, err := strconv.Atoi(n)
	if !ok || err != nil || limit < 0 {
		return Rate{}, fmt.Errorf("rate %q: want N/UNIT, e.g. 600/min, or 0 for none", s)
	}
	for _, u := range rateUnits {
		if unit == u.name {
			return Rate{Limit: limit, Per: u.span}, nil
		}
	}
	per, err := time.ParseDuration(unit)
	if err != nil || per < time.Second || per%time.Second != 0 {
		return Rate{}, fmt.Errorf("rate %q: the span must be s, min, hour, day or whole seconds such as 30s", s)
	}
	return Rate{Limit: limit, Per: per}, nil
}

// Decision is what Take decided, with what the X-RateLimit headers say.
type Decision struct {
	Allowed   bool
	Limit     int
	Remaining int
	Reset     time.Time // when the window ends and the count starts over
}

// RetryAfter is how long a refused caller should wait, in whole seconds,
// at least one.
func (d Decision) RetryAfter(now time.Time) int {
	s := int((d.Reset.Sub(now) + time.Second - 1) / time.Second)
	return max(s, 1)
}

// Limiter counts requests by key in fixed windows aligned on the Unix
// epoch (so every server agrees where a window starts). It counts in memory;
// with a Shared store, Sync adds what this server counted to the store and
// learns what all servers counted, so that servers sharing a database share
// their limits within a Sync period. It is safe for concurrent use.
type Limiter struct {
	// Now tells the time; time.Now when nil.
	Now     func() time.Time
	maxKeys int // per shard: maxKeysPerShard but in tests
	seed    maphash.Seed
	shards  [64]shard
}

type shard struct {
	mu sync.Mutex
	m  map[string]*counter
}

// counter is a key's count in its current window.
type counter struct {
	window  int64 // start, Unix seconds
	span    int64 // seconds
	limit   int64 // of the rate last counted under
	total   int64 // all servers' count as best known: the store's at the last Sync, plus ours since
	pending int64 // ours not yet added to the store
}

// NewLimiter returns an empty Limiter.
func NewLimiter() *Limiter {
	l := &Limiter{seed: maphash.MakeSeed(), maxKeys: maxKeysPerShard}
	for i := range l.shards {
		l.shards[i].m = map[string]*counter{}
	}
	return l
}

// Clock returns the time as the limiter tells it.
func (l *Limiter) Clock() time.Time { return l.now() }

func (l *Limiter) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// maxKeysPerShard bounds memory: a shard this full forgets windows that
// have ended, and if none has, starts over (letting some callers through
// rather than growing without bound).
const maxKeysPerShard = 1 << 14

// Take counts one request of key under rate, unless key has used its
// limit in the current window; a rate that is not On allows everything.
func (l *Limiter) Take(key string, rate Rate) Decision {
	if !rate.On() {
		return Decision{Allowed: true}
	}
	span := int64(rate.Per / time.Second)
	now := l.now().Unix()
	window := now - now%span
	d := Decision{Limit: rate.Limit, Reset: time.Unix(window+span, 0)}
	sh := &l.shards[maphash.String(l.seed, key)%uint64(len(l.shards))]
	sh.mu.Lock()
	c := sh.m[key]
	if c == nil {
		if len(sh.m) >= l.maxKeys {
			sh.forget(now, l.maxKeys)
		}
		c = &counter{}
		sh.m[key] = c
	}
	if c.window != window || c.span != span {
		c.window, c.span, c.total, c.pending = window, span, 0, 0
	}
	c.limit = int64(rate.Limit)
	if c.total < c.limit {
		c.total++
		c.pending++
		d.Allowed = true
	}
	d.Remaining = max(rate.Limit-int(c.total), 0)
	sh.mu.Unlock()
	return d
}

// forget drops the counters of ended windows, or all when none has ended;
// sh.mu is held.
func (sh *shard) forget(now int64, maxKeys int) {
	for k, c := range sh.m {
		if c.window+c.span <= now {
			delete(sh.m, k)
		}
	}
	if len(sh.m) >= maxKeys {
		clear(sh.m)
	}
}

// Count is one key's requests in one window, as a Shared store keeps it.
type Count struct {
	Key     string // SHA-256 of the limiter's key, hex: no token or address is stored
	Window  int64  // start, Unix seconds
	N       int64
	Expires int64 // Unix seconds after which the count may be deleted
}

// Shared keeps the counts of servers sharing a database.
type Shared interface {
	// AddRateCounts adds each count's N (perhaps 0) to the stored count of
	// its key and window, and returns the sums, in order.
	AddRateCounts(ctx context.Context, counts []Count) ([]int64, error)
	// DeleteRateCounts deletes counts expired before now.
	DeleteRateCounts(ctx context.Context, now int64) error
}

// Sync adds what this server counted since the last Sync to shared and
// takes in the totals of all servers for the keys it counted anew or that
// have used half their limit, and drops counters of ended windows.
func (l *Limiter) Sync(ctx context.Context, shared Shared) error {
	now := l.now().Unix()
	type pushed struct {
		key string
		c   *counter
		n   int64
	}
	var sent []pushed
	var counts []Count
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		for k, c := range sh.m {
			switch {
			case c.window+c.span <= now:
				delete(sh.m, k)
			case c.pending > 0 || 2*c.total >= c.limit:
				// Those with nothing new but half their limit used are
				// read back too: the others' count may have grown. Quiet
				// keys are not, to keep the statements few; their next
				// request here is counted and synced.
				sum := sha256.Sum256([]byte(k))
				counts = append(counts, Count{Key: hex.EncodeToString(sum[:]), Window: c.window, N: c.pending, Expires: c.window + c.span})
				sent = append(sent, pushed{k, c, c.pending})
				c.pending = 0
			}
		}
		sh.mu.Unlock()
	}
	if len(counts) == 0 {
		return nil
	}
	totals, err := shared.AddRateCounts(ctx, counts)
	if err != nil {
		// Counted again next time: the store had none of them.
		for i, p := range sent {
			sh := &l.shards[maphash.String(l.seed, p.key)%uint64(len(l.shards))]
			sh.mu.Lock()
			if p.c.window == counts[i].Window {
				p.c.pending += p.n
			}
			sh.mu.Unlock()
		}
		return err
	}
	for i, p := range sent {
		sh := &l.shards[maphash.String(l.seed, p.key)%uint64(len(l.shards))]
		sh.mu.Lock()
		if p.c.window == counts[i].Window {
			// Ours since the push are in pending and not yet in the store.
			p.c.total = max(p.c.total, totals[i]+p.c.pending)
		}
		sh.mu.Unlock()
	}
	return nil
}

// SyncEvery runs Sync every period until ctx is done, deleting expired
// counts from shared every minute; errors go to logErr.
func (l *Limiter) SyncEvery(ctx context.Context, shared Shared, period time.Duration, logErr func(error)) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	lastSweep := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := l.Sync(ctx, shared); err != nil && ctx.Err() == nil {
			logErr(err)
		}
		if now := l.now(); now.Sub(lastSweep) >= time.Minute {
			lastSweep = now
			if err := shared.DeleteRateCounts(ctx, now.Unix()); err != nil && ctx.Err() == nil {
				logErr(err)
			}
		}
	}
}
