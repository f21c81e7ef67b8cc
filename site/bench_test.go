package site_test

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/site"
	"github.com/quiredocs/quire/store/storetest"
)

// The benchmarks the issue measures (docs/publishing/published-sites.md), run with
//
//	go test -run '^$' -bench . -benchtime 2s ./site/
//
// and compared with Hugo by scripts/bench-hugo.sh:
//   - BenchmarkCachedPage against BenchmarkBareHandler: a cached page of a
//     1,000-page site against a bare net/http handler writing the same
//     bytes, both through httptest.NewRecorder and both over loopback HTTP;
//     the goal is cached ≥ 0.5 × bare (in requests per second).
//   - BenchmarkRenderPage2KB: the uncached render of a page of 2 KB of
//     markdown, in a small site and in the 1,000-page one; goal ≤ 1 ms.
//   - BenchmarkRenderAll1000: every page of the 1,000-page site rendered
//     once, uncached, against Hugo building the same markdown files.

// hugoContent, when set, makes TestWriteHugoContent write the 1,000 pages
// as a Hugo content folder there (scripts/bench-hugo.sh).
var hugoContent = flag.String("hugo-content", "", "write the benchmark site's pages as Hugo content into this folder")

// benchPage is a page of the benchmark site: its title, its markdown and
// the titles of its ancestors, outermost first.
type benchPage struct {
	parents  []string
	title    string
	markdown string
}

// path is the page's path in its space (and below the site's root): its
// ancestors' slugs and its own.
func (p benchPage) path() string {
	var segs []string
	for _, t := range append(append([]string{}, p.parents...), p.title) {
		segs = append(segs, quire.PageSlug(t))
	}
	return strings.Join(segs, "/")
}

var (
	benchChapters = []string{"Getting started", "Installation", "Configuration", "Authentication", "Spaces",
		"Pages", "Search", "Sites", "Teams", "Members", "Integrations", "Webhooks", "Imports", "Exports",
		"Translations", "HTTP API", "Command line", "Operations", "Security", "Troubleshooting"}
	benchSections = []string{"Overview", "Concepts", "Tutorials", "How-to guides", "Reference", "Examples", "Questions"}
	benchLeaves   = []string{"Basics", "Options", "Limits", "Errors", "Migration", "Best practices"}
)

// benchPages is the 1,000-page site: 20 chapters of 7 sections of 6 pages
// (20 + 140 + 840), in tree order, each page about 2 KB of markdown.
func benchPages() []benchPage {
	var out []benchPage
	for _, c := range benchChapters {
		out = append(out, benchPage{title: c})
		for _, s := range benchSections {
			out = append(out, benchPage{parents: []string{c}, title: s})
			for _, l := range benchLeaves {
				out = append(out, benchPage{parents: []string{c, s}, title: l})
			}
		}
	}
	for i := range out {
		out[i].markdown = benchMarkdown(out, i)
	}
	return out
}

// benchMarkdown is about 2 KB of documentation for page i of pages:
// headings, paragraphs, a list, a table, a code block and links to its
// neighbours, as slug paths from the space's root.
func benchMarkdown(pages []benchPage, i int) string {
	p := pages[i]
	next, prev := pages[(i+1)%len(pages)], pages[(i+len(pages)-1)%len(pages)]
	topic := strings.ToLower(p.title)
	if len(p.parents) > 0 {
		topic = strings.ToLower(p.parents[0]) + " " + topic
	}
	return fmt.Sprintf(`This page explains %[1]s: what it is for, how to set it up and what to
check when it does not work as expected. Read [%[2]s](/%[3]s) first if you are new here.

## Before you begin

You need an account with the *edit* role, a space to work in and about ten
minutes. Everything below works the same on every plan.

- Open the space from the sidebar.
- Choose **Settings**, then the tab named after %[1]s.
- Keep the defaults unless the table below says otherwise.

## How it works

Each space keeps its own settings, and a change request can change them like
any page: reviewers see the old and the new values side by side, and the
change applies when the request is merged. Settings are read at every
request, so there is nothing to restart; a setting missing from a space
takes the organization's value, and the organization's takes the default.
Removing a setting brings the default back.

1. Write the change in a change request.
2. Ask a reviewer, who sees the difference.
3. Merge it: the next request reads the new value.

## Settings

| Setting | Default | What it changes |
|---|---|---|
| enabled | true | turns %[1]s on for the whole space |
| limit | 100 | how many items are kept before the oldest go |
| notify | owners | who hears about changes |

### From the command line

The same settings can be changed with the API, for scripts and CI:

`+"```go"+`
req, _ := http.NewRequest("PATCH", base+"/v1/spaces/"+id, body)
req.Header.Set("Authorization", "Bearer "+token)
resp, err := http.DefaultClient.Do(req)
if err != nil {
	return fmt.Errorf("update space: %%w", err)
}
defer resp.Body.Close()
`+"```"+`

## Troubleshooting

If nothing changes, reload the page: settings apply to new requests only.
Errors name the setting and the rule it broke, for example *limit: must be
1 to 1000*. See [%[4]s](/%[5]s) for what comes next, or ask on the forum.
`, topic, prev.title, prev.path(), next.title, next.path())
}

