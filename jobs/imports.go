package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/store"
)

// Import runs (issue 19): a website imported as a durable job. A run is a
// row's state in the store (store.ClaimImportRun), not a goroutine, so it
// survives a restart: a run whose worker died is claimed again once its
// lease has run out, and crawled again from the start, since nothing of it
// was written. Several servers on one PostgreSQL may all run workers; one
// claim holds a run at a time, and only the holder's transaction completes
// it (store.Tx.CompleteImportRun), so a run is written once.

const (
	// ImportLease is how long a worker holds a claimed run without
	// renewing it; it renews every ImportLease/3 while the run goes on.
	ImportLease = time.Minute
	// ImportPollInterval is how often an idle worker looks for due runs,
	// and a busy one whether its run was cancelled: a cancelled run stops
	// within about this long, at the page it was fetching.
	ImportPollInterval = time.Second
	// MaxImportAttempts is how many times a run may be claimed before it
	// is given up as failed: a site that kills the worker while it is
	// imported must not do so forever.
	MaxImportAttempts = 3
)

// ProcessImports claims and carries out due runs one after the other until
// none is left, and returns how many it ended. When ctx ends in the middle
// of one, that run is given back (store.DB.GiveBack), not failed.
func ProcessImports(ctx context.Context, db *store.DB, a *authoring.Author, poll time.Duration) (int, error) {
	return lease.Drain(ctx, func(ctx context.Context) (*store.ImportRun, error) { return db.ClaimImportRun(ctx, ImportLease) },
		func(ctx context.Context, run *store.ImportRun) (int, error) {
			return lease.One(processImport(ctx, db, a, run, poll))
		})
}

// processImport carries out one claimed run, watching its claim while the
// website is crawled: the crawl ends when the run is cancelled or lost.
func processImport(ctx context.Context, db *store.DB, a *authoring.Author, run *store.ImportRun, poll time.Duration) error {
	w := lease.Watch{DB: db, Lease: ImportLease, Poll: poll, Max: MaxImportAttempts,
		GiveUp: fmt.Sprintf("the import was interrupted %d times; the website may be too large to import", MaxImportAttempts)}
	return w.Do(ctx, run.Lease(), func(ctx context.Context) error {
		_, err := importRun(ctx, db, a, run)
		return err
	})
}

// importRun loads the run's target and imports into it.
func importRun(ctx context.Context, db *store.DB, a *authoring.Author, run *store.ImportRun) (*authoring.Import, error) {
	if run.CreatedBy == "" {
		return nil, quire.Errorf(quire.CodeInvalid, "the user who started the import is no longer a user")
	}
	sp, err := db.Space(ctx, run.SpaceID)
	if err == nil && !sp.DeletedAt.IsZero() {
		err = quire.Errorf(quire.CodeNotFound, "the space was deleted")
	}
	if err == nil {
		err = quire.CheckEditable(sp)
	}
	if err != nil {
		return nil, err
	}
	var c *quire.ChangeRequest
	if run.ChangeRequestID != "" {
		if c, err = db.ChangeRequest(ctx, sp.ID, run.ChangeRequestID); err != nil {
			return nil, err
		}
	}
	return a.ImportRun(ctx, sp, c, run)
}

// RunImporter carries out due runs at start, then whenever the store has
// some (looking every interval), until ctx ends.
func RunImporter(ctx context.Context, db *store.DB, a *authoring.Author, interval time.Duration, log *slog.Logger) {
	every(ctx, interval, func() {
		due, err := db.ImportRunsDue(ctx)
		if err == nil && due {
			var n int
			n, err = ProcessImports(ctx, db, a, interval)
			if n > 0 {
				log.Info("ran imports", "runs", n)
			}
		}
		if err != nil && ctx.Err() == nil {
			log.Error("run imports", "err", err)
		}
	})
}
