package gitsync

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/blob"
)

// FuzzImport reads folders of a table of contents, a configuration and two
// pages: Import never panics, and what it reads exports to a folder that
// reads back to the same folder (the layout's round trip).
func FuzzImport(f *testing.F) {
	f.Add("# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [A](guide/a.md)\n\n## Group <a href=\"#g\" id=\"g\"></a>\n\n* [B](b.md)\n",
		"root: ./\n", "---\ndescription: x\nslug: home\n---\n\n# Home\n\n[a](guide/a.md#x) ![i](.gitbook/assets/i.png)\n",
		"> **Info**\n>\n> hint [b](../b.md)\n\n{% file src=\"../.gitbook/assets/i.png\" %}\n")
	f.Add("* [x](../../etc/passwd)\n* Group\n  * [y](<a b.md>)\n", "structure:\n  readme: x.md\n", "# \\*Title\\*\n", "")
	f.Add("", "", "", "")
	f.Add("* [A](guide/a.md)\n", "redirects:\n  old: guide/a.md\n  /x/: b.md\n  'yes': README.md\n  \"404\": guide/README.md\n", "# A\n", "")
	f.Fuzz(func(t *testing.T, summary, config, page, other string) {
		folder := map[string][]byte{
			"SUMMARY.md": []byte(summary), "README.md": []byte(page), "guide/README.md": []byte(other),
			"guide/a.md": []byte(page), "b.md": []byte(other), ".gitbook/assets/i.png": []byte("i"),
		}
		tm := time.AfterFunc(10*time.Second, func() { panic("slow input: a hang the fuzzer keeps") })
		defer tm.Stop()
		if config != "" {
			folder[".gitbook.yaml"] = []byte(config)
		}
		im, err := Import(nil, folder)
		if err != nil {
			return
		}
		blobs := memBlobs{}
		for _, b := range im.Blobs {
			blobs.Put(context.Background(), b)
		}
		first := map[string][]byte{}
		if err := Export(context.Background(), im.Tree, im.Redirects, blobs, func(p string, d []byte) error { first[p] = d; return nil }); err != nil {
			t.Fatalf("export: %v", err)
		}
		again, err := Import(nil, first)
		if err != nil {
			t.Fatalf("import of an export: %v\n%q", err, first)
		}
		second := map[string][]byte{}
		if err := Export(context.Background(), again.Tree, again.Redirects, blobs, func(p string, d []byte) error { second[p] = d; return nil }); err != nil {
			t.Fatalf("export: %v", err)
		}
		if diff := cmp.Diff(stringsOf(first), stringsOf(second)); diff != "" {
			t.Fatalf("export, import, export differs:\n%s", diff)
		}
	})
}

// memBlobs is a blob store in memory, for the fuzzer's speed.
type memBlobs map[string][]byte

func (m memBlobs) Put(_ context.Context, data []byte) (string, error) {
	k := blob.Key(data)
	m[k] = bytes.Clone(data)
	return k, nil
}

func (m memBlobs) Open(_ context.Context, key string) (io.ReadSeekCloser, error) {
	return nopCloser{bytes.NewReader(m[key])}, nil
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// FuzzReadArchive reads arbitrary bytes as an archive within small limits:
// never a panic, never more than the limits, never a path leaving the
// folder.
func FuzzReadArchive(f *testing.F) {
	var zb, tb bytes.Buffer
	for _, a := range []*Archive{NewZip(&zb), NewTarGz(&tb)} {
		a.Put("README.md", []byte("# Home\n"))
		a.Put(".gitbook/assets/a.png", []byte("png"))
		a.Close()
	}
	f.Add(zb.Bytes())
	f.Add(tb.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		l := Limits{Files: 20, Bytes: 1 << 16, File: 1 << 12}
		folder := NewFolder(l)
		if err := folder.ReadArchive(data); err != nil {
			return
		}
		var total int
		for p, d := range folder.Unwrap() {
			if err := CheckPath(p); err != nil {
				t.Fatalf("path %q read: %v", p, err)
			}
			total += len(d)
		}
		if len(folder.Files) > l.Files || int64(total) > l.Bytes {
			t.Fatalf("%d files, %d bytes: past the limits", len(folder.Files), total)
		}
	})
}