// benchEnv is a published site in a fresh store, with the handler that
// cmd/quire serves and the published-site server under it.
type benchEnv struct {
	*env
	sites   *site.Server
	handler http.Handler
	root    string // the site's path, "/sites/{id}/"
}

// newBenchEnv writes pages into one space through the API, in one change
// request with a batch per chapter, and publishes it as a public site.
func newBenchEnv(b *testing.B, pages []benchPage) *benchEnv {
	b.Helper()
	db := storetest.Open(b)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	reader := revision.New(db, strings.TrimPrefix(srv.URL, "http://"))
	blobs := blob.Dir{Path: b.TempDir()}
	apiSrv := api.New(db, api.Config{PublicURL: srv.URL, Blobs: blobs, Fetcher: outbound.Fetcher{AllowPrivate: true}, Reader: reader})
	be := &benchEnv{sites: site.New(db, site.Config{PublicURL: srv.URL, Reader: reader, Blobs: blobs})}
	be.handler = be.sites.Wrap(apiSrv)
	mux.Handle("/", be.handler)
	boot, err := db.InitOrganization(b.Context(), "Bench Org", "admin@example.com", "Ada Admin")
	if err != nil {
		b.Fatalf("init organization: %v", err)
	}
	be.env = &env{db: db, srv: srv, org: boot.Organization.ID, token: boot.Token}

	var sp, cr struct{ ID string }
	be.api(b, "POST", "/v1/orgs/"+be.org+"/spaces", map[string]any{"title": "Handbook"}, http.StatusCreated, &sp)
	be.api(b, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Write the handbook"}, http.StatusCreated, &cr)
	crPath := "/v1/spaces/" + sp.ID + "/change-requests/" + cr.ID
	var batch []map[string]any
	flush := func() {
		if len(batch) > 0 {
			be.api(b, "POST", crPath+"/content", map[string]any{"changes": batch}, http.StatusOK, nil)
			batch = nil
		}
	}
	for _, p := range pages {
		if len(p.parents) == 0 {
			flush() // a chapter and its pages are one batch of 50
		}
		c := map[string]any{"operation": "insert_page", "title": p.title, "ref": benchRef(p.path()), "document": map[string]any{"markdown": p.markdown}}
		if len(p.parents) > 0 {
			c["into"] = benchRef(benchPage{parents: p.parents[:len(p.parents)-1], title: p.parents[len(p.parents)-1]}.path())
		}
		batch = append(batch, c)
	}
	flush()
	be.api(b, "POST", crPath+"/merge", nil, http.StatusOK, nil)
	_, published := be.site(b, "Handbook", "public", sp.ID)
	be.root = strings.TrimPrefix(published, srv.URL)
	return be
}

// benchRef names the page at path in a batch (refs have no slashes).
func benchRef(path string) string { return strings.ReplaceAll(path, "/", ".") }

// get serves path through the handler and returns the body, failing
// unless it is a 200 page naming title.
func (be *benchEnv) get(b *testing.B, path, title string) []byte {
	b.Helper()
	rec := httptest.NewRecorder()
	be.handler.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), title) {
		b.Fatalf("GET %s: %d, want 200 naming %q:\n%.500s", path, rec.Code, title, rec.Body.String())
	}
	return rec.Body.Bytes()
}

