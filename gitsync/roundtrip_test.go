package gitsync

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
)

// pngBytes is a w×h PNG.
func pngBytes(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// corpus is a tree with what the layout must keep: deep nesting, unicode
// titles and slugs, duplicate titles, links between pages and to anchors,
// images with captions, every block type, empty pages, groups, files.
func corpus(t testing.TB, blobs blob.Store) *content.Tree {
	tr := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
	put := func(data []byte, id, name, ct string, w, h int) {
		key, err := blobs.Put(context.Background(), data)
		if err != nil {
			t.Fatal(err)
		}
		tr.Files[id] = &content.File{ID: id, Name: name, ContentType: ct, Size: int64(len(data)), Width: w, Height: h, Blob: key}
	}
	put(pngBytes(t, 3, 2), "f-logo", "logo.png", "image/png", 3, 2)
	put(pngBytes(t, 1, 1), "f-shot", "screen shot (final).png", "image/png", 1, 1)
	put([]byte("plain text\n"), "f-notes", "notes.txt", "text/plain", 0, 0)
	add := func(parent string, p *content.Page) {
		if p.Kind == "" {
			p.Kind = content.KindDocument
		}
		tr.Pages[p.ID] = p
		if parent == "" {
			tr.Root = append(tr.Root, p.ID)
		} else {
			tr.Pages[parent].Children = append(tr.Pages[parent].Children, p.ID)
		}
	}
	add("", &content.Page{ID: "home", Title: "Welcome", Slug: "welcome", Description: "The start: read me first",
		Emoji: "1f44b", Markdown: "See [install](/pages/install#requirements) and [the API](/pages/api).\n\n" +
			"![Logo](/files/f-logo \"The logo\")\n"})
	add("", &content.Page{ID: "guide", Title: "Guide *basics*", Slug: "guide", Icon: "book",
		Markdown: "> **Info**\n>\n> Read this [first](/pages/install).\n\n> plain quote\n"})
	add("guide", &content.Page{ID: "install", Title: "Install", Slug: "install", Hidden: true, NoIndex: true,
		Markdown: "## Requirements\n\nGo 1.24.\n\n{% hint style=\"warning\" %}\nBack up [home](/pages/home).\n{% endhint %}\n\n" +
			"{% tabs %}\n{% tab title=\"Linux\" %}\n```sh\nmake\n```\n{% endtab %}\n{% tab title=\"Mac\" %}\nbrew\n{% endtab %}\n{% endtabs %}\n\n" +
			"<details>\n\n<summary>More</summary>\n\nHidden [text](/pages/deep5).\n\n</details>\n\n" +
			"{% code title=\"main.go\" lineNumbers=\"true\" %}\n```go\npackage main // [not a link](/pages/example)\n```\n{% endcode %}\n\n" +
			"{% embed url=\"https://example.com/video\" %}\n\n{% file src=\"/files/f-notes\" %}\nNotes\n{% endfile %}\n\n" +
			"<figure><img src=\"/files/f-shot\" alt=\"A shot\"><figcaption><p>The caption</p></figcaption></figure>\n\n" +
			"`[code](/pages/example)` stays.\n"})
	add("guide", &content.Page{ID: "dup1", Title: "Same", Slug: "same", Markdown: "One.\n"})
	add("guide", &content.Page{ID: "dup2", Title: "Same", Slug: "Same", Markdown: "Two, [back](/pages/dup1).\n"})
	add("guide", &content.Page{ID: "empty", Title: "", Slug: "empty", Markdown: ""})
	add("guide", &content.Page{ID: "noslug", Title: "No slug", Slug: "", Markdown: "Written under its id.\n"})
	parent := "guide"
	for i := 1; i <= 6; i++ {
		id := fmt.Sprintf("deep%d", i)
		add(parent, &content.Page{ID: id, Title: fmt.Sprintf("Level %d", i), Slug: fmt.Sprintf("level-%d", i),
			Markdown: fmt.Sprintf("Level %d. [Up](/pages/%s).\n", i, parent)})
		parent = id
	}
	add("", &content.Page{ID: "uni", Title: "Über die Größe — 日本語", Slug: "über-größe-日本語", Condition: "visitor.claims.beta",
		NoRobotsIndex: true, Markdown: "[Zurück](/pages/home#top) [unicode](/pages/uni-child)\n"})
	add("uni", &content.Page{ID: "uni-child", Title: "Ünïcödé child", Slug: "ünïcödé", Markdown: "Body\n"})
	add("", &content.Page{ID: "summary", Title: "Summary", Slug: "summary", Markdown: "A page named summary.\n"})
	add("", &content.Page{ID: "g-api", Title: "API reference", Slug: "api-ref", Kind: content.KindGroup})
	add("g-api", &content.Page{ID: "api", Title: "API", Slug: "api", Description: "Multi\nline\n", Markdown: "[Files](/files/f-notes)\n"})
	add("", &content.Page{ID: "g-empty", Title: "Empty group", Slug: "empty-group", Kind: content.KindGroup})
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}

func exportMap(t testing.TB, tr *content.Tree, blobs blob.Store) map[string][]byte {
	return exportWith(t, tr, nil, blobs)
}

func exportWith(t testing.TB, tr *content.Tree, redirects map[string]string, blobs blob.Store) map[string][]byte {
	out := map[string][]byte{}
	var last string
	err := Export(context.Background(), tr, redirects, blobs, func(p string, data []byte) error {
		if p <= last {
			t.Errorf("put %q after %q: not in byte order", p, last)
		}
		last = p
		out[p] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// shape is a tree without ids: what a user sees of it.
func shape(tr *content.Tree) any {
	type pg struct {
		Title, Slug, Emoji, Icon, Description, Condition, Kind, Markdown string
		Hidden, NoIndex, NoRobotsIndex                                   bool
		Children                                                         []any
	}
	fileName := map[string]string{}
	for id, f := range tr.Files {
		fileName[id] = f.Name
	}
	pageTitle := map[string]string{}
	for id, p := range tr.Pages {
		pageTitle[id] = p.Slug
	}
	deid := func(md string) string {
		for id, n := range fileName {
			md = strings.ReplaceAll(md, "/files/"+id, "/files/<"+n+">")
		}
		for id, s := range pageTitle {
			md = strings.ReplaceAll(md, "/pages/"+id+")", "/pages/<"+s+">)")
			md = strings.ReplaceAll(md, "/pages/"+id+"#", "/pages/<"+s+">#")
		}
		return md
	}
	var walk func(ids []string) []any
	walk = func(ids []string) []any {
		var out []any
		for _, id := range ids {
			p := tr.Pages[id]
			out = append(out, pg{p.Title, p.Slug, p.Emoji, p.Icon, p.Description, p.Condition, p.Kind, deid(p.Markdown),
				p.Hidden, p.NoIndex, p.NoRobotsIndex, walk(p.Children)})
		}
		return out
	}
	var files []content.File
	for _, f := range tr.Files {
		g := *f
		g.ID = ""
		files = append(files, g)
	}
	slices.SortFunc(files, func(a, b content.File) int { return strings.Compare(a.Name, b.Name) })
	return map[string]any{"pages": walk(tr.Root), "files": files}
}

func TestRoundTripIsLossless(t *testing.T) {
	blobs := blob.Dir{Path: t.TempDir()}
	orig := corpus(t, blobs)
	// Redirects to pages at the top, deep down, with unicode and YAML's
	// special characters; one to a page that is gone is left out.
	redirects := map[string]string{"old/install": "install", "v1/deep": "deep6", "alt/日本語": "uni-child",
		"odd: path 'x' & \"more\"": "home", "gone": "no-such-page"}
	first := exportWith(t, orig, redirects, blobs)
	im, err := Import(nil, first)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range im.Blobs {
		if _, err := blobs.Put(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	delete(redirects, "gone")
	if diff := cmp.Diff(slugsOf(orig, redirects), slugsOf(im.Tree, im.Redirects)); diff != "" {
		t.Errorf("imported redirects differ (-exported +imported):\n%s", diff)
	}
	second := exportWith(t, im.Tree, im.Redirects, blobs)
	if diff := cmp.Diff(stringsOf(first), stringsOf(second)); diff != "" {
		t.Fatalf("second export differs (-first +second):\n%s", diff)
	}
	// Blocks and links: the imported bodies are the exported ones' GitBook
	// forms; compare the re-import of both to the first import.
	want := shape(im.Tree)
	again, err := Import(nil, second)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(slugsOf(im.Tree, im.Redirects), slugsOf(again.Tree, again.Redirects)); diff != "" {
		t.Errorf("re-imported redirects differ:\n%s", diff)
	}
	if diff := cmp.Diff(want, shape(again.Tree)); diff != "" {
		t.Fatalf("re-import differs:\n%s", diff)
	}
	// Against the original: everything but the hint, which is written in
	// GitBook's syntax.
	o := orig.Clone()
	o.Pages["guide"].Markdown = "{% hint style=\"info\" %}\nRead this [first](/pages/install).\n{% endhint %}\n\n> plain quote\n"
	if diff := cmp.Diff(shape(o), shape(im.Tree)); diff != "" {
		t.Fatalf("imported tree differs from the original (-orig +imported):\n%s", diff)
	}
	for _, p := range []string{".gitbook.yaml", ".gitbook/SUMMARY.md", "README.md", "guide/README.md", "guide/install.md",
		"guide/same.md", "guide/Same-2.md", "guide/level-1/level-2/level-3/level-4/level-5/level-6.md",
		"über-größe-日本語/ünïcödé.md", "summary.md", "api-ref/api.md", ".gitbook/assets/logo.png",
		".gitbook/assets/screen shot (final).png", ".gitbook/assets/notes.txt"} {
		if _, ok := first[p]; !ok {
			t.Errorf("no %s in the export; have %v", p, slices.Sorted(maps.Keys(first)))
		}
	}
}

// slugsOf is redirects with the slugs of their pages for ids.
func slugsOf(tr *content.Tree, redirects map[string]string) map[string]string {
	out := map[string]string{}
	for s, id := range redirects {
		out[s] = tr.Pages[id].Slug
	}
	return out
}

func stringsOf(m map[string][]byte) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}
