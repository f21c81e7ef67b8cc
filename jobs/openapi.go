package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// Processing API specifications (contract §4.16). The job is durable: it is
// a row's state in the store (store.ClaimOpenAPIJob), not a goroutine, so
// it survives a restart, and several servers on one PostgreSQL may all run
// workers.

const (
	// SpecLease is how long a worker holds a claimed job. A job whose worker
	// died is claimed again once its lease has run out. It is well above
	// what one job may take: a fetch (outbound.Fetcher's 15 s) and a parse
	// (SpecParseTimeout).
	SpecLease = 2 * time.Minute
	// SpecParseTimeout bounds parsing and validating one document. A
	// document that takes longer fails as a PARSE_ERROR, and the worker
	// moves on while the parse runs out in the background.
	SpecParseTimeout = time.Minute
	// SpecPollInterval is how often an idle worker looks for due jobs, with
	// one cheap read: new specs start processing within about this long.
	SpecPollInterval = time.Second
	// MaxSpecAttempts is how many times a job may be claimed before it is
	// given up as a PARSE_ERROR: a document that kills the worker while it
	// is processed (out of memory, say) must not do so forever.
	MaxSpecAttempts = 5
	// maxSpecErrors is how many messages of a failed processing are kept.
	maxSpecErrors = 20
)

// ProcessSpecs claims and processes due jobs one after the other until none
// is left, and returns how many it processed. When ctx ends in the middle
// of one, that job is given back (store.DB.GiveBack), not failed.
func ProcessSpecs(ctx context.Context, db *store.DB, f outbound.Fetcher) (int, error) {
	n := 0
	for ctx.Err() == nil {
		job, err := db.ClaimOpenAPIJob(ctx, SpecLease)
		if err != nil || job == nil {
			return n, err
		}
		w := lease.Watch{DB: db, Lease: SpecLease, Max: MaxSpecAttempts,
			GiveUp: fmt.Sprintf("processing was interrupted %d times; the document may be too large to process", MaxSpecAttempts)}
		var res store.OpenAPIResult
		out, err := w.Run(ctx, job.Lease(), func(ctx context.Context) error {
			res = processSpec(ctx, job.Source, f)
			return nil
		})
		if err != nil {
			return n, err
		}
		if !out.GaveUp {
			if _, err := db.FinishOpenAPIJob(ctx, job, res); err != nil {
				return n, fmt.Errorf("finish processing spec %s: %w", job.SpecID, err)
			}
		}
		n++
	}
	return n, ctx.Err()
}

// RunSpecProcessor processes due jobs at start, then whenever the store has
// some (looking every interval), until ctx ends.
func RunSpecProcessor(ctx context.Context, db *store.DB, f outbound.Fetcher, interval time.Duration, log *slog.Logger) {
	every(ctx, interval, func() {
		due, err := db.OpenAPIJobsDue(ctx)
		if err == nil && due {
			var n int
			n, err = ProcessSpecs(ctx, db, f)
			if n > 0 {
				log.Info("processed API specifications", "specs", n)
			}
		}
		if err != nil && ctx.Err() == nil {
			log.Error("process API specifications", "err", err)
		}
	})
}

// processSpec fetches the document of a URL source and parses it.
func processSpec(ctx context.Context, src store.OpenAPISource, f outbound.Fetcher) store.OpenAPIResult {
	data := []byte(src.Text)
	if src.URL != "" {
		body, _, err := f.Get(ctx, src.URL, quire.MaxSpecBytes)
		if err != nil {
			return fetchFailure(err)
		}
		data = body
	}
	done := make(chan store.OpenAPIResult, 1)
	go func() { done <- ParseSpec(ctx, data) }()
	timer := time.NewTimer(SpecParseTimeout)
	defer timer.Stop()
	select {
	case res := <-done:
		return res
	case <-timer.C:
		return specFailure(quire.SpecParseError, fmt.Sprintf("the document took longer than %v to validate", SpecParseTimeout))
	case <-ctx.Done():
		return store.OpenAPIResult{} // the caller gives the job back
	}
}

// fetchFailure maps a fetch error to the reference's codes, which have none
// for a document too large: that is a FETCH_ERROR saying so.
func fetchFailure(err error) store.OpenAPIResult {
	e, ok := errors.AsType[*outbound.Error](err)
	switch {
	case !ok:
		return specFailure(quire.SpecFetchError, err.Error())
	case e.Code == outbound.CodeTimeout:
		return specFailure(quire.SpecFetchTimeout, "the server did not answer in time")
	case e.Code == outbound.CodeTooLarge:
		return specFailure(quire.SpecFetchError, fmt.Sprintf("the document is larger than %d bytes", quire.MaxSpecBytes))
	}
	return specFailure(quire.SpecFetchError, e.Message) // e.Err may name internal addresses
}

func specFailure(code quire.SpecErrorCode, messages ...string) store.OpenAPIResult {
	res := store.OpenAPIResult{ErrorCode: code, ErrorCount: len(messages)}
	for _, m := range messages[:min(len(messages), maxSpecErrors)] {
		if len(m) > 1000 {
			m = strings.ToValidUTF8(m[:1000], "") + "…"
		}
		res.Errors = append(res.Errors, m)
	}
	return res
}
