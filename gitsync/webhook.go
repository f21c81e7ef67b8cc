package gitsync

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
)

// Push webhooks: GitHub, Gitea and GitLab tell a space of a push to its
// branch, proving they know the connection's secret; Quire then pulls at
// once rather than at the next poll. The payload is trusted for nothing but
// the branch's name: the pull reads the repository itself.

// MaxWebhookBytes bounds a webhook's body.
const MaxWebhookBytes = 5 << 20

// Webhook checks a push webhook for a space and, when it proves the secret
// and names the connection's branch (or none), makes a pull due at once.
// A space without continuous sync, or a bad proof, is CodeNotFound or
// CodeUnauthorized; a push to another branch is accepted and ignored.
func (s *Syncer) Webhook(ctx context.Context, spaceID string, h http.Header, body []byte) error {
	conn, err := s.DB.GitSync(ctx, spaceID)
	if err != nil {
		return err
	}
	if !conn.Sync || conn.Webhook == nil {
		return quire.Errorf(quire.CodeNotFound, "this space does not sync with a Git repository")
	}
	secret, err := s.open(ctx, conn.Webhook, webhookAD(spaceID))
	if err != nil {
		return err
	}
	if !signed(secret, h, body) {
		return quire.Errorf(quire.CodeUnauthorized, "the webhook's signature or token does not match the space's webhook secret")
	}
	var push struct {
		Ref *string `json:"ref"`
	}
	if json.Unmarshal(body, &push) == nil && push.Ref != nil && *push.Ref != conn.Ref {
		return nil // another branch, or a tag
	}
	return s.DB.PullGitSyncNow(ctx, spaceID)
}

// signed reports whether a webhook proves it knows secret: GitHub's and
// Gitea's HMAC-SHA256 of the body (X-Hub-Signature-256 "sha256=<hex>",
// X-Gitea-Signature "<hex>"), or GitLab's token (X-Gitlab-Token).
func signed(secret []byte, h http.Header, body []byte) bool {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	want := mac.Sum(nil)
	check := func(hexSig string) bool {
		got, err := hex.DecodeString(strings.TrimSpace(hexSig))
		return err == nil && hmac.Equal(got, want)
	}
	if v := h.Get("X-Hub-Signature-256"); v != "" {
		sig, ok := strings.CutPrefix(v, "sha256=")
		return ok && check(sig)
	}
	if v := h.Get("X-Gitea-Signature"); v != "" {
		return check(v)
	}
	if v := h.Get("X-Gitlab-Token"); v != "" {
		return subtle.ConstantTimeCompare([]byte(v), secret) == 1
	}
	return false
}
