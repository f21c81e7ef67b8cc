package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
)

// newID returns a random 20-character identifier matching the reference's
// EntityId pattern ^[a-zA-Z0-9_-]+$ (100 bits of randomness).
func newID() string { return strings.ToLower(rand.Text()[:20]) }

// TokenPrefix starts every API token, so leaked tokens are easy to recognise.
const TokenPrefix = "quire_"

// newToken returns a fresh API token (130 random bits) and the hash stored for it.
func newToken() (token, hash string) {
	token = TokenPrefix + rand.Text()
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// nullMicros maps a NULL column to the zero time.
func nullMicros(us *int64) time.Time {
	if us == nil {
		return time.Time{}
	}
	return fromMicros(*us)
}

// NewID returns a fresh identifier, for ids made outside the store (pages
// and files of an authoring batch).
func NewID() string { return newID() }
