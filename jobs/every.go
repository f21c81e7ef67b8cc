package jobs

import (
	"context"
	"time"
)

// every calls fn at once, then every interval until ctx ends: each worker's
// loop.
func every(ctx context.Context, interval time.Duration, fn func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		fn()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
