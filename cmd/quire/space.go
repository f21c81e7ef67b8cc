package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/store"
)

const spaceUsage = `Usage:
  quire space export SPACE_ID DIR [--revision REV] [--change-request CR]
  quire space import SPACE_ID DIR --email E [--change-request CR]

export writes a revision (the space's current one unless told) as a folder in
GitBook's Git Sync layout into DIR, which must be empty or not exist (a .git
folder alone is allowed). import reads such a folder into the space as a new
revision (merged at once), or into change request CR, as the user E. Each takes
--data DIR and --db URL like quire serve, and prints JSON.
`

func space(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, spaceUsage)
		return errUsage
	}
	switch args[0] {
	case "export":
		return spaceExport(ctx, args[1:], stdout, stderr)
	case "import":
		return spaceImport(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, spaceUsage)
		return nil
	}
	fmt.Fprintf(stderr, "unknown space command %q\n\n%s", args[0], spaceUsage)
	return errUsage
}

// spaceArgs parses SPACE_ID DIR and then the flags.
func spaceArgs(fs *flag.FlagSet, cfg *Config, args []string, stdout io.Writer, names ...string) (spaceID, dir string, helped bool, err error) {
	if len(args) >= 2 && !strings.HasPrefix(args[0], "-") && !strings.HasPrefix(args[1], "-") {
		spaceID, dir, args = args[0], args[1], args[2:]
	}
	if helped, err = parseAdmin(fs, cfg, args, stdout, names...); helped || err != nil {
		return "", "", helped, err
	}
	if spaceID == "" {
		return "", "", false, usageError(fs, errors.New("SPACE_ID and DIR are required, before the flags"))
	}
	return spaceID, dir, false, nil
}

func spaceExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("space export", "quire space export SPACE_ID DIR [--revision REV] [--change-request CR] [--data DIR] [--db URL]", stderr)
	rev := fs.String("revision", "", "id of the revision to export (default: the space's current one)")
	crRef := fs.String("change-request", "", "id or number of a change request whose content to export")
	spaceID, dir, helped, err := spaceArgs(fs, &cfg, args, stdout)
	if helped || err != nil {
		return err
	}
	if err := emptyDir(dir); err != nil {
		return err
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		sp, err := db.Space(ctx, spaceID)
		if err != nil {
			return nil, err
		}
		revID := sp.RevisionID
		if *crRef != "" {
			c, err := db.ChangeRequest(ctx, sp.ID, *crRef)
			if err != nil {
				return nil, err
			}
			revID = c.RevisionID
		}
		if *rev != "" {
			revID = *rev
		}
		_, tree, err := db.RevisionTree(ctx, sp.ID, revID)
		if err != nil {
			return nil, err
		}
		redirects, err := db.SpaceRedirects(ctx, sp.ID)
		if err != nil {
			return nil, err
		}
		files := 0
		err = gitsync.Export(ctx, tree, redirects, blob.Dir{Path: filepath.Join(cfg.Data, "blobs")}, func(p string, data []byte) error {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				return err
			}
			files++
			return os.WriteFile(full, data, 0o644)
		})
		if err != nil {
			return nil, err
		}
		return map[string]any{"revision": revID, "files": files}, nil
	}, stdout)
}

// emptyDir refuses a folder holding anything but .git: an export does not
// delete what is there, so stale pages would stay.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			return fmt.Errorf("%s is not empty (it holds %s): export into an empty folder", dir, e.Name())
		}
	}
	return nil
}

func spaceImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("space import", "quire space import SPACE_ID DIR --email E [--change-request CR] [--data DIR] [--db URL]", stderr)
	email := fs.String("email", "", "e-mail address of the user the import is by")
	crRef := fs.String("change-request", "", "id or number of the change request to import into (default: the space)")
	spaceID, dir, helped, err := spaceArgs(fs, &cfg, args, stdout, "email")
	if helped || err != nil {
		return err
	}
	files, err := readDir(dir)
	if err != nil {
		return err
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		sp, err := db.Space(ctx, spaceID)
		if err != nil {
			return nil, err
		}
		u, err := db.UserByEmail(ctx, quire.NormalizeEmail(*email))
		if err != nil {
			return nil, err
		}
		var c *quire.ChangeRequest
		if *crRef != "" {
			if c, err = db.ChangeRequest(ctx, sp.ID, *crRef); err != nil {
				return nil, err
			}
		}
		a := &authoring.Author{DB: db, Blobs: blob.Dir{Path: filepath.Join(cfg.Data, "blobs")}}
		im, err := a.ImportFolder(ctx, sp, c, u.ID, files)
		if err != nil {
			return nil, err
		}
		rev := im.ChangeRequest.RevisionID
		if c == nil {
			rev = im.ChangeRequest.RevisionMerged
		}
		return map[string]any{"revision": rev, "pages": im.Imported}, nil
	}, stdout)
}

// readDir reads a folder's files within gitsync's limits, leaving out .git
// and symbolic links.
func readDir(dir string) (map[string][]byte, error) {
	folder := gitsync.NewFolder(gitsync.Limits{})
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return folder.Add(filepath.ToSlash(rel), f)
	})
	if err != nil {
		return nil, err
	}
	return folder.Files, nil
}
