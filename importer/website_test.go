package importer_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/importer"
	"github.com/quiredocs/quire/outbound"
)

// site serves a small documentation website under /docs/.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	pages := map[string]string{
		"/docs/": `<html><head><title>Docs home</title></head><body>
			<nav><a href="/docs/install">Install</a> <a href="install/linux">Linux</a> <a href="/blog/">Blog</a>
			<a href="https://elsewhere.test/">Elsewhere</a> <a href="/docs/manual.pdf">Manual</a> <a href="/docs/broken">Broken</a></nav>
			<main><h1>Welcome</h1><p>Start with <a href="/docs/install#steps">installing</a>.</p>
			<img src="img/logo.png" alt="Logo"><script>alert(1)</script></main></body></html>`,
		"/docs/install": `<html><body><article><h1>Install</h1><h2 id="steps">Steps</h2>
			<ol><li>Download.</li><li>See <a href="install/linux">Linux</a> or <a href="https://elsewhere.test/x">elsewhere</a>.</li></ol>
			<pre><code>quire serve</code></pre></article></body></html>`,
		"/docs/install/linux": `<html><head><title>Linux | Docs</title></head><body><div role="main"><p>Run as root.</p>
			<p><a href="../">Home</a></p></div><footer>© Docs</footer></body></html>`,
		"/blog/": `<html><body><h1>Blog</h1></body></html>`,
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch body, ok := pages[r.URL.Path]; {
		case ok:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		case r.URL.Path == "/docs/manual.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF"))
		case r.URL.Path == "/docs/broken":
			http.Error(w, "down", http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
}

