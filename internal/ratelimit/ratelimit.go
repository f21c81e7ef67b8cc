// Package ratelimit counts, in memory, what each key (a user, say) did
// within a sliding window of time, so that more than a limit can be refused
// until the oldest leaves the window.
package ratelimit

import (
	"sync"
	"time"
)

// Window counts events by key within a span of time; it is safe for
// concurrent use.
type Window struct {
	limit int
	span  time.Duration
	mu    sync.Mutex
	made  map[string][]time.Time // by key: events within the window, oldest first
	sweep time.Time              // when keys with none left in the window were last dropped
}

// New returns a Window allowing limit events per key within span.
func New(limit int, span time.Duration) *Window {
	return &Window{limit: limit, span: span, made: map[string][]time.Time{}}
}

// Reserve counts one event of key at now and returns release, which takes
// it back (for work that then failed). When key already has limit events
// within the window ending at now, nothing is counted: release is nil and
// wait is how long until the oldest of them leaves the window.
func (w *Window) Reserve(key string, now time.Time) (release func(), wait time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	since := now.Add(-w.span)
	if now.Sub(w.sweep) > w.span {
		for k, times := range w.made {
			if len(times) == 0 || !times[len(times)-1].After(since) {
				delete(w.made, k)
			}
		}
		w.sweep = now
	}
	times := w.made[key]
	for len(times) > 0 && !times[0].After(since) {
		times = times[1:]
	}
	if len(times) >= w.limit {
		w.made[key] = times
		return nil, times[0].Add(w.span).Sub(now)
	}
	w.made[key] = append(times, now)
	return func() { w.release(key, now) }, 0
}

// release takes back the event of key at t.
func (w *Window) release(key string, t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	times := w.made[key]
	for i := len(times) - 1; i >= 0; i-- {
		if times[i].Equal(t) {
			w.made[key] = append(times[:i:i], times[i+1:]...)
			return
		}
	}
}
