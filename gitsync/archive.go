package gitsync

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/quiredocs/quire"
)

// Archives: Export's files written as a zip or a gzip-compressed tar as
// they come, and a zip or .tar.gz of a folder read back within Limits.

// archiveTime is the modification time of every entry written, so that
// the same content makes the same archive.
var archiveTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Archive writes files to a zip or a .tar.gz stream.
type Archive struct {
	zw *zip.Writer
	tw *tar.Writer
	gz *gzip.Writer
}

// NewZip writes a zip archive to w.
func NewZip(w io.Writer) *Archive { return &Archive{zw: zip.NewWriter(w)} }

// NewTarGz writes a gzip-compressed tar archive to w.
func NewTarGz(w io.Writer) *Archive {
	gz := gzip.NewWriter(w)
	return &Archive{gz: gz, tw: tar.NewWriter(gz)}
}

// Put adds a file; it has Export's put signature.
func (a *Archive) Put(p string, data []byte) error {
	if a.zw != nil {
		f, err := a.zw.CreateHeader(&zip.FileHeader{Name: p, Method: zip.Deflate, Modified: archiveTime})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	if err := a.tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: 0o644, Size: int64(len(data)),
		ModTime: archiveTime, Format: tar.FormatPAX}); err != nil {
		return err
	}
	_, err := a.tw.Write(data)
	return err
}

// Close ends the archive (it does not close the writer under it).
func (a *Archive) Close() error {
	if a.zw != nil {
		return a.zw.Close()
	}
	if err := a.tw.Close(); err != nil {
		return err
	}
	return a.gz.Close()
}

// Limits bound what reading an archive or a folder takes.
type Limits struct {
	Files int   // entries that are files: 10,000
	Bytes int64 // all files, uncompressed: 256 MiB
	File  int64 // one file, uncompressed: 25 MiB
}

// Default limits of a folder.
const (
	DefaultMaxFiles = 10000
	DefaultMaxBytes = 256 << 20
	DefaultMaxFile  = 25 << 20
)

func (l Limits) withDefaults() Limits {
	if l.Files <= 0 {
		l.Files = DefaultMaxFiles
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultMaxBytes
	}
	if l.File <= 0 {
		l.File = DefaultMaxFile
	}
	return l
}

// Folder collects the files of a folder within Limits, refusing paths
// that leave it.
type Folder struct {
	Files  map[string][]byte
	limits Limits
	total  int64
}

// NewFolder starts an empty folder bounded by l (zero fields: defaults).
func NewFolder(l Limits) *Folder {
	return &Folder{Files: map[string][]byte{}, limits: l.withDefaults()}
}

// Add reads a file of the folder from r, at most the bytes the limits
// leave; name says where it came from in errors.
func (f *Folder) Add(p string, r io.Reader) error {
	if err := CheckPath(p); err != nil {
		return err
	}
	if _, dup := f.Files[p]; dup {
		return quire.Errorf(quire.CodeInvalid, "path %q: given twice", p)
	}
	if len(f.Files) >= f.limits.Files {
		return quire.Errorf(quire.CodeTooLarge, "the folder has more than %d files, the most one import reads", f.limits.Files)
	}
	limit := min(f.limits.File, f.limits.Bytes-f.total)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return quire.Errorf(quire.CodeInvalid, "path %q: could not be read: %s", p, err)
	}
	if int64(len(data)) > limit {
		if limit < f.limits.File {
			return quire.Errorf(quire.CodeTooLarge, "the folder's files come to more than %d MiB uncompressed, the most one import reads", f.limits.Bytes>>20)
		}
		return quire.Errorf(quire.CodeTooLarge, "path %q: larger than %d MiB, the largest file one import reads", p, f.limits.File>>20)
	}
	f.total += int64(len(data))
	f.Files[p] = data
	return nil
}

// ReadArchive adds the files of a zip or a .tar.gz (told apart by their
// first bytes) to f. Directories are skipped, and so are symbolic links and
// other special entries, and macOS's __MACOSX folder.
func (f *Folder) ReadArchive(data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return f.readZip(data)
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return f.readTarGz(data)
	}
	return quire.Errorf(quire.CodeInvalid, "the archive is neither a zip nor a .tar.gz")
}

func (f *Folder) readZip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return quire.Errorf(quire.CodeInvalid, "the zip could not be read: %s", err)
	}
	if len(zr.File) > 2*f.limits.Files {
		return quire.Errorf(quire.CodeTooLarge, "the zip has more than %d entries", 2*f.limits.Files)
	}
	for _, e := range zr.File {
		p, ok := entryPath(e.Name)
		if !ok || !e.Mode().IsRegular() {
			continue
		}
		rc, err := e.Open()
		if err != nil {
			return quire.Errorf(quire.CodeInvalid, "path %q: %s", e.Name, err)
		}
		err = f.Add(p, rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func (f *Folder) readTarGz(data []byte) error {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return quire.Errorf(quire.CodeInvalid, "the .tar.gz could not be read: %s", err)
	}
	tr := tar.NewReader(gz)
	for entries := 0; ; entries++ {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return quire.Errorf(quire.CodeInvalid, "the .tar.gz could not be read: %s", err)
		}
		if entries > 2*f.limits.Files {
			return quire.Errorf(quire.CodeTooLarge, "the .tar.gz has more than %d entries", 2*f.limits.Files)
		}
		p, ok := entryPath(h.Name)
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		if err := f.Add(p, tr); err != nil {
			return err
		}
	}
}

// entryPath is an archive entry's path in the folder: without a leading
// "./"; ok is false for a directory and for what macOS adds.
func entryPath(name string) (string, bool) {
	name = strings.TrimPrefix(name, "./")
	if name == "" || strings.HasSuffix(name, "/") || strings.HasPrefix(name, "__MACOSX/") || path.Base(name) == ".DS_Store" {
		return "", false
	}
	return name, true
}

// Unwrap returns the folder's files, moved out of a single top-level
// folder holding all of them when there is no layout file at the top (an
// archive made by zipping the folder itself).
func (f *Folder) Unwrap() map[string][]byte {
	top := ""
	for p := range f.Files {
		dir, _, nested := strings.Cut(p, "/")
		if !nested || (top != "" && dir != top) {
			return f.Files
		}
		top = dir
	}
	if top == "" || strings.HasPrefix(top, ".") {
		return f.Files
	}
	out := make(map[string][]byte, len(f.Files))
	for p, data := range f.Files {
		out[strings.TrimPrefix(p, top+"/")] = data
	}
	return out
}

// String describes the folder for logs.
func (f *Folder) String() string {
	return fmt.Sprintf("%d files, %d bytes", len(f.Files), f.total)
}
