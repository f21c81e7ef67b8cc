package api_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// TestActiveFilesServedInert: an uploaded script, style sheet or HTML page
// is downloaded from the API's origin as an attachment of no type, in a
// sandbox, so that no page of the origin can load it as what it says it is.
func TestActiveFilesServedInert(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, cr := e.newChangeRequest(t)
	file := func(name, ctype, body string) map[string]any {
		return map[string]any{"name": name, "contentType": ctype, "base64": base64.StdEncoding.EncodeToString([]byte(body))}
	}
	e.author(t, e.admin.token, cr, insertFiles(
		file("app.js", "text/javascript", "alert(1)"),
		file("site.css", "text/css", "body{}"),
		file("page.html", "text/html", "<script>alert(1)</script>"),
		file("notes.txt", "text/plain", "notes"),
	)).want(t, http.StatusOK)
	want := map[string]string{
		"app.js": "application/octet-stream", "site.css": "application/octet-stream", "page.html": "application/octet-stream",
		"notes.txt": "text/plain; charset=utf-8",
	}
	for _, f := range e.revision(t, cr+"/content").Files {
		res := e.readDownload(t, e.admin.token, f.DownloadURL).want(t, http.StatusOK)
		h := res.Header
		inline := f.Name == "notes.txt"
		if h.Get("Content-Type") != want[f.Name] || strings.HasPrefix(h.Get("Content-Disposition"), "inline") != inline ||
			!strings.Contains(h.Get("Content-Security-Policy"), "sandbox") || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s (stored as %s): %v", f.Name, f.ContentType, h)
		}
	}
}
