package ratelimit

import (
	"testing"
	"time"
)

// TestWindow: a key has at most limit events within the span, others
// apart; a refusal says when the oldest leaves; released events do not count.
func TestWindow(t *testing.T) {
	t.Parallel()
	w := New(2, time.Hour)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	steps := []struct {
		key      string
		at       time.Duration // after t0
		wantWait time.Duration // 0: allowed
		release  bool
	}{
		{"a", 0, 0, false},
		{"a", 10 * time.Minute, 0, false},
		{"a", 20 * time.Minute, 40 * time.Minute, false},
		{"b", 20 * time.Minute, 0, false},
		{"a", time.Hour, 0, true}, // the first left; released at once
		{"a", time.Hour + time.Minute, 0, false},
		{"a", time.Hour + 2*time.Minute, 8 * time.Minute, false},
		{"a", 3 * time.Hour, 0, false}, // after a sweep
	}
	for i, s := range steps {
		release, wait := w.Reserve(s.key, t0.Add(s.at))
		if wait != s.wantWait || (release == nil) != (s.wantWait != 0) {
			t.Fatalf("step %d (%s at %v): wait %v, release %t; want wait %v", i, s.key, s.at, wait, release != nil, s.wantWait)
		}
		if s.release {
			release()
		}
	}
}
