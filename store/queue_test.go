package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// queueFixture is an organization with a space, on two store handles of
// one database (two servers) that share a clock the test moves.
type queueFixture struct {
	one, two *store.DB
	org      string
	user     string
	space    *quire.Space
	now      time.Time
	queued   int // items queued so far, to name the next
}

// queueKind is one kind of leased work, as the suite drives it through the
// store's exported API.
type queueKind struct {
	name string
	// queue queues one item and returns its key.
	queue func(t *testing.T, f *queueFixture) string
	due   func(db *store.DB, ctx context.Context) (bool, error)
	// claim claims the next item; nil when none is due.
	claim func(ctx context.Context, db *store.DB, lease time.Duration) (*store.Lease, error)
	// failed reads item id, and reports the reason it failed for; ok is
	// false while it has not.
	failed func(t *testing.T, f *queueFixture, id string) (reason string, ok bool)
	// attempts: the kind counts claims on the item's lease (git sync's
	// operations count their own).
	attempts bool
}

// leaseOf is the lease of a claimed item, nil when none was claimed.
func leaseOf[T interface{ Lease() store.Lease }](item T, err error, none bool) (*store.Lease, error) {
	if err != nil || none {
		return nil, err
	}
	l := item.Lease()
	return &l, nil
}

// must is v, failing t on err: must(f())(t).
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

var queueKinds = []queueKind{{
	name: "git sync",
	queue: func(t *testing.T, f *queueFixture) string {
		sp := must(f.one.CreateSpace(t.Context(), f.org, store.NewSpace{Title: fmt.Sprintf("Synced %d", f.queued)}))(t)
		must(f.one.QueueGitSyncOperation(t.Context(), sp.ID, f.user, store.GitSyncConfig{URL: "file:///nowhere.git",
			URLSealed: []byte("sealed"), Ref: "main"}, store.NewGitSyncOperation{Direction: store.GitDirImport, UserID: f.user}))(t)
		return sp.ID
	},
	due: (*store.DB).GitSyncWorkDue,
	claim: func(ctx context.Context, db *store.DB, lease time.Duration) (*store.Lease, error) {
		c, err := db.ClaimGitSync(ctx, lease)
		return leaseOf(c, err, c == nil)
	},
	failed: func(t *testing.T, f *queueFixture, id string) (string, bool) {
		op := must(f.one.LatestGitSyncOperation(t.Context(), id))(t)
		return op.Error, op.State == store.GitFailure
	},
}, {
	name: "import runs",
	queue: func(t *testing.T, f *queueFixture) string {
		return must(f.one.StartImportRun(t.Context(), store.NewImportRun{OrgID: f.org, SpaceID: f.space.ID,
			SourceURL: fmt.Sprintf("https://example.com/%d", f.queued), UserID: f.user}))(t).ID
	},
	due: (*store.DB).ImportRunsDue,
	claim: func(ctx context.Context, db *store.DB, lease time.Duration) (*store.Lease, error) {
		r, err := db.ClaimImportRun(ctx, lease)
		return leaseOf(r, err, r == nil)
	},
	failed: func(t *testing.T, f *queueFixture, id string) (string, bool) {
		r := must(f.one.ImportRun(t.Context(), f.org, id))(t)
		return r.Reason, r.Status == store.ImportFailed
	},
	attempts: true,
}, {
	name: "API specifications",
	queue: func(t *testing.T, f *queueFixture) string {
		return must(f.one.CreateOpenAPISpec(t.Context(), f.org, fmt.Sprintf("spec-%d", f.queued), store.OpenAPISource{Text: "openapi: 3.0.0"}))(t).ID
	},
	due: (*store.DB).OpenAPIJobsDue,
	claim: func(ctx context.Context, db *store.DB, lease time.Duration) (*store.Lease, error) {
		job, err := db.ClaimOpenAPIJob(ctx, lease)
		return leaseOf(job, err, job == nil)
	},
	failed: func(t *testing.T, f *queueFixture, id string) (string, bool) {
		list := must(f.one.ListOpenAPISpecs(t.Context(), f.org, store.Page{Limit: 100}))(t)
		i := slices.IndexFunc(list.Items, func(s *quire.OpenAPISpec) bool { return s.ID == id })
		s := list.Items[i]
		if s.State != quire.SpecComplete || s.LastErrorCode != quire.SpecParseError || len(s.LastErrors) != 1 {
			return "", false
		}
		return s.LastErrors[0], true
	},
	attempts: true,
}, {
	name: "translation runs",
	queue: func(t *testing.T, f *queueFixture) string {
		return must(f.one.CreateTranslation(t.Context(), store.NewTranslation{OrgID: f.org, SourceSpaceID: f.space.ID,
			SourceLanguage: "en", Language: "fr", Instructions: json.RawMessage(`{}`), UserID: f.user, Queue: true}))(t).ID
	},
	due: (*store.DB).TranslationRunsDue,
	claim: func(ctx context.Context, db *store.DB, lease time.Duration) (*store.Lease, error) {
		tr, err := db.ClaimTranslationRun(ctx, lease)
		return leaseOf(tr, err, tr == nil)
	},
	failed: func(t *testing.T, f *queueFixture, id string) (string, bool) {
		tr := must(f.one.Translation(t.Context(), f.org, id))(t)
		return tr.LastReason, tr.State == store.TranslationIdle && tr.LastStatus == "failed"
	},
	attempts: true,
}, {
	name: "webhook deliveries",
	queue: func(t *testing.T, f *queueFixture) string {
		// A webhook per item, of a space of its own with one change request:
		// the deliveries do not wait on one another.
		sp := must(f.one.CreateSpace(t.Context(), f.org, store.NewSpace{Title: fmt.Sprintf("Hooked %d", f.queued)}))(t)
		hook := must(f.one.CreateWebhook(t.Context(), store.NewWebhook{ID: store.NewID(), OrgID: f.org, SpaceID: sp.ID,
			URL: "https://example.com/hook", Events: []quire.WebhookEvent{quire.EventChangeRequestOpened}, Secret: []byte{1}}))(t)
		must(f.one.CreateChangeRequest(t.Context(), sp.ID, "Change", f.user))(t)
		list := must(f.one.ListWebhookDeliveries(t.Context(), hook.ID, store.Page{Limit: 10}))(t)
		if len(list.Items) != 1 {
			t.Fatalf("%d deliveries of a new change request, want 1", len(list.Items))
		}
		return list.Items[0].ID
	},
	due: (*store.DB).WebhookDeliveriesDue,
	claim: func(ctx context.Context, db *store.DB, lease time.Duration) (*store.Lease, error) {
		c, err := db.ClaimWebhookDelivery(ctx, lease)
		return leaseOf(c, err, c == nil)
	},
	failed: func(t *testing.T, f *queueFixture, id string) (string, bool) {
		hooks := must(f.one.ListWebhooks(t.Context(), f.org, store.Page{Limit: 100}))(t)
		for _, h := range hooks.Items {
			if d, err := f.one.WebhookDelivery(t.Context(), h.ID, id); err == nil {
				return d.Error, d.Status == quire.DeliveryFailed && d.NextAttemptAt.IsZero()
			}
		}
		t.Fatalf("no delivery %s", id)
		return "", false
	},
	attempts: true,
}, {
	name: "PDF exports",
	queue: func(t *testing.T, f *queueFixture) string {
		return must(f.one.EnsurePDFExport(t.Context(), store.PDFExportKey{SpaceID: f.space.ID, RevisionID: f.space.RevisionID,
			Title: fmt.Sprintf("Docs %d", f.queued)}))(t).ID
	},
	due: (*store.DB).PDFExportsDue,
	claim: func(ctx context.Context, db *store.DB, lease time.Duration) (*store.Lease, error) {
		x, err := db.ClaimPDFExport(ctx, lease)
		return leaseOf(x, err, x == nil)
	},
	failed: func(t *testing.T, f *queueFixture, id string) (string, bool) {
		x := must(f.one.PDFExport(t.Context(), id))(t)
		return x.Error, x.State == store.PDFFailed && x.ErrorCode == string(quire.CodeInternal)
	},
	attempts: true,
}}

