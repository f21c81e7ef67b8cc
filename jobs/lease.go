package jobs

import (
	"context"
	"errors"
	"time"
)

// watchLease looks every poll whether a claimed run is still held (held),
// renewing its lease (renew) once a third of lease has passed, and calls
// stop when the store says it is lost; errors that are not lost are tried
// again at the next poll.
func watchLease(ctx context.Context, poll, lease time.Duration, renew func() error, held func() (bool, error), lost error, stop func()) {
	t := time.NewTicker(poll)
	defer t.Stop()
	renewed := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var err error
		if time.Since(renewed) >= lease/3 {
			if err = renew(); err == nil {
				renewed = time.Now()
			}
		} else {
			var ok bool
			if ok, err = held(); err == nil && !ok {
				err = lost
			}
		}
		if errors.Is(err, lost) {
			stop()
			return
		}
	}
}
