package authoring

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/store"
)

// ImportFolder imports a folder in GitBook's Git Sync layout (gitsync.Import)
// as one new revision by the user: of change request c, or, when c is nil,
// of space sp through a change request named after the import, merged at
// once. Pages and files at the paths they had keep their ids. The folder
// is read against the request's head with its row locked, its files are
// stored before the transaction commits, and nothing is left when a step
// fails. A locked space refuses it. files is bounded as gitsync.Limits
// bounds an archive (file count, bytes). No merge rule is judged: this is
// the command line's import, by the server's administrator; requests
// import into a space with ImportFolderIntoSpace.
func (a *Author) ImportFolder(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, userID string, files map[string][]byte) (*Import, error) {
	return a.importFolder(ctx, sp, c, userID, files, nil)
}

// ImportFolderIntoSpace is ImportFolder into space sp for by's user,
// merged once the merge rules judged for by allow it, in the import's
// transaction (RulesError otherwise, and nothing is written).
func (a *Author) ImportFolderIntoSpace(ctx context.Context, sp *quire.Space, files map[string][]byte, by Actor) (*Import, error) {
	return a.importFolder(ctx, sp, nil, by.User.ID, files, a.mergeCheck(ctx, sp, by))
}

// importFolder imports files; a merge into sp asks check first.
func (a *Author) importFolder(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, userID string, files map[string][]byte, check store.MergeCheck) (*Import, error) {
	if err := quire.CheckEditable(sp); err != nil {
		return nil, err
	}
	if err := checkFolder(files); err != nil {
		return nil, err
	}
	var out *quire.ChangeRequest
	pages := 0
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		ref := ""
		if c == nil {
			cr, err := tx.CreateChangeRequest(ctx, sp.ID, "Import of a folder", userID)
			if err != nil {
				return err
			}
			ref = cr.ID
		} else {
			ref = c.ID
		}
		var im *gitsync.Imported
		var err error
		out, err = tx.EditChangeRequest(ctx, sp.ID, ref, userID, func(now time.Time, head *content.Tree) (*content.Tree, error) {
			if im, err = gitsync.Import(head, files); err != nil {
				return nil, err
			}
			im.Stamp(now.UnixMicro())
			pages = len(im.Tree.Pages)
			return im.Tree, nil
		})
		if err != nil {
			return err
		}
		if c == nil {
			if out, err = tx.MergeChangeRequestChecked(ctx, sp.ID, ref, userID, check); err != nil {
				return err
			}
			// .gitbook.yaml's redirects become the space's; an import into
			// a change request leaves the space's as they are.
			if im.Redirects != nil {
				if err := tx.SetSpaceRedirects(ctx, sp.ID, im.Redirects); err != nil {
					return err
				}
			}
		}
		// The folder is valid: its files are stored before the commit. If
		// the commit fails, they stay unreferenced until collected.
		for _, data := range im.Blobs {
			if a.Blobs == nil {
				return fmt.Errorf("import folder: no blob store")
			}
			if _, err := a.Blobs.Put(ctx, data); err != nil {
				return fmt.Errorf("store file: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Import{ChangeRequest: out, Imported: pages, Found: pages}, nil
}

// checkFolder bounds a folder given as files, as gitsync.Folder bounds one
// read from an archive.
func checkFolder(files map[string][]byte) error {
	if len(files) > gitsync.DefaultMaxFiles {
		return quire.Errorf(quire.CodeTooLarge, "the folder has more than %d files, the most one import reads", gitsync.DefaultMaxFiles)
	}
	var total int64
	for p, data := range files {
		if err := gitsync.CheckPath(p); err != nil {
			return err
		}
		if int64(len(data)) > gitsync.DefaultMaxFile {
			return quire.Errorf(quire.CodeTooLarge, "path %q: larger than %d MiB, the largest file one import reads", p, gitsync.DefaultMaxFile>>20)
		}
		total += int64(len(data))
	}
	if total > gitsync.DefaultMaxBytes {
		return quire.Errorf(quire.CodeTooLarge, "the folder's files come to more than %d MiB, the most one import reads", gitsync.DefaultMaxBytes>>20)
	}
	return nil
}

// MaxUploadBytes bounds one uploaded file: an import's zip.
const MaxUploadBytes = 64 << 20

// UploadedFolder reads the uploaded files of an import, by key, into a
// folder: zips and .tar.gz files are unpacked, markdown and other files are
// put at the top by their names. A key of another organization is not
// found. The folder must hold a markdown page. Refusals name the key as
// source.files[i], as an import's body gives them.
func (a *Author) UploadedFolder(ctx context.Context, orgID string, keys []string) (map[string][]byte, error) {
	f := gitsync.NewFolder(gitsync.Limits{})
	for i, key := range keys {
		u, err := a.DB.UploadedFile(ctx, orgID, key)
		if err != nil {
			return nil, quire.Errorf(quire.ErrorCode(err), "source.files[%d]: %s", i, quire.ErrorMessage(err))
		}
		data, err := ReadUpload(ctx, a.Blobs, u.Blob)
		if err != nil {
			return nil, err
		}
		name := path.Base(strings.ReplaceAll(u.Name, "\\", "/"))
		lower := strings.ToLower(name)
		switch {
		case strings.HasSuffix(lower, ".zip") || strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz") ||
			bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
			if err := f.ReadArchive(data); err != nil {
				return nil, quire.Errorf(quire.ErrorCode(err), "source.files[%d]: %s", i, quire.ErrorMessage(err))
			}
		default:
			if err := f.Add(name, bytes.NewReader(data)); err != nil {
				return nil, quire.Errorf(quire.ErrorCode(err), "source.files[%d]: %s", i, quire.ErrorMessage(err))
			}
		}
	}
	files := f.Unwrap()
	for p := range files {
		if strings.EqualFold(path.Ext(p), ".md") && p != gitsync.DefaultTOC {
			return files, nil
		}
	}
	return nil, quire.Errorf(quire.CodeInvalid, "source.files: no markdown page in the files given")
}

// ReadUpload reads the uploaded file stored as key, up to one byte past
// MaxUploadBytes.
func ReadUpload(ctx context.Context, blobs blob.Store, key string) ([]byte, error) {
	rc, err := blobs.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, MaxUploadBytes+1))
}
