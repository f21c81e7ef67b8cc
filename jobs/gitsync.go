package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/quiredocs/quire/gitsync"
)

// Git sync's worker. Operations are rows of the store, queued per space
// (store.ClaimGitSync): a worker claims a space and runs its operations in
// order under one lease (gitsync.Syncer.RunDue), so two servers never sync
// one space at once. The Git work itself (fetch, import, export, push) is
// gitsync's.

// GitSyncInterval is how often a server's worker looks for Git sync work:
// a merge is pushed within about this long.
const GitSyncInterval = 500 * time.Millisecond

// RunGitSync syncs until ctx ends: it queues what continuous sync owes
// whenever the store changes or a poll is due, and runs the operations of
// the spaces it claims, looking every interval.
func RunGitSync(ctx context.Context, s *gitsync.Syncer, interval time.Duration, log *slog.Logger) {
	var seen uint64
	var queuedAt time.Time
	every(ctx, interval, func() {
		// Queueing writes; it is worth it only when something may be owed:
		// the store changed (a merge to push), or a poll is due.
		if commits := s.DB.Commits(); commits != seen || time.Since(queuedAt) >= min(s.Poll(), 5*time.Second) {
			seen, queuedAt = commits, time.Now()
			if _, err := s.DB.QueueGitSyncWork(ctx, s.Poll()); err != nil && ctx.Err() == nil {
				log.Error("queue Git sync work", "err", err)
			}
			seen = s.DB.Commits() // not woken by its own write
		}
		if due, err := s.DB.GitSyncWorkDue(ctx); err == nil && due {
			if _, err := s.RunDue(ctx); err != nil && ctx.Err() == nil {
				log.Error("run Git sync", "err", err)
			}
			seen = s.DB.Commits()
		}
	})
}
