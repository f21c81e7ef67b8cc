package ratelimit

import (
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]Rate{
		"": {}, "0": {}, "600/min": {600, time.Minute}, "10/s": {10, time.Second}, "5000/hour": {5000, time.Hour},
		"100/day": {100, 24 * time.Hour}, "7/30s": {7, 30 * time.Second}, "0/min": {0, time.Minute},
	} {
		got, err := ParseRate(in)
		if err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"600", "x/min", "-1/min", "10/ms", "10/1.5s", "10/fortnight", "10/0s"} {
		if _, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q) accepted", in)
		}
	}
}

// FuzzParseRate: whatever ParseRate accepts writes back to itself.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"600/min", "0", "7/30s", "1/2h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRate(s)
		if err != nil {
			return
		}
		back, err := ParseRate(r.String())
		if err != nil || (back != r && (back.On() || r.On())) {
			t.Fatalf("%q read as %v, written %q, read back as %v (%v)", s, r, r.String(), back, err)
		}
	})
}

// TestLimiterWindows: a key's requests are counted in windows aligned on
// the epoch; each key has its own count; refusals are not counted.
func TestLimiterWindows(t *testing.T) {
	now := time.Unix(1_800_000_000+59, 0)
	l := NewLimiter()
	l.Now = func() time.Time { return now }
	rate := Rate{Limit: 2, Per: time.Minute}
	for i, want := range []bool{true, true, false, false} {
		if d := l.Take("a", rate); d.Allowed != want || d.Reset != time.Unix(1_800_000_060, 0) || d.RetryAfter(now) != 1 {
			t.Errorf("request %d: %+v", i, d)
		}
	}
	if d := l.Take("b", rate); !d.Allowed || d.Remaining != 1 {
		t.Errorf("another key: %+v", d)
	}
	now = now.Add(time.Second)
	if d := l.Take("a", rate); !d.Allowed || d.Remaining != 1 {
		t.Errorf("next window: %+v", d)
	}
	if d := l.Take("a", Rate{}); !d.Allowed {
		t.Error("no rate refused")
	}
}

// TestLimiterBounded: a flood of new keys does not grow the limiter
// without bound.
func TestLimiterBounded(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := NewLimiter()
	l.maxKeys, l.Now = 64, func() time.Time { return now }
	hour, second := Rate{Limit: 1, Per: time.Hour}, Rate{Limit: 1, Per: time.Second}
	for i := range 3 * l.maxKeys * len(l.shards) {
		l.Take(strconv.Itoa(i), hour)
	}
	for i := range l.shards {
		if n := len(l.shards[i].m); n > l.maxKeys {
			t.Fatalf("shard %d holds %d keys", i, n)
		}
	}
	// Ended windows go first: a key of the current one survives a flood of
	// keys whose windows end.
	l = NewLimiter()
	l.maxKeys, l.Now = 64, func() time.Time { return now }
	day := Rate{Limit: 1, Per: 24 * time.Hour}
	l.Take("kept", day)
	for i := range 3 * l.maxKeys * len(l.shards) {
		l.Take(strconv.Itoa(i), second)
		now = now.Add(time.Second)
	}
	if d := l.Take("kept", day); d.Allowed {
		t.Error("a flood of short windows made a key forget its count")
	}
}

func TestClientKey(t *testing.T) {
	for addr, want := range map[string]string{
		"203.0.113.7:443": "ip:203.0.113.7", "[2001:db8:1:2:3::9]:443": "ip:2001:db8:1:2::/64", "@": "ip:@",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = addr
		if got := ClientKey(r); got != want {
			t.Errorf("ClientKey(%q) = %q, want %q", addr, got, want)
		}
	}
}

// BenchmarkTake is the cost a limited request adds: one count, in memory.
func BenchmarkTake(b *testing.B) {
	l := NewLimiter()
	rate := Rate{Limit: 1 << 62, Per: time.Minute}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Take("quire_0123456789abcdefghijklmnop", rate)
		}
	})
}
