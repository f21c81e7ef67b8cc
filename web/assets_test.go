package web_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire/web"
)

func TestAssetsServe(t *testing.T) {
	set := web.NewAssets(map[string][]byte{"a.css": web.BaseCSS()})
	url := set.URL("/x", "a.css")
	rest := strings.TrimPrefix(url, "/x/~assets/")
	for _, tt := range []struct {
		accept, wantEncoding, wantCache string
		rest                            string
	}{
		{"gzip", "gzip", "public, max-age=31536000, immutable", rest},
		{"", "", "public, max-age=31536000, immutable", rest},
		{"gzip;q=0", "", "public, max-age=31536000, immutable", rest},
		{"gzip", "gzip", "public, max-age=60", "0123/a.css"},
	} {
		r := httptest.NewRequest("GET", url, nil)
		r.Header.Set("Accept-Encoding", tt.accept)
		w := httptest.NewRecorder()
		if !set.Serve(w, r, tt.rest) {
			t.Fatalf("%s not served", tt.rest)
		}
		if got := w.Header().Get("Content-Encoding"); got != tt.wantEncoding {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tt.accept, got, tt.wantEncoding)
		}
		if got := w.Header().Get("Cache-Control"); got != tt.wantCache {
			t.Errorf("%s: Cache-Control %q, want %q", tt.rest, got, tt.wantCache)
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/css; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
	}
	if set.Serve(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil), "h/none.js") {
		t.Error("unknown asset served")
	}
}
