// Package lease runs the work on an item claimed from the store's leased
// queue (store/queue.go): the claim is watched and renewed while the work
// goes on, the work stops when the claim is lost, an item claimed too
// often is given up, and one whose worker stops is given back. Every
// worker of jobs uses it, and gitsync's, which jobs runs.
package lease

import (
	"context"
	"errors"
	"github.com/quiredocs/quire"
	"time"

	"github.com/quiredocs/quire/store"
)

// releaseTimeout bounds giving an item back once the worker's context has
// ended.
const releaseTimeout = 10 * time.Second

// Watch is how a worker keeps its claim while it works.
type Watch struct {
	DB *store.DB
	// Lease is how long a claim lasts unrenewed; it is renewed once a
	// third of it has passed.
	Lease time.Duration
	// Poll is how often the claim is looked at (renewed when due, else
	// read to see that it holds): the work stops within about this long
	// of a cancel. 0 does not watch: the work is bounded well below Lease.
	Poll time.Duration
	// Timeout bounds the work; 0 does not.
	Timeout time.Duration
	// Max is how many claims an item may have had: one claimed more often
	// is given up as failed for GiveUp, its work not run (a job that kills
	// its worker must not do so forever). 0 never gives up.
	Max    int
	GiveUp string
}

// Outcome is how the work on a claimed item ended.
type Outcome struct {
	Err      error // the work's
	GaveUp   bool  // claimed more than Max times: given up, not run
	Lost     bool  // the claim was lost meanwhile: cancelled, removed or taken over
	TimedOut bool  // the work took longer than Timeout
}

// Run runs work on the item l holds, under w. When ctx ends first, the
// item is given back unfinished (its attempt uncounted), and Run returns
// ctx's error with that of giving it back; otherwise Run's error is that of
// giving the item up, if it did.
func (w Watch) Run(ctx context.Context, l store.Lease, work func(ctx context.Context) error) (Outcome, error) {
	if w.Max > 0 && l.Attempts > w.Max {
		return Outcome{GaveUp: true}, w.DB.GiveUp(ctx, l, w.GiveUp)
	}
	runCtx, stop := context.WithCancel(ctx)
	if w.Timeout > 0 {
		runCtx, stop = context.WithTimeout(ctx, w.Timeout)
	}
	defer stop()
	watched := make(chan struct{})
	if w.Poll > 0 {
		go func() {
			defer close(watched)
			w.watch(runCtx, l, stop)
		}()
	} else {
		close(watched)
	}
	var out Outcome
	out.Err = work(runCtx)
	out.TimedOut = errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	out.Lost = runCtx.Err() != nil && !out.TimedOut || errors.Is(out.Err, l.Lost())
	stop()
	<-watched
	if ctx.Err() != nil {
		// The work's error may be the stop's doing: the next worker redoes it.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
		defer cancel()
		return out, errors.Join(ctx.Err(), w.DB.GiveBack(rctx, l))
	}
	return out, nil
}

// Do runs work on the item l holds, under w, for work that writes its own
// result (in the transaction that ends the item) and ends it as that
// outcome says: done or lost, nothing is left to do; the store failing
// (CodeInternal), the item is claimed again once its lease runs out; any
// other error fails it for good with the error's message.
func (w Watch) Do(ctx context.Context, l store.Lease, work func(ctx context.Context) error) error {
	out, err := w.Run(ctx, l, work)
	switch {
	case err != nil, out.GaveUp:
		return err
	case out.Err == nil, out.Lost:
		return nil
	case quire.ErrorCode(out.Err) == quire.CodeInternal:
		return out.Err
	}
	return w.DB.GiveUp(ctx, l, quire.ErrorMessage(out.Err))
}

// watch looks every Poll whether l still holds, renewing it once a third
// of the lease has passed, and calls stop when the store says it is lost;
// other errors are tried again at the next look.
func (w Watch) watch(ctx context.Context, l store.Lease, stop func()) {
	t := time.NewTicker(w.Poll)
	defer t.Stop()
	renewed := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var err error
		if time.Since(renewed) >= w.Lease/3 {
			if err = w.DB.RenewLease(ctx, l, w.Lease); err == nil {
				renewed = time.Now()
			}
		} else {
			var ok bool
			if ok, err = w.DB.LeaseHeld(ctx, l); err == nil && !ok {
				err = l.Lost()
			}
		}
		if errors.Is(err, l.Lost()) {
			stop()
			return
		}
	}
}

// Drain claims items with claim and runs each with run, one after the
// other, until none is left, run fails or ctx ends; it returns the sum of
// what run counted (the items, or what they held, that ended).
func Drain[T any](ctx context.Context, claim func(ctx context.Context) (*T, error), run func(ctx context.Context, item *T) (int, error)) (int, error) {
	n := 0
	for ctx.Err() == nil {
		item, err := claim(ctx)
		if err != nil || item == nil {
			return n, err
		}
		done, err := run(ctx, item)
		n += done
		if err != nil {
			return n, err
		}
	}
	return n, ctx.Err()
}

// One counts an item that ended without err as one.
func One(err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return 1, nil
}
