package site_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

func TestCachedPagesAnswer304UntilAMerge(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	first := fetch(t, nil, "GET", d.url+"install")
	etag := first.header.Get("ETag")
	if first.status != http.StatusOK || !strings.HasPrefix(etag, `"`) || first.header.Get("Cache-Control") != "public, max-age=60" {
		t.Fatalf("first GET: %d, ETag %q, Cache-Control %q", first.status, etag, first.header.Get("Cache-Control"))
	}
	again := fetch(t, nil, "GET", d.url+"install", "If-None-Match", etag)
	if again.status != http.StatusNotModified || again.body != "" {
		t.Errorf("If-None-Match: %d, want 304", again.status)
	}
	if a := fetch(t, nil, "GET", d.url+"install", "If-None-Match", `W/`+etag); a.status != http.StatusNotModified {
		t.Errorf("weak If-None-Match: %d, want 304", a.status)
	}
	if a := fetch(t, nil, "HEAD", d.url+"install"); a.status != http.StatusOK || a.body != "" || a.header.Get("ETag") != etag {
		t.Errorf("HEAD: %d %q", a.status, a.header.Get("ETag"))
	}

	// A merge makes the revision current: the sidebar shows the new page.
	d.e.change(t, d.guide, map[string]any{"operation": "insert_page", "title": "Troubleshooting", "document": map[string]any{"markdown": "Restart it.\n"}})
	after := fetch(t, nil, "GET", d.url+"install", "If-None-Match", etag)
	if after.status != http.StatusOK || after.header.Get("ETag") == etag || !strings.Contains(after.body, "Troubleshooting") {
		t.Errorf("after a merge: %d, ETag %q (was %q)", after.status, after.header.Get("ETag"), etag)
	}
	// So does a change of the site: its title.
	d.e.api(t, "PATCH", d.e.sitePath(d.id, ""), map[string]any{"title": "Handbook"}, http.StatusOK, nil)
	if a := fetch(t, nil, "GET", d.url+"install"); !strings.Contains(a.body, "<title>Install · Handbook</title>") {
		t.Errorf("after renaming the site: %q", a.body[:200])
	}
}

func TestCompressesWhenAccepted(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	plain := fetch(t, nil, "GET", d.url)
	for _, path := range []string{"", "llms-full.txt"} { // (answers under 256 bytes stay plain)
		a := fetch(t, nil, "GET", d.url+path, "Accept-Encoding", "br;q=1, gzip;q=0.8")
		if a.header.Get("Content-Encoding") != "gzip" || !strings.Contains(a.header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Content-Encoding %q, Vary %q", path, a.header.Get("Content-Encoding"), a.header.Get("Vary"))
		}
		if path == "" && a.body != plain.body {
			t.Errorf("gzipped page differs from the plain one")
		}
		if path == "" && a.header.Get("ETag") == plain.header.Get("ETag") {
			t.Errorf("gzipped and plain answers share the ETag %s", a.header.Get("ETag"))
		}
	}
	if a := fetch(t, nil, "GET", d.url, "Accept-Encoding", "gzip;q=0"); a.header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 still gzipped")
	}
	css := attrOf(parse(t, plain.body).one("link", "rel", "stylesheet"), "href")
	if a := fetch(t, nil, "GET", d.e.srv.URL+css, "Accept-Encoding", "gzip"); a.header.Get("Content-Encoding") != "gzip" || !strings.Contains(a.body, "--accent") {
		t.Errorf("CSS: Content-Encoding %q", a.header.Get("Content-Encoding"))
	}
}

func TestRedirectsAnswer308(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	d.e.api(t, "POST", d.e.sitePath(d.id, "/redirects"), map[string]any{"source": "/old/api", "destination": map[string]any{"kind": "site-section", "siteSectionId": d.apiSec}}, http.StatusCreated, nil)
	a := fetch(t, nil, "GET", d.url+"old/api")
	if want := strings.TrimPrefix(d.url, d.e.srv.URL) + "api-docs/"; a.status != http.StatusPermanentRedirect || a.header.Get("Location") != want {
		t.Errorf("GET old/api: %d to %q, want 308 to %q", a.status, a.header.Get("Location"), want)
	}
	if a := fetch(t, nil, "GET", d.url+"old/other"); a.status != http.StatusNotFound {
		t.Errorf("GET old/other: %d, want 404", a.status)
	}
}

func TestServesFiles(t *testing.T) {
	t.Parallel()
	d := newDocs(t, "public")
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	page := base64.StdEncoding.EncodeToString([]byte("<script>alert(1)</script>"))
	d.e.change(t, d.guide,
		map[string]any{"operation": "insert_files", "files": []map[string]any{
			{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": png},
			{"ref": "page", "name": "page.html", "contentType": "text/html", "base64": page},
		}},
		map[string]any{"operation": "insert_page", "title": "Pictures", "document": map[string]any{"markdown": "![The logo](logo.png)\n\n[Download](page.html)\n\nSee [Linux](install/on-linux.md#steps).\n"}},
	)
	p := parse(t, fetch(t, nil, "GET", d.url+"pictures").body)
	img := p.one("img", "alt", "The logo")
	if img == nil || !strings.Contains(attrOf(img, "src"), "/~files/") {
		t.Fatalf("image %v", img)
	}
	a := fetch(t, nil, "GET", d.e.srv.URL+attrOf(img, "src"))
	if a.status != http.StatusOK || a.header.Get("Content-Type") != "image/png" || a.header.Get("X-Content-Type-Options") != "nosniff" || strings.HasPrefix(a.header.Get("Content-Disposition"), "attachment") {
		t.Errorf("image: %d %v", a.status, a.header)
	}
	var download string
	for _, l := range p.all("a", "href", "*") {
		if text(l) == "Download" {
			download = attrOf(l, "href")
		}
	}
	var linux string
	for _, l := range p.all("a", "href", "*") {
		if text(l) == "Linux" {
			linux = attrOf(l, "href")
		}
	}
	if want := strings.TrimPrefix(d.url, d.e.srv.URL) + "install/on-linux#steps"; linux != want {
		t.Errorf("link to a page: %q, want %q", linux, want)
	}
	md := fetch(t, nil, "GET", d.url+"pictures.md")
	if want := "See [Linux](" + d.url + "install/on-linux.md#steps)."; !strings.Contains(md.body, want) || !strings.Contains(md.body, "](http") {
		t.Errorf("pictures.md: %q, want %q", md.body, want)
	}
	a = fetch(t, nil, "GET", d.e.srv.URL+download)
	if a.status != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Disposition"), "attachment") || !strings.Contains(a.header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("HTML file %q: %d %v", download, a.status, a.header)
	}
	if a := fetch(t, nil, "GET", d.url+"~files/nope/nope/x.png"); a.status != http.StatusNotFound {
		t.Errorf("unknown file: %d", a.status)
	}
}
