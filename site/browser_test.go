package site_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/quiredocs/quire/internal/apitest"
)

// The browser test: the real `quire serve` binary, a site with two sections
// and nested pages created and published through the API, and headless
// Chromium clicking through it as a reader would. It runs when
// QUIRE_CHROMIUM names the browser (CI sets it, and then a browser that
// cannot start fails the test) or when /usr/bin/chromium exists; else it
// is skipped. Screenshots go to the test's temp folder and, when
// QUIRE_SCREENSHOTS names a folder, there too.

// browserTimeout bounds one browser step: a click and the page it loads.
const browserTimeout = 20 * time.Second

// searchWord is in one page only, so searching for it finds that page.
const searchWord = "zephyrine"

func TestBrowser(t *testing.T) {
	b := newBrowser(t, chromiumPath(t)) // first: it fails fastest
	q := startQuire(t)
	b.setOrigin(q.base)
	docs := q.publishDocs(t)

	t.Run("home", func(t *testing.T) {
		b.open(t, docs.root)
		st := b.state(t)
		if want := "Introduction"; st.H1 != want {
			t.Errorf("site root: h1 %q, want %q", st.H1, want)
		}
		b.checkChrome(t)
		b.screenshot(t, "home")
	})

	t.Run("keyboard", func(t *testing.T) {
		b.open(t, docs.root)
		b.do(t, press("Tab", "Tab", "", 9, 0))
		if got := b.eval(t, `document.activeElement && document.activeElement.matches('a.skip-link[href="#content"]')`); got != "true" {
			t.Errorf("first Tab: focus is not on a.skip-link[href=\"#content\"]")
		}
		for _, key := range []struct {
			name string
			key  chromedp.Action[chromedp.Void]
		}{
			{"/", press("/", "Slash", "/", 191, 0)},
			{"Ctrl-K", press("k", "KeyK", "", 75, 2)},
		} {
			b.eval(t, `document.activeElement && document.activeElement.blur(), document.querySelector('#search-input').value = '', true`)
			b.do(t, key.key)
			if got := b.eval(t, `document.activeElement && document.activeElement.id`); got != `"search-input"` {
				t.Errorf("%s: focus on %s, want #search-input", key.name, got)
			}
			if v := b.eval(t, `document.querySelector('#search-input').value`); v != `""` {
				t.Errorf("%s: typed into the search box: %s", key.name, v)
			}
		}
	})

	t.Run("sidebar", func(t *testing.T) {
		b.open(t, docs.root)
		for _, p := range []struct{ link, path string }{
			{"Getting started", "getting-started"},
			{"Install", "getting-started/install"},
			{"On Linux", "getting-started/install/on-linux"},
			{"Configuration", "configuration"},
			{"Introduction", ""},
		} {
			u := b.follow(t, "nav.sidebar[aria-label=Pages]", p.link, p.link)
			if want := docs.root + p.path; u != want && !(p.path == "" && u == docs.root+"introduction") {
				t.Errorf("sidebar %q led to %s, want %s", p.link, u, want)
			}
			if cur := b.eval(t, `document.querySelector('nav.sidebar[aria-label=Pages] a[aria-current=page]')?.textContent.trim()`); cur != jsString(p.link) {
				t.Errorf("on %q the current sidebar link is %s", p.link, cur)
			}
			b.checkChrome(t)
		}
		b.open(t, docs.root+"getting-started/install/on-linux")
		crumbs := b.eval(t, `[...document.querySelectorAll('nav.breadcrumbs a')].map(a => a.textContent.trim())`)
		if !strings.Contains(crumbs, `"Getting started"`) || !strings.Contains(crumbs, `"Install"`) {
			t.Errorf("breadcrumbs of On Linux: %s, want Getting started and Install", crumbs)
		}
		b.screenshot(t, "nested-page")
		b.clickAndWait(t, "nav.pagination a[rel=next]", "Configuration")
		b.clickAndWait(t, "nav.pagination a[rel=prev]", "On Linux")
	})

	t.Run("section tabs", func(t *testing.T) {
		b.open(t, docs.root)
		u := b.follow(t, "nav.section-tabs[aria-label=Sections]", "API Reference", "Overview")
		if want := docs.root + "api-reference/"; u != want && u != want+"overview" {
			t.Errorf("API Reference tab led to %s, want %s", u, want)
		}
		if cur := b.eval(t, `document.querySelector('nav.section-tabs a.section-tab[aria-current=page]')?.textContent.trim()`); cur != `"API Reference"` {
			t.Errorf("current section tab: %s, want API Reference", cur)
		}
		b.follow(t, "nav.sidebar[aria-label=Pages]", "Authentication", "Authentication")
		u = b.follow(t, "nav.sidebar[aria-label=Pages]", "Tokens", "Tokens")
		if want := docs.root + "api-reference/authentication/tokens"; u != want {
			t.Errorf("Tokens at %s, want %s", u, want)
		}
		if links := b.eval(t, `[...document.querySelectorAll('nav.sidebar a')].map(a => a.textContent.trim()).join('|')`); strings.Contains(links, "Install") {
			t.Errorf("API Reference sidebar lists the guide's pages: %s", links)
		}
		b.checkChrome(t)
		b.screenshot(t, "section-api")
		u = b.follow(t, "nav.section-tabs[aria-label=Sections]", "Acme Docs", "Introduction")
		if u != docs.root && u != docs.root+"introduction" {
			t.Errorf("Acme Docs tab led to %s, want %s", u, docs.root)
		}
	})

	t.Run("section group", func(t *testing.T) {
		b.open(t, docs.root+"getting-started")
		b.do(t, chromedp.Click(chromedp.CSS("nav.section-tabs details.section-group summary")))
		b.waitFor(t, "the Libraries menu", visible("details.section-group[open] a.section-tab"))
		b.screenshot(t, "group-open")
		u := b.follow(t, "nav.section-tabs details.section-group", "Go SDK", "Go client")
		if want := docs.root + "go-sdk/"; u != want && u != want+"go-client" {
			t.Errorf("Go SDK led to %s, want %s", u, want)
		}
		if cur := b.eval(t, `document.querySelector('details.section-group a.section-tab[aria-current=page]')?.textContent.trim()`); cur != `"Go SDK"` {
			t.Errorf("current section in the group: %s, want Go SDK", cur)
		}
	})

	t.Run("search", func(t *testing.T) {
		b.waitSearchable(t, docs.root)
		b.open(t, docs.root+"configuration")
		b.do(t, chromedp.Click(chromedp.CSS("#search-input")), chromedp.SendKeys(chromedp.CSS("#search-input"), searchWord))
		b.waitFor(t, "search results", `document.querySelector('#search-results a.search-result') !== null`)
		b.screenshot(t, "search")
		first := b.eval(t, `document.querySelector('#search-results a.search-result').textContent`)
		if !strings.Contains(first, "On Linux") {
			t.Errorf("first search result %s, want On Linux", first)
		}
		u := b.clickAndWait(t, "#search-results a.search-result", "On Linux")
		if want := docs.root + "getting-started/install/on-linux"; strings.Split(u, "#")[0] != want {
			t.Errorf("search result led to %s, want %s", u, want)
		}
	})

	t.Run("ask", func(t *testing.T) {
		b.waitSearchable(t, docs.root)
		b.open(t, docs.root+"configuration")
		b.do(t, chromedp.Click(chromedp.CSS("form#ask-form input#ask-input")),
			chromedp.SendKeys(chromedp.CSS("form#ask-form input#ask-input"), "How do I install the "+searchWord+" package?"),
			press("Enter", "Enter", "\r", 13, 0))
		b.waitFor(t, "the answer's sources", `document.querySelector('#ask-answer a.ask-source') !== null || /not available|No answer/.test(document.querySelector('#ask-answer').textContent)`)
		if answer := b.eval(t, `document.querySelector('#ask-answer').textContent`); !strings.Contains(answer, "Sources") {
			t.Fatalf("ask answered without sources: %s", answer)
		}
		b.screenshot(t, "ask")
		if src := b.eval(t, `[...document.querySelectorAll('#ask-answer a.ask-source')].map(a => a.textContent.trim())`); !strings.Contains(src, "On Linux") {
			t.Errorf("ask sources %s, want On Linux among them", src)
		}
		b.eval(t, `(() => { const a = [...document.querySelectorAll('#ask-answer a.ask-source')].find(a => a.textContent.includes('On Linux')); a && a.setAttribute('data-browser-test', 'source'); return true })()`)
		if u := b.clickAndWait(t, "[data-browser-test=source]", "On Linux"); !strings.HasPrefix(u, docs.root+"getting-started/install/on-linux") {
			t.Errorf("ask source led to %s", u)
		}
	})

	t.Run("dark theme", func(t *testing.T) {
		b.open(t, docs.root)
		light := b.state(t)
		if light.Theme != "light" {
			t.Fatalf("html[data-theme] = %q on a first visit, want light", light.Theme)
		}
		b.do(t, chromedp.Click(chromedp.CSS("button#theme-toggle")))
		dark := b.state(t)
		if dark.Theme != "dark" {
			t.Fatalf("after the theme toggle html[data-theme] = %q, want dark", dark.Theme)
		}
		if dark.Background == light.Background {
			t.Errorf("background %s in both themes", dark.Background)
		}
		b.screenshot(t, "dark")
		b.open(t, docs.root+"getting-started/install")
		if again := b.state(t); again.Theme != "dark" {
			t.Errorf("the dark theme did not survive navigation: data-theme %q", again.Theme)
		}
		b.do(t, chromedp.Click(chromedp.CSS("button#theme-toggle")))
		if back := b.state(t); back.Theme != "light" || back.Background != light.Background {
			t.Errorf("toggled back: theme %q background %s, want light %s", back.Theme, back.Background, light.Background)
		}

		// A reader who chose nothing gets the system's theme.
		b.eval(t, `localStorage.clear(), true`)
		b.do(t, prefersColorScheme("dark"))
		defer b.do(t, prefersColorScheme(""))
		b.open(t, docs.root)
		if sys := b.state(t); sys.Theme != "dark" || sys.Background != dark.Background {
			t.Errorf("with prefers-color-scheme dark and no choice: theme %q background %s, want dark %s", sys.Theme, sys.Background, dark.Background)
		}
	})

	t.Run("360px", func(t *testing.T) {
		b.do(t, chromedp.EmulateViewport(360, 760, chromedp.EmulateMobile))
		defer b.do(t, chromedp.EmulateViewport(1280, 900))
		for _, path := range []string{"", "getting-started/install/on-linux", "api-reference/authentication"} {
			b.open(t, docs.root+path)
			if sw := b.eval(t, `document.scrollingElement.scrollWidth`); atoi(sw) > 360 {
				t.Errorf("%s at 360px: scrollWidth %s, want at most 360 (no horizontal scroll); wide: %s", "/"+path, sw,
					b.eval(t, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361).slice(0, 5).map(e => e.tagName + '.' + e.className).join(' ')`))
			}
		}
		b.open(t, docs.root)
		b.screenshot(t, "mobile")
		if b.eval(t, visible("nav.sidebar")) == "true" {
			t.Errorf("at 360px the sidebar shows before the menu is opened")
		}
		toggle := b.eval(t, `(() => {
			const sb = document.querySelector('nav.sidebar');
			const b = [...document.querySelectorAll('button[aria-controls]')].find(b => {
				const el = document.getElementById(b.getAttribute('aria-controls'));
				return el && el.contains(sb);
			});
			if (!b) return '';
			b.setAttribute('data-browser-test', 'menu');
			return b.getAttribute('aria-expanded') || 'none';
		})()`)
		if toggle == `""` {
			t.Fatalf("at 360px: no menu toggle (button[aria-controls] naming nav.sidebar)")
		}
		b.do(t, chromedp.Click(chromedp.CSS(`[data-browser-test=menu]`)))
		b.waitFor(t, "sidebar shown by the menu toggle", visible("nav.sidebar"))
		if exp := b.eval(t, `document.querySelector('[data-browser-test=menu]').getAttribute('aria-expanded')`); exp != `"true"` {
			t.Errorf("menu toggle aria-expanded %s after opening, want true (was %s)", exp, toggle)
		}
		b.screenshot(t, "mobile-menu")
		b.saveShot(t, "mobile-menu-viewport", chromedp.CaptureScreenshot()) // what the reader sees of the fixed panel
		if covered := b.eval(t, `[...document.querySelectorAll('nav.sidebar a')].filter(a => {
			const r = a.getBoundingClientRect();
			if (r.bottom > innerHeight) return false; // below the fold: scrolls into view
			const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return !hit || !a.contains(hit);
		}).map(a => a.textContent.trim())`); covered != "[]" {
			t.Errorf("at 360px the open menu's links %s are covered by another element", covered)
		}
		u := b.follow(t, "nav.sidebar[aria-label=Pages]", "Configuration", "Configuration")
		if want := docs.root + "configuration"; u != want {
			t.Errorf("mobile menu link led to %s, want %s", u, want)
		}
	})

	t.Run("404", func(t *testing.T) {
		missing := docs.root + "no/such/page"
		b.allow404(missing)
		resp, err := chromedp.Run(b.timeout(t), chromedp.NavigateResponse(missing))
		if err != nil {
			t.Fatalf("open %s: %v", missing, err)
		}
		if resp.Status != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", missing, resp.Status)
		}
		if st := b.state(t); st.H1 == "" || !st.HasHeader {
			t.Errorf("404 page: h1 %q, site header %v; want a styled page", st.H1, st.HasHeader)
		}
		b.screenshot(t, "not-found")
	})

	b.checkProblems(t)
}

// chromiumPath is the browser to drive: QUIRE_CHROMIUM (always run: CI
// sets it so that a browser that cannot start fails), else
// /usr/bin/chromium when present and not -short; else the test is skipped.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("QUIRE_CHROMIUM"); p != "" {
		return p
	}
	if testing.Short() {
		t.Skip("starts quire serve and a browser")
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	t.Skip("no browser: set QUIRE_CHROMIUM or install chromium")
	return ""
}

// quireProcess is a running `quire serve` and its first-start token.
type quireProcess struct {
	base   string // http://127.0.0.1:port
	token  string
	org    string
	stderr *syncBuffer
}

// startQuire builds cmd/quire, starts `quire serve` on a free port with a
// fresh data folder (SQLite), waits for /healthz and reads the token the
// first start wrote.
func startQuire(t *testing.T) *quireProcess {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "quire")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "github.com/quiredocs/quire/cmd/quire")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	data := t.TempDir()
	q := &quireProcess{base: "http://" + addr, stderr: &syncBuffer{}}
	cmd := exec.Command(bin, "serve", "--addr", addr, "--data", data)
	for _, kv := range os.Environ() { // only the flags configure it
		if !strings.HasPrefix(kv, "QUIRE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdout, cmd.Stderr = io.Discard, q.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("quire serve log (last 4 KB):\n%s", q.stderr.tail(4096))
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(q.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-done:
			t.Fatalf("quire serve exited at start:\n%s", q.stderr.tail(4096))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("quire serve: /healthz not ready within 30s: %v\n%s", err, q.stderr.tail(4096))
		}
	}
	tok, err := os.ReadFile(filepath.Join(data, "initial-token"))
	if err != nil {
		t.Fatalf("first start token: %v", err)
	}
	q.token = strings.TrimSpace(string(tok))
	var orgs struct{ Items []struct{ ID string } }
	q.call(t, "GET", "/v1/orgs", nil, http.StatusOK, &orgs)
	if len(orgs.Items) != 1 {
		t.Fatalf("first start: %d organizations, want 1", len(orgs.Items))
	}
	q.org = orgs.Items[0].ID
	return q
}

// call calls the API with the first-start token, decodes the answer into
// out (when not nil) and fails the test unless the status is want.
func (q *quireProcess) call(t *testing.T, method, path string, body any, want int, out any) {
	t.Helper()
	apitest.Call(t, q.base, q.token, method, path, body, want, out)
}

// space creates a space holding pages, merged through a change request.
func (q *quireProcess) space(t *testing.T, title string, pages ...page) string {
	t.Helper()
	var sp, cr struct{ ID string }
	q.call(t, "POST", "/v1/orgs/"+q.org+"/spaces", map[string]any{"title": title}, http.StatusCreated, &sp)
	q.call(t, "POST", "/v1/spaces/"+sp.ID+"/change-requests", map[string]any{"subject": "Write " + title}, http.StatusCreated, &cr)
	var changes []map[string]any
	for _, p := range pages {
		c := map[string]any{"operation": "insert_page", "title": p.title, "document": map[string]any{"markdown": p.markdown}}
		if p.ref != "" {
			c["ref"] = p.ref
		}
		if p.parent != "" {
			c["into"] = p.parent
		}
		changes = append(changes, c)
	}
	crPath := "/v1/spaces/" + sp.ID + "/change-requests/" + cr.ID
	q.call(t, "POST", crPath+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	q.call(t, "POST", crPath+"/merge", nil, http.StatusOK, nil)
	return sp.ID
}

// publishedDocs is the site publishDocs made.
type publishedDocs struct {
	siteID string
	root   string // its published URL, ending in a slash
}

// publishDocs creates "Acme Docs": the Guide space in its default section
// (titled after the site) and the API space in a second section, "API
// Reference", each with nested pages, and a third section, "Go SDK", in a
// section group, "Libraries"; it publishes the site publicly.
func (q *quireProcess) publishDocs(t *testing.T) publishedDocs {
	t.Helper()
	guide := q.space(t, "Guide",
		page{ref: "intro", title: "Introduction", markdown: docPage("Introduction", "Acme is a toy service for the browser test.", "install")},
		page{ref: "start", title: "Getting started", markdown: "Start here: install Acme, then configure it.\n\n- [Install](install)\n- [Configuration](../configuration)\n"},
		page{ref: "install", parent: "start", title: "Install", markdown: "## Packages\n\nAcme ships as a package for every system.\n"},
		page{parent: "install", title: "On Linux", markdown: "## Debian\n\nOn Linux the " + searchWord + " package installs Acme:\n\n```sh\nsudo apt-get install acme-" + searchWord + "\n```\n"},
		page{title: "Configuration", markdown: docPage("Configuration", "Acme reads acme.toml at start.", "intro")},
	)
	api := q.space(t, "API",
		page{title: "Overview", markdown: "The API answers JSON.\n\n| Method | Path |\n|---|---|\n| GET | /v1/things |\n"},
		page{ref: "auth", title: "Authentication", markdown: "Send a bearer token with every request.\n"},
		page{parent: "auth", title: "Tokens", markdown: "## Creating tokens\n\nTokens are created in the settings.\n"},
	)
	sdks := q.space(t, "SDKs",
		page{title: "Go client", markdown: "Install it with `go get`.\n"},
	)
	var site struct {
		ID   string
		URLs struct{ Published string }
	}
	sites := "/v1/orgs/" + q.org + "/sites"
	q.call(t, "POST", sites, map[string]any{"title": "Acme Docs", "visibility": "public", "spaces": []string{guide}}, http.StatusCreated, &site)
	q.call(t, "POST", sites+"/"+site.ID+"/sections", map[string]any{"spaceId": api, "title": "API Reference"}, http.StatusCreated, nil)
	var sdk struct{ ID string }
	q.call(t, "POST", sites+"/"+site.ID+"/sections", map[string]any{"spaceId": sdks, "title": "Go SDK"}, http.StatusCreated, &sdk)
	q.call(t, "POST", sites+"/"+site.ID+"/section-groups", map[string]any{"title": "Libraries", "sections": []string{sdk.ID}}, http.StatusCreated, nil)
	q.call(t, "PATCH", sites+"/"+site.ID, map[string]any{"published": true}, http.StatusOK, &site)
	if !strings.HasPrefix(site.URLs.Published, q.base+"/sites/") || !strings.HasSuffix(site.URLs.Published, "/") {
		t.Fatalf("published URL %q", site.URLs.Published)
	}
	return publishedDocs{siteID: site.ID, root: site.URLs.Published}
}

// docPage is a page of realistic shape: headings, paragraphs, a list, a
// table, a code block and a link to the page at link.
func docPage(title, lead, link string) string {
	return lead + `

## Overview

` + title + ` covers what a reader needs first. Each step below is short, and the
table lists the settings with their defaults.

- Read the [next page](` + link + `).
- Keep the defaults unless you need to change them.
- Ask in the community forum when stuck.

## Settings

| Setting | Default | Meaning |
|---|---|---|
| listen | 127.0.0.1:8080 | the address Acme serves on |
| data | ./acme-data | where Acme keeps its files |
| log_level | info | how much Acme writes to its log |

## Example

` + "```go" + `
package main

import "fmt"

func main() {
	fmt.Println("Acme is ready, with a rather long line that a narrow screen has to scroll inside its code block")
}
` + "```" + `

> [!NOTE]
> The settings take effect at the next start.
`
}

// browser is one headless Chromium tab and the problems its page reported.
type browser struct {
	ctx   context.Context // the tab's
	shots string          // screenshot folder

	mu       sync.Mutex
	origin   string                       // the served site's scheme://host:port
	problems []string                     // console errors, exceptions, failed requests
	urls     map[network.RequestID]string // requests in flight, by id
	ok404    string                       // the URL whose 404 is expected

	searchOnce sync.Once
	searchErr  error // why the site search does not find the pages
}

func newBrowser(t *testing.T, chromium string) *browser {
	t.Helper()
	b := &browser{shots: t.TempDir(), urls: map[network.RequestID]string{}}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), // /dev/shm is small in containers
		chromedp.Flag("hide-scrollbars", true),       // screenshots without them
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.WithoutCancel(t.Context()), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithListener(b.listen))
	t.Cleanup(func() { cancel(); cancelAlloc() }) // before the temp folders go
	// The first Run starts the browser and binds its life to the context
	// it gets, so that one has no timeout of its own.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	b.ctx = ctx
	return b
}

// listen records what the page reports that a reader would see as broken.
// It runs in the tab's event loop: it must return fast.
func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				var text string
				if json.Unmarshal(a.Value, &text) != nil { // not a string
					text = cmp.Or(a.Description, string(a.Value))
				}
				args = append(args, text)
			}
			b.problems = append(b.problems, "console.error: "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		b.problems = append(b.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError && ev.Entry.URL != b.ok404 && ev.Entry.URL != b.origin+"/favicon.ico" {
			b.problems = append(b.problems, fmt.Sprintf("browser log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		b.urls[ev.RequestID] = ev.Request.URL
	case *network.EventResponseReceived:
		delete(b.urls, ev.RequestID)
		u := ev.Response.URL
		// The browser asks for /favicon.ico by itself at times although
		// the page names its icon: not one of the page's requests.
		if ev.Response.Status >= 400 && b.sameOrigin(u) && u != b.ok404 && u != b.origin+"/favicon.ico" {
			b.problems = append(b.problems, fmt.Sprintf("%s %s: status %d", ev.Type, u, ev.Response.Status))
		}
	case *network.EventLoadingFailed:
		u := b.urls[ev.RequestID]
		delete(b.urls, ev.RequestID)
		if !ev.Canceled && b.sameOrigin(u) {
			b.problems = append(b.problems, fmt.Sprintf("%s %s failed: %s", ev.Type, u, ev.ErrorText))
		}
	}
}

func (b *browser) sameOrigin(u string) bool {
	return u == b.origin || strings.HasPrefix(u, b.origin+"/")
}

// setOrigin names the origin whose requests must succeed.
func (b *browser) setOrigin(origin string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.origin = origin
}

// allow404 expects u to answer 404.
func (b *browser) allow404(u string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ok404 = u
}

// checkProblems fails the test for every problem reported so far.
func (b *browser) checkProblems(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	problems := b.problems
	b.problems = nil
	b.mu.Unlock()
	for _, p := range problems {
		t.Errorf("page problem: %s", p)
	}
}

// timeout is the context of one browser step.
func (b *browser) timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(b.ctx, browserTimeout)
	t.Cleanup(cancel)
	return ctx
}

func (b *browser) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.timeout(t), steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression in the page and returns its JSON.
func (b *browser) eval(t *testing.T, expr string) string {
	t.Helper()
	raw, err := chromedp.Run(b.timeout(t), chromedp.Evaluate[[]byte](expr))
	if err != nil && !errors.Is(err, chromedp.ErrJSUndefined) {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	if raw == nil {
		return "undefined"
	}
	return string(raw)
}

// open loads u and fails unless it answers 200 with a page.
func (b *browser) open(t *testing.T, u string) {
	t.Helper()
	resp, err := chromedp.Run(b.timeout(t), chromedp.NavigateResponse(u))
	if err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	if resp.Status != http.StatusOK {
		t.Fatalf("open %s: status %d", u, resp.Status)
	}
	b.checkProblems(t)
}

// waitFor polls the JavaScript condition cond until it is true, through
// navigations, and fails after browserTimeout.
func (b *browser) waitFor(t *testing.T, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(browserTimeout)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { try { return document.readyState === 'complete' && !!(`+cond+`) } catch (e) { return false } })()`))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.screenshot(t, "timeout")
			t.Fatalf("waiting for %s: not within %v (last error %v)", what, browserTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// follow clicks the link whose text is text inside container, waits for
// the page whose h1 is h1 and returns its URL, which must be the link's.
func (b *browser) follow(t *testing.T, container, text, h1 string) string {
	t.Helper()
	href := b.eval(t, `(() => {
		const a = [...document.querySelectorAll(`+jsString(container+" a")+`)].find(a => a.textContent.trim() === `+jsString(text)+`);
		if (!a) return '';
		a.setAttribute('data-browser-test', 'follow');
		return a.href;
	})()`)
	if href == `""` {
		t.Fatalf("no link %q in %s; links there: %s", text, container,
			b.eval(t, `[...document.querySelectorAll(`+jsString(container+" a")+`)].map(a => a.textContent.trim())`))
	}
	u := b.clickAndWait(t, `[data-browser-test=follow]`, h1)
	var want string
	json.Unmarshal([]byte(href), &want)
	if u != want {
		t.Errorf("link %q: at %s, want its href %s", text, u, want)
	}
	return u
}

// clickAndWait clicks the element sel and waits for a new page whose h1 is
// h1; it returns the page's URL.
func (b *browser) clickAndWait(t *testing.T, sel, h1 string) string {
	t.Helper()
	b.eval(t, `window.__browserTestOld = true`)
	b.do(t, chromedp.Click(chromedp.CSS(sel)))
	b.waitFor(t, "the page "+h1, `!window.__browserTestOld && document.querySelector('main#content h1')?.textContent.trim() === `+jsString(h1))
	b.checkProblems(t)
	return b.state(t).URL
}

// pageState is what the test reads of the page shown.
type pageState struct {
	URL        string `json:"url"`
	H1         string `json:"h1"`
	H1s        int    `json:"h1s"`
	Theme      string `json:"theme"`
	Background string `json:"background"`
	HasHeader  bool   `json:"hasHeader"`
}

func (b *browser) state(t *testing.T) pageState {
	t.Helper()
	st, err := chromedp.Run(b.timeout(t), chromedp.Evaluate[pageState](`(() => {
		const bg = el => getComputedStyle(el).backgroundColor;
		const clear = c => c === 'rgba(0, 0, 0, 0)' || c === 'transparent';
		const h1 = document.querySelector('main#content h1');
		return {
			url: location.href,
			h1: h1 ? h1.textContent.trim() : '',
			h1s: document.querySelectorAll('main#content h1').length,
			theme: document.documentElement.getAttribute('data-theme') || '',
			background: clear(bg(document.body)) ? bg(document.documentElement) : bg(document.body),
			hasHeader: !!document.querySelector('header.site-header a.site-title'),
		};
	})()`))
	if err != nil {
		t.Fatalf("read page state: %v", err)
	}
	return st
}

// checkChrome checks the parts every page has, by the DOM contract.
func (b *browser) checkChrome(t *testing.T) {
	t.Helper()
	missing := b.eval(t, `[
		'a.skip-link[href="#content"]', 'header.site-header a.site-title',
		'nav.section-tabs[aria-label=Sections] a.section-tab', 'input#search-input[type=search]',
		'button#theme-toggle', 'nav.sidebar[aria-label=Pages] a[aria-current=page]', 'main#content h1',
		'link[rel=canonical]', 'meta[name=viewport]', 'link[rel~=icon]',
	].filter(s => !document.querySelector(s))`)
	if missing != "[]" {
		t.Errorf("%s: missing %s", b.state(t).URL, missing)
	}
	if st := b.state(t); st.H1s != 1 {
		t.Errorf("%s: %d h1 in main#content, want 1", st.URL, st.H1s)
	}
	if imgs := b.eval(t, `[...document.querySelectorAll('img:not([alt])')].map(i => i.src)`); imgs != "[]" {
		t.Errorf("images without alt: %s", imgs)
	}
}

// waitSearchable waits until the search index has the site's pages: the
// server indexes changed spaces in the background. It waits once; later
// calls repeat the first outcome.
func (b *browser) waitSearchable(t *testing.T, root string) {
	t.Helper()
	b.searchOnce.Do(func() { b.searchErr = searchable(root) })
	if b.searchErr != nil {
		t.Fatal(b.searchErr)
	}
}

func searchable(root string) error {
	deadline := time.Now().Add(30 * time.Second) // the indexer runs every 5 s
	for {
		resp, err := http.Get(root + "~search?q=" + url.QueryEscape(searchWord))
		if err != nil {
			return err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct{ Results []struct{ Title string } }
		switch {
		case resp.StatusCode != http.StatusOK:
			err = fmt.Errorf("status %d: %.200s", resp.StatusCode, body)
		case json.Unmarshal(body, &out) != nil:
			err = fmt.Errorf("not JSON: %.200s", body)
		case len(out.Results) > 0:
			return nil
		default:
			err = errors.New("no results yet")
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("site search never found %q: %v", searchWord, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// screenshot saves a full-page PNG of the page shown as name.png in the
// test's temp folder and, when QUIRE_SCREENSHOTS is set, there too.
func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	b.saveShot(t, name, chromedp.FullScreenshot(100)) // 100: PNG
}

// saveShot saves the PNG that shot takes as screenshot does.
func (b *browser) saveShot(t *testing.T, name string, shot chromedp.Action[[]byte]) {
	t.Helper()
	png, err := chromedp.Run(b.timeout(t), shot)
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	file := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()) + "-" + name + ".png"
	if err := os.WriteFile(filepath.Join(b.shots, file), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("QUIRE_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// visible is a JavaScript expression: the element sel takes room on
// screen and is not hidden.
func visible(sel string) string {
	return `((el) => {
		if (!el) return false;
		const r = el.getBoundingClientRect(), s = getComputedStyle(el);
		return r.width > 0 && r.height > 0 && r.right > 0 && r.left < innerWidth && s.visibility !== 'hidden' && s.display !== 'none';
	})(document.querySelector(` + jsString(sel) + `))`
}

// prefersColorScheme emulates the system's colour scheme ("" for none).
func prefersColorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// press presses and releases a key as a keyboard does: the keydown
// carries the text, so a page that prevents the keydown gets no text
// (chromedp.KeyEvent sends a separate char event that it cannot prevent).
// modifiers: Alt 1, Ctrl 2, Meta 4, Shift 8.
func press(key, code, text string, keyCode, modifiers int64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
			p := input.DispatchKeyEventParams{Type: typ, Key: key, Code: code, Modifiers: modifiers,
				WindowsVirtualKeyCode: keyCode, NativeVirtualKeyCode: keyCode}
			if typ == input.DispatchKeyEventTypeKeyDown {
				p.Text, p.UnmodifiedText = text, text
			}
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, p); err != nil {
				return err
			}
		}
		return nil
	})
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// syncBuffer is a bytes.Buffer safe for a process writing while the test
// reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) tail(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buf.Bytes()
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
