package api_test

import (
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store/storetest"
)

// bigSite serves n pages of about size bytes each under /docs/: the first
// links to all the others, each of which links back.
func bigSite(t testing.TB, n, size int) *httptest.Server { return bigSiteOf(t, n, size, size, false) }

// bigSiteOf is bigSite whose first page is of startSize bytes, and whose
// pages are mostly script when script is set: large pages of little content.
func bigSiteOf(t testing.TB, n, startSize, size int, script bool) *httptest.Server {
	t.Helper()
	page := func(i int) []byte {
		size := size
		if i == 0 {
			size = startSize
		}
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>Page %d</title></head><body><main><h1>Page %d</h1>\n", i, i)
		if i == 0 {
			for j := 1; j < n; j++ {
				fmt.Fprintf(&b, "<p><a href=\"p%d\">Page %d</a></p>\n", j, j)
			}
		}
		if script {
			fmt.Fprintf(&b, "<p>A page of %d bytes.</p><script>\n", size)
			for b.Len() < size-100 {
				b.WriteString("var x = {\"a\": [1, 2, 3], \"b\": \"some text for the script\"};\n")
			}
			b.WriteString("</script>\n")
		}
		for j := 0; b.Len() < size-100; j++ {
			fmt.Fprintf(&b, "<p>Paragraph %d with <b>bold</b> words and <a href=\"p%d\">a link</a>.</p>\n", j, j%n)
		}
		b.WriteString("</main></body></html>")
		return []byte(b.String())
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Made per request, so that the site holds no memory of its own.
		i := 0
		if p := strings.TrimPrefix(r.URL.Path, "/docs/p"); r.URL.Path != "/docs/" {
			var err error
			if i, err = strconv.Atoi(p); err != nil || i < 1 || i >= n {
				http.NotFound(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write(page(i))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestMeasureImport imports a website of 50 pages of 5 MiB
// (QUIRE_MEASURE_IMPORT=1) and reports the peak heap in use, the bytes
// allocated and the time taken. QUIRE_MEASURE_PAGES, _KIB and _START_KIB (the
// first page) change the site, QUIRE_MEASURE_SCRIPT=1 makes it mostly script, QUIRE_MEASURE_BYTES (MiB) the import's byte limit, which also lifts
// its time limit.
func TestMeasureImport(t *testing.T) {
	if os.Getenv("QUIRE_MEASURE_IMPORT") == "" {
		t.Skip("set QUIRE_MEASURE_IMPORT=1 to measure")
	}
	env := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
			return n
		}
		return def
	}
	var limits api.ImportLimits
	if mib := env("QUIRE_MEASURE_BYTES", 0); mib > 0 {
		limits = api.ImportLimits{Bytes: int64(mib) << 20, Timeout: time.Hour}
	}
	e, _ := newLimitedEnv(t, limits)
	size := env("QUIRE_MEASURE_KIB", 5<<10) << 10
	site := bigSiteOf(t, env("QUIRE_MEASURE_PAGES", 50), env("QUIRE_MEASURE_START_KIB", size>>10)<<10, size, os.Getenv("QUIRE_MEASURE_SCRIPT") != "")
	_, crPath := e.newChangeRequest(t)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	start := time.Now()
	res := e.call(t, e.admin.token, "POST", crPath+"/content/import", map[string]any{"url": site.URL + "/docs/", "source": "website"})
	elapsed := time.Since(start)
	close(done)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	msg := string(res.Body)
	if len(msg) > 300 {
		msg = msg[:300]
	}
	t.Logf("status %d in %v; heap in use before %d MiB, peak %d MiB; allocated %d MiB; body %s",
		res.Status, elapsed.Round(time.Millisecond), before.HeapInuse>>20, peak.Load()>>20, (after.TotalAlloc-before.TotalAlloc)>>20, msg)
}

// newLimitedEnv is newEnv with import limits, and the folder of its blobs.
func newLimitedEnv(t *testing.T, limits api.ImportLimits) (*env, string) {
	t.Helper()
	db := storetest.Open(t)
	blobs := t.TempDir()
	e := &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: blobs},
		Fetcher: outbound.Fetcher{AllowPrivate: true}, Imports: limits})}
	b, err := db.InitOrganization(t.Context(), "Test Org", uniqueEmail("admin"), "Ada Admin")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	e.org = b.Organization.ID
	e.admin = user{id: b.User.ID, email: b.User.Email, token: b.Token}
	return e, blobs
}

