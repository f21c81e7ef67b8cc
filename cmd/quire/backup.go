package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/store"
)

// A backup is one gzipped tar file: the manifest first, then the SQLite
// database (left out on PostgreSQL, which pg_dump backs up), then every
// blob under blobs/. One file is what operators move and rotate; tar and
// gzip open it anywhere.
const (
	backupFormat   = 1
	manifestName   = "quire-backup.json"
	dbEntryName    = "quire.db"
	blobsEntryRoot = "blobs"
	// gcLease is the collector's lease (jobs): a backup holds it, so that no
	// collection removes a file between the database's copy and the files'.
	gcLease        = "gc"
	backupLeaseTTL = 6 * time.Hour
	leaseWait      = 10 * time.Minute
)

// backupManifest describes a backup.
type backupManifest struct {
	Format    int       `json:"format"`
	CreatedAt time.Time `json:"createdAt"`
	Database  string    `json:"database"` // sqlite (inside) or postgres (pg_dump's)
	Revisions int       `json:"revisions"`
}

// backupReport is what backup and restore print.
type backupReport struct {
	File      string `json:"file,omitempty"`
	Database  string `json:"database"`
	Revisions int    `json:"revisions"`
	Objects   int    `json:"objects"`
	Blobs     int    `json:"blobs"`
	Missing   int    `json:"missingBlobs"`
}

func adminBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin backup", "quire admin backup FILE [--data DIR] [--db URL] [--blobs DIR|URL]", stderr)
	file, helped, err := parseFile(fs, &cfg, args, stdout)
	if helped || err != nil {
		return err
	}
	if _, err := os.Lstat(file); err == nil {
		return fmt.Errorf("%s exists: a backup never overwrites a file", file)
	}
	postgres := isPostgres(cfg.DB)
	if !postgres {
		if _, err := os.Stat(sqlitePath(cfg)); err != nil {
			return fmt.Errorf("no database to back up: %w", err)
		}
	}
	db, err := store.Open(ctx, cfg.DB, cfg.Data)
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer db.Close()
	release, err := holdLease(ctx, db, gcLease)
	if err != nil {
		return err
	}
	defer release()

	tmpDir, err := os.MkdirTemp(filepath.Dir(file), ".quire-backup-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmpDir)
	rep := backupReport{File: file, Database: "sqlite"}
	snapshot := db
	if postgres {
		rep.Database = "postgres"
	} else {
		path := filepath.Join(tmpDir, dbEntryName)
		if err := db.SnapshotTo(ctx, path); err != nil {
			return fmt.Errorf("copy the database: %w", err)
		}
		if snapshot, err = store.Open(ctx, "sqlite:"+path, tmpDir); err != nil {
			return fmt.Errorf("open the copy: %w", err)
		}
		defer snapshot.Close()
	}
	// What the copy uses: every object is read and checked, and its files
	// must all be in the archive.
	used, err := snapshot.Mark(ctx, true)
	if err != nil {
		return fmt.Errorf("check the copy: %w", err)
	}
	revs, err := snapshot.RevisionRoots(ctx)
	if err != nil {
		return err
	}
	rep.Revisions, rep.Objects = len(revs), used.Objects()
	if !postgres {
		snapshot.Close()
	}

	blobs, err := cfg.blobStore(ctx)
	if err != nil {
		return err
	}
	tmp := filepath.Join(tmpDir, "backup.tar.gz")
	copied, err := writeArchive(ctx, tmp, backupManifest{Format: backupFormat, CreatedAt: time.Now().UTC(), Database: rep.Database, Revisions: rep.Revisions},
		filepath.Join(tmpDir, dbEntryName), !postgres, blobs)
	if err != nil {
		return err
	}
	rep.Blobs = len(copied)
	for key := range used.Blobs {
		if !copied[key] {
			rep.Missing++
		}
	}
	if err := os.Rename(tmp, file); err != nil {
		return err
	}
	if rep.Missing > 0 {
		fmt.Fprintf(stderr, "quire: warning: %d files the database names are missing from %s\n", rep.Missing, filepath.Join(cfg.Data, "blobs"))
	}
	if postgres {
		fmt.Fprintf(stderr, "quire: %s holds the files only: back up the database with pg_dump (see docs/running/backups.md)\n", file)
	}
	return json.NewEncoder(stdout).Encode(rep)
}

// writeArchive writes the backup to path: the manifest, the database at
// dbPath when withDB, and every blob of blobs. It returns the blobs written.
func writeArchive(ctx context.Context, path string, m backupManifest, dbPath string, withDB bool, blobs blob.Collectable) (map[string]bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if err := tw.WriteHeader(&tar.Header{Name: manifestName, Mode: 0o600, Size: int64(len(manifest)), ModTime: now}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(manifest); err != nil {
		return nil, err
	}
	if withDB {
		if err := addFile(tw, dbEntryName, dbPath); err != nil {
			return nil, err
		}
	}
	copied := map[string]bool{}
	err = blobs.Walk(time.Time{}, func(key string, _ time.Time) error {
		err := addBlob(ctx, tw, blobsEntryRoot+"/"+key[:2]+"/"+key, blobs, key)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed since it was listed: no revision of the copy used it
		}
		copied[key] = err == nil
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	return copied, f.Close()
}

func addFile(tw *tar.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: fi.Size(), ModTime: fi.ModTime()}); err != nil {
		return err
	}
	_, err = io.Copy(tw, f)
	return err
}

// addBlob copies the blob key of blobs, from a folder or a bucket alike.
func addBlob(ctx context.Context, tw *tar.Writer, name string, blobs blob.Store, key string) error {
	r, err := blobs.Open(ctx, key)
	if err != nil {
		return err
	}
	defer r.Close()
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: time.Now()}); err != nil {
		return err
	}
	_, err = io.Copy(tw, r)
	return err
}

func isPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// sqlitePath is where the SQLite database of cfg is.
func sqlitePath(cfg Config) string {
	if path, ok := strings.CutPrefix(cfg.DB, "sqlite:"); ok && path != "" {
		return path
	}
	return filepath.Join(cfg.Data, "quire.db")
}

// holdLease takes the lease name, waiting up to leaseWait for a holder
// (a collection) to finish, and returns its release.
func holdLease(ctx context.Context, db *store.DB, name string) (release func(), err error) {
	holder := "backup-" + rand.Text()
	deadline := time.Now().Add(leaseWait)
	for {
		held, err := db.AcquireLease(ctx, name, holder, backupLeaseTTL)
		if err != nil {
			return nil, err
		}
		if held {
			return func() { db.ReleaseLease(context.WithoutCancel(ctx), name, holder) }, nil
		}
		if time.Now().After(deadline) {
			return nil, errors.New("a garbage collection has been running for 10 minutes: try again later")
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// parseFile parses the flags and the one FILE argument, given first or last.
func parseFile(fs *flag.FlagSet, cfg *Config, args []string, stdout io.Writer) (file string, helped bool, err error) {
	cfg.storeFlags(fs)
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if helped, err := parseFlags(fs, args, stdout); helped || err != nil {
		return "", helped, err
	}
	rest := fs.Args()
	if file == "" && len(rest) == 1 {
		file, rest = rest[0], nil
	}
	if len(rest) > 0 {
		return "", false, usageError(fs, fmt.Errorf("unexpected argument %q", rest[0]))
	}
	if file == "" {
		return "", false, usageError(fs, errors.New("FILE is required"))
	}
	return file, false, nil
}
