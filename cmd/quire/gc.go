package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
)

// gcGraceFlag adds --gc-grace (env QUIRE_GC_GRACE) to fs.
func (c *Config) gcGraceFlag(fs interface {
	DurationVar(*time.Duration, string, time.Duration, string)
}, name string) {
	fs.DurationVar(&c.GCGrace, name, c.GCGrace, "how old content and files no revision uses must be before garbage collection removes them (env QUIRE_GC_GRACE)")
}

// gcGraceDefault reads QUIRE_GC_GRACE, else jobs.DefaultGCGrace.
func gcGraceDefault() (time.Duration, error) {
	v := os.Getenv("QUIRE_GC_GRACE")
	if v == "" {
		return jobs.DefaultGCGrace, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("QUIRE_GC_GRACE: must be a duration such as 24h, not %q", v)
	}
	return d, nil
}

var errGCGrace = fmt.Errorf("--gc-grace (env QUIRE_GC_GRACE): must be a duration of 0 or more, such as 24h")

// collector is the garbage collector of the store cfg names.
func collector(db *store.DB, cfg Config, blobs blob.Collectable) *jobs.Collector {
	return &jobs.Collector{DB: db, Blobs: blobs, Grace: cfg.GCGrace}
}

func adminGC(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin gc", "quire admin gc [--gc-grace DURATION] [--data DIR] [--db URL] [--blobs DIR|URL]", stderr)
	cfg.gcGraceFlag(fs, "gc-grace")
	if helped, err := parseAdmin(fs, &cfg, args, stdout); helped || err != nil {
		return err
	}
	if cfg.GCGrace < 0 {
		return usageError(fs, errGCGrace)
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		blobs, err := cfg.blobStore(ctx)
		if err != nil {
			return nil, err
		}
		res, err := collector(db, cfg, blobs).CollectOnce(ctx)
		if jobs.IsLeaseHeld(err) {
			return nil, fmt.Errorf("another server or command is collecting, or a backup is running: try again later")
		}
		return res, err
	}, stdout)
}
