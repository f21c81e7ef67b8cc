package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
)

// benchPages is the size of the benchmark space: 20 top-level pages with 49
// subpages each.
const benchPages = 1000

// benchBody is a page body of about 1.5 KB with a few links.
func benchBody(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Page %d introduces a topic. See [the first page](/pages/p0000) and [the guide](https://example.com/guide).\n\n", i)
	for j := range 12 {
		fmt.Fprintf(&b, "Paragraph %d of page %d: words words words words words words words words words words words.\n\n", j, i)
	}
	return b.String()
}

// newContentBench creates a space whose current content has benchPages
// pages, merged from a change request, and returns it with a page id.
func newContentBench(b *testing.B) (e *env, spaceID string) {
	b.Helper()
	return newContentBenchN(b, benchPages)
}

// newContentBenchN is newContentBench with n pages (at most 10,000): n/50
// top-level pages with 49 subpages each, stored directly in one revision.
func newContentBenchN(b *testing.B, n int) (e *env, spaceID string) {
	b.Helper()
	e, _ = newBenchEnv(b, 1, 0)
	spaceID = e.crSpace(b)
	var c crOut
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
	_, err := e.db.EditChangeRequest(b.Context(), spaceID, c.ID, e.admin.id, func(now time.Time, t *content.Tree) (*content.Tree, error) {
		for i := range n {
			id := fmt.Sprintf("p%04d", i)
			t.Pages[id] = &content.Page{ID: id, Title: "Page " + id, Slug: id, Kind: content.KindDocument, Markdown: benchBody(i),
				CreatedAt: now.UnixMicro(), UpdatedAt: now.UnixMicro()}
			if i%50 == 0 {
				t.Root = append(t.Root, id)
			} else {
				parent := fmt.Sprintf("p%04d", i/50*50)
				t.Pages[parent].Children = append(t.Pages[parent].Children, id)
			}
		}
		return t, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests/"+c.ID+"/merge", nil).want(b, http.StatusOK)
	return e, spaceID
}

// BenchmarkGetPageParallel reads one page of a 1,000-page space from
// GOMAXPROCS goroutines. Issue 4: at least 10,000 req/s.
func BenchmarkGetPageParallel(b *testing.B) {
	e, spaceID := newContentBench(b)
	for _, format := range []string{"markdown", "document"} {
		b.Run(format, func(b *testing.B) {
			benchGetAs(b, e, e.admin.token, "/v1/spaces/"+spaceID+"/content/page/p0517?format="+format, true)
		})
	}
}

// batchOf10 updates the documents of ten pages spread over the space.
func batchOf10(n int) map[string]any {
	changes := make([]map[string]any, 10)
	for i := range changes {
		changes[i] = map[string]any{"operation": "update_page", "page": fmt.Sprintf("p%04d", i*97+1),
			"document": map[string]any{"markdown": fmt.Sprintf("Edit %d.\n\n%s", n, benchBody(i))}}
	}
	return map[string]any{"changes": changes}
}

// BenchmarkAuthorBatch applies a 10-page batch to a change request of a
// 1,000-page space, each one a new revision.
func BenchmarkAuthorBatch(b *testing.B) {
	e, spaceID := newContentBench(b)
	var c crOut
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
	path := "/v1/spaces/" + spaceID + "/change-requests/" + c.ID + "/content"
	n := 0
	for b.Loop() {
		n++
		e.call(b, e.admin.token, "POST", path, batchOf10(n)).want(b, http.StatusOK)
	}
}

// BenchmarkMerge three-way merges a change request of 10 edited pages into
// a 1,000-page space that moved on since the request forked (another
// request changed 10 other pages). Issue 4: at most 50 ms.
func BenchmarkMerge(b *testing.B) {
	e, spaceID := newContentBench(b)
	crs := "/v1/spaces/" + spaceID + "/change-requests"
	for n := 0; b.Loop(); n++ {
		b.StopTimer()
		var ours, other crOut
		e.call(b, e.admin.token, "POST", crs, nil).want(b, http.StatusCreated).Decode(b, &ours)
		e.call(b, e.admin.token, "POST", crs, nil).want(b, http.StatusCreated).Decode(b, &other)
		e.call(b, e.admin.token, "POST", crs+"/"+ours.ID+"/content", batchOf10(n)).want(b, http.StatusOK)
		otherBatch := batchOf10(n)
		for i, c := range otherBatch["changes"].([]map[string]any) {
			c["page"] = fmt.Sprintf("p%04d", i*97+50)
		}
		e.call(b, e.admin.token, "POST", crs+"/"+other.ID+"/content", otherBatch).want(b, http.StatusOK)
		e.call(b, e.admin.token, "POST", crs+"/"+other.ID+"/merge", nil).want(b, http.StatusOK)
		b.StartTimer()
		e.call(b, e.admin.token, "POST", crs+"/"+ours.ID+"/merge", nil).want(b, http.StatusOK)
	}
}

// BenchmarkRevisionGrowth measures the bytes stored per revision that edits
// one page of the 1,000-page space: the page's objects and its ancestors'
// lists, not the space.
func BenchmarkRevisionGrowth(b *testing.B) {
	e, spaceID := newContentBench(b)
	var c crOut
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
	path := "/v1/spaces/" + spaceID + "/change-requests/" + c.ID + "/content"
	_, before, err := e.db.ContentStats(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		n++
		e.call(b, e.admin.token, "POST", path, map[string]any{"changes": []map[string]any{{"operation": "update_page", "page": "p0517",
			"document": map[string]any{"markdown": fmt.Sprintf("Edit %d.\n\n%s", n, benchBody(517))}}}}).want(b, http.StatusOK)
	}
	_, after, err := e.db.ContentStats(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(after-before)/float64(n), "bytes/revision")
	b.ReportMetric(float64(len(benchBody(517))), "page-bytes")
}

// BenchmarkListPages1000 lists every page of the 1,000-page space (some
// 2.7 MB as markdown), one request at a time, in each format, and gzipped.
func BenchmarkListPages1000(b *testing.B) {
	e, spaceID := newContentBench(b)
	path := "/v1/spaces/" + spaceID + "/content/pages"
	for _, format := range []string{"markdown", "document"} {
		b.Run(format, func(b *testing.B) {
			benchGetAs(b, e, e.admin.token, path+"?format="+format, false)
		})
	}
	b.Run("markdown-gzip", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req := httptest.NewRequestWithContext(context.Background(), http.MethodGet, path, nil)
			req.Header.Set("Authorization", "Bearer "+e.admin.token)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := newBenchRecorder(new(bytes.Buffer))
			e.srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d", rec.Code)
			}
		}
	})
}
