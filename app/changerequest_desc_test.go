package app_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quiredocs/quire/render"
)

// crDescription is the change request's description as the API answers it.
func (w *crWorld) crDescription(t *testing.T) (subject string, description map[string]any) {
	t.Helper()
	var cr struct {
		Subject     string
		Description map[string]any
	}
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/change-requests/"+w.cr, nil, http.StatusOK, &cr)
	return cr.Subject, cr.Description
}

func TestChangeRequestDescriptionEdit(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	w.api(t, w.token, "PATCH", "/v1/spaces/"+w.space, map[string]any{"mergeRules": map[string]any{"type": "rules",
		"rules": []any{map[string]any{"rule": "require_change_request_description"}}}}, http.StatusOK, nil)
	admin, wr := w.signedIn(t, w.admin), w.signedIn(t, w.writer.email)
	wantIn(t, "unmet", admin.get(t, w.crPath).body, "require_change_request_description: the change request needs a description")

	a := wr.get(t, w.crPath)
	wantIn(t, "editor's page", a.body, `id="describe-form"`, `name="subject" maxlength="100" value="Improve the guide"`)
	if strings.Contains(a.body, `id="cr-description"`) {
		t.Error("a description shown before there is one")
	}
	a = wr.post(t, w.crPath+"/describe", url.Values{"subject": {"Guide & more"},
		"description": {"Why: **clearer**.\r\n\r\n<script>alert(1)</script> and 1 < 2\r\n"}})
	wantStatus(t, "describe", a, http.StatusSeeOther)
	a = wr.get(t, a.location)
	wantIn(t, "described", a.body, "Subject and description saved.", "<h1>Guide &amp; more</h1>",
		`id="cr-description"><p>Why: <strong>clearer</strong>.</p>`, "&lt;script&gt;alert(1)&lt;/script&gt; and 1 &lt; 2",
		// the textarea holds the markdown, escaped, with LF line endings
		">Why: **clearer**.\n\n&lt;script&gt;alert(1)&lt;/script&gt; and 1 &lt; 2\n</textarea>")
	if strings.Contains(a.body, "<script>alert") {
		t.Error("the description is not escaped")
	}

	// The API answers the same description, as the document of its markdown.
	subject, doc := w.crDescription(t)
	if want := render.Document("Why: **clearer**.\n\n<script>alert(1)</script> and 1 < 2\n", nil); subject != "Guide & more" || !sameJSON(t, doc, want) {
		t.Errorf("through the API: subject %q, description %v; want %v", subject, doc, want)
	}
	if strings.Contains(admin.get(t, w.crPath).body, `id="unmet-rules"`) {
		t.Error("require_change_request_description unmet with a description")
	}

	// Refusals, as PATCH CR's: nothing changes.
	wantStatus(t, "subject too long", wr.post(t, w.crPath+"/describe", url.Values{"subject": {strings.Repeat("s", 101)}, "description": {"x"}}), http.StatusBadRequest)
	a = wr.post(t, w.crPath+"/describe", url.Values{"subject": {"Deep"}, "description": {strings.Repeat(">", render.MaxNesting+1) + " deep"}})
	wantStatus(t, "past the bounds", a, http.StatusBadRequest)
	wantIn(t, "past the bounds", a.body, "description: ")
	wantStatus(t, "NUL", wr.post(t, w.crPath+"/describe", url.Values{"subject": {"Deep"}, "description": {"a\x00b"}}), http.StatusBadRequest)
	if subject, _ := w.crDescription(t); subject != "Guide & more" {
		t.Errorf("subject %q after refused posts", subject)
	}

	// An empty description, or one of blanks, clears it.
	wr.get(t, w.crPath)
	wantStatus(t, "clear", wr.post(t, w.crPath+"/describe", url.Values{"subject": {"Guide"}, "description": {" \r\n "}}), http.StatusSeeOther)
	if strings.Contains(wr.get(t, w.crPath).body, `id="cr-description"`) {
		t.Error("a cleared description still shown")
	}
	if _, doc := w.crDescription(t); doc != nil {
		t.Errorf("cleared description answered as %v", doc)
	}
}

func TestChangeRequestDescriptionRefused(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	reader, wr := w.signedIn(t, w.reader.email), w.signedIn(t, w.writer.email)
	a := reader.get(t, w.crPath)
	wantStatus(t, "reader GET", a, http.StatusOK)
	if strings.Contains(a.body, `id="describe-form"`) {
		t.Error("a reader is offered the description form")
	}
	form := url.Values{"subject": {"Mine"}, "description": {"Mine."}}
	wantStatus(t, "reader POST", reader.post(t, w.crPath+"/describe", form), http.StatusForbidden)

	wr.get(t, w.crPath)
	forged := url.Values{"subject": {"Mine"}, "description": {"Mine."}, "csrf": {"forged"}}
	wantStatus(t, "no CSRF token", wr.post(t, w.crPath+"/describe", forged), http.StatusForbidden)
	wr.origin = "https://evil.example"
	wantStatus(t, "cross-origin", wr.post(t, w.crPath+"/describe", form), http.StatusForbidden)
	if subject, doc := w.crDescription(t); subject != "Improve the guide" || doc != nil {
		t.Errorf("after refused posts: subject %q, description %v", subject, doc)
	}
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(ja) == string(jb)
}
