package gitsync

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
)

func zipBytes(t *testing.T, entries ...[2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		w, err := zw.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestArchiveRoundTrip writes an export as a zip and as a .tar.gz and reads
// both back to the same folder; the same content makes the same bytes.
func TestArchiveRoundTrip(t *testing.T) {
	blobs := blob.Dir{Path: t.TempDir()}
	tr := corpus(t, blobs)
	want := exportMap(t, tr, blobs)
	for _, mk := range []func(*bytes.Buffer) *Archive{
		func(b *bytes.Buffer) *Archive { return NewZip(b) },
		func(b *bytes.Buffer) *Archive { return NewTarGz(b) },
	} {
		var out [2]bytes.Buffer
		for i := range out {
			a := mk(&out[i])
			if err := Export(t.Context(), tr, nil, blobs, a.Put); err != nil {
				t.Fatal(err)
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
			t.Error("two archives of the same revision differ")
		}
		f := NewFolder(Limits{})
		if err := f.ReadArchive(out[0].Bytes()); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(stringsOf(want), stringsOf(f.Unwrap())); diff != "" {
			t.Errorf("read back:\n%s", diff)
		}
	}
}

// TestArchiveLimits: entries past the limits, decompression bombs, paths
// leaving the folder and duplicates are refused with the problem named.
func TestArchiveLimits(t *testing.T) {
	bomb := strings.Repeat("0", 10<<20) // compresses to about 10 KiB
	for _, c := range []struct {
		name   string
		data   []byte
		limits Limits
		want   string
		code   quire.Code
	}{
		{"too many files", zipBytes(t, [2]string{"a.md", "a"}, [2]string{"b.md", "b"}, [2]string{"c.md", "c"}), Limits{Files: 2}, "more than 2 files", quire.CodeTooLarge},
		{"bomb, one file", zipBytes(t, [2]string{"a.md", bomb}), Limits{File: 1 << 20}, `"a.md": larger than 1 MiB`, quire.CodeTooLarge},
		{"bomb, all files", zipBytes(t, [2]string{"a.md", bomb[:6<<20]}, [2]string{"b.md", bomb[:6<<20]}), Limits{Bytes: 10 << 20}, "more than 10 MiB", quire.CodeTooLarge},
		{"traversal", zipBytes(t, [2]string{"../../etc/cron.d/x", "x"}), Limits{}, `"../../etc/cron.d/x"`, quire.CodeInvalid},
		{"absolute", zipBytes(t, [2]string{"/etc/x", "x"}), Limits{}, `"/etc/x"`, quire.CodeInvalid},
		{"duplicate", zipBytes(t, [2]string{"a.md", "1"}, [2]string{"./a.md", "2"}), Limits{}, "given twice", quire.CodeInvalid},
		{"not an archive", []byte("hello"), Limits{}, "neither a zip nor", quire.CodeInvalid},
	} {
		err := NewFolder(c.limits).ReadArchive(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) || quire.ErrorCode(err) != c.code {
			t.Errorf("%s: error %v (code %s), want %q (code %s)", c.name, err, quire.ErrorCode(err), c.want, c.code)
		}
	}
}

// TestArchiveTar reads a .tar.gz as tar writes one: "./" paths, folders,
// a symbolic link (skipped), all in one top folder (unwrapped).
func TestArchiveTar(t *testing.T) {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, h := range []tar.Header{
		{Name: "./repo/", Typeflag: tar.TypeDir, Mode: 0o755},
		{Name: "./repo/README.md", Typeflag: tar.TypeReg, Mode: 0o644, Size: 7},
		{Name: "./repo/link.md", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
	} {
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			tw.Write([]byte("# Home\n"))
		}
	}
	tw.Close()
	gz.Close()
	f := NewFolder(Limits{})
	if err := f.ReadArchive(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"README.md": "# Home\n"}, stringsOf(f.Unwrap())); diff != "" {
		t.Error(diff)
	}
}
