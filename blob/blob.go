// Package blob stores file bytes by content: the key of some bytes is their
// hex SHA-256, so storing the same file twice stores it once.
package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Store keeps file bytes. A folder (Dir) is the default; an S3-compatible
// store can implement the same interface for several servers.
type Store interface {
	// Put stores data and returns its key.
	Put(ctx context.Context, data []byte) (key string, err error)
	// Open returns the bytes stored under key; fs.ErrNotExist when none.
	Open(ctx context.Context, key string) (io.ReadSeekCloser, error)
}

// Key returns the key data is stored under.
func Key(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// validKey reports whether key is a hex SHA-256, so it cannot name a path
// outside the store.
func validKey(key string) bool {
	if len(key) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(key)
	return err == nil
}

// Dir stores blobs as files in a folder, fanned out by the key's first two
// characters. Folders are made owner-only (0700), as files are (0600):
// they sit in the data folder, beside the database.
type Dir struct{ Path string }

func (d Dir) path(key string) string { return filepath.Join(d.Path, key[:2], key) }

// Put implements Store. The bytes are written to a temporary file and
// renamed into place, so a reader never sees a partial blob. A blob already
// there has its modification time set to now instead, so that a collection
// leaves it alone for its grace period (see Sweep).
func (d Dir) Put(_ context.Context, data []byte) (string, error) {
	key := Key(data)
	return key, d.put(key, bytes.NewReader(data))
}

// put stores what r reads under key, its hex SHA-256.
func (d Dir) put(key string, r io.Reader) error {
	dst := d.path(key)
	now := time.Now()
	if err := os.Chtimes(dst, now, now); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("blob: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tmp-*")
	if err != nil {
		return fmt.Errorf("blob: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this is a no-op
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return fmt.Errorf("blob: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("blob: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("blob: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("blob: %w", err)
	}
	return nil
}

// PutFile stores the bytes of f, read from its start, and returns their
// key and size. Dir and S3 copy them as they read them, so a large file
// (a PDF) is never held in memory; other stores get them whole.
func PutFile(ctx context.Context, s Store, f *os.File) (key string, size int64, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", 0, fmt.Errorf("blob: %w", err)
	}
	h := sha256.New()
	if size, err = io.Copy(h, f); err != nil {
		return "", 0, fmt.Errorf("blob: %w", err)
	}
	key = hex.EncodeToString(h.Sum(nil))
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", 0, fmt.Errorf("blob: %w", err)
	}
	// The file is read again as it was hashed: a change meanwhile would
	// store bytes under another's key.
	r := io.LimitReader(f, size)
	switch st := s.(type) {
	case Dir:
		err = st.put(key, r)
	case *S3:
		err = st.put(ctx, key, r, size)
	default:
		var data []byte
		if data, err = io.ReadAll(r); err == nil {
			key, err = s.Put(ctx, data)
		}
	}
	return key, size, err
}

// Open implements Store.
func (d Dir) Open(_ context.Context, key string) (io.ReadSeekCloser, error) {
	if !validKey(key) {
		return nil, fs.ErrNotExist
	}
	f, err := os.Open(d.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	return f, nil
}
