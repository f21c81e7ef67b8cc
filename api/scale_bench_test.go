package api_test

import (
	"fmt"
	"net/http"
	"testing"
)

// scaleSizes are the page counts the scale benchmarks compare: a request
// on a 10,000-page space should cost about what it costs on a 100-page one.
var scaleSizes = []int{100, 1000, 10000}

// forEachScale runs bench on a space of each of scaleSizes pages.
func forEachScale(b *testing.B, bench func(b *testing.B, e *env, spaceID string, n int)) {
	for _, n := range scaleSizes {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			e, spaceID := newContentBenchN(b, n)
			bench(b, e, spaceID, n)
		})
	}
}

// batchOf10N updates ten pages of an n-page space: five subpages of the
// first top-level page and five of the last, so that a batch changes the
// same amount of structure (two sections) at every size, and only the size
// of the tree differs. shift (0 to 44) picks other subpages.
func batchOf10N(n, edit, shift int) map[string]any {
	changes := make([]map[string]any, 10)
	for i := range changes {
		page := 1 + shift + i // subpages of p0000
		if i >= 5 {
			page = n - 50 + 1 + shift + i - 5 // subpages of the last top-level page
		}
		changes[i] = map[string]any{"operation": "update_page", "page": fmt.Sprintf("p%04d", page),
			"document": map[string]any{"markdown": fmt.Sprintf("Edit %d.\n\n%s", edit, benchBody(i))}}
	}
	return map[string]any{"changes": changes}
}

// BenchmarkScaleAuthorBatch is BenchmarkAuthorBatch by space size.
func BenchmarkScaleAuthorBatch(b *testing.B) {
	forEachScale(b, func(b *testing.B, e *env, spaceID string, n int) {
		var c crOut
		e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
		path := "/v1/spaces/" + spaceID + "/change-requests/" + c.ID + "/content"
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e.call(b, e.admin.token, "POST", path, batchOf10N(n, i, 0)).want(b, http.StatusOK)
		}
	})
}

// BenchmarkScaleInsertPage creates pages one by one, each its own batch
// of one insert_page into a change request, as a seeding script does.
func BenchmarkScaleInsertPage(b *testing.B) {
	forEachScale(b, func(b *testing.B, e *env, spaceID string, n int) {
		var c crOut
		e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
		path := "/v1/spaces/" + spaceID + "/change-requests/" + c.ID + "/content"
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e.call(b, e.admin.token, "POST", path, map[string]any{"changes": []map[string]any{{"operation": "insert_page",
				"title": fmt.Sprintf("New %d", i), "into": fmt.Sprintf("p%04d", (i%(n/50))*50),
				"document": map[string]any{"markdown": benchBody(i)}}}}).want(b, http.StatusOK)
		}
	})
}

// BenchmarkScaleMerge is BenchmarkMerge by space size.
func BenchmarkScaleMerge(b *testing.B) {
	forEachScale(b, func(b *testing.B, e *env, spaceID string, n int) {
		crs := "/v1/spaces/" + spaceID + "/change-requests"
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			var ours, other crOut
			e.call(b, e.admin.token, "POST", crs, nil).want(b, http.StatusCreated).Decode(b, &ours)
			e.call(b, e.admin.token, "POST", crs, nil).want(b, http.StatusCreated).Decode(b, &other)
			e.call(b, e.admin.token, "POST", crs+"/"+ours.ID+"/content", batchOf10N(n, i, 0)).want(b, http.StatusOK)
			e.call(b, e.admin.token, "POST", crs+"/"+other.ID+"/content", batchOf10N(n, i, 5)).want(b, http.StatusOK)
			e.call(b, e.admin.token, "POST", crs+"/"+other.ID+"/merge", nil).want(b, http.StatusOK)
			b.StartTimer()
			e.call(b, e.admin.token, "POST", crs+"/"+ours.ID+"/merge", nil).want(b, http.StatusOK)
		}
	})
}

// BenchmarkScaleGetPage reads one page, one request at a time.
func BenchmarkScaleGetPage(b *testing.B) {
	forEachScale(b, func(b *testing.B, e *env, spaceID string, n int) {
		benchGetAs(b, e, e.admin.token, fmt.Sprintf("/v1/spaces/%s/content/page/p%04d", spaceID, n/2+17), false)
	})
}

// BenchmarkScaleSpaceTree reads the space's content (its tree of pages).
func BenchmarkScaleSpaceTree(b *testing.B) {
	forEachScale(b, func(b *testing.B, e *env, spaceID string, n int) {
		benchGetAs(b, e, e.admin.token, "/v1/spaces/"+spaceID+"/content", false)
	})
}

// BenchmarkScaleListPages lists the pages (cached per revision once built).
func BenchmarkScaleListPages(b *testing.B) {
	forEachScale(b, func(b *testing.B, e *env, spaceID string, n int) {
		benchGetAs(b, e, e.admin.token, "/v1/spaces/"+spaceID+"/content/pages", false)
	})
}

// BenchmarkScaleReadAfterWrite edits one page of a change request, then
// reads a page of the request's new revision: the first read of each
// revision builds what reading it needs.
func BenchmarkScaleReadAfterWrite(b *testing.B) {
	forEachScale(b, func(b *testing.B, e *env, spaceID string, n int) {
		var c crOut
		e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
		cr := "/v1/spaces/" + spaceID + "/change-requests/" + c.ID
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e.call(b, e.admin.token, "POST", cr+"/content", map[string]any{"changes": []map[string]any{{"operation": "update_page",
				"page": "p0001", "document": map[string]any{"markdown": fmt.Sprintf("Edit %d.\n", i)}}}}).want(b, http.StatusOK)
			e.call(b, e.admin.token, "GET", fmt.Sprintf("%s/content/page/p%04d", cr, n/2+17), nil).want(b, http.StatusOK)
		}
	})
}
