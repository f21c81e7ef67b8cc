package app_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The app's browser test: headless Chromium signs in with a one-time link,
// opens a space and a page, switches the theme and reads the page at 360
// px wide. It runs when QUIRE_CHROMIUM names the browser or
// /usr/bin/chromium exists (not with -short); screenshots go to the test's
// temp folder and, when QUIRE_SCREENSHOTS names a folder, there too. A
// console error or an uncaught exception fails it.

func appChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("QUIRE_CHROMIUM"); p != "" {
		return p
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	t.Skip("no browser: set QUIRE_CHROMIUM or install chromium")
	return ""
}

// tab is a browser tab and the problems its pages reported.
type tab struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

func newTab(t *testing.T, chromium string) *tab {
	t.Helper()
	b := &tab{}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("hide-scrollbars", true),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.WithoutCancel(t.Context()), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithListener(b.listen))
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	b.ctx = ctx
	return b
}

// privateTab opens a tab in a new browser context of b's browser, like an
// incognito window: its own cookies and storage, so another user signs in.
func (b *tab) privateTab(t *testing.T) *tab {
	t.Helper()
	p := &tab{}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(p.listen))
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a private tab: %v", err)
	}
	p.ctx = ctx
	return p
}

// listen records the console errors and uncaught exceptions of the tab's pages.
func (b *tab) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			b.problems = append(b.problems, "console.error")
		}
	case *runtime.EventExceptionThrown:
		b.problems = append(b.problems, "exception: "+ev.ExceptionDetails.Text)
	}
}

// stepTimeout bounds one step. It is generous: under -race, with the whole
// suite sharing two cores, a merge's step took over 20 s in CI.
const stepTimeout = 60 * time.Second

// run runs steps, failing the test on an error or a problem the page reported.
func (b *tab) run(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("%s: page problem: %s", what, p)
	}
	b.problems = nil
}

func (b *tab) text(t *testing.T, sel string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel)))
	if err != nil {
		t.Fatalf("read %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func (b *tab) screenshot(t *testing.T, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	// The window as a reader sees it, from the top: a full-page capture
	// draws the sticky header where the page was last scrolled.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.scrollTo({top: 0, behavior: "instant"}), true`)); err != nil {
		t.Fatalf("scroll to the top: %v", err)
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

func TestBrowser(t *testing.T) {
	b := newTab(t, appChromium(t))
	w := newWorld(t)
	token, _, err := w.db.CreateLoginLink(t.Context(), w.admin)
	if err != nil {
		t.Fatal(err)
	}
	b.run(t, "sign in with the link",
		chromedp.Navigate(w.srv.URL+"/signin/link?token="+url.QueryEscape(token)),
		chromedp.Click(chromedp.CSS("#use-link")), chromedp.WaitVisible(chromedp.CSS("#q")))
	if h1 := b.text(t, "main h1"); h1 != "Test Org" {
		t.Fatalf("after sign-in: h1 %q, want the organization", h1)
	}
	b.screenshot(t, "org")
	b.run(t, "open the space",
		chromedp.Click(chromedp.CSS(`.tree a[href="/s/`+w.space+`"]`)), chromedp.WaitVisible(chromedp.CSS(".sidebar")))
	if h1 := b.text(t, "main h1"); h1 != "Install" {
		t.Errorf("space: h1 %q, want its first page", h1)
	}
	b.run(t, "follow the sidebar",
		chromedp.Click(chromedp.CSS(`.sidebar a[href="/s/`+w.space+`/welcome"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.sidebar a[aria-current="page"][href$="/welcome"]`)))
	b.run(t, "switch the theme", chromedp.Click(chromedp.CSS("#theme-toggle")))
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	theme, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.getAttribute("data-theme")`))
	if err != nil || theme != "dark" {
		t.Errorf("after the theme button: %q, %v; want dark", theme, err)
	}
	b.screenshot(t, "page-dark")
	b.run(t, "narrow screen", chromedp.EmulateViewport(360, 800),
		chromedp.Navigate(w.srv.URL+"/s/"+w.space+"/install"), chromedp.WaitVisible(chromedp.CSS("#menu-toggle")))
	b.screenshot(t, "page-360")
}
