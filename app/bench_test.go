package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptrace"
	"testing"
	"time"
)

// Time to first byte of the app's heaviest pages, through the real server
// with a session cookie: each reports ttfb-ms, the mean wait for the first
// byte of the answer (the goal is at most 20 ms).

func BenchmarkSpacePage1000(b *testing.B) {
	e := newEnv(b)
	var sp struct{ ID string }
	e.api(b, e.token, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": "Big"}, http.StatusCreated, &sp)
	var cr struct{ ID string }
	e.api(b, e.token, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Write"}, http.StatusCreated, &cr)
	crPath := "/v1/spaces/" + sp.ID + "/change-requests/" + cr.ID
	for batch := range 20 { // 50 changes a batch, the most one takes
		var changes []any
		for i := batch * 50; i < batch*50+50; i++ {
			c := map[string]any{"operation": "insert_page", "ref": fmt.Sprintf("p%d", i), "title": fmt.Sprintf("Page %d", i),
				"document": map[string]any{"markdown": fmt.Sprintf("Page %d of the tree.\n\n## Section\n\nSome text.", i)}}
			if i%10 != 0 { // 100 pages of ten: one parent, nine children
				c["into"] = fmt.Sprintf("p%d", i-i%10)
			}
			changes = append(changes, c)
		}
		e.api(b, e.token, "POST", crPath+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	}
	e.api(b, e.token, "POST", crPath+"/merge", nil, http.StatusOK, nil)
	var pg struct{ Path string }
	e.api(b, e.token, "GET", "/v1/spaces/"+sp.ID+"/content/path/page-500", nil, http.StatusOK, &pg)
	benchTTFB(b, e, "/s/"+sp.ID+"/page-500")
}

func BenchmarkChangeRequest10(b *testing.B) {
	e := newEnv(b)
	var pages []page
	for i := range 20 {
		pages = append(pages, page{title: fmt.Sprintf("Page %d", i), markdown: "Text."})
	}
	sp := e.space(b, e.token, e.org, "Space", pages...)
	var cr struct{ ID string }
	e.api(b, e.token, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Ten pages"}, http.StatusCreated, &cr)
	var changes []any
	for i := range 10 {
		changes = append(changes, map[string]any{"operation": "insert_page", "title": fmt.Sprintf("New %d", i), "document": map[string]any{"markdown": "New text."}})
	}
	e.api(b, e.token, "POST", "/v1/spaces/"+sp+"/change-requests/"+cr.ID+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	benchTTFB(b, e, "/s/"+sp+"/changes/"+cr.ID)
}

// benchTTFB opens path as the organization's admin, once to warm the
// caches, then in a loop, reporting the mean time to first byte.
func benchTTFB(b *testing.B, e *env, path string) {
	br := e.browser(b)
	br.signIn(b, e.admin)
	if a := br.get(b, path); a.status != http.StatusOK {
		b.Fatalf("GET %s: %d", path, a.status)
	}
	var ttfb time.Duration
	n := 0
	for b.Loop() {
		var start time.Time
		trace := &httptrace.ClientTrace{
			WroteRequest:         func(httptrace.WroteRequestInfo) { start = time.Now() },
			GotFirstResponseByte: func() { ttfb += time.Since(start) },
		}
		req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(b.Context(), trace), "GET", e.srv.URL+path, nil)
		if a := br.do(b, req); a.status != http.StatusOK {
			b.Fatalf("GET %s: %d", path, a.status)
		}
		n++
	}
	b.ReportMetric(float64(ttfb.Microseconds())/1000/float64(n), "ttfb-ms")
}
