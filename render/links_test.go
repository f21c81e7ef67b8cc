package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
)

func TestLinks(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []Link
	}{
		{"none", "just text\n", nil},
		{"inline", "see [install](guides/install.md) now", []Link{{Target: "guides/install.md", Line: 1}}},
		{"inline with title and fragment", "x\n\n[a](/pages/p1#top \"Title\")", []Link{{Target: "/pages/p1#top", Line: 3}}},
		{"angle destination", "[a](<my page.md>)", []Link{{Target: "my page.md", Line: 1}}},
		{"escapes decoded", `[a](foo\_bar.md) [b](a&amp;b.md)`, []Link{{Target: "foo_bar.md", Line: 1}, {Target: "a&b.md", Line: 1}}},
		{"image", "![logo](/files/f1)", []Link{{Target: "/files/f1", Image: true, Line: 1}}},
		{"image in link", "[![i](img.png)](https://x.example)", []Link{
			{Target: "https://x.example", Line: 1}, {Target: "img.png", Image: true, Line: 1},
		}},
		{"reference full", "a [text][r] b\n\n[r]: https://example.com/r", []Link{{Target: "https://example.com/r", Line: 1}}},
		{"reference collapsed and shortcut", "[R][] and\n[r]\n\n[r]: ../README.md", []Link{
			{Target: "../README.md", Line: 1}, {Target: "../README.md", Line: 2},
		}},
		{"reference image", "![alt][pic]\n\n[pic]: pic.png", []Link{{Target: "pic.png", Image: true, Line: 1}}},
		{"undefined reference is text", "[nothing][here]", nil},
		{"unused definition", "[r]: https://example.com", nil},
		{"autolink url", "go to <https://example.com/a?b=c>.", []Link{{Target: "https://example.com/a?b=c", Line: 1}}},
		{"autolink email", "write <me@example.com>", []Link{{Target: "mailto:me@example.com", Line: 1}}},
		{"bare url is not a link", "https://example.com", nil},
		{"code span", "`[a](b.md)` and [c](d.md)", []Link{{Target: "d.md", Line: 1}}},
		{"fenced code", "```\n[a](b.md)\n<https://x.example>\n```\n", nil},
		{"indented code", "para\n\n    [a](b.md)\n", nil},
		{"raw html ignored", `<a href="x.md">x</a>`, nil},
		{"order and lines", "# T\n\n- [one](1.md)\n- ![two](2.png)\n\n> [three](3.md)\n", []Link{
			{Target: "1.md", Line: 3}, {Target: "2.png", Image: true, Line: 4}, {Target: "3.md", Line: 6},
		}},
		{"empty destination", "[a]()", []Link{{Target: "", Line: 1}}},
		{"heading", "## [h](#h)", []Link{{Target: "#h", Line: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Links(tt.md)); diff != "" {
				t.Errorf("Links(%q) (-want +got):\n%s", tt.md, diff)
			}
		})
	}
}

// TestDecode checks that a destination's escapes and references are
// decoded once, in one pass, as CommonMark says (§2.4, §2.5).
func TestDecode(t *testing.T) {
	tests := []struct{ dest, want string }{
		{"plain/path.md", "plain/path.md"},
		{`a\_b\(c\)`, "a_b(c)"},
		{`a\b`, `a\b`}, // not punctuation: the backslash stays
		{"a&amp;b", "a&b"},
		{"&amp;lt;", "&lt;"},
		{"&amp;amp;", "&amp;"},
		{"&#38;lt;", "&lt;"},
		{"&#x26;#35;", "&#35;"},
		{`\&amp;`, "&amp;"},
		{`\&#35;`, "&#35;"},
		{`&#92;&amp;`, `\&`},
		{"&#92;*", `\*`},
		{"&copy; &#169; &#xA9;", "© © ©"},
		{"&copy &amp &#169", "&copy &amp &#169"}, // no ";", no reference
		{"&nosuchentity;", "&nosuchentity;"},
		{"&#0;", "\uFFFD"},
		{"a\x00b", "a\uFFFDb"}, // as everywhere in markdown (CommonMark §2.3)
		{"&#128;", "\u0080"},
		{"&#x110000;", "\uFFFD"},
		{"&#12345678;", "&#12345678;"}, // at most 7 digits
		{"&lt;&gt;&amp;&quot;'", "<>&\"'"},
	}
	for _, tt := range tests {
		if got := decode([]byte(tt.dest)); got != tt.want {
			t.Errorf("decode(%q) = %q, want %q", tt.dest, got, tt.want)
		}
		want := []Link{{Target: tt.want, Line: 1}}
		if diff := cmp.Diff(want, Links("[a](<"+tt.dest+">)")); diff != "" {
			t.Errorf("Links of %q (-want +got):\n%s", tt.dest, diff)
		}
	}
}