// otherOrg gives the env's server a second organization, with its own env
// view: same server and store, another admin.
func (e *env) otherOrg(t *testing.T) *env {
	t.Helper()
	b, err := e.db.InitOrganization(t.Context(), "Other Org", uniqueEmail("other"), "Oda Other")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	return &env{db: e.db, srv: e.srv, org: b.Organization.ID, admin: user{id: b.User.ID, email: b.User.Email, token: b.Token}}
}

// wantNothingImported checks that neither the change request nor the
// space holds a page, and that no import request was made.
func (e *env) wantNothingImported(t *testing.T, spaceID, crPath string) {
	t.Helper()
	if rev := e.revision(t, crPath+"/content"); len(rev.Pages) != 0 {
		t.Errorf("change request pages %+v", rev.Pages)
	}
	if rev := e.revision(t, "/v1/spaces/"+spaceID+"/content"); len(rev.Pages) != 0 {
		t.Errorf("space pages %+v", rev.Pages)
	}
	for _, status := range []string{"archived", "merged"} {
		var crs struct{ Items []struct{ Subject string } }
		e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/change-requests?status="+status, nil).want(t, http.StatusOK).Decode(t, &crs)
		if len(crs.Items) != 0 {
			t.Errorf("%s change requests %+v", status, crs.Items)
		}
	}
}

// TestImportByteLimit: a website whose pages, large or many, come to more
// than an import fetches is refused, 413 naming the limit, and nothing is
// imported, into a change request or a space.
func TestImportByteLimit(t *testing.T) {
	t.Parallel()
	e, _ := newLimitedEnv(t, api.ImportLimits{Bytes: 256 << 10})
	for name, site := range map[string]*httptest.Server{
		"large": bigSite(t, 3, 150<<10),
		"many":  bigSite(t, 40, 10<<10),
	} {
		t.Run(name, func(t *testing.T) {
			spaceID, crPath := e.newChangeRequest(t)
			body := map[string]any{"url": site.URL + "/docs/", "source": "website"}
			e.call(t, e.admin.token, "POST", crPath+"/content/import", body).wantError(t, http.StatusRequestEntityTooLarge, "url: ", "more than 256 KiB")
			e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/content/import", body).wantError(t, http.StatusRequestEntityTooLarge, "more than 256 KiB")
			e.wantNothingImported(t, spaceID, crPath)
		})
	}
	// Within the limit, the same import goes through.
	_, crPath := e.newChangeRequest(t)
	var out importOut
	e.call(t, e.admin.token, "POST", crPath+"/content/import", map[string]any{"url": bigSite(t, 10, 10<<10).URL + "/docs/", "source": "website"}).
		want(t, http.StatusOK).Decode(t, &out)
	if out.ImportedResources != 10 {
		t.Errorf("import %+v", out)
	}
}

// slowSite serves pages linking to each other, each after delay.
func slowSite(t *testing.T, n int, delay time.Duration) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><main><h1>%s</h1>", r.URL.Path)
		for i := range n {
			fmt.Fprintf(w, `<a href="/docs/p%d">p%d</a> `, i, i)
		}
		fmt.Fprint(w, "</main></body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestImportTimeLimit: an import that takes longer than the limit, page
// after slow page, is refused naming the limit, and nothing is imported.
func TestImportTimeLimit(t *testing.T) {
	t.Parallel()
	e, _ := newLimitedEnv(t, api.ImportLimits{Timeout: time.Second})
	site := slowSite(t, 20, 200*time.Millisecond)
	spaceID, crPath := e.newChangeRequest(t)
	start := time.Now()
	e.call(t, e.admin.token, "POST", crPath+"/content/import", map[string]any{"url": site.URL + "/docs/", "source": "website"}).
		wantError(t, http.StatusBadRequest, "url: ", "in 1 s")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the import took %v", d)
	}
	e.wantNothingImported(t, spaceID, crPath)
}

// blockingSite serves a page once release is closed, and says on started
// when a request arrives.
func blockingSite(t *testing.T) (srv *httptest.Server, started chan struct{}, release chan struct{}) {
	t.Helper()
	started, release = make(chan struct{}, 16), make(chan struct{})
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><main><h1>Slow</h1><p>Done.</p></main></body></html>")
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	return srv, started, release
}

