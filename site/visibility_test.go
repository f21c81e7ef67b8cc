package site_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// Every kind of URL of a site answers only the visitors its visibility
// admits: pages, markdown, search, ask, files, sitemaps, robots.txt,
// llms.txt and the MCP server.
func TestVisibilityOnEveryURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := guideSpace(t, e)
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	e.change(t, sp,
		map[string]any{"operation": "insert_files", "files": []map[string]any{{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": png}}},
		map[string]any{"operation": "insert_page", "title": "Pictures", "document": map[string]any{"markdown": "![The logo](logo.png)\n"}},
	)
	imgSrc := regexp.MustCompile(`src="([^"]*/~files/[^"]*)"`)
	for _, c := range visitorCases(t, e, sp) {
		public := strings.HasPrefix(c.name, "public")
		// The file's URL, as a member reads it on the page.
		m := imgSrc.FindStringSubmatch(memberGet(t, e, c.base+"pictures"))
		if m == nil {
			t.Fatalf("%s: no image on the pictures page", c.name)
		}
		file := strings.TrimPrefix(e.srv.URL+m[1], c.base)
		for _, u := range []struct {
			path string
			ok   int // the status of an admitted visitor
		}{
			{"install", http.StatusOK},
			{"install.md", http.StatusOK},
			{"~search?q=installer", http.StatusOK},
			{"~ask?q=installer", http.StatusOK},
			{file, http.StatusOK},
			{"llms.txt", http.StatusOK},
			{"llms-full.txt", http.StatusOK},
			{"robots.txt", http.StatusOK},
			{"sitemap.xml", map[bool]int{true: http.StatusOK, false: http.StatusNotFound}[public]},
		} {
			if status, body := c.get(t, u.path); status != c.want(u.ok) {
				t.Errorf("%s: GET %s: %d, want %d: %.200s", c.name, u.path, status, c.want(u.ok), body)
			}
		}
		if status := c.postMCP(t); status != c.want(http.StatusOK) {
			t.Errorf("%s: MCP initialize: %d, want %d", c.name, status, c.want(http.StatusOK))
		}
	}
}

// memberGet reads url as the organization's admin and returns the body.
func memberGet(t *testing.T, e *env, url string) string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+e.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// postMCP opens an MCP session with the site's server as the case's
// visitor and returns the status of the answer.
func (c visitorCase) postMCP(t *testing.T) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	req, _ := http.NewRequestWithContext(t.Context(), "POST", c.base+"~mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.prepare != nil {
		c.prepare(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", req.URL, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
