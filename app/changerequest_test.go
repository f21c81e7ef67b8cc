package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

// crWorld is a space of two pages and a change request on it, opened by a
// writer: it edits one page (with markup to escape) and adds another. The
// admin reviews and merges; a reader and an outsider look on.
type crWorld struct {
	*env
	space, guide, cr, crPath string
	writer, reader           member
	outsiderEmail            string
}

type member struct{ id, email, token string }

func (e *env) addMember(t *testing.T, role quire.Role, name string) member {
	t.Helper()
	email := strings.ToLower(strings.Fields(name)[0]) + "@example.com"
	b, err := e.db.AddUser(t.Context(), e.org, email, name, role)
	if err != nil {
		t.Fatalf("add user: %v", err)
	}
	return member{id: b.User.ID, email: email, token: b.Token}
}

func newCRWorld(t *testing.T) *crWorld {
	t.Helper()
	w := &crWorld{env: newEnv(t)}
	w.writer = w.addMember(t, quire.RoleEdit, "Wendy Writer")
	w.reader = w.addMember(t, quire.RoleRead, "Rita Reader")
	w.space = w.env.space(t, w.token, w.org, "Docs",
		page{title: "Guide", markdown: "Hello old world.\n\nSecond line stays."},
		page{title: "Notes", markdown: "Some notes."})
	var pg struct{ ID string }
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/content/path/guide", nil, http.StatusOK, &pg)
	w.guide = pg.ID
	w.cr = w.openCR(t, w.writer.token, "Improve the guide",
		map[string]any{"operation": "update_page", "page": w.guide, "document": map[string]any{"markdown": "Hello new <script>alert(1)</script> world.\n\nSecond line stays."}},
		map[string]any{"operation": "insert_page", "title": "FAQ", "document": map[string]any{"markdown": "Questions & answers."}})
	w.crPath = quire.AppChangeRequestURL("", w.space, w.cr)
	b, err := w.db.InitOrganization(t.Context(), "Other Org", "olga@example.org", "Olga Outsider")
	if err != nil {
		t.Fatal(err)
	}
	_ = b
	w.outsiderEmail = "olga@example.org"
	return w
}

// openCR opens a change request of the space with changes, as token.
func (w *crWorld) openCR(t *testing.T, token, subject string, changes ...any) string {
	t.Helper()
	var cr struct{ ID string }
	w.api(t, token, "POST", "/v1/spaces/"+w.space+"/change-requests", map[string]any{"subject": subject}, http.StatusCreated, &cr)
	w.api(t, token, "POST", "/v1/spaces/"+w.space+"/change-requests/"+cr.ID+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	return cr.ID
}

func (w *crWorld) signedIn(t *testing.T, email string) *browser {
	t.Helper()
	b := w.browser(t)
	b.signIn(t, email)
	return b
}

func wantStatus(t *testing.T, what string, a answer, want int) {
	t.Helper()
	if a.status != want {
		t.Fatalf("%s: status %d, want %d: %.400s", what, a.status, want, a.body)
	}
}

func wantIn(t *testing.T, what, body string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(body, p) {
			t.Errorf("%s: no %q in the page", what, p)
		}
	}
}

func TestChangeRequestDiff(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	b := w.signedIn(t, w.admin)
	a := b.get(t, w.crPath)
	wantStatus(t, "GET", a, http.StatusOK)
	wantIn(t, "inline", a.body, "Improve the guide", "Wendy Writer", "<del>old</del>",
		"<ins>new &lt;script&gt;alert(1)&lt;/script&gt;</ins>", `mark-added">added`, `mark-edited">edited`,
		"<ins>Questions &amp; answers.")
	if strings.Contains(a.body, "<script>alert") {
		t.Error("the page's markdown is not escaped")
	}
	a = b.get(t, w.crPath+"?view=split")
	wantStatus(t, "GET split", a, http.StatusOK)
	wantIn(t, "side by side", a.body, `class="diff-split"`, "Hello <del>old</del>", "Hello <ins>new")
	// The page's number opens it too, as the API's do.
	wantStatus(t, "GET by number", b.get(t, quire.AppChangeRequestURL("", w.space, "2")), http.StatusOK)
}

