package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/quiredocs/quire/store"
)

// SearchIndexInterval is how often spaces whose content changed are
// indexed for search, so that searches seldom have to do it themselves.
const SearchIndexInterval = 5 * time.Second

// searchIndexBatch bounds the spaces indexed in one round.
const searchIndexBatch = 20

// RunSearchIndexer indexes changed spaces every interval until ctx ends,
// a batch at a time. Spaces are indexed one at a time under a lock on
// their index row, so several servers on one database may all run it.
func RunSearchIndexer(ctx context.Context, db *store.DB, interval time.Duration, log *slog.Logger) {
	every(ctx, interval, func() {
		for {
			n, err := db.IndexStaleSpaces(ctx, searchIndexBatch)
			if err != nil && ctx.Err() == nil {
				log.Error("index spaces for search", "err", err)
			}
			if err != nil || n < searchIndexBatch {
				break
			}
		}
	})
}
