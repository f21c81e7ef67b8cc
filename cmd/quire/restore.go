package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
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

// maxManifest bounds the manifest read from a backup.
const maxManifest = 1 << 20

func adminRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin restore", "quire admin restore FILE [--data DIR] [--db URL] [--blobs DIR|URL] [--force]", stderr)
	force := fs.Bool("force", false, "replace the database and files of a data folder that is not empty")
	file, helped, err := parseFile(fs, &cfg, args, stdout)
	if helped || err != nil {
		return err
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s is not a Quire backup: %w", file, err)
	}
	tr := tar.NewReader(zr)
	m, err := readManifest(tr)
	if err != nil {
		return fmt.Errorf("%s is not a Quire backup: %w", file, err)
	}
	postgres := isPostgres(cfg.DB)
	switch {
	case m.Database == "sqlite" && postgres:
		return errors.New("this backup holds a SQLite database: restore it without --db (or with sqlite:PATH)")
	case m.Database == "postgres" && !postgres:
		return errors.New("this backup holds the files of a PostgreSQL installation: restore the database with pg_restore (see docs/running/backups.md), then run this again with its --db")
	case m.Database != "sqlite" && m.Database != "postgres":
		return fmt.Errorf("backup of an unknown database %q", m.Database)
	}
	if err := prepareRestore(cfg, *force, postgres); err != nil {
		return err
	}
	blobs, err := cfg.blobStore(ctx)
	if err != nil {
		return err
	}
	if err := extract(ctx, tr, sqlitePath(cfg), !postgres, blobs); err != nil {
		return fmt.Errorf("restore %s: %w", file, err)
	}
	rep, err := verifyRestored(ctx, cfg, blobs)
	if err != nil {
		return fmt.Errorf("the restored store fails its check: %w", err)
	}
	rep.Database = m.Database
	return json.NewEncoder(stdout).Encode(rep)
}

func readManifest(tr *tar.Reader) (backupManifest, error) {
	var m backupManifest
	h, err := tr.Next()
	if err != nil {
		return m, err
	}
	if h.Name != manifestName {
		return m, fmt.Errorf("it starts with %q, not %s", h.Name, manifestName)
	}
	if err := json.NewDecoder(io.LimitReader(tr, maxManifest)).Decode(&m); err != nil {
		return m, err
	}
	if m.Format != backupFormat {
		return m, fmt.Errorf("format %d, this version reads %d", m.Format, backupFormat)
	}
	return m, nil
}

// prepareRestore makes sure the data folder may receive the backup: empty
// (or absent), or, with force, emptied of its database and files.
func prepareRestore(cfg Config, force, postgres bool) error {
	entries, err := os.ReadDir(cfg.Data)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dbFile := sqlitePath(cfg)
	if _, err := os.Stat(dbFile); err == nil && !postgres {
		entries = append(entries, nil) // a database elsewhere (sqlite:PATH) counts too
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("%s is not empty: restore into an empty folder, or give --force to replace its database and files (stop the server first)", cfg.Data)
	}
	if force {
		victims := []string{filepath.Join(cfg.Data, "blobs")}
		if !postgres {
			victims = append(victims, dbFile, dbFile+"-wal", dbFile+"-shm", dbFile+"-journal")
		}
		for _, p := range victims {
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
	}
	return os.MkdirAll(cfg.Data, 0o700)
}

// extract writes the backup's database to dbPath (when withDB) and its
// blobs to blobs, refusing any other entry and any blob whose bytes do not
// have its name's hash.
func extract(ctx context.Context, tr *tar.Reader, dbPath string, withDB bool, blobs blob.Store) error {
	sawDB := false
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			return fmt.Errorf("entry %q is not a file", h.Name)
		}
		switch {
		case h.Name == dbEntryName && withDB && !sawDB:
			sawDB = true
			if err := writeNew(dbPath, tr); err != nil {
				return err
			}
		case strings.HasPrefix(h.Name, blobsEntryRoot+"/"):
			key := h.Name[strings.LastIndexByte(h.Name, '/')+1:]
			if h.Name != blobsEntryRoot+"/"+key[:min(2, len(key))]+"/"+key {
				return fmt.Errorf("entry %q is not a file's bytes", h.Name)
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				return err
			}
			got, err := blobs.Put(ctx, data)
			if err != nil {
				return err
			}
			if got != key {
				return fmt.Errorf("entry %q: its bytes have another hash", h.Name)
			}
		default:
			return fmt.Errorf("unexpected entry %q", h.Name)
		}
	}
	if withDB && !sawDB {
		return errors.New("the backup holds no database")
	}
	return nil
}

// writeNew writes r to a new owner-only file at path.
func writeNew(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// verifyRestored opens the restored store (migrating a backup of an older
// version), checks the database's integrity, reads every object every
// revision uses and checks that every file they name is there.
func verifyRestored(ctx context.Context, cfg Config, blobs blob.Collectable) (backupReport, error) {
	var rep backupReport
	db, err := store.Open(ctx, cfg.DB, cfg.Data)
	if err != nil {
		return rep, err
	}
	defer db.Close()
	if err := db.CheckIntegrity(ctx); err != nil {
		return rep, err
	}
	used, err := db.Mark(ctx, true)
	if err != nil {
		return rep, err
	}
	revs, err := db.RevisionRoots(ctx)
	if err != nil {
		return rep, err
	}
	rep.Revisions, rep.Objects = len(revs), used.Objects()
	err = blobs.Walk(time.Time{}, func(string, time.Time) error { rep.Blobs++; return nil })
	if err != nil {
		return rep, err
	}
	for key := range used.Blobs {
		rc, err := blobs.Open(ctx, key)
		if err != nil {
			rep.Missing++
			continue
		}
		rc.Close()
	}
	if rep.Missing > 0 {
		return rep, fmt.Errorf("%d files the database names are missing", rep.Missing)
	}
	return rep, nil
}