// TestQueue holds every kind of leased work to the same rules: two workers
// never claim one item; a renewed lease holds; a lease that runs out (its
// worker died) is claimed again, and the old claim can do nothing more; an
// item given back is due at once, its attempt uncounted; one given up is
// failed with its reason and never claimed again.
func TestQueue(t *testing.T) {
	t.Parallel()
	for _, kind := range queueKinds {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			testQueue(t, kind)
		})
	}
}

func newQueueFixture(t *testing.T) *queueFixture {
	url, dir := storetest.URL(t), t.TempDir()
	f := &queueFixture{now: time.Now()}
	for _, db := range []**store.DB{&f.one, &f.two} {
		*db = must(store.Open(context.Background(), url, dir))(t)
		t.Cleanup(func() { (*db).Close() })
		(*db).Now = func() time.Time { return f.now }
	}
	boot := must(f.one.InitOrganization(t.Context(), "Org", "ada@example.com", "Ada"))(t)
	f.org, f.user = boot.Organization.ID, boot.User.ID
	f.space = must(f.one.CreateSpace(t.Context(), f.org, store.NewSpace{Title: "Docs"}))(t)
	return f
}

func testQueue(t *testing.T, kind queueKind) {
	const lease, items = time.Minute, 3
	ctx := t.Context()
	f := newQueueFixture(t)
	var ids []string
	for range items {
		ids = append(ids, kind.queue(t, f))
		f.queued++
	}
	slices.Sort(ids)
	wantDue := func(want bool) {
		t.Helper()
		if due, err := kind.due(f.two, ctx); due != want || err != nil {
			t.Fatalf("due = %v, %v; want %v", due, err, want)
		}
	}
	// claimAll claims on db until none is due, and checks that it got each
	// item once, at its attempts-th claim.
	claimAll := func(db *store.DB, attempts int) []store.Lease {
		t.Helper()
		var got []store.Lease
		for {
			l := must(kind.claim(ctx, db, lease))(t)
			if l == nil {
				break
			}
			got = append(got, *l)
		}
		checkClaims(t, kind, got, ids, attempts)
		return got
	}
	wantDue(true)

	// Claim: six workers on two servers at once never share an item.
	var mu sync.Mutex
	var held []store.Lease
	var wg sync.WaitGroup
	for i := range 2 * items {
		db := []*store.DB{f.one, f.two}[i%2]
		wg.Go(func() {
			l, err := kind.claim(ctx, db, lease)
			if err != nil {
				t.Error(err)
			}
			if l != nil {
				mu.Lock()
				held = append(held, *l)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	checkClaims(t, kind, held, ids, 1)
	wantDue(false)
	if l := must(kind.claim(ctx, f.two, lease))(t); l != nil {
		t.Fatalf("claimed %s while every item is held", l.ID)
	}

	// Renew: a lease renewed before it runs out holds past its first end.
	f.now = f.now.Add(lease * 5 / 6)
	for _, l := range held {
		if err := f.one.RenewLease(ctx, l, lease); err != nil {
			t.Fatalf("renew %s: %v", l.ID, err)
		}
	}
	f.now = f.now.Add(lease / 2)
	wantDue(false)
	if l := must(kind.claim(ctx, f.two, lease))(t); l != nil {
		t.Fatalf("claimed %s under a renewed lease", l.ID)
	}
	for _, l := range held {
		if ok, err := f.two.LeaseHeld(ctx, l); !ok || err != nil {
			t.Fatalf("held %s = %v, %v", l.ID, ok, err)
		}
	}

	// Crash-recover: the worker died; once its leases run out, another
	// worker claims the items again, and the dead one's claims hold no more.
	f.now = f.now.Add(lease)
	wantDue(true)
	taken := claimAll(f.two, 2)
	for _, l := range held {
		if ok, err := f.one.LeaseHeld(ctx, l); ok || err != nil {
			t.Fatalf("the dead worker's claim of %s holds: %v, %v", l.ID, ok, err)
		}
		if err := f.one.RenewLease(ctx, l, lease); !errors.Is(err, l.Lost()) {
			t.Fatalf("renewing the dead worker's claim of %s: %v, want %v", l.ID, err, l.Lost())
		}
		if err := f.one.GiveBack(ctx, l); err != nil {
			t.Fatal(err)
		}
		if err := f.one.GiveUp(ctx, l, "stale"); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range taken {
		if ok, err := f.one.LeaseHeld(ctx, l); !ok || err != nil {
			t.Fatalf("the new claim of %s does not hold after the old one's writes: %v, %v", l.ID, ok, err)
		}
	}

	// Give back: a worker that stops gives its items back, due at once and
	// the attempt uncounted.
	for _, l := range taken {
		if err := f.two.GiveBack(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	wantDue(true)
	taken = claimAll(f.one, 2)

	// Give up: an item given up is failed with its reason, and not claimed
	// again, however long one waits.
	for _, l := range taken {
		if err := f.one.GiveUp(ctx, l, "interrupted too often: "+l.ID); err != nil {
			t.Fatal(err)
		}
		if reason, ok := kind.failed(t, f, l.ID); !ok || reason != "interrupted too often: "+l.ID {
			t.Errorf("%s given up: failed %v, reason %q", l.ID, ok, reason)
		}
		if ok, err := f.two.LeaseHeld(ctx, l); ok || err != nil {
			t.Fatalf("claim of %s given up holds: %v, %v", l.ID, ok, err)
		}
	}
	f.now = f.now.Add(24 * time.Hour)
	wantDue(false)
	if l := must(kind.claim(ctx, f.two, lease))(t); l != nil {
		t.Fatalf("claimed %s, given up", l.ID)
	}
}

// checkClaims checks that got are claims of each of ids once, each at its
// attempts-th claim when the kind counts them.
func checkClaims(t *testing.T, kind queueKind, got []store.Lease, ids []string, attempts int) {
	t.Helper()
	var claimed []string
	for _, l := range got {
		claimed = append(claimed, l.ID)
		if kind.attempts && l.Attempts != attempts {
			t.Errorf("%s claimed at attempt %d, want %d", l.ID, l.Attempts, attempts)
		}
		if l.Kind() == "" || l.Lost() == nil {
			t.Errorf("%s: a lease with no kind or lost error", l.ID)
		}
	}
	slices.Sort(claimed)
	if !slices.Equal(claimed, ids) {
		t.Fatalf("claimed %v, want each of %v once", claimed, ids)
	}
}