// testTree is:
//
//	intro        README.md
//	guides       guides/README.md
//	  install    guides/install.md
//	  setup      guides/setup/README.md
//	    deep     guides/setup/deep.md
//	api (group)  -
//	  ref        api/ref.md
//	faq          faq.md
func testTree() *content.Tree {
	pages := []*content.Page{
		{ID: "intro", Slug: "intro", Kind: content.KindDocument, Children: nil},
		{ID: "guides", Slug: "guides", Kind: content.KindDocument, Children: []string{"install", "setup"}},
		{ID: "install", Slug: "install", Kind: content.KindDocument},
		{ID: "setup", Slug: "setup", Kind: content.KindDocument, Children: []string{"deep"}},
		{ID: "deep", Slug: "deep", Kind: content.KindDocument},
		{ID: "api", Slug: "api", Kind: content.KindGroup, Children: []string{"ref"}},
		{ID: "ref", Slug: "ref", Kind: content.KindDocument},
		{ID: "faq", Slug: "faq", Kind: content.KindDocument},
	}
	t := &content.Tree{Pages: map[string]*content.Page{}, Root: []string{"intro", "guides", "api", "faq"}}
	for _, p := range pages {
		t.Pages[p.ID] = p
	}
	return t
}

func testResolver() *Resolver {
	tree := testTree()
	return &Resolver{
		Tree:    tree,
		Paths:   content.GitPaths(tree),
		Files:   map[string]string{"f1": "logo.png", "f2": "guide.pdf"},
		Refs:    map[string]string{"new-page": "faq", "gone": "nowhere"},
		AppHost: "docs.quire.test",
	}
}

func TestTestTreeIsValid(t *testing.T) {
	tree := testTree()
	if err := tree.Validate(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"intro": "README.md", "guides": "guides/README.md", "install": "guides/install.md",
		"setup": "guides/setup/README.md", "deep": "guides/setup/deep.md", "ref": "api/ref.md", "faq": "faq.md",
	}
	if diff := cmp.Diff(want, content.GitPaths(tree)); diff != "" {
		t.Fatalf("GitPaths (-want +got):\n%s", diff)
	}
}

