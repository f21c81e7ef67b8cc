package lease_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// exports opens a store with n PDF exports waiting: items of a leased
// queue, whose rows show their state and lease.
func exports(t *testing.T, n int) *store.DB {
	t.Helper()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := db.EnsurePDFExport(ctx, store.PDFExportKey{SpaceID: sp.ID, RevisionID: sp.RevisionID, Title: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func claim(t *testing.T, db *store.DB, d time.Duration) *store.PDFExport {
	t.Helper()
	x, err := db.ClaimPDFExport(t.Context(), d)
	if err != nil || x == nil {
		t.Fatalf("claim: %v, %v", x, err)
	}
	return x
}

func read(t *testing.T, db *store.DB, id string) *store.PDFExport {
	t.Helper()
	x, err := db.PDFExport(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestRun: what Run does with a claimed item, case by case.
func TestRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// watch is the Watch, its DB set by the test; claims is how many
		// times the item was claimed (its workers dying) before this one.
		watch  lease.Watch
		claims int
		// work runs with the item's db and claim, under Run's context.
		work    func(ctx context.Context, db *store.DB, x *store.PDFExport) error
		stop    bool // the worker stops (ctx ends) while the work goes on
		wantErr bool
		want    lease.Outcome
		// wantState is the item's state after, and wantAttempts its count.
		wantState    string
		wantAttempts int
	}{{
		name:  "done",
		watch: lease.Watch{Lease: time.Minute, Poll: time.Millisecond},
		work:  func(context.Context, *store.DB, *store.PDFExport) error { return nil },
		// Ending the item well is the kind's own write: it is still held.
		wantState: store.PDFPrinting, wantAttempts: 1,
	}, {
		name:  "failed",
		watch: lease.Watch{Lease: time.Minute, Poll: time.Millisecond},
		work:  func(context.Context, *store.DB, *store.PDFExport) error { return errors.New("no") },
		want:  lease.Outcome{Err: errors.New("no")}, wantState: store.PDFPrinting, wantAttempts: 1,
	}, {
		name:   "given up",
		watch:  lease.Watch{Lease: time.Minute, Max: 2, GiveUp: "interrupted twice"},
		claims: 2,
		// Were it run, its error would show in the outcome.
		work: func(context.Context, *store.DB, *store.PDFExport) error {
			return errors.New("the work of an item given up ran")
		},
		want: lease.Outcome{GaveUp: true}, wantState: store.PDFFailed, wantAttempts: 3,
	}, {
		name:   "under the maximum",
		watch:  lease.Watch{Lease: time.Minute, Max: 2, GiveUp: "interrupted twice"},
		claims: 1,
		work:   func(context.Context, *store.DB, *store.PDFExport) error { return nil },
		// Not given up: the second claim of two allowed.
		wantState: store.PDFPrinting, wantAttempts: 2,
	}, {
		name:  "lost",
		watch: lease.Watch{Lease: time.Minute, Poll: time.Millisecond},
		work: func(ctx context.Context, db *store.DB, x *store.PDFExport) error {
			// The item ends elsewhere (as a cancel would): the watch
			// stops the work.
			if err := db.FailPDFExport(ctx, x, "", "ended elsewhere"); err != nil {
				return err
			}
			<-ctx.Done()
			return ctx.Err()
		},
		want: lease.Outcome{Err: context.Canceled, Lost: true}, wantState: store.PDFFailed, wantAttempts: 1,
	}, {
		name:  "renewed",
		watch: lease.Watch{Lease: 90 * time.Millisecond, Poll: time.Millisecond},
		work: func(ctx context.Context, db *store.DB, x *store.PDFExport) error {
			// Held until its lease has been renewed twice.
			for first := x.ClaimedUntil; ; {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(time.Millisecond):
				}
				if y, err := db.PDFExport(ctx, x.ID); err != nil || y.ClaimedUntil.Sub(first) >= 60*time.Millisecond {
					return err
				}
			}
		},
		wantState: store.PDFPrinting, wantAttempts: 1,
	}, {
		name:  "timed out",
		watch: lease.Watch{Lease: time.Minute, Poll: time.Millisecond, Timeout: 10 * time.Millisecond},
		work: func(ctx context.Context, _ *store.DB, _ *store.PDFExport) error {
			<-ctx.Done()
			return ctx.Err()
		},
		want: lease.Outcome{Err: context.DeadlineExceeded, TimedOut: true}, wantState: store.PDFPrinting, wantAttempts: 1,
	}, {
		name:  "stopped",
		watch: lease.Watch{Lease: time.Minute, Poll: time.Millisecond},
		work: func(ctx context.Context, _ *store.DB, _ *store.PDFExport) error {
			<-ctx.Done()
			return ctx.Err()
		},
		stop: true, wantErr: true,
		// Given back: due at once, this claim uncounted.
		want: lease.Outcome{Err: context.Canceled, Lost: true}, wantState: store.PDFPending, wantAttempts: 0,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := exports(t, 1)
			for range tc.claims {
				claim(t, db, 0) // its lease runs out at once: its worker died
			}
			x := claim(t, db, tc.watch.Lease)
			w := tc.watch
			w.DB = db
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			started := make(chan struct{})
			if tc.stop {
				go func() { <-started; cancel() }()
			}
			out, err := w.Run(ctx, x.Lease(), func(ctx context.Context) error {
				close(started)
				return tc.work(ctx, db, x)
			})
			if (err != nil) != tc.wantErr {
				t.Fatalf("Run error %v, want one: %v", err, tc.wantErr)
			}
			if fmt.Sprint(out) != fmt.Sprint(tc.want) {
				t.Errorf("outcome %+v, want %+v", out, tc.want)
			}
			got := read(t, db, x.ID)
			if got.State != tc.wantState || got.Attempts != tc.wantAttempts {
				t.Errorf("the item is %s after %d attempts, want %s after %d", got.State, got.Attempts, tc.wantState, tc.wantAttempts)
			}
			if out.GaveUp && got.Error != w.GiveUp {
				t.Errorf("given up for %q, want %q", got.Error, w.GiveUp)
			}
		})
	}
}

// TestDrain: items are claimed and run one after the other until none is
// left, and what each counted is summed; a failing run stops the drain.
func TestDrain(t *testing.T) {
	t.Parallel()
	db := exports(t, 3)
	ctx := t.Context()
	claimNext := func(ctx context.Context) (*store.PDFExport, error) { return db.ClaimPDFExport(ctx, time.Minute) }
	ran := 0
	n, err := lease.Drain(ctx, claimNext, func(ctx context.Context, x *store.PDFExport) (int, error) {
		ran++
		if ran == 2 {
			return lease.One(errors.New("broken"))
		}
		return lease.One(db.CompletePDFExport(ctx, x, "blob", 1))
	})
	if n != 1 || err == nil || ran != 2 {
		t.Fatalf("drain = %d, %v after %d runs; want 1 and the error after 2", n, err, ran)
	}
	n, err = lease.Drain(ctx, claimNext, func(ctx context.Context, x *store.PDFExport) (int, error) {
		return lease.One(db.CompletePDFExport(ctx, x, "blob", 1))
	})
	if n != 1 || err != nil {
		t.Fatalf("drain = %d, %v; want the one left", n, err)
	}
}