func TestChangeRequestComments(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	b := w.signedIn(t, w.admin)
	b.get(t, w.crPath)
	a := b.post(t, w.crPath+"/comments", url.Values{"body": {"Why **new**?"}})
	wantStatus(t, "comment", a, http.StatusSeeOther)
	id := a.location[strings.Index(a.location, "#comment-")+len("#comment-"):]
	wantStatus(t, "empty comment", b.post(t, w.crPath+"/comments", url.Values{"body": {"  "}}), http.StatusBadRequest)

	wr := w.signedIn(t, w.writer.email)
	wr.get(t, w.crPath)
	wantStatus(t, "reply", wr.post(t, w.crPath+"/comments/"+id+"/replies", url.Values{"body": {"Because 1 < 2."}}), http.StatusSeeOther)
	wantStatus(t, "react", wr.post(t, w.crPath+"/comments/"+id+"/react", url.Values{"emoji": {"👍"}}), http.StatusSeeOther)
	wantStatus(t, "resolve", wr.post(t, w.crPath+"/comments/"+id+"/resolve", url.Values{"resolved": {"true"}}), http.StatusSeeOther)
	a = b.get(t, w.crPath)
	wantIn(t, "after", a.body, "Why <strong>new</strong>?", "Because 1 &lt; 2.", "Wendy Writer", "👍 1", "resolved", "Reopen")

	var list struct {
		Items []struct {
			Replies int
			Status  string
		}
	}
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/change-requests/"+w.cr+"/comments", nil, http.StatusOK, &list)
	if len(list.Items) != 1 || list.Items[0].Replies != 1 || list.Items[0].Status != "resolved" {
		t.Errorf("through the API: %+v, want one resolved comment with a reply", list.Items)
	}
}

func TestChangeRequestReviewAndMerge(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	w.api(t, w.token, "PATCH", "/v1/spaces/"+w.space, map[string]any{"mergeRules": map[string]any{"type": "rules",
		"rules": []any{map[string]any{"rule": "require_at_least_one_approved_review"}}}}, http.StatusOK, nil)
	admin, wr := w.signedIn(t, w.admin), w.signedIn(t, w.writer.email)

	a := admin.get(t, w.crPath)
	wantIn(t, "unmet", a.body, `id="unmet-rules"`, "require_at_least_one_approved_review: needs at least one approving review")
	a = admin.post(t, w.crPath+"/merge", nil)
	wantStatus(t, "merge before approval", a, http.StatusForbidden)
	wantIn(t, "refused", a.body, "Merge refused", "require_at_least_one_approved_review")

	wr.get(t, w.crPath)
	wantStatus(t, "writer requests a review", wr.post(t, w.crPath+"/reviewers", url.Values{"user": {w.reader.id}}), http.StatusSeeOther)
	wantStatus(t, "the author asked", wr.post(t, w.crPath+"/reviewers", url.Values{"user": {w.writer.id}}), http.StatusBadRequest)
	wantStatus(t, "the author approves", wr.post(t, w.crPath+"/reviews", url.Values{"status": {"approved"}}), http.StatusForbidden)
	wantStatus(t, "the writer merges", wr.post(t, w.crPath+"/merge", nil), http.StatusForbidden)

	wantStatus(t, "approve", admin.post(t, w.crPath+"/reviews", url.Values{"status": {"approved"}, "comment": {"Fine."}}), http.StatusSeeOther)
	a = admin.get(t, w.crPath)
	wantIn(t, "reviewed", a.body, "approved</span> by <strong>Ada Admin", "Asked to review: <strong>Rita Reader")
	if strings.Contains(a.body, `id="unmet-rules"`) {
		t.Error("rules still unmet after the approval")
	}
	a = admin.post(t, w.crPath+"/merge", nil)
	wantStatus(t, "merge", a, http.StatusSeeOther)
	wantIn(t, "merged", admin.get(t, a.location).body, "Merged into the space.", "status-merged")
	var pg struct{ Markdown string }
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/content/path/guide?format=markdown", nil, http.StatusOK, &pg)
	if !strings.Contains(pg.Markdown, "Hello new") {
		t.Errorf("space's guide after the merge: %q", pg.Markdown)
	}
}