// benchTarget is the page the single-page benchmarks serve: a leaf in the
// middle of the site.
func benchTarget(pages []benchPage) benchPage { return pages[len(pages)/2+3] }

// BenchmarkCachedPage serves a page of the 1,000-page site from the cache
// of rendered pages through the handler cmd/quire serves (routing,
// admission, redirects, cache lookup, headers), uncompressed.
func BenchmarkCachedPage(b *testing.B) {
	pages := benchPages()
	be := newBenchEnv(b, pages)
	p := benchTarget(pages)
	path := be.root + p.path()
	body := be.get(b, path, p.title) // renders and caches it
	b.Run("recorder", func(b *testing.B) {
		benchRecorder(b, be.handler, path, len(body))
	})
	b.Run("loopback", func(b *testing.B) {
		benchLoopback(b, be.srv.URL+path, len(body))
	})
	// The same two ways, alternating with BenchmarkBareHandler's handler
	// request by request, so that both see the same load on the machine:
	// the ratio the goal is about, measured in one run.
	bare := bareHandler(body)
	b.Run("vs-bare-recorder", func(b *testing.B) {
		req := httptest.NewRequest("GET", path, nil)
		benchInterleaved(b, func() { serveRecorder(b, be.handler, req, len(body)) }, func() { serveRecorder(b, bare, req, len(body)) })
	})
	b.Run("vs-bare-loopback", func(b *testing.B) {
		srv := httptest.NewServer(bare)
		defer srv.Close()
		client := loopbackClient()
		defer client.CloseIdleConnections()
		benchInterleaved(b, func() { fetchLoopback(b, client, be.srv.URL+path, len(body)) }, func() { fetchLoopback(b, client, srv.URL+path, len(body)) })
	})
}

// benchInterleaved runs cached and bare one after the other in each
// iteration and reports each one's time per request and cached/bare, the
// ratio of their rates (the goal: at least 0.5).
func benchInterleaved(b *testing.B, cached, bare func()) {
	var tc, tb time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		cached()
		t1 := time.Now()
		bare()
		tc, tb = tc+t1.Sub(t0), tb+time.Since(t1)
	}
	b.ReportMetric(float64(tc.Nanoseconds())/float64(b.N), "cached-ns/req")
	b.ReportMetric(float64(tb.Nanoseconds())/float64(b.N), "bare-ns/req")
	b.ReportMetric(float64(tb)/float64(tc), "cached/bare")
}

// bareHandler writes body as an HTML page and does nothing else.
func bareHandler(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
}

// BenchmarkBareHandler serves the bytes of BenchmarkCachedPage's page from
// a handler that only writes them: the ceiling the cached page is held to.
func BenchmarkBareHandler(b *testing.B) {
	pages := benchPages()
	be := newBenchEnv(b, pages)
	p := benchTarget(pages)
	path := be.root + p.path()
	body := be.get(b, path, p.title)
	bare := bareHandler(body)
	b.Run("recorder", func(b *testing.B) {
		benchRecorder(b, bare, path, len(body))
	})
	b.Run("loopback", func(b *testing.B) {
		srv := httptest.NewServer(bare)
		defer srv.Close()
		benchLoopback(b, srv.URL+path, len(body))
	})
}

// benchRecorder serves path from h into a new httptest.ResponseRecorder
// per request.
func benchRecorder(b *testing.B, h http.Handler, path string, size int) {
	req := httptest.NewRequest("GET", path, nil)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		serveRecorder(b, h, req, size)
	}
}

func serveRecorder(b *testing.B, h http.Handler, req *http.Request, size int) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Body.Len() != size {
		b.Fatalf("GET %s: %d, %d bytes, want 200 and %d", req.URL.Path, rec.Code, rec.Body.Len(), size)
	}
}

