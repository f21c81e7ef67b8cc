package api

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/quiredocs/quire"
)

// TestTokenCache: a token's user is remembered for tokenTTL, as a copy, and
// a full cache starts over.
func TestTokenCache(t *testing.T) {
	var c tokenCache
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	key := sha256.Sum256([]byte("quire_token"))
	if u := c.get(key, now, 0); u != nil {
		t.Fatalf("empty cache: got %+v", u)
	}
	c.put(key, &quire.User{ID: "u1", DisplayName: "Ada"}, now, 0)
	u := c.get(key, now.Add(tokenTTL-time.Nanosecond), 0)
	if u == nil || u.ID != "u1" {
		t.Fatalf("within the TTL: got %+v, want u1", u)
	}
	u.DisplayName = "changed by a handler"
	if u := c.get(key, now, 0); u.DisplayName != "Ada" {
		t.Errorf("callers share the cached user: %q", u.DisplayName)
	}
	if u := c.get(key, now.Add(tokenTTL), 0); u != nil {
		t.Errorf("after the TTL: got %+v, want nil", u)
	}
	if u := c.get(key, now, 1); u != nil {
		t.Errorf("after a revocation: got %+v, want nil", u)
	}
	for i := range maxCachedTokens {
		c.put(sha256.Sum256([]byte{byte(i), byte(i >> 8)}), &quire.User{ID: "other"}, now, 0)
	}
	if n := len(c.m); n > maxCachedTokens {
		t.Errorf("cache holds %d tokens, want at most %d", n, maxCachedTokens)
	}
}
