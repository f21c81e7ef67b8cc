package authoring_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/webhook"
)

// TestCreateWebhook checks that the secret returned is the one stored,
// sealed for this webhook, and that a refused webhook leaves nothing.
func TestCreateWebhook(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	sealer := &webhook.Sealer{DB: f.db}
	n := store.NewWebhook{OrgID: f.space.OrgID, URL: "https://hooks.example.com/q", Events: []quire.WebhookEvent{quire.EventAll}, CreatedBy: f.userID}
	hook, secret, err := authoring.CreateWebhook(ctx, sealer, n)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, webhook.SecretPrefix) || hook.ID == "" || !hook.Active {
		t.Fatalf("created %+v with secret %q", hook, secret)
	}
	var stored string
	if err := f.raw.QueryRowContext(ctx, "SELECT secret FROM webhooks WHERE id = $1", hook.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	sealed, err := base64.StdEncoding.DecodeString(stored)
	if err != nil {
		t.Fatal(err)
	}
	if opened, err := sealer.Open(ctx, hook.ID, sealed); err != nil || opened != secret {
		t.Fatalf("stored secret opens to %q, %v; want the one returned", opened, err)
	}
	n.SpaceID = "nope"
	if _, _, err := authoring.CreateWebhook(ctx, sealer, n); quire.ErrorCode(err) != quire.CodeInvalid {
		t.Fatalf("webhook of no space: %v, want invalid", err)
	}
	var count int
	if err := f.raw.QueryRowContext(ctx, "SELECT COUNT(*) FROM webhooks").Scan(&count); err != nil || count != 1 {
		t.Fatalf("%d webhooks stored, %v; want 1", count, err)
	}
}
