package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// PDF exports (security finding 1): a PDF is printed by a durable job once
// per revision and what it prints, kept in blob storage, and every link's
// request for it joins that job.

// pdfEnv is a test server whose blob store the test reaches.
func pdfEnv(t *testing.T) (*env, blob.Dir) {
	t.Helper()
	db := storetest.Open(t)
	blobs := blob.Dir{Path: t.TempDir()}
	e := &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: blobs, Fetcher: outbound.Fetcher{AllowPrivate: true}})}
	e.initOrg(t)
	return e, blobs
}

// wantPrinted checks how many exports the server's printer ended.
func wantPrinted(t *testing.T, e *env, n int) {
	t.Helper()
	if got := e.srv.PDFPrinter().Printed(); got != n {
		t.Fatalf("the server printed %d PDFs, want %d", got, n)
	}
}

// exportKey is the key of the export a space's PDF link prints.
func exportKey(t *testing.T, link, title string) store.PDFExportKey {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(strings.TrimPrefix(u.Path, "/pdf/"), "/")
	return store.PDFExportKey{SpaceID: parts[0], RevisionID: parts[1], Title: title}
}

func TestPDFPrintedOnce(t *testing.T) {
	t.Parallel()
	e, _ := pdfEnv(t)
	spaceID, ids := pdfSpace(t, e)
	sp := "/v1/spaces/" + spaceID

	first := followPDF(t, e, pdfLink(t, e, e.admin.token, sp+"/pdf")).want(t, http.StatusOK)
	wantPrinted(t, e, 1)
	// Another link to the same revision, even by another reader, an hour
	// later: served from blob storage, not printed again.
	reader := e.addUser(t, "read", "Rita Reader")
	e.db.Now = func() time.Time { return time.Now().Add(time.Hour + time.Minute) }
	again := followPDF(t, e, pdfLink(t, e, reader.token, sp+"/pdf")).want(t, http.StatusOK)
	if !bytes.Equal(first.Body, again.Body) || again.Header.Get("Content-Length") != fmt.Sprint(len(first.Body)) {
		t.Errorf("the second answer differs: %d bytes, Content-Length %s; want %d", len(again.Body), again.Header.Get("Content-Length"), len(first.Body))
	}
	wantPrinted(t, e, 1)
	// Another page is another PDF; a new revision another again.
	followPDF(t, e, pdfLink(t, e, e.admin.token, sp+"/pdf?only=true&page="+ids["Install"])).want(t, http.StatusOK)
	wantPrinted(t, e, 2)
	e.cmSeed(t, spaceID, insertPage("more", "# More\n\nA page more.\n"))
	changed := followPDF(t, e, pdfLink(t, e, e.admin.token, sp+"/pdf")).want(t, http.StatusOK)
	wantPrinted(t, e, 3)
	if !strings.Contains(strings.Join(pdfText(t, changed.Body), "\f"), "A page more.") {
		t.Error("the new revision's PDF lacks its new page")
	}
}

func TestPDFConcurrentRequestsJoin(t *testing.T) {
	t.Parallel()
	e, _ := pdfEnv(t)
	spaceID, _ := pdfSpace(t, e)
	link := pdfLink(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/pdf")
	answers := make([]*response, 6)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = followPDF(t, e, link) })
	}
	wg.Wait()
	for i, res := range answers {
		if res.Status != http.StatusOK || !bytes.Equal(res.Body, answers[0].Body) {
			t.Errorf("answer %d: status %d, %d bytes; want 200 and the first's %d", i, res.Status, len(res.Body), len(answers[0].Body))
		}
	}
	wantPrinted(t, e, 1)
}

// TestPDFOverBounds: a PDF over the bounds is refused with 413 naming the
// page, before it is laid out; the refusal is kept, and answered again
// without printing.
func TestPDFOverBounds(t *testing.T) {
	t.Parallel()
	e, _ := pdfEnv(t)
	spaceID := e.crSpace(t)
	var table strings.Builder
	table.WriteString("|" + strings.Repeat(" h |", 60) + "\n|" + strings.Repeat("---|", 60) + "\n")
	for range 100 {
		table.WriteString("|" + strings.Repeat(" cell |", 60) + "\n")
	}
	e.cmSeed(t, spaceID, insertPage("ok", "# Fine\n\nSmall.\n"), insertPage("big", "# Big table\n\n"+table.String()))
	link := pdfLink(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/pdf")
	for range 2 {
		followPDF(t, e, link).wantError(t, http.StatusRequestEntityTooLarge, `page "Big table"`, "6060 cells", "at most 5000")
	}
	wantPrinted(t, e, 1)
}

// TestPDFPrinterCrash: an export claimed by a printer that died is printed
// once its lease runs out, by the server a request for it waits on.
func TestPDFPrinterCrash(t *testing.T) {
	t.Parallel()
	e, _ := pdfEnv(t)
	spaceID, _ := pdfSpace(t, e)
	link := pdfLink(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/pdf")
	if _, err := e.db.EnsurePDFExport(t.Context(), exportKey(t, link, "Handbook")); err != nil {
		t.Fatal(err)
	}
	dead, err := e.db.ClaimPDFExport(t.Context(), 300*time.Millisecond)
	if err != nil || dead == nil {
		t.Fatalf("claim: %v, %v", dead, err)
	}
	res := followPDF(t, e, link).want(t, http.StatusOK)
	if !bytes.HasPrefix(res.Body, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %.20q", res.Body)
	}
	x, err := e.db.PDFExport(t.Context(), dead.ID)
	if err != nil || x.State != store.PDFDone || x.Attempts != 2 {
		t.Fatalf("export: %+v, %v; want done at the second claim", x, err)
	}
	wantPrinted(t, e, 1)
}

// TestPDFKeptByCollection: garbage collection keeps the PDF an export
// names, and removes it once the export is purged.
func TestPDFKeptByCollection(t *testing.T) {
	t.Parallel()
	e, blobs := pdfEnv(t)
	spaceID, _ := pdfSpace(t, e)
	link := pdfLink(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/pdf")
	doc := followPDF(t, e, link).want(t, http.StatusOK).Body
	key := blob.Key(doc)
	// A grace below 0: every blob nothing uses is collected.
	gc := &jobs.Collector{DB: e.db, Blobs: blobs, Grace: -time.Minute}
	collect := func() {
		t.Helper()
		if _, err := gc.Collect(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	collect()
	if r, err := blobs.Open(t.Context(), key); err != nil {
		t.Fatalf("the PDF an export names was collected: %v", err)
	} else {
		r.Close()
	}
	followPDF(t, e, link).want(t, http.StatusOK)
	wantPrinted(t, e, 1)

	if n, err := e.db.PurgePDFExports(t.Context(), time.Now().Add(time.Hour), time.Now().Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("purged %d, %v", n, err)
	}
	collect()
	if r, err := blobs.Open(t.Context(), key); err == nil {
		r.Close()
		t.Fatal("the PDF of a purged export was kept")
	}
	// Asked for again, it is printed again.
	followPDF(t, e, link).want(t, http.StatusOK)
	wantPrinted(t, e, 2)
}