func TestChangeRequestUpdateAndConflict(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	other := w.openCR(t, w.token, "Notes", map[string]any{"operation": "insert_page", "title": "More", "document": map[string]any{"markdown": "More."}})
	w.api(t, w.token, "POST", "/v1/spaces/"+w.space+"/change-requests/"+other+"/merge", nil, http.StatusOK, nil)

	wr := w.signedIn(t, w.writer.email)
	a := wr.get(t, w.crPath)
	wantIn(t, "outdated", a.body, "outdated", `id="update-from-main"`)
	wantStatus(t, "update", wr.post(t, w.crPath+"/update", nil), http.StatusSeeOther)
	var cr struct{ Outdated bool }
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/change-requests/"+w.cr, nil, http.StatusOK, &cr)
	if cr.Outdated {
		t.Error("still outdated after Update from main")
	}

	clash := w.openCR(t, w.token, "Clash", map[string]any{"operation": "update_page", "page": w.guide, "document": map[string]any{"markdown": "Hello other world.\n\nSecond line stays."}})
	w.api(t, w.token, "POST", "/v1/spaces/"+w.space+"/change-requests/"+clash+"/merge", nil, http.StatusOK, nil)
	admin := w.signedIn(t, w.admin)
	admin.get(t, w.crPath)
	a = admin.post(t, w.crPath+"/merge", nil)
	wantStatus(t, "merge in conflict", a, http.StatusConflict)
	wantIn(t, "conflict", a.body, "Conflicts", "Hello other world.", "Hello new &lt;script&gt;",
		`id="resolve-form"`)
}

func TestChangeRequestPermissions(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	reader, outsider, admin := w.signedIn(t, w.reader.email), w.signedIn(t, w.outsiderEmail), w.signedIn(t, w.admin)
	a := reader.get(t, w.crPath)
	wantStatus(t, "reader GET", a, http.StatusOK)
	for _, hidden := range []string{`id="merge"`, `id="post-comment"`, `id="approve"`, `id="request-review"`} {
		if strings.Contains(a.body, hidden) {
			t.Errorf("a reader is offered %s", hidden)
		}
	}
	for _, action := range []string{"/comments", "/merge", "/update", "/reviewers", "/reviews"} {
		form := url.Values{"body": {"Hi"}, "status": {"approved"}, "user": {w.writer.id}}
		wantStatus(t, "reader POST "+action, reader.post(t, w.crPath+action, form), http.StatusForbidden)
	}
	outsider.get(t, "/")
	wantStatus(t, "outsider GET", outsider.get(t, w.crPath), http.StatusNotFound)
	wantStatus(t, "outsider POST", outsider.post(t, w.crPath+"/comments", url.Values{"body": {"Hi"}}), http.StatusNotFound)
	wantStatus(t, "unknown request", admin.get(t, quire.AppChangeRequestURL("", w.space, "nope")), http.StatusNotFound)

	admin.get(t, w.crPath)
	wantStatus(t, "no CSRF token", admin.post(t, w.crPath+"/comments", url.Values{"body": {"Hi"}, "csrf": {"forged"}}), http.StatusForbidden)
	admin.origin = "https://evil.example"
	wantStatus(t, "cross-origin", admin.post(t, w.crPath+"/merge", nil), http.StatusForbidden)
	var cr struct {
		Comments int
		Status   string
	}
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/change-requests/"+w.cr, nil, http.StatusOK, &cr)
	if cr.Comments != 0 || cr.Status == "merged" {
		t.Errorf("after refused posts: %+v", cr)
	}
	wantStatus(t, "signed out", w.browser(t).get(t, w.crPath), http.StatusSeeOther)
}
