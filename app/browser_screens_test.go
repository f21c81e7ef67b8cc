package app_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/quiredocs/quire"
)

// The app's main pages at 1280 and 360 px wide, in the light and the dark
// theme: none is wider than the window (no sideways scrolling on a phone),
// and each is saved as a screenshot (app-screen-NAME-WIDTH-THEME.png) to
// look at. Enabled as TestBrowser is.
func TestBrowserScreens(t *testing.T) {
	b := newTab(t, appChromium(t))
	w := newWorld(t)
	token, _, err := w.db.CreateLoginLink(t.Context(), w.admin)
	if err != nil {
		t.Fatal(err)
	}
	b.run(t, "sign in", chromedp.Navigate(w.srv.URL+"/signin/link?token="+url.QueryEscape(token)),
		chromedp.Click(chromedp.CSS("#use-link")), chromedp.WaitVisible(chromedp.CSS("#q")))
	// A custom hostname not yet proved shows its pending DNS card.
	w.api(t, w.token, "PATCH", "/v1/orgs/"+w.org+"/sites/"+w.site, map[string]any{"hostname": "docs.example.com"}, http.StatusOK, nil)
	pages := []struct{ name, path string }{
		{"org", "/o/" + w.org},
		{"space", "/s/" + w.space + "/install"},
		{"editor", quire.AppEditURL("", w.space, w.cr, "install")},
		{"cr", quire.AppChangeRequestURL("", w.space, w.cr)},
		{"space-settings", "/s/" + w.space + "/~settings"},
		{"org-settings", "/o/" + w.org + "/settings"},
		{"sites", "/o/" + w.org + "/sites"},
		{"site", quire.AppSiteURL("", w.org, w.site)},
	}
	for _, width := range []int64{1280, 360} {
		for _, theme := range []string{"light", "dark"} {
			b.eval(t, fmt.Sprintf(`localStorage.setItem("quire-theme", %q), ""`, theme))
			for _, p := range pages {
				what := fmt.Sprintf("%s at %d px, %s", p.name, width, theme)
				b.run(t, what, chromedp.EmulateViewport(width, 800), chromedp.Navigate(w.srv.URL+p.path),
					chromedp.WaitVisible(chromedp.CSS("main")))
				if got := b.eval(t, `document.documentElement.getAttribute("data-theme") || "light"`); got != theme {
					t.Errorf("%s: theme %q", what, got)
				}
				// The elements that reach past the window's right edge.
				if wide := b.eval(t, `(function () {
					var out = [], vw = document.documentElement.clientWidth;
					if (document.documentElement.scrollWidth <= vw) return "";
					document.querySelectorAll("body *").forEach(function (el) {
						var r = el.getBoundingClientRect();
						if (r.right > vw + 1 && r.width > 0) out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") + " " + Math.round(r.right));
					});
					return document.documentElement.scrollWidth + " > " + vw + ": " + out.slice(0, 8).join(", ");
				})()`); wide != "" {
					t.Errorf("%s is wider than the window: %s", what, wide)
				}
				b.screenshot(t, fmt.Sprintf("screen-%s-%d-%s", p.name, width, theme))
			}
		}
	}
}
