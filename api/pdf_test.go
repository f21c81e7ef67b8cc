package api_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pdfLinkOut is the answer of GET S/pdf and GET CR/pdf.
type pdfLinkOut struct {
	URL string `json:"url"`
}

// pdfCall asks for a PDF link, checks the answer against the whole
// reference (GET S/pdf is not in the subset) and wants status.
func pdfCall(t testing.TB, e *env, token, path string, status int) *response {
	t.Helper()
	res := e.call(t, token, "GET", path, nil)
	if ref := fullReference(t); ref != nil {
		u, _ := url.Parse(path)
		if err := ref.Check("GET", strings.TrimPrefix(u.Path, "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res.want(t, status)
}

// pdfLink asks for a PDF link and returns it.
func pdfLink(t testing.TB, e *env, token, path string) string {
	t.Helper()
	var out pdfLinkOut
	pdfCall(t, e, token, path, http.StatusOK).Decode(t, &out)
	if !strings.HasPrefix(out.URL, testPublicURL+"/pdf/") {
		t.Fatalf("url %q is not an absolute link to a PDF of this server", out.URL)
	}
	return out.URL
}

// followPDF follows a PDF link, with no token, as a browser would.
func followPDF(t testing.TB, e *env, link string) *response {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return e.do(t, httptest.NewRequestWithContext(t.Context(), "GET", u.RequestURI(), nil))
}

// pdfText is the text of a PDF, page by page, as pdftotext reads it.
// Without pdftotext (poppler-utils) the test is skipped, except on CI.
func pdfText(t *testing.T, doc []byte) []string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdftotext (poppler-utils) is needed on CI")
		}
		t.Skip("pdftotext (poppler-utils) not installed")
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(strings.TrimRight(string(out), "\f\n "), "\f")
	return pages
}

// inOrder reports the first of wants that text does not hold after the
// ones before it, "" when it holds them all in order.
func inOrder(text string, wants ...string) string {
	at := 0
	for _, w := range wants {
		i := strings.Index(text[at:], w)
		if i < 0 {
			return w
		}
		at += i + len(w)
	}
	return ""
}

// pdfSpace is a space with pages in two levels, a picture, and text in
// Greek and Russian; it returns the space and its pages' ids by title.
func pdfSpace(t *testing.T, e *env) (string, map[string]string) {
	t.Helper()
	var img bytes.Buffer
	m := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := range 30 {
		for x := range 40 {
			m.Set(x, y, color.RGBA{0x20, 0x60, 0xd0, 0xff})
		}
	}
	if err := png.Encode(&img, m); err != nil {
		t.Fatal(err)
	}
	spaceID := e.crSpace(t)
	ids := e.cmSeed(t, spaceID,
		insertFiles(map[string]any{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(img.Bytes())}),
		insertPage("intro", "# Introduction\n\nRead the [install guide](./guide/install.md) first.\n\n![The logo](./logo)\n\n"+
			"| Step | What |\n|---|---|\n| 1 | Download |\n\n```sh\nquire serve\n```\n"),
		insertPage("guide", "# Guide\n\nHow to use it.\n"),
		insertPage("install", "# Install\n\nΚαλημέρα. Здравствуйте.\n", "into", "guide"),
	)
	return spaceID, ids
}

func TestSpacePDF(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, ids := pdfSpace(t, e)
	sp := "/v1/spaces/" + spaceID

	res := followPDF(t, e, pdfLink(t, e, e.admin.token, sp+"/pdf")).want(t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("Content-Type %q", ct)
	}
	if !bytes.HasPrefix(res.Body, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %.20q", res.Body)
	}
	pages := pdfText(t, res.Body)
	if len(pages) < 5 {
		t.Fatalf("%d pages; want a title page, contents and the pages", len(pages))
	}
	if miss := inOrder(pages[0], "Handbook"); miss != "" {
		t.Errorf("title page lacks %q:\n%s", miss, pages[0])
	}
	if miss := inOrder(pages[1], "Contents", "Introduction", "Guide", "Install"); miss != "" {
		t.Errorf("contents lack %q:\n%s", miss, pages[1])
	}
	if miss := inOrder(strings.Join(pages[2:], "\f"), "Introduction", "install guide", "Step", "Download", "quire serve",
		"Guide", "How to use it", "Install", "Καλημέρα. Здравствуйте."); miss != "" {
		t.Errorf("pages lack %q:\n%s", miss, strings.Join(pages[2:], "\f"))
	}
	// Destinations inside: the contents' three links and three bookmarks,
	// and the introduction's link to the install page.
	if n := bytes.Count(res.Body, []byte("/Dest [")); n != 7 {
		t.Errorf("%d destinations inside the PDF, want 7", n)
	}
	if bytes.Count(res.Body, []byte("/Subtype /Image")) != 1 {
		t.Error("the PDF does not hold the picture once")
	}

	// One page alone; a page with its subpages.
	only := followPDF(t, e, pdfLink(t, e, e.admin.token, sp+"/pdf?only=true&page="+ids["Install"])).want(t, http.StatusOK)
	if pages := pdfText(t, only.Body); len(pages) != 1 || inOrder(pages[0], "Install", "Καλημέρα") != "" || strings.Contains(pages[0], "Guide") {
		t.Errorf("only the install page: %d pages:\n%s", len(pages), strings.Join(pages, "\f"))
	}
	sub := followPDF(t, e, pdfLink(t, e, e.admin.token, sp+"/pdf?page="+ids["Guide"])).want(t, http.StatusOK)
	if all := strings.Join(pdfText(t, sub.Body), "\f"); inOrder(all, "Contents", "Guide", "Install", "Guide", "Install") != "" || strings.Contains(all, "Introduction") {
		t.Errorf("the guide and its subpages:\n%s", all)
	}

	// Bad parameters.
	pdfCall(t, e, e.admin.token, sp+"/pdf?only=true", http.StatusBadRequest)
	e.call(t, e.admin.token, "GET", sp+"/pdf?only=true", nil).wantError(t, http.StatusBadRequest, "page")
	e.call(t, e.admin.token, "GET", sp+"/pdf?only=yes&page="+ids["Install"], nil).wantError(t, http.StatusBadRequest, "only")
	e.call(t, e.admin.token, "GET", sp+"/pdf?page=nope", nil).wantError(t, http.StatusNotFound, "page")
}

func TestChangeRequestPDF(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, crPath := e.newChangeRequest(t)
	e.author(t, e.admin.token, crPath, insertPage("draft", "# Draft page\n\nNot merged yet: Ελληνικά.\n")).want(t, http.StatusOK)

	res := followPDF(t, e, pdfLink(t, e, e.admin.token, crPath+"/pdf")).want(t, http.StatusOK)
	all := strings.Join(pdfText(t, res.Body), "\f")
	if miss := inOrder(all, "Handbook", "Change request #1: Edits", "Contents", "Draft page", "Draft page", "Not merged yet: Ελληνικά."); miss != "" {
		t.Errorf("the change request's PDF lacks %q:\n%s", miss, all)
	}
	// The space's own content has no such page.
	space := followPDF(t, e, pdfLink(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/pdf")).want(t, http.StatusOK)
	if strings.Contains(strings.Join(pdfText(t, space.Body), "\f"), "Draft page") {
		t.Error("the space's PDF holds the change request's page")
	}
	// By number too.
	pdfLink(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/change-requests/1/pdf")
}

func TestPDFPermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, ids := pdfSpace(t, e)
	sp := "/v1/spaces/" + spaceID
	guest := e.addUser(t, "guest", "Gus Guest")
	outsider := e.outsider(t)
	reader := e.addUser(t, "read", "Rita Reader")
	for _, u := range []user{guest, outsider} {
		e.call(t, u.token, "GET", sp+"/pdf", nil).wantError(t, http.StatusNotFound, "space")
		e.call(t, u.token, "GET", sp+"/change-requests/1/pdf", nil).wantError(t, http.StatusNotFound, "space")
		e.call(t, u.token, "GET", sp+"/pdf?page="+ids["Install"], nil).wantError(t, http.StatusNotFound, "space")
	}
	e.call(t, "", "GET", sp+"/pdf", nil).wantError(t, http.StatusUnauthorized)
	pdfLink(t, e, reader.token, sp+"/pdf")
}

func TestPDFLinkSignature(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, ids := pdfSpace(t, e)
	sp := "/v1/spaces/" + spaceID
	link := pdfLink(t, e, e.admin.token, sp+"/pdf?only=true&page="+ids["Install"])
	followPDF(t, e, link).want(t, http.StatusOK)

	u, _ := url.Parse(link)
	tampered := func(edit func(q url.Values, u *url.URL)) string {
		v := *u
		q := v.Query()
		edit(q, &v)
		v.RawQuery = q.Encode()
		return v.String()
	}
	for name, bad := range map[string]string{
		"another page":   tampered(func(q url.Values, _ *url.URL) { q.Set("page", ids["Introduction"]) }),
		"all pages":      tampered(func(q url.Values, _ *url.URL) { q.Del("only"); q.Del("page") }),
		"later expiry":   tampered(func(q url.Values, _ *url.URL) { q.Set("expires", "99999999999") }),
		"no signature":   tampered(func(q url.Values, _ *url.URL) { q.Del("signature") }),
		"bad signature":  tampered(func(q url.Values, _ *url.URL) { q.Set("signature", "AAAA"+q.Get("signature")[4:]) }),
		"another space":  tampered(func(_ url.Values, u *url.URL) { u.Path = strings.Replace(u.Path, spaceID, e.crSpace(t), 1) }),
		"change request": tampered(func(q url.Values, _ *url.URL) { q.Set("changeRequest", "c1") }),
	} {
		followPDF(t, e, bad).wantError(t, http.StatusForbidden, "signature")
		_ = name
	}

	// An hour later the link has expired.
	e.db.Now = func() time.Time { return time.Now().Add(time.Hour + time.Minute) }
	followPDF(t, e, link).wantError(t, http.StatusForbidden, "expired")
}