func TestWebsite(t *testing.T) {
	srv := site(t)
	defer srv.Close()
	res, err := importer.Website(t.Context(), outbound.Fetcher{AllowPrivate: true}, srv.URL+"/docs/", importer.Limits{Pages: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 3 || res.Found != 3 {
		t.Fatalf("imported %d pages of %d found: %+v", len(res.Pages), res.Found, res.Pages)
	}
	home, install, linux := res.Pages[0], res.Pages[1], res.Pages[2]
	if home.Title != "Welcome" || home.Parent != "" || install.Title != "Install" || install.Parent != "" ||
		linux.Title != "Linux | Docs" || linux.Parent != install.Ref {
		t.Errorf("titles and parents: %+v", res.Pages)
	}
	for _, want := range []string{"[installing](./" + install.Ref + ".md)", "![Logo](" + srv.URL + "/docs/img/logo.png)"} {
		if !strings.Contains(home.Markdown, want) {
			t.Errorf("home markdown %q lacks %q", home.Markdown, want)
		}
	}
	for _, unwanted := range []string{"Welcome", "alert", "Blog", "Manual"} {
		if strings.Contains(home.Markdown, unwanted) {
			t.Errorf("home markdown %q holds %q (title, script or navigation)", home.Markdown, unwanted)
		}
	}
	for _, want := range []string{"## Steps", "[Linux](./" + linux.Ref + ".md)", "[elsewhere](https://elsewhere.test/x)", "quire serve"} {
		if !strings.Contains(install.Markdown, want) {
			t.Errorf("install markdown %q lacks %q", install.Markdown, want)
		}
	}
	if !strings.Contains(linux.Markdown, "[Home](./"+home.Ref+".md)") || strings.Contains(linux.Markdown, "©") {
		t.Errorf("linux markdown %q", linux.Markdown)
	}

	// A limit imports the first pages, and counts the rest.
	res, err = importer.Website(t.Context(), outbound.Fetcher{AllowPrivate: true}, srv.URL+"/docs/", importer.Limits{Pages: 1})
	if err != nil || len(res.Pages) != 1 || res.Found < 2 {
		t.Errorf("limited: %+v, %v", res, err)
	}
}

func TestWebsiteRefused(t *testing.T) {
	srv := site(t)
	defer srv.Close()
	for _, start := range []string{"ftp://x.test/", "not a url", srv.URL + "/docs/manual.pdf", srv.URL + "/missing"} {
		if _, err := importer.Website(t.Context(), outbound.Fetcher{AllowPrivate: true}, start, importer.Limits{Pages: 10}); err == nil {
			t.Errorf("%s: imported", start)
		}
	}
	// Private addresses are refused unless allowed.
	if _, err := importer.Website(t.Context(), outbound.Fetcher{}, srv.URL+"/docs/", importer.Limits{Pages: 10}); err == nil {
		t.Error("a private address was fetched")
	}
}

// pageFetcher serves one HTML page at every URL.
type pageFetcher string

func (p pageFetcher) Get(context.Context, string, int64) ([]byte, string, error) {
	return []byte(p), "text/html", nil
}

// FuzzWebsite: any HTML imports without panic, as valid UTF-8 markdown
// when the page is, and links only to pages it imported.
func FuzzWebsite(f *testing.F) {
	f.Add(`<main><h1>T</h1><p><a href="a">x</a> <img src="../i.png"></p></main>`)
	f.Add(`<nav><a href="//other/">o</a></nav><table><tr><td>x</td></tr></table>`)
	f.Fuzz(func(t *testing.T, page string) {
		res, err := importer.Website(context.Background(), pageFetcher(page), "https://docs.test/docs/", importer.Limits{Pages: 3})
		if err != nil {
			return
		}
		for _, p := range res.Pages {
			if utf8.ValidString(page) && !utf8.ValidString(p.Markdown) {
				t.Errorf("markdown not UTF-8: %q", p.Markdown)
			}
		}
		if len(res.Pages) > 3 || res.Found < len(res.Pages) {
			t.Errorf("%d pages of %d found", len(res.Pages), res.Found)
		}
	})
}

// TestWebsiteLimits: pages over the byte limit fail the import with
// ErrTooLarge; a page converting to more markdown than the limit is
// skipped, and links to it stay absolute; the start page must fit.
func TestWebsiteLimits(t *testing.T) {
	long := strings.Repeat("<p>words words words</p>", 100) // 2,400 bytes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/docs/":
			w.Write([]byte(`<main><h1>Home</h1><a href="a">A</a> <a href="long">Long</a> <a href="b">B</a></main>`))
		case "/docs/a", "/docs/b":
			w.Write([]byte(`<main><h1>Page</h1><p>Short.</p></main>`))
		case "/docs/long":
			w.Write([]byte(`<main><h1>Long</h1>` + long + `</main>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	f := outbound.Fetcher{AllowPrivate: true}

	res, err := importer.Website(t.Context(), f, srv.URL+"/docs/", importer.Limits{Pages: 10, Markdown: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 3 || !strings.Contains(res.Pages[0].Markdown, "[Long]("+srv.URL+"/docs/long)") {
		t.Errorf("pages %+v", res.Pages)
	}
	if _, err := importer.Website(t.Context(), f, srv.URL+"/docs/long", importer.Limits{Pages: 10, Markdown: 1000}); err == nil {
		t.Error("a start page over the markdown limit was imported")
	}

	if _, err := importer.Website(t.Context(), f, srv.URL+"/docs/", importer.Limits{Pages: 10, Bytes: 2000}); !errors.Is(err, importer.ErrTooLarge) {
		t.Errorf("over the byte limit: %v", err)
	}
	if res, err := importer.Website(t.Context(), f, srv.URL+"/docs/", importer.Limits{Pages: 10, Bytes: 4000}); err != nil || len(res.Pages) != 4 {
		t.Errorf("within the byte limit: %+v, %v", res, err)
	}
}

// TestWebsiteFoundBound: an import keeps track of at most MaxFound pages,
// however many a page links to.
func TestWebsiteFoundBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("<main><h1>Links</h1>")
	for i := range importer.MaxFound * 2 {
		fmt.Fprintf(&b, `<a href="p%d">%d</a>`, i, i)
	}
	b.WriteString("</main>")
	res, err := importer.Website(t.Context(), pageFetcher(b.String()), "https://docs.test/docs/", importer.Limits{Pages: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Found != importer.MaxFound {
		t.Errorf("found %d pages", res.Found)
	}
}

// TestWebsiteControlCharacters: a page's stray control characters and bytes
// that are not UTF-8 (a Latin-1 page) are dropped or replaced, so the page
// passes the checks every page is written through.
func TestWebsiteControlCharacters(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><title>Caf\xe9\x01 menu\x0b</title></head><body><main><p>Line\x0c one\x7f\x85.</p><pre>a\tb</pre></main></body></html>"))
	}))
	defer srv.Close()
	res, err := importer.Website(t.Context(), outbound.Fetcher{AllowPrivate: true}, srv.URL+"/", importer.Limits{Pages: 1})
	if err != nil || len(res.Pages) != 1 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	p := res.Pages[0]
	if err := quire.CheckChars("title", p.Title, false); err != nil || !strings.HasPrefix(p.Title, "Caf") || !strings.Contains(p.Title, "menu") {
		t.Errorf("title %q: %v", p.Title, err)
	}
	if err := quire.CheckChars("markdown", p.Markdown, true); err != nil || !strings.Contains(p.Markdown, "one") || !strings.Contains(p.Markdown, "a\tb") {
		t.Errorf("markdown %q: %v", p.Markdown, err)
	}
}
