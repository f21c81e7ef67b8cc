package gitsync

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
)

func files(m map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out
}

// outline is a tree as "title (slug)" lines, indented by depth, groups
// marked.
func outline(tr *content.Tree) []string {
	var out []string
	var walk func(ids []string, depth int)
	walk = func(ids []string, depth int) {
		for _, id := range ids {
			p := tr.Pages[id]
			mark := ""
			if p.Kind == content.KindGroup {
				mark = " [group]"
			}
			out = append(out, fmt.Sprintf("%s%s (%s)%s", strings.Repeat("  ", depth), p.Title, p.Slug, mark))
			walk(p.Children, depth+1)
		}
	}
	walk(tr.Root, 0)
	return out
}

func pageByTitle(tr *content.Tree, title string) *content.Page {
	for _, p := range tr.Pages {
		if p.Title == title {
			return p
		}
	}
	return nil
}

// TestImportGitBookFolder reads a repository as GitBook writes one: the
// root and structure of .gitbook.yaml, SUMMARY.md with a group, READMEs,
// assets, redirects; links become page and file ids.
func TestImportGitBookFolder(t *testing.T) {
	im, err := Import(nil, files(map[string]string{
		".gitbook.yaml": "root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: toc/SUMMARY.md\n\nredirects:\n  old/page: ./guide/install me.md\n  /v1/start/: intro.md\n  gone: nowhere.md\n",
		"docs/toc/SUMMARY.md": "# Table of contents\n\n* [Introduction](../intro.md)\n* [Guide](../guide/)\n  * [Install *it*](<../guide/install me.md>)\n" +
			"  * [Elsewhere](https://example.com)\n\n## Reference <a href=\"#ref\" id=\"ref\"></a>\n\n* [API](../reference/api.md)\n",
		"docs/intro.md":                    "# Introduction\n\nGo to [install](guide/install%20me.md#steps) or [the guide](guide/).\n\n![](.gitbook/assets/logo.png)\n",
		"docs/guide/README.md":             "---\ncover: .gitbook/assets/logo.png\ncoverY: 0\n---\n\n# Guide\n",
		"docs/guide/install me.md":         "---\ndescription: How to\nicon: download\nhidden: true\n---\n\n# Install\n\nBack to [start](../intro.md).\n\n<img src=\"../.gitbook/assets/logo.png\" alt=\"\">\n",
		"docs/reference/api.md":            "API body without a title.\n",
		"docs/.gitbook/assets/logo.png":    "not really a png",
		"docs/.gitbook/assets/unused.pdf":  "%PDF",
		"docs/unlisted.md":                 "# Not in the summary\n",
		"README.md":                        "# Outside the root\n",
		"docs/.gitbook/assets/nested/x.md": "# an asset, not a page\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Introduction (introduction)", "Guide (guide)", "  Install it (install-me)", "Reference (ref) [group]", "  API (api)"}
	if diff := cmp.Diff(want, outline(im.Tree)); diff != "" {
		t.Fatalf("tree (-want +got):\n%s", diff)
	}
	install := pageByTitle(im.Tree, "Install it")
	if install.Description != "How to" || install.Icon != "download" || !install.Hidden {
		t.Errorf("install %+v", install)
	}
	var logo string
	var names []string
	for id, f := range im.Tree.Files {
		names = append(names, f.Name)
		if f.Name == "logo.png" {
			logo = id
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"logo.png", "unused.pdf", "x.md"}) || len(im.Blobs) != 3 {
		t.Errorf("files %v, %d blobs", names, len(im.Blobs))
	}
	intro := pageByTitle(im.Tree, "Introduction")
	guide := pageByTitle(im.Tree, "Guide")
	if want := "Go to [install](/pages/" + install.ID + "#steps) or [the guide](/pages/" + guide.ID + ").\n\n![](/files/" + logo + ")\n"; intro.Markdown != want {
		t.Errorf("intro %q, want %q", intro.Markdown, want)
	}
	if !strings.Contains(install.Markdown, `<img src="/files/`+logo+`" alt="">`) || !strings.Contains(install.Markdown, "(/pages/"+intro.ID+")") {
		t.Errorf("install %q", install.Markdown)
	}
	if want := map[string]string{"old/page": install.ID, "v1/start": intro.ID}; !maps.Equal(im.Redirects, want) {
		t.Errorf("redirects %v", im.Redirects)
	}
}

// TestImportWithoutSummary builds the tree from the folders, as GitBook
// does without SUMMARY.md: README first, then by name; a folder with a
// README is a page over its folder.
func TestImportWithoutSummary(t *testing.T) {
	im, err := Import(nil, files(map[string]string{
		"README.md":          "# Home\n",
		"b.md":               "# Bee\n",
		"a/README.md":        "# Ay\n",
		"a/child.md":         "# Child\n",
		"loose/one.md":       "# One\n",
		".hidden/secret.md":  "# Secret\n",
		"docs/diagram.png":   "png",
		"a/deeper/README.md": "# Deeper\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Home (home)", "Ay (a)", "  Child (child)", "  Deeper (deeper)", "Bee (b)", "One (one)"}
	if diff := cmp.Diff(want, outline(im.Tree)); diff != "" {
		t.Fatalf("tree (-want +got):\n%s", diff)
	}
}

// TestImportKeepsBaseIDs: pages and files at the paths they had in the
// base keep their ids, and so do groups; the rest get new ones.
func TestImportKeepsBaseIDs(t *testing.T) {
	blobs := blob.Dir{Path: t.TempDir()}
	base := corpus(t, blobs)
	folder := exportMap(t, base, blobs)
	folder["guide/same.md"] = []byte("# Same\n\nEdited.\n")
	folder["new.md"] = []byte("# New\n")
	folder["SUMMARY.md"] = nil
	delete(folder, "SUMMARY.md")
	toc := string(folder[".gitbook/SUMMARY.md"])
	folder[".gitbook/SUMMARY.md"] = []byte(strings.Replace(toc, "* [Summary](../summary.md)\n", "* [Summary](../summary.md)\n* [New](../new.md)\n", 1))
	im, err := Import(base, folder)
	if err != nil {
		t.Fatal(err)
	}
	for id, p := range base.Pages {
		q := im.Tree.Pages[id]
		if q == nil {
			t.Errorf("page %s (%s) lost its id", id, p.Title)
			continue
		}
		if q.Title != p.Title {
			t.Errorf("page %s: title %q, was %q", id, q.Title, p.Title)
		}
	}
	if got := im.Tree.Pages["dup1"]; got.Markdown != "Edited.\n" || got.UpdatedAt != 0 {
		t.Errorf("edited page %+v", got)
	}
	if len(im.Tree.Pages) != len(base.Pages)+1 || pageByTitle(im.Tree, "New") == nil {
		t.Errorf("%d pages, want %d", len(im.Tree.Pages), len(base.Pages)+1)
	}
	for id := range base.Files {
		if im.Tree.Files[id] == nil {
			t.Errorf("file %s lost its id", id)
		}
	}
}

// TestImportRefuses: bad paths, bad front matter, bad configuration and
// oversized pages are errors naming the problem.
func TestImportRefuses(t *testing.T) {
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"../evil.md": "# x\n"}, `"../evil.md"`},
		{map[string]string{"/abs.md": "# x\n"}, `"/abs.md"`},
		{map[string]string{"a/./b.md": "# x\n"}, `"a/./b.md"`},
		{map[string]string{"a\\b.md": "# x\n"}, "backslash"},
		{map[string]string{"README.md": "---\nhidden: maybe\n---\n# X\n"}, "README.md: front matter"},
		{map[string]string{"README.md": "---\nslug: a/b\n---\n# X\n"}, "slug"},
		{map[string]string{".gitbook.yaml": "root: ../up\n"}, "root"},
		{map[string]string{".gitbook.yaml": "root: [\n"}, ".gitbook.yaml"},
		{map[string]string{"README.md": "# " + strings.Repeat("t", 300) + "\n"}, "title"},
		{map[string]string{"README.md": "# X\n\n" + strings.Repeat("x", 1<<20+1)}, "README.md"},
	} {
		_, err := Import(nil, files(c.files))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one naming %s", c.files, err, c.want)
			continue
		}
		if code := quire.ErrorCode(err); code != quire.CodeInvalid && code != quire.CodeTooLarge {
			t.Errorf("%v: code %v", c.files, code)
		}
	}
}

