package app_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The change request page in a browser: the admin opens a writer's change
// request, sees its diff, comments, replies and merges; the published
// site then shows the change. Enabled as TestBrowser is (QUIRE_CHROMIUM);
// with QUIRE_SCREENSHOTS its screenshots land there too.
func TestBrowserChangeRequest(t *testing.T) {
	b := newTab(t, appChromium(t))
	w := newCRWorld(t)
	var site struct{ URLs struct{ Published string } }
	w.api(t, w.token, "POST", "/v1/orgs/"+w.org+"/sites", map[string]any{"title": "Docs site", "visibility": "share-link", "spaces": []string{w.space}}, http.StatusCreated, nil)
	var sites struct{ Items []struct{ ID string } }
	w.api(t, w.token, "GET", "/v1/orgs/"+w.org+"/sites", nil, http.StatusOK, &sites)
	w.api(t, w.token, "PATCH", "/v1/orgs/"+w.org+"/sites/"+sites.Items[0].ID, map[string]any{"published": true}, http.StatusOK, &site)

	token, _, err := w.db.CreateLoginLink(t.Context(), w.admin)
	if err != nil {
		t.Fatal(err)
	}
	b.run(t, "sign in", chromedp.Navigate(w.srv.URL+"/signin/link?token="+url.QueryEscape(token)),
		chromedp.Click(chromedp.CSS("#use-link")), chromedp.WaitVisible(chromedp.CSS("#q")))
	b.run(t, "open the change request", chromedp.EmulateViewport(1100, 900),
		chromedp.Navigate(w.srv.URL+w.crPath), chromedp.WaitVisible(chromedp.CSS(".page-diff ins")))
	if got := b.text(t, ".page-diff del"); got != "old" {
		t.Errorf("the diff deletes %q, want old", got)
	}
	b.screenshot(t, "cr-diff")
	b.viewportShot(t, "cr-diff-readme", 1100, 680)
	b.run(t, "side by side", chromedp.Click(chromedp.CSS("#view-split")), chromedp.WaitVisible(chromedp.CSS(".diff-split")))
	b.screenshot(t, "cr-split")

	b.run(t, "comment", chromedp.SendKeys(chromedp.CSS("#new-comment"), "Looks **good**."),
		chromedp.Click(chromedp.CSS("#post-comment")), chromedp.WaitVisible(chromedp.CSS(".comment .reply-form textarea")))
	b.run(t, "reply", chromedp.SendKeys(chromedp.CSS(".reply-form textarea"), "Thanks!"),
		chromedp.Click(chromedp.CSS(".reply-form button")), chromedp.WaitVisible(chromedp.CSS(".comment.reply")))
	if got := b.text(t, ".comment.reply .markdown"); got != "Thanks!" {
		t.Errorf("reply: %q", got)
	}
	// The reply's answer ends in #comment-…: Chrome keeps its view on that
	// anchor while the page settles, so a click aimed at where the button
	// was scrolled to may land elsewhere. The button is pressed from the
	// keyboard, as a reader may, which aims at nothing.
	b.run(t, "merge", chromedp.Focus(chromedp.CSS("#merge")), chromedp.KeyEvent("\r"), chromedp.WaitVisible(chromedp.CSS(".status-merged")))
	if got := b.text(t, "#cr-message"); got != "Merged into the space." {
		t.Fatalf("after Merge: %q", got)
	}
	b.screenshot(t, "cr-merged")

	b.run(t, "the published site", chromedp.Navigate(site.URLs.Published), chromedp.WaitVisible(chromedp.CSS("main")))
	if got := b.text(t, "main"); !strings.Contains(got, "Hello new") {
		t.Errorf("published site after the merge: %.300q", got)
	}
	b.run(t, "narrow", chromedp.EmulateViewport(360, 800), chromedp.Navigate(w.srv.URL+w.crPath),
		chromedp.WaitVisible(chromedp.CSS(".page-diff")))
	b.screenshot(t, "cr-360")
}

// viewportShot saves what the tab shows in a w×h window, for the manual
// (small enough to commit), next to the other screenshots.
func (b *tab) viewportShot(t *testing.T, name string, w, h int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h), chromedp.Navigate(strings.TrimSuffix(b.url(t), "?view=split")),
		chromedp.WaitVisible(chromedp.CSS(".page-diff"))); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	for _, dir := range []string{t.TempDir(), os.Getenv("QUIRE_SCREENSHOTS")} {
		if dir != "" {
			if err := os.WriteFile(filepath.Join(dir, "app-"+name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func (b *tab) url(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	u, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return u
}
