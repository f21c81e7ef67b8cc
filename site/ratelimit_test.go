package site_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/site"
)

// TestSiteRateLimits: anonymous readers of a published site are limited by
// address, and its Ask more tightly; over either, 429 with Retry-After (a
// page, or JSON from Ask), with the X-RateLimit headers; assets are not
// counted; the next window starts over.
func TestSiteRateLimits(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000+50, 0) // 10 s before a minute ends
	limiter := ratelimit.NewLimiter()
	limiter.Now = func() time.Time { return now }
	e := newEnvWith(t, site.Config{Limiter: limiter,
		RateLimit: ratelimit.Rate{Limit: 4, Per: time.Minute}, AskRateLimit: ratelimit.Rate{Limit: 1, Per: time.Minute}})
	d := newSiteDocs(t, e, "public")
	fetch := func(u string) *http.Response {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(strings.NewReader(string(b)))
		return resp
	}
	want := func(resp *http.Response, status int, remaining, contentType string) string {
		t.Helper()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != status || resp.Header.Get("X-RateLimit-Remaining") != remaining ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), contentType) {
			t.Fatalf("%s: %d, remaining %q, %s; want %d, %s, %s: %s", resp.Request.URL, resp.StatusCode,
				resp.Header.Get("X-RateLimit-Remaining"), resp.Header.Get("Content-Type"), status, remaining, contentType, b)
		}
		if status == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "10" {
			t.Errorf("Retry-After %q, want 10", resp.Header.Get("Retry-After"))
		}
		return string(b)
	}
	ask := d.url + "~ask?q=" + url.QueryEscape("How do I deploy to kubernetes?")
	want(fetch(ask), http.StatusOK, "0", "application/json") // the Ask limit's headers come last
	body := want(fetch(ask), http.StatusTooManyRequests, "0", "application/json")
	if !strings.Contains(body, `"code":429`) {
		t.Errorf("refused Ask answers %s, want the JSON error shape", body)
	}
	// Both asks counted against the address: two of four left, then one.
	page := want(fetch(d.url), http.StatusOK, "1", "text/html")
	want(fetch(d.url), http.StatusOK, "0", "text/html")
	if !strings.Contains(want(fetch(d.url), http.StatusTooManyRequests, "0", "text/html"), "Too many requests") {
		t.Error("the refusal page does not say why")
	}
	assets := regexp.MustCompile(`(?:src|href)="(/[^"]*~assets/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(assets) == 0 {
		t.Fatal("the page links no assets")
	}
	for _, m := range assets {
		if resp := fetch(e.srv.URL + m[1]); resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d, want 200: assets are not counted", m[1], resp.StatusCode)
		}
	}
	now = now.Add(10 * time.Second)
	want(fetch(d.url), http.StatusOK, "3", "text/html")
}
