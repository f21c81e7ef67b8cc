// Package jobs runs Quire's background work.
package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/quiredocs/quire/store"
)

// PurgeInterval is how often deleted spaces past their restore window are
// removed for good.
const PurgeInterval = time.Hour

// Purge removes the spaces and collections deleted more than
// store.RestoreWindow ago, with everything that belongs to them, and the
// PDF exports done more than PDFKeep ago or failed more than
// PDFFailedKeep ago.
func Purge(ctx context.Context, db *store.DB) (int, error) {
	now := db.Now()
	if _, err := db.PurgePDFExports(ctx, now.Add(-PDFKeep), now.Add(-PDFFailedKeep)); err != nil {
		return 0, err
	}
	return db.PurgeDeleted(ctx, now.Add(-store.RestoreWindow))
}

// RunPurger purges at start and then every interval until ctx ends. Purging
// is idempotent, so several servers on one database may all run it.
func RunPurger(ctx context.Context, db *store.DB, interval time.Duration, log *slog.Logger) {
	every(ctx, interval, func() {
		n, err := Purge(ctx, db)
		if err != nil && ctx.Err() == nil {
			log.Error("purge deleted spaces", "err", err)
		} else if n > 0 {
			log.Info("purged deleted spaces", "spaces", n)
		}
	})
}
