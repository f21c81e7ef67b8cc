package app_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/quiredocs/quire"
)

// The editor in a browser: Edit on a page, type, insert a hint from the
// toolbar, see the preview, reload and find the local draft restored, save,
// and find the change request holding the page. Enabled as TestBrowser is.

// eval runs a script in the tab and returns its value.
func (b *tab) eval(t *testing.T, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](script))
	if err != nil {
		t.Fatalf("eval %s: %v", script, err)
	}
	return s
}

// until waits for a script to be true.
func (b *tab) until(t *testing.T, what, script string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](script)); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func TestBrowserEdit(t *testing.T) {
	b := newTab(t, appChromium(t))
	w := newWorld(t)
	token, _, err := w.db.CreateLoginLink(t.Context(), w.admin)
	if err != nil {
		t.Fatal(err)
	}
	b.run(t, "sign in and open the page",
		chromedp.Navigate(w.srv.URL+"/signin/link?token="+url.QueryEscape(token)),
		chromedp.Click(chromedp.CSS("#use-link")), chromedp.WaitVisible(chromedp.CSS("#q")),
		chromedp.Navigate(w.srv.URL+"/s/"+w.space+"/install"), chromedp.WaitVisible(chromedp.CSS("#edit-page")))
	b.run(t, "Edit", chromedp.Click(chromedp.CSS("#edit-page")), chromedp.WaitVisible(chromedp.CSS("#markdown")))
	b.eval(t, `(function () {
		var md = document.getElementById("markdown");
		md.value = "Run the **new** installer.\n\n";
		md.setSelectionRange(md.value.length, md.value.length);
		md.dispatchEvent(new Event("input"));
		return "";
	})()`)
	b.run(t, "insert a hint", chromedp.Click(chromedp.CSS(`[data-insert="hint"]`)))
	b.until(t, "the preview shows the hint", `!!document.querySelector("#preview .hint") && document.querySelector("#preview").textContent.includes("new installer")`)
	b.run(t, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#markdown")))
	b.until(t, "the draft is restored", `!document.getElementById("draft-note").hidden && document.getElementById("markdown").value.includes("{% hint")`)
	b.eval(t, `window.scrollTo(0, 0), ""`)
	b.screenshot(t, "editor-draft")
	b.run(t, "save", chromedp.Click(chromedp.CSS("#save")))
	b.until(t, "saved", `document.getElementById("save-status").textContent === "Saved."`)
	if left := b.eval(t, `String(Object.keys(localStorage).filter(function (k) { return k.indexOf("quire-draft:") === 0; }).length)`); left != "0" {
		t.Errorf("after saving, %s drafts are left", left)
	}
	b.eval(t, `document.activeElement.blur(), window.scrollTo(0, 0), ""`)
	b.screenshot(t, "editor")

	e := &editing{world: w}
	e.cr = strings.Split(strings.Split(b.eval(t, "location.pathname"), "/changes/")[1], "/")[0]
	if _, md := e.crPage(t, "install"); !strings.Contains(md, "**new** installer") || !strings.Contains(md, `{% hint style="info" %}`) {
		t.Errorf("the change request's page after the browser's save: %q", md)
	}
	editor := b.url(t)
	readerTriesToEdit(t, b, w)

	b.run(t, "narrow screen", chromedp.EmulateViewport(360, 800), chromedp.Navigate(editor), chromedp.WaitVisible(chromedp.CSS("#markdown")))
	b.eval(t, `window.scrollTo(0, 0), ""`)
	b.screenshot(t, "editor-360")
}

// readerTriesToEdit signs a member with the read role in beside the admin,
// in a second browser context: the space's page offers no Edit, and a POST
// to Edit made anyway from that page, with its own CSRF token, answers 403.
// The refused fetch is no console error (only console.error and uncaught
// exceptions are), so the tab's problems stay empty.
func readerTriesToEdit(t *testing.T, admin *tab, w *world) {
	t.Helper()
	if _, err := w.db.AddUser(t.Context(), w.org, "rita@example.com", "Rita Reader", quire.RoleRead); err != nil {
		t.Fatal(err)
	}
	token, _, err := w.db.CreateLoginLink(t.Context(), "rita@example.com")
	if err != nil {
		t.Fatal(err)
	}
	r := admin.privateTab(t)
	r.run(t, "the reader signs in and opens the page",
		chromedp.Navigate(w.srv.URL+"/signin/link?token="+url.QueryEscape(token)),
		chromedp.Click(chromedp.CSS("#use-link")), chromedp.WaitVisible(chromedp.CSS("#q")),
		chromedp.Navigate(w.srv.URL+"/s/"+w.space+"/install"), chromedp.WaitVisible(chromedp.CSS("main h1")))
	if who := r.eval(t, `document.querySelector(".user-menu summary").textContent`); !strings.Contains(who, "Rita") {
		t.Errorf("the private tab is not Rita's: %.200q", who)
	}
	if n := r.eval(t, `String(document.querySelectorAll("#edit-page, form[action$='/edit']").length)`); n != "0" {
		t.Errorf("a reader is offered Edit (%s)", n)
	}
	r.screenshot(t, "reader")
	got := r.evalAsync(t, `(async function () {
		var csrf = document.querySelector("input[name=csrf]").value;
		var res = await fetch("/s/`+w.space+`/edit", {method: "POST", headers: {"X-CSRF-Token": csrf},
			body: new URLSearchParams({path: "install"}), redirect: "manual"});
		return res.status + " " + (await res.text());
	})()`)
	if !strings.HasPrefix(got, "403 ") || strings.Contains(got, "did not come from Quire") {
		t.Errorf("a reader's POST to Edit: %.300q, want 403 for the role (not the CSRF check)", got)
	}
	r.run(t, "after the refused POST") // reports the reader's console errors, if any
	// The admin's context kept its own session.
	admin.run(t, "the admin still edits", chromedp.Navigate(w.srv.URL+"/s/"+w.space+"/install"),
		chromedp.WaitVisible(chromedp.CSS("#edit-page")))
}

// evalAsync runs a script whose value is a promise and returns what it resolves to.
func (b *tab) evalAsync(t *testing.T, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("eval %s: %v", script, err)
	}
	return s
}
