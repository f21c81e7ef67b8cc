package gitsync

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"testing"
)

// FuzzWebhookProof: whatever the headers and body, checking a webhook's
// proof never panics; a proof made with the secret always passes, and one
// made with another secret never does.
func FuzzWebhookProof(f *testing.F) {
	f.Add([]byte("secret"), []byte(`{"ref":"refs/heads/main"}`), "X-Hub-Signature-256", "sha256=00")
	f.Add([]byte("s"), []byte(""), "X-Gitea-Signature", "zz")
	f.Add([]byte("tok"), []byte("{}"), "X-Gitlab-Token", "tok")
	f.Fuzz(func(t *testing.T, secret, body []byte, header, value string) {
		if len(secret) == 0 {
			return
		}
		h := http.Header{}
		h.Set(header, value)
		signed(secret, h, body) // must not panic

		mac := hmac.New(sha256.New, secret)
		mac.Write(body)
		sig := hex.EncodeToString(mac.Sum(nil))
		if !signed(secret, http.Header{"X-Hub-Signature-256": {"sha256=" + sig}}, body) {
			t.Error("GitHub's signature made with the secret was refused")
		}
		if !signed(secret, http.Header{"X-Gitea-Signature": {sig}}, body) {
			t.Error("Gitea's signature made with the secret was refused")
		}
		other := append([]byte("x"), secret...)
		if signed(other, http.Header{"X-Hub-Signature-256": {"sha256=" + sig}}, body) {
			t.Error("a signature made with another secret passed")
		}
	})
}