// bigTree is a space of n pages in sections of ten, with links and a file.
func bigTree(t testing.TB, blobs blob.Store, n int) *content.Tree {
	tr := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
	key, err := blobs.Put(context.Background(), pngBytes(t, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	tr.Files["f1"] = &content.File{ID: "f1", Name: "diagram.png", ContentType: "image/png", Size: int64(len(pngBytes(t, 2, 2))), Width: 2, Height: 2, Blob: key}
	var section string
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("p%04d", i)
		p := &content.Page{ID: id, Kind: content.KindDocument, Title: fmt.Sprintf("Page %d — über", i), Slug: fmt.Sprintf("page-%d", i),
			Markdown: fmt.Sprintf("Intro of page %d with [a link](/pages/p%04d#part) and ![img](/files/f1).\n\n## Part\n\n%s\n", i, (i*7)%n,
				strings.TrimSpace(strings.Repeat("Some text of the page, long enough to be realistic. ", 20)))}
		tr.Pages[id] = p
		if i%10 == 0 {
			tr.Root = append(tr.Root, id)
			section = id
		} else {
			tr.Pages[section].Children = append(tr.Pages[section].Children, id)
		}
	}
	return tr
}

// TestRoundTrip1000Pages: a thousand-page space comes back the same.
func TestRoundTrip1000Pages(t *testing.T) {
	blobs := blob.Dir{Path: t.TempDir()}
	tr := bigTree(t, blobs, 1000)
	first := exportMap(t, tr, blobs)
	im, err := Import(nil, first)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Tree.Pages) != 1000 {
		t.Fatalf("%d pages", len(im.Tree.Pages))
	}
	second := exportMap(t, im.Tree, blobs)
	if diff := cmp.Diff(stringsOf(first), stringsOf(second)); diff != "" {
		t.Fatalf("second export differs:\n%s", diff)
	}
	if diff := cmp.Diff(shape(tr), shape(im.Tree)); diff != "" {
		t.Fatalf("tree differs:\n%s", diff)
	}
}

func BenchmarkExport1000(b *testing.B) {
	blobs := blob.Dir{Path: b.TempDir()}
	tr := bigTree(b, blobs, 1000)
	b.ReportAllocs()
	for b.Loop() {
		a := NewZip(discard{})
		if err := Export(context.Background(), tr, nil, blobs, a.Put); err != nil {
			b.Fatal(err)
		}
		if err := a.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImport1000(b *testing.B) {
	blobs := blob.Dir{Path: b.TempDir()}
	tr := bigTree(b, blobs, 1000)
	folder := map[string][]byte{}
	if err := Export(context.Background(), tr, nil, blobs, func(p string, d []byte) error { folder[p] = d; return nil }); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Import(tr, folder); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
