package site_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestMethodNotAllowed: every path of a site refuses other methods with
// 405 and Allow through the one error writer: pages and sign-out as the
// styled error page, search and ask in the API's error shape.
func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	for _, tc := range []struct {
		method, path, allow string
		json                bool
	}{
		{"POST", "install", "GET, HEAD", false},
		{"DELETE", "llms.txt", "GET, HEAD", false},
		{"PUT", "~files/x/y/z.png", "GET, HEAD", false},
		{"POST", "~logout", "GET", false},
		{"HEAD", "~logout", "GET", false},
		{"POST", "~search?q=guide", "GET, HEAD", true},
		{"DELETE", "~ask?q=guide", "GET, HEAD", true},
	} {
		a := fetch(t, nil, tc.method, d.url+tc.path)
		if a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d, Allow %q; want 405, %q", tc.method, tc.path, a.status, a.header.Get("Allow"), tc.allow)
			continue
		}
		if tc.json {
			var got struct{ Error struct{ Code int } }
			if err := json.Unmarshal([]byte(a.body), &got); err != nil || got.Error.Code != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %s, want the API's error shape", tc.method, tc.path, a.body)
			}
			continue
		}
		if tc.method != "HEAD" && (parse(t, a.body).one("article", "class", "error-page") == nil || !strings.Contains(a.body, "Method not allowed")) {
			t.Errorf("%s %s: want the 405 page:\n%s", tc.method, tc.path, a.body)
		}
	}
}