// benchLoopback fetches url over a kept-alive loopback connection.
func benchLoopback(b *testing.B, url string, size int) {
	client := loopbackClient()
	defer client.CloseIdleConnections()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		fetchLoopback(b, client, url, size)
	}
}

// loopbackClient keeps its connections and asks for no compression, as
// the bare handler has none.
func loopbackClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 1}}
}

func fetchLoopback(b *testing.B, client *http.Client, url string, size int) {
	resp, err := client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || n != int64(size) {
		b.Fatalf("GET %s: %d, %d bytes, want 200 and %d", url, resp.StatusCode, n, size)
	}
}

// BenchmarkRenderPage2KB renders one page of about 2 KB of markdown with
// the cache emptied before each request: markdown to HTML, navigation,
// layout, entity tag. The site's structure and revision are read once
// (revision.Reader keeps them), as on a running server.
func BenchmarkRenderPage2KB(b *testing.B) {
	all := benchPages()
	for _, size := range []struct {
		name  string
		pages []benchPage
	}{
		{"site=50", all[:50]}, // one chapter
		{"site=1000", all},
	} {
		b.Run(size.name, func(b *testing.B) {
			be := newBenchEnv(b, size.pages)
			p := benchTarget(size.pages)
			if n := len(p.markdown); n < 1800 || n > 2300 {
				b.Fatalf("page of %d bytes of markdown, want about 2 KB", n)
			}
			path := be.root + p.path()
			be.get(b, path, p.title)
			req := httptest.NewRequest("GET", path, nil)
			b.ReportAllocs()
			for b.Loop() {
				site.ForgetRendered(be.sites)
				rec := httptest.NewRecorder()
				be.handler.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("GET %s: %d", path, rec.Code)
				}
			}
		})
	}
}

// BenchmarkRenderAll1000 renders every page of the 1,000-page site once,
// uncached: the counterpart of a static generator building the site
// (scripts/bench-hugo.sh times Hugo on the same markdown). One op is the
// whole site, one page after the other on one goroutine, rendered to
// memory, not written to files. warm: the site's structure and revision
// are read already (revision.Reader keeps them), as on a running server;
// cold: a new reader and site server each time, so the op also reads the
// site, its structure and the revision from the database, as Hugo reads
// its files.
func BenchmarkRenderAll1000(b *testing.B) {
	pages := benchPages()
	be := newBenchEnv(b, pages)
	reqs := make([]*http.Request, len(pages))
	for i, p := range pages {
		path := be.root + p.path()
		be.get(b, path, p.title)
		reqs[i] = httptest.NewRequest("GET", path, nil)
	}
	renderAll := func(b *testing.B, h http.Handler) {
		for _, req := range reqs {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("GET %s: %d", req.URL.Path, rec.Code)
			}
		}
	}
	b.Run("warm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			site.ForgetRendered(be.sites)
			renderAll(b, be.handler)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pages)), "ns/page")
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			reader := revision.New(be.db, strings.TrimPrefix(be.srv.URL, "http://"))
			sites := site.New(be.db, site.Config{PublicURL: be.srv.URL, Reader: reader, Blobs: blob.Dir{Path: b.TempDir()}})
			renderAll(b, sites.Wrap(http.NotFoundHandler()))
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pages)), "ns/page")
	})
}

// TestWriteHugoContent writes the benchmark site's pages as a Hugo content
// folder when -hugo-content names one: a chapter or section is a branch
// bundle (_index.md), a leaf a page, each with its title as front matter.
func TestWriteHugoContent(t *testing.T) {
	if *hugoContent == "" {
		t.Skip("for scripts/bench-hugo.sh: -hugo-content DIR")
	}
	pages := benchPages()
	for i, p := range pages {
		file := filepath.Join(*hugoContent, filepath.FromSlash(p.path())) + ".md"
		if i+1 < len(pages) && len(pages[i+1].parents) > len(p.parents) { // it has children
			file = filepath.Join(*hugoContent, filepath.FromSlash(p.path()), "_index.md")
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		front := fmt.Sprintf("---\ntitle: %q\nweight: %d\n---\n\n", p.title, i+1)
		if err := os.WriteFile(file, []byte(front+p.markdown), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