func TestResolve(t *testing.T) {
	okPage := func(id string) Resolution { return Resolution{Kind: KindPage, PageID: id, Status: StatusOK} }
	brokenPage := Resolution{Kind: KindPage, Status: StatusBroken}
	tests := []struct {
		from, target string
		want         Resolution
	}{
		// URLs
		{"intro", "https://example.com/x", Resolution{Kind: KindURL, URL: "https://example.com/x", Status: StatusOK}},
		{"intro", "HTTP://Example.com", Resolution{Kind: KindURL, URL: "HTTP://Example.com", Status: StatusOK}},
		{"intro", "mailto:me@example.com", Resolution{Kind: KindURL, URL: "mailto:me@example.com", Status: StatusOK}},
		{"intro", "//cdn.example.com/a.js", Resolution{Kind: KindURL, URL: "//cdn.example.com/a.js", Status: StatusOK}},
		{"intro", "https://docs.quire.test/s/x", Resolution{Kind: KindURL, URL: "https://docs.quire.test/s/x", Status: StatusInApp}},
		{"intro", "https://DOCS.quire.test:8443/", Resolution{Kind: KindURL, URL: "https://DOCS.quire.test:8443/", Status: StatusInApp}},
		{"intro", "https://docs.quire.test.evil.com/", Resolution{Kind: KindURL, URL: "https://docs.quire.test.evil.com/", Status: StatusOK}},
		{"intro", "http://[::1", Resolution{Kind: KindURL, URL: "http://[::1", Status: StatusBroken}},
		// anchors
		{"intro", "#section", Resolution{Kind: KindAnchor, Status: StatusOK}},
		{"intro", "#", Resolution{Kind: KindAnchor, Status: StatusOK}},
		// ids
		{"intro", "/pages/install", okPage("install")},
		{"intro", "/pages/install#step-2", okPage("install")},
		{"intro", "/pages/install/", okPage("install")},
		{"intro", "/pages/missing", brokenPage},
		{"intro", "/pages/", brokenPage},
		{"intro", "/files/f1", Resolution{Kind: KindFile, FileID: "f1", Status: StatusOK}},
		{"intro", "/files/f9", Resolution{Kind: KindFile, Status: StatusBroken}},
		// batch refs
		{"intro", "ref:new-page", okPage("faq")},
		{"intro", "new-page", okPage("faq")},
		{"intro", "ref:unknown", brokenPage},
		{"intro", "gone", okPage("nowhere")}, // refs name pages the batch creates
		// Git paths, absolute
		{"deep", "/guides/install.md", okPage("install")},
		{"deep", "/README.md", okPage("intro")},
		{"deep", "/guides/README.md#top", okPage("guides")},
		{"deep", "/guides/install.md?plain=1", okPage("install")},
		{"deep", "/guides/missing.md", brokenPage},
		// Git paths, relative to the page's own Git path
		{"install", "README.md", okPage("guides")},
		{"install", "../README.md", okPage("intro")},
		{"install", "./setup/deep.md", okPage("deep")},
		{"deep", "../install.md", okPage("install")},
		{"deep", "../../api/ref.md", okPage("ref")},
		{"deep", "../../../README.md", brokenPage},
		{"intro", "faq.md#q1", okPage("faq")},
		{"intro", "guides/install.md", okPage("install")},
		{"intro", "install.md", brokenPage},
		{"guides", "install.md", okPage("install")}, // guides/README.md sits beside install.md
		{"api", "ref.md", brokenPage},               // a group page has no Git path
		{"nobody", "faq.md", brokenPage},
		{"intro", "guides/inst%61ll.md", okPage("install")},
		// slug paths, absolute
		{"deep", "/guides/install", okPage("install")},
		{"deep", "/guides/install/", okPage("install")},
		{"deep", "/api/ref", okPage("ref")},
		{"deep", "/api", okPage("api")},
		{"deep", "/guides/nope", brokenPage},
		{"deep", "/", brokenPage},
		// slug paths, relative to the page's parent
		{"install", "setup", okPage("setup")},
		{"install", "setup/deep#x", okPage("deep")},
		{"deep", "../install", okPage("install")},
		{"deep", ".", okPage("setup")},
		{"faq", "guides", okPage("guides")},
		{"faq", "../guides", brokenPage},
		{"install", "../faq", okPage("faq")},
		{"intro", "install", brokenPage},
		{"nobody", "guides", brokenPage},
		// files by name
		{"intro", "logo.png", Resolution{Kind: KindFile, FileID: "f1", Status: StatusOK}},
		{"intro", ".gitbook/assets/guide.pdf", Resolution{Kind: KindFile, FileID: "f2", Status: StatusOK}},
		{"intro", "missing.png", Resolution{Kind: KindFile, Status: StatusBroken}},
		// empty and odd
		{"intro", "", brokenPage},
		{"intro", "   ", brokenPage},
		{"install", "?x=1", okPage("install")},
		{"intro", "C:\\docs\\x", brokenPage},
	}
	r := testResolver()
	for _, tt := range tests {
		t.Run(tt.from+" "+tt.target, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, r.Resolve(tt.from, tt.target)); diff != "" {
				t.Errorf("Resolve(%q, %q) (-want +got):\n%s", tt.from, tt.target, diff)
			}
		})
	}
}

