package blob

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// gcPrefix marks a blob a collection has set aside to remove.
const gcPrefix = ".gc-"

// Walk calls fn with the key and modification time of every blob in the
// folder, and removes what interrupted writes and removals left behind:
// temporary files older than before, and blobs set aside by a collection
// that stopped (put back when they are gone from their place).
func (d Dir) Walk(before time.Time, fn func(key string, modTime time.Time) error) error {
	fans, err := os.ReadDir(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, fan := range fans {
		if !fan.IsDir() || len(fan.Name()) != 2 {
			continue
		}
		dir := filepath.Join(d.Path, fan.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			info, err := e.Info()
			if errors.Is(err, fs.ErrNotExist) {
				continue // removed meanwhile
			}
			if err != nil {
				return err
			}
			switch {
			case strings.HasPrefix(name, ".tmp-"):
				if info.ModTime().Before(before) {
					os.Remove(filepath.Join(dir, name))
				}
			case strings.HasPrefix(name, gcPrefix):
				key := strings.TrimPrefix(name, gcPrefix)
				if _, err := os.Stat(filepath.Join(dir, key)); errors.Is(err, fs.ErrNotExist) && validKey(key) {
					os.Rename(filepath.Join(dir, name), filepath.Join(dir, key))
				} else {
					os.Remove(filepath.Join(dir, name))
				}
			case validKey(name) && strings.HasPrefix(name, fan.Name()):
				if err := fn(name, info.ModTime()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// RemoveOlder removes the blob key if it was last written (or Put again)
// before before, and reports whether it did. A Put that races with it
// either freshens the blob before it is set aside, and the blob is put
// back, or finds it gone and writes it anew.
func (d Dir) RemoveOlder(key string, before time.Time) (bool, error) {
	if !validKey(key) {
		return false, nil
	}
	dst := d.path(key)
	aside := filepath.Join(filepath.Dir(dst), gcPrefix+key)
	if err := os.Rename(dst, aside); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	info, err := os.Stat(aside)
	if err != nil {
		return false, err
	}
	if !info.ModTime().Before(before) {
		return false, os.Rename(aside, dst) // freshened meanwhile: keep it
	}
	return true, os.Remove(aside)
}
