package store_test

import (
	"errors"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestWebhookOutboxIsTransactional: an event is queued with the change
// that causes it, and not at all when that change rolls back.
func TestWebhookOutboxIsTransactional(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitIfEmpty(ctx, "Acme", "owner@acme.example", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	hook, err := db.CreateWebhook(ctx, store.NewWebhook{ID: store.NewID(), OrgID: boot.Organization.ID, URL: "https://example.com/hook",
		Events: []quire.WebhookEvent{quire.EventChangeRequestOpened}, Secret: []byte{1}})
	if err != nil {
		t.Fatal(err)
	}
	deliveries := func() int {
		t.Helper()
		list, err := db.ListWebhookDeliveries(ctx, hook.ID, store.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return list.Count
	}
	refused := errors.New("refused after the change")
	err = db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.CreateChangeRequest(ctx, sp.ID, "Rolled back", boot.User.ID); err != nil {
			return err
		}
		return refused
	})
	if !errors.Is(err, refused) || deliveries() != 0 {
		t.Fatalf("rolled back: %v, %d deliveries", err, deliveries())
	}
	if _, err := db.CreateChangeRequest(ctx, sp.ID, "Kept", boot.User.ID); err != nil {
		t.Fatal(err)
	}
	if n := deliveries(); n != 1 {
		t.Fatalf("%d deliveries after a committed change, want 1", n)
	}
	// Events of other kinds are not queued for it.
	if _, err := db.CreateComment(ctx, store.NewComment{CommentScope: store.CommentScope{SpaceID: sp.ID}, UserID: boot.User.ID, Markdown: "Hi"}); err != nil {
		t.Fatal(err)
	}
	if n := deliveries(); n != 1 {
		t.Fatalf("%d deliveries after an event not subscribed to, want 1", n)
	}
}