func TestResolveNilTree(t *testing.T) {
	var r Resolver
	if got := r.Resolve("a", "/pages/a"); got.Status != StatusBroken {
		t.Errorf("got %+v", got)
	}
	if got := r.Resolve("a", "b/c"); got.Status != StatusBroken {
		t.Errorf("got %+v", got)
	}
}

func TestResolveConcurrent(t *testing.T) {
	r := testResolver()
	done := make(chan bool)
	for range 4 {
		go func() {
			defer func() { done <- true }()
			if got := r.Resolve("install", "../README.md"); got.PageID != "intro" {
				t.Errorf("got %+v", got)
			}
		}()
	}
	for range 4 {
		<-done
	}
}

func FuzzLinks(f *testing.F) {
	for _, s := range []string{
		"", "[a](b.md)", "![i](x.png \"t\")", "[r]\n\n[r]: /pages/x", "<https://a.example>",
		"<me@example.com>", "`[a](b)`", "```\n[a](b)\n```", "> - [a](<c d>)\n", "[a](b\\)c)",
		"[a](&amp;)", "[![i](x)](y)", "\t[a](b)\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		lines := strings.Count(md, "\n") + 1
		for _, l := range Links(md) {
			if l.Line < 0 || l.Line > lines {
				t.Errorf("Links(%q): line %d out of 1..%d", md, l.Line, lines)
			}
			target := l.Target
			if rest, ok := strings.CutPrefix(target, "mailto:"); ok && !strings.Contains(md, target) {
				target = rest // an email autolink
			}
			// Escapes and character references are decoded, and U+0000 is
			// U+FFFD (CommonMark §2.3), so only a destination free of them
			// must appear as written.
			if !strings.ContainsAny(md, "\\&\x00") && !strings.Contains(md, target) {
				t.Errorf("Links(%q): target %q is not in the source", md, l.Target)
			}
		}
	})
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"", "#a", "https://docs.quire.test/x", "mailto:a@b", "/pages/install", "/files/f1",
		"ref:new-page", "new-page", "../README.md", "/guides/install.md#x", "setup/deep",
		"../../..", "/", ".", "%zz.md", "//", "a?b#c", "logo.png", "http://[::1",
	} {
		f.Add("install", s)
		f.Add("deep", s)
	}
	r := testResolver()
	f.Fuzz(func(t *testing.T, from, target string) {
		got := r.Resolve(from, target)
		switch got.Status {
		case StatusOK, StatusBroken, StatusInApp:
		default:
			t.Fatalf("Resolve(%q, %q): status %q", from, target, got.Status)
		}
		switch got.Kind {
		case KindPage, KindFile, KindURL, KindAnchor:
		default:
			t.Fatalf("Resolve(%q, %q): kind %q", from, target, got.Kind)
		}
		if got.Status == StatusInApp && got.Kind != KindURL {
			t.Fatalf("Resolve(%q, %q): in-app %s", from, target, got.Kind)
		}
		if got.Status == StatusOK && got.Kind == KindFile {
			if _, ok := r.Files[got.FileID]; !ok {
				t.Fatalf("Resolve(%q, %q): ok file %q is not a file", from, target, got.FileID)
			}
		}
		if got.Status == StatusOK && got.Kind == KindPage && r.Refs[strings.TrimPrefix(strings.TrimSpace(target), "ref:")] != got.PageID {
			if _, ok := r.Tree.Pages[got.PageID]; !ok {
				t.Fatalf("Resolve(%q, %q): ok page %q is not a page", from, target, got.PageID)
			}
		}
		if again := r.Resolve(from, target); again != got {
			t.Fatalf("Resolve(%q, %q) is not deterministic: %+v then %+v", from, target, got, again)
		}
	})
}
