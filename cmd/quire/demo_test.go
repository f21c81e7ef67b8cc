package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startDemo runs quire demo on data until the test ends and returns what it
// printed once serving.
func startDemo(t *testing.T, data string) (printed string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr logBuffer
	var serveErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		serveErr = run(ctx, []string{"demo", "--data", data, "--addr", "127.0.0.1:0"}, &stdout, &stderr)
	}()
	stderr.waitJSON(t, done, func(m map[string]any) bool { return m["msg"] == "quire serving" })
	stop = func() {
		cancel()
		select {
		case <-done:
			if serveErr != nil {
				t.Errorf("demo: %v", serveErr)
			}
		case <-time.After(30 * time.Second):
			t.Error("demo did not stop")
		}
	}
	t.Cleanup(stop)
	return stdout.String(), stop
}

// demoURL finds the URL printed after label.
func demoURL(t *testing.T, printed, label string) string {
	t.Helper()
	m := regexp.MustCompile(label + `:\s+(http\S+)`).FindStringSubmatch(printed)
	if m == nil {
		t.Fatalf("no %s URL in:\n%s", label, printed)
	}
	return m[1]
}

func getBody(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestDemo: quire demo seeds an organization with a space made of the
// manual (docs/), an open change request with comments and a published site, and
// prints app, sign-in, site and API addresses that answer, with a token.
// Run again on its folder it serves the same content with a new token; it
// refuses a folder it did not make.
func TestDemo(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "demo")
	printed, stop := startDemo(t, data)
	token := regexp.MustCompile(`quire_\S+`).FindString(printed)
	if token == "" {
		t.Fatalf("no token in:\n%s", printed)
	}
	for _, label := range []string{"App", "Sign in"} {
		if code, body := getBody(t, demoURL(t, printed, label), ""); code != http.StatusOK {
			t.Errorf("%s: %d %s", label, code, body)
		}
	}
	code, body := getBody(t, demoURL(t, printed, "Site"), "")
	if code != http.StatusOK || !strings.Contains(body, "Quick start") {
		t.Errorf("site: %d, mentions the quick start: %v", code, strings.Contains(body, "Quick start"))
	}
	// The pages were written just now, as their "Last updated" says.
	if m := regexp.MustCompile(`<time datetime="([^"]+)"`).FindStringSubmatch(body); m == nil {
		t.Error("the site's page says nothing of when it was updated")
	} else if updated, err := time.Parse(time.RFC3339, m[1]); err != nil || time.Since(updated).Abs() > time.Hour {
		t.Errorf("the site's page was last updated %s, %v; want within the hour", m[1], err)
	}
	api := demoURL(t, printed, "API")
	orgID := regexp.MustCompile(`/v1/orgs/(\w+)/spaces`).FindStringSubmatch(printed)[1]
	spaces := get(t, api+"/orgs/"+orgID+"/spaces", token)
	items, _ := spaces["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("spaces: %v", spaces)
	}
	first := items[0].(map[string]any)["id"].(string)
	crs := get(t, api+"/spaces/"+first+"/change-requests?status=open", token)
	crItems, _ := crs["items"].([]any)
	if len(crItems) != 1 {
		t.Fatalf("open change requests: %v", crs)
	}
	cr := crItems[0].(map[string]any)["id"].(string)
	comments := get(t, api+"/spaces/"+first+"/change-requests/"+cr+"/comments", token)
	if c, _ := comments["items"].([]any); len(c) != 2 {
		t.Errorf("comments on the change request: %v", comments)
	}
	pages := get(t, api+"/spaces/"+first+"/content/pages", token)
	if p, _ := pages["pages"].([]any); len(p) < 2 {
		t.Errorf("pages of the first space: %v", pages)
	}
	stop()

	again, _ := startDemo(t, data)
	token2 := regexp.MustCompile(`quire_\S+`).FindString(again)
	if token2 == "" || token2 == token {
		t.Fatalf("second run's token %q", token2)
	}
	if spaces := get(t, demoURL(t, again, "API")+"/orgs/"+orgID+"/spaces", token2); len(spaces["items"].([]any)) != 1 {
		t.Errorf("second run: %v", spaces)
	}

	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "quire.db"), []byte("not a demo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "demo", "--data", other, "--addr", "127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "did not make") {
		t.Errorf("demo in a folder with other data: %v", err)
	}
}
