package jobs

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"time"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/store"
)

// Defaults of garbage collection: how long what nothing uses is kept, how
// often a server collects (the first time some minutes after it starts),
// and how many objects or blobs one sweep step looks at.
const (
	DefaultGCGrace = 24 * time.Hour
	GCInterval     = 6 * time.Hour
	GCFirstDelay   = 10 * time.Minute
	gcBatch        = 500
	gcLeaseName    = "gc"
	gcLeaseTTL     = 2 * time.Hour
)

// Collector removes the content objects and file bytes that no revision of
// any space (deleted spaces within their restore window included), change
// request or integration uses, once they are older than Grace: what
// purged spaces, abandoned uploads and failed batches left.
type Collector struct {
	DB *store.DB
	// Blobs holds the file bytes; nil, only objects are collected.
	Blobs blob.Collectable
	// Grace is the age below which nothing is removed (objects by when
	// they were stored, blobs by when they were last written).
	Grace time.Duration
	// Batch bounds the objects or blobs one sweep step removes; 0 is 500.
	Batch int
	// AfterMark, when set, runs between marking and sweeping (tests use it
	// to write while a collection runs).
	AfterMark func()
}

// GCResult says what one collection did.
type GCResult struct {
	Reachable int `json:"reachableObjects"` // objects in use
	Objects   int `json:"removedObjects"`
	Blobs     int `json:"removedBlobs"`
}

// Collect runs one collection: mark what is used, then sweep the rest.
func (c *Collector) Collect(ctx context.Context) (GCResult, error) {
	var res GCResult
	batch := c.Batch
	if batch <= 0 {
		batch = gcBatch
	}
	objectCutoff := c.DB.Now().Add(-c.Grace) // objects are dated by the store's clock
	blobCutoff := time.Now().Add(-c.Grace)   // blobs by the file system's
	r, err := c.DB.Mark(ctx, false)
	if err != nil {
		return res, err
	}
	res.Reachable = r.Objects()
	if c.AfterMark != nil {
		c.AfterMark()
	}
	if res.Objects, err = c.DB.SweepObjects(ctx, r, objectCutoff, batch); err != nil {
		return res, err
	}
	if c.Blobs == nil {
		return res, nil
	}
	var candidates []string
	sweep := func() error {
		err := c.DB.SweepStep(ctx, r, func() error {
			for _, key := range candidates {
				if r.Blob(key) {
					continue
				}
				removed, err := c.Blobs.RemoveOlder(key, blobCutoff)
				if err != nil {
					return err
				}
				if removed {
					res.Blobs++
				}
			}
			return nil
		})
		candidates = candidates[:0]
		return err
	}
	err = c.Blobs.Walk(blobCutoff, func(key string, modTime time.Time) error {
		if modTime.Before(blobCutoff) && !r.Blob(key) {
			candidates = append(candidates, key)
		}
		if len(candidates) >= batch {
			return sweep()
		}
		return ctx.Err()
	})
	if err == nil && len(candidates) > 0 {
		err = sweep()
	}
	return res, err
}

// errLeaseHeld means another server is collecting.
var errLeaseHeld = errors.New("another server is collecting")

// CollectOnce runs a collection if no other server on the database runs one
// (a lease row decides), and reports errLeaseHeld otherwise.
func (c *Collector) CollectOnce(ctx context.Context) (GCResult, error) {
	holder := rand.Text()
	held, err := c.DB.AcquireLease(ctx, gcLeaseName, holder, gcLeaseTTL)
	if err != nil {
		return GCResult{}, err
	}
	if !held {
		return GCResult{}, errLeaseHeld
	}
	defer c.DB.ReleaseLease(context.WithoutCancel(ctx), gcLeaseName, holder)
	return c.Collect(ctx)
}

// IsLeaseHeld reports whether err says another server is collecting.
func IsLeaseHeld(err error) bool { return errors.Is(err, errLeaseHeld) }

// RunCollector collects first after first, then every interval, until ctx
// ends. Servers on one database take turns: one collects at a time.
func RunCollector(ctx context.Context, c *Collector, first, interval time.Duration, log *slog.Logger) {
	wait := time.NewTimer(first)
	defer wait.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-wait.C:
		}
		res, err := c.CollectOnce(ctx)
		switch {
		case IsLeaseHeld(err):
		case err != nil && ctx.Err() == nil:
			log.Error("collect garbage", "err", err)
		case err == nil && res.Objects+res.Blobs > 0:
			log.Info("collected garbage", "objects", res.Objects, "blobs", res.Blobs, "reachable_objects", res.Reachable)
		}
		wait.Reset(interval)
	}
}
