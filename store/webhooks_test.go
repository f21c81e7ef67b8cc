package store_test

import (
	"errors"
	"testing"
	"time"

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

// TestWebhookDeliveryClaims: a claimed delivery is not claimed again while
// its lease holds, nor is a later one of the same resource; finishing with
// a stale claim changes nothing; pruning removes only finished deliveries.
func TestWebhookDeliveryClaims(t *testing.T) {
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
	if _, err := db.CreateWebhook(ctx, store.NewWebhook{ID: store.NewID(), OrgID: boot.Organization.ID, URL: "https://example.com/hook",
		Events: []quire.WebhookEvent{quire.EventAll}, Secret: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	c, err := db.CreateChangeRequest(ctx, sp.ID, "One", boot.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	subject := "Two"
	if _, err := db.UpdateChangeRequest(ctx, sp.ID, c.ID, store.ChangeRequestUpdate{Subject: &subject}); err != nil {
		t.Fatal(err)
	}
	first, err := db.ClaimWebhookDelivery(ctx, time.Minute)
	if err != nil || first == nil || first.Event != quire.EventChangeRequestOpened || first.Attempts != 1 {
		t.Fatalf("first claim %+v, %v", first, err)
	}
	if next, err := db.ClaimWebhookDelivery(ctx, time.Minute); err != nil || next != nil {
		t.Fatalf("claimed %+v while the resource's first delivery is out", next)
	}
	stale := *first
	stale.Claim = "someone-else"
	if _, err := db.FinishWebhookDelivery(ctx, &stale, store.DeliveryAttempt{Delivered: true}, store.DisablePolicy{Failures: 1}); err != nil {
		t.Fatal(err)
	}
	if next, _ := db.ClaimWebhookDelivery(ctx, time.Minute); next != nil {
		t.Fatal("a stale claim finished the delivery")
	}
	if _, err := db.FinishWebhookDelivery(ctx, first, store.DeliveryAttempt{Delivered: true, ResponseStatus: 204}, store.DisablePolicy{Failures: 1}); err != nil {
		t.Fatal(err)
	}
	second, err := db.ClaimWebhookDelivery(ctx, time.Minute)
	if err != nil || second == nil || second.Event != quire.EventChangeRequestUpdated {
		t.Fatalf("second claim %+v, %v", second, err)
	}
	if n, err := db.PruneWebhookDeliveries(ctx, db.Now().Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("pruned %d, %v; want the delivered one only", n, err)
	}
}

// BenchmarkCommentOutbox: what queueing events costs a write (posting a
// comment), with no webhook (the read that finds none) and with one that
// subscribes (the payload and its row too).
func BenchmarkCommentOutbox(b *testing.B) {
	for _, hooks := range []int{0, 1} {
		b.Run(map[int]string{0: "no-webhook", 1: "one-webhook"}[hooks], func(b *testing.B) {
			db := storetest.Open(b)
			ctx := b.Context()
			boot, err := db.InitIfEmpty(ctx, "Acme", "owner@acme.example", "Owner")
			if err != nil {
				b.Fatal(err)
			}
			sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: "Docs"})
			if err != nil {
				b.Fatal(err)
			}
			for range hooks {
				if _, err := db.CreateWebhook(ctx, store.NewWebhook{ID: store.NewID(), OrgID: boot.Organization.ID, URL: "https://example.com/hook",
					Events: []quire.WebhookEvent{quire.EventCommentPosted}, Secret: []byte{1}}); err != nil {
					b.Fatal(err)
				}
			}
			n := store.NewComment{CommentScope: store.CommentScope{SpaceID: sp.ID}, UserID: boot.User.ID, Markdown: "Hi"}
			for b.Loop() {
				if _, err := db.CreateComment(ctx, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
