// Package webhook holds what outgoing webhooks need of cryptography: their
// signing secrets, made at random and sealed for the database, and the
// signature of each delivery. Queueing deliveries is the store's
// (store.Event), sending them the worker's (jobs.RunWebhookDeliveries).
package webhook

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire/store"
)

// SecretPrefix starts every signing secret, so a leaked one is recognised.
const SecretPrefix = "whsec_"

// NewSecret returns a fresh signing secret (130 random bits).
func NewSecret() string { return SecretPrefix + rand.Text() }

// The headers of every delivery.
const (
	HeaderTimestamp = "X-Quire-Timestamp" // Unix seconds of the attempt
	HeaderSignature = "X-Quire-Signature" // sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">
	HeaderEvent     = "X-Quire-Event"     // the event's name
	HeaderDelivery  = "X-Quire-Delivery"  // the delivery's id, new for a redelivery
)

// Sign returns the X-Quire-Signature of body sent at unix time ts: the
// HMAC-SHA256, keyed by the secret, of the timestamp, a dot and the body.
func Sign(secret string, ts int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(ts, 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// ErrBadSignature is a delivery that Verify refuses.
var ErrBadSignature = errors.New("webhook signature does not verify")

// Verify checks a delivery as a receiver would: the signature matches the
// timestamp and body, and the timestamp is within tolerance of now, so a
// captured delivery cannot be replayed later.
func Verify(secret, signature, timestamp string, body []byte, now time.Time, tolerance time.Duration) error {
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: bad timestamp", ErrBadSignature)
	}
	if d := now.Sub(time.Unix(ts, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: timestamp too far from now", ErrBadSignature)
	}
	if !strings.HasPrefix(signature, "sha256=") || !hmac.Equal([]byte(signature), []byte(Sign(secret, ts, body))) {
		return ErrBadSignature
	}
	return nil
}

// Sealer seals signing secrets for the database and opens them to sign.
// They are sealed, not hashed: the server must sign with them.
type Sealer struct {
	DB *store.DB
	// Key (32 bytes) seals with AES-256-GCM; when nil, a key made on first
	// use and kept in the database does (QUIRE_SECRET_KEY sets one).
	Key []byte

	mu     sync.Mutex
	stored []byte // the database's key, once read
}

// secretsKey names the server key that seals when no key is configured.
const secretsKey = "webhook-secrets"

// sealedVersion starts every sealed secret: version byte, 12-byte nonce,
// AES-256-GCM ciphertext and tag, with the webhook's id as additional data
// so that a sealed secret cannot be moved to another webhook.
const sealedVersion = 1

func (s *Sealer) aead(ctx context.Context) (cipher.AEAD, error) {
	key, err := s.key(ctx)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return cipher.NewGCMWithRandomNonce(block) // prepends a fresh random nonce
}

// key is Key, or the database's key, read once: reading it writes.
func (s *Sealer) key(ctx context.Context) ([]byte, error) {
	if s.Key != nil {
		return s.Key, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stored == nil {
		key, err := s.DB.ServerKey(ctx, secretsKey)
		if err != nil {
			return nil, err
		}
		s.stored = key
	}
	return s.stored, nil
}

// Seal seals the secret of webhook id.
func (s *Sealer) Seal(ctx context.Context, id, secret string) ([]byte, error) {
	gcm, err := s.aead(ctx)
	if err != nil {
		return nil, err
	}
	return gcm.Seal([]byte{sealedVersion}, nil, []byte(secret), []byte(id)), nil
}

// Open opens the sealed secret of webhook id.
func (s *Sealer) Open(ctx context.Context, id string, sealed []byte) (string, error) {
	if len(sealed) == 0 || sealed[0] != sealedVersion {
		return "", errors.New("sealed webhook secret: unknown format")
	}
	gcm, err := s.aead(ctx)
	if err != nil {
		return "", err
	}
	plain, err := gcm.Open(nil, nil, sealed[1:], []byte(id))
	if err != nil {
		return "", fmt.Errorf("open webhook %s secret (was the secret key changed?): %w", id, err)
	}
	return string(plain), nil
}

// Renderer revalidation calls (issue 30) are signed as GitBook's renderer
// checks them: HeaderRevalidationSignature is the hex HMAC-SHA256 of the
// body alone, keyed by the site's revalidation secret, which is sealed as
// webhooks' secrets are, under RevalidationSealID.
const HeaderRevalidationSignature = "X-Gitbook-Signature"

// SignRevalidation returns the X-Gitbook-Signature of a revalidation call's
// body.
func SignRevalidation(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// RevalidationSealID is what a site's revalidation secret is sealed for
// (Seal's id): the site, named apart from webhooks' ids, so that neither
// secret can be moved to the other.
func RevalidationSealID(siteID string) string { return "site-revalidation:" + siteID }
