package webhook_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/quiredocs/quire/store/storetest"
	"github.com/quiredocs/quire/webhook"
)

// TestSignAndVerify: the signature is the HMAC-SHA256 docs/api/webhooks.md tells
// receivers to compute; Verify refuses another body, another secret, a
// stale or future timestamp and a malformed header.
func TestSignAndVerify(t *testing.T) {
	secret, body, now := webhook.NewSecret(), []byte(`{"event":"ping"}`), time.Unix(1_800_000_000, 0)
	ts := now.Unix()
	sig := webhook.Sign(secret, ts, body)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(ts, 10) + "." + string(body)))
	if want := "sha256=" + hex.EncodeToString(mac.Sum(nil)); sig != want {
		t.Fatalf("Sign = %s, want %s", sig, want)
	}
	stamp := strconv.FormatInt(ts, 10)
	if err := webhook.Verify(secret, sig, stamp, body, now.Add(time.Minute), 5*time.Minute); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	for name, c := range map[string]struct {
		secret, sig, stamp string
		body               []byte
		now                time.Time
	}{
		"body":      {secret, sig, stamp, []byte(`{"event":"pong"}`), now},
		"secret":    {webhook.NewSecret(), sig, stamp, body, now},
		"stale":     {secret, sig, stamp, body, now.Add(6 * time.Minute)},
		"future":    {secret, sig, stamp, body, now.Add(-6 * time.Minute)},
		"timestamp": {secret, sig, "soon", body, now},
		"scheme":    {secret, "sha1=" + sig[7:], stamp, body, now},
	} {
		if err := webhook.Verify(c.secret, c.sig, c.stamp, c.body, c.now, 5*time.Minute); !errors.Is(err, webhook.ErrBadSignature) {
			t.Errorf("%s: Verify = %v, want ErrBadSignature", name, err)
		}
	}
}

// TestSealer: a sealed secret opens for its webhook only, with the
// database's key or a configured one, and is not the secret in clear.
func TestSealer(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	for _, s := range []*webhook.Sealer{{DB: db}, {DB: db, Key: bytes.Repeat([]byte{7}, 32)}} {
		secret := webhook.NewSecret()
		sealed, err := s.Seal(t.Context(), "hook1", secret)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(sealed, []byte(secret)) {
			t.Fatal("sealed secret holds the secret")
		}
		if got, err := s.Open(t.Context(), "hook1", sealed); err != nil || got != secret {
			t.Fatalf("Open = %q, %v", got, err)
		}
		if _, err := s.Open(t.Context(), "hook2", sealed); err == nil {
			t.Error("a secret sealed for one webhook opened for another")
		}
	}
	// Another sealer on the same database (another server) opens it too.
	sealed, _ := (&webhook.Sealer{DB: db}).Seal(t.Context(), "hook1", "whsec_x")
	if got, err := (&webhook.Sealer{DB: db}).Open(t.Context(), "hook1", sealed); err != nil || got != "whsec_x" {
		t.Errorf("second sealer: %q, %v", got, err)
	}
}