// TestImportsAtOnce: beyond the imports an organization, or the server, runs
// at once, imports and batches fetching files are answered 429 with
// Retry-After; batches that fetch nothing are not counted; a finished
// import frees its place.
func TestImportsAtOnce(t *testing.T) {
	t.Parallel()
	e, _ := newLimitedEnv(t, api.ImportLimits{PerOrganization: 1, PerServer: 2})
	site, started, release := blockingSite(t)
	body := map[string]any{"url": site.URL + "/docs/", "source": "website"}
	e2, e3 := e.otherOrg(t), e.otherOrg(t)
	_, cr1 := e.newChangeRequest(t)
	_, cr1b := e.newChangeRequest(t)
	_, cr2 := e2.newChangeRequest(t)
	_, cr3 := e3.newChangeRequest(t)

	statuses := make(chan int, 2)
	for _, run := range []struct {
		e  *env
		cr string
	}{{e, cr1}, {e2, cr2}} {
		go func() {
			statuses <- run.e.call(t, run.e.admin.token, "POST", run.cr+"/content/import", body).Status
		}()
		<-started // the import holds its place while it fetches
	}

	full := e.call(t, e.admin.token, "POST", cr1b+"/content/import", body)
	full.wantError(t, http.StatusTooManyRequests, "organization")
	if full.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	e.author(t, e.admin.token, cr1b, insertFiles(map[string]any{"name": "a.txt", "url": site.URL + "/a.txt"})).
		wantError(t, http.StatusTooManyRequests, "organization")
	e.author(t, e.admin.token, cr1b, insertPage("p", "# P\n")).want(t, http.StatusOK)
	e3.call(t, e3.admin.token, "POST", cr3+"/content/import", body).wantError(t, http.StatusTooManyRequests, "server")

	close(release)
	for range 2 {
		if status := <-statuses; status != http.StatusOK {
			t.Errorf("running import: status %d", status)
		}
	}
	e.call(t, e.admin.token, "POST", cr1b+"/content/import", body).want(t, http.StatusOK)
	e3.call(t, e3.admin.token, "POST", cr3+"/content/import", body).want(t, http.StatusOK)
}

// blobCount counts the files under a blob folder.
func blobCount(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBatchFilesStoredOnlyOnSuccess: a batch that fails, whether it is
// invalid after its files, fetches more than a batch may, or takes too
// long, writes no file to the blob store; one that applies does.
func TestBatchFilesStoredOnlyOnSuccess(t *testing.T) {
	t.Parallel()
	e, blobs := newLimitedEnv(t, api.ImportLimits{Bytes: 1 << 20, FileTimeout: time.Second})
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big.bin":
			w.Write(make([]byte, 600<<10))
		case "/slow.txt":
			select {
			case <-time.After(3 * time.Second):
			case <-r.Context().Done():
				return
			}
			fallthrough
		default:
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprintf(w, "remote file %s\n", r.URL.Path)
		}
	}))
	t.Cleanup(remote.Close)
	_, cr := e.newChangeRequest(t)
	inline := map[string]any{"name": "inline.txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString([]byte("inline bytes"))}
	fetched := map[string]any{"name": "fetched.txt", "url": remote.URL + "/fetched.txt"}

	e.author(t, e.admin.token, cr, insertFiles(inline, fetched), map[string]any{"operation": "delete_page", "page": "nosuchpage"}).
		wantError(t, http.StatusBadRequest, "changes[1].page")
	if n := blobCount(t, blobs); n != 0 {
		t.Errorf("an invalid batch left %d files in the blob store", n)
	}
	e.author(t, e.admin.token, cr, insertFiles(inline, fetched, map[string]any{"name": "big1.bin", "url": remote.URL + "/big.bin"},
		map[string]any{"name": "big2.bin", "url": remote.URL + "/big.bin?2"})).
		wantError(t, http.StatusRequestEntityTooLarge, "changes[0].files[3].url", "more than 1 MiB")
	start := time.Now()
	e.author(t, e.admin.token, cr, insertFiles(inline, fetched, map[string]any{"name": "slow.txt", "url": remote.URL + "/slow.txt"})).
		wantError(t, http.StatusBadRequest, "changes[0].files[2].url", "in 1 s")
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("the batch took %v", d)
	}
	if n := blobCount(t, blobs); n != 0 {
		t.Errorf("failed batches left %d files in the blob store", n)
	}

	e.author(t, e.admin.token, cr, insertFiles(inline, fetched)).want(t, http.StatusOK)
	if n := blobCount(t, blobs); n != 2 {
		t.Errorf("the blob store holds %d files, want 2", n)
	}
}
