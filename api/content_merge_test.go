package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// End-to-end tests of authoring change requests (POST CR/content), pulling
// the space into a request (POST CR/update) and merging (POST CR/merge).

// cmCR is a change request as these tests read it.
type cmCR struct {
	ID                     string `json:"id"`
	Number                 int    `json:"number"`
	Status                 string `json:"status"`
	Revision               string `json:"revision"`
	RevisionInitial        string `json:"revisionInitial"`
	RevisionMergedAncestor string `json:"revisionMergedAncestor"`
	RevisionMerged         string `json:"revisionMerged"`
	Outdated               bool   `json:"outdated"`
}

// cmResult is the answer of POST CR/merge and POST CR/update.
type cmResult struct {
	Revision string `json:"revision"`
	Result   string `json:"result"`
}

// cmBatchOut is the answer of POST CR/content?compat=false.
type cmBatchOut struct {
	ChangeRequest cmCR `json:"changeRequest"`
	Changes       []struct {
		Object string `json:"object"`
		Ref    string `json:"ref"`
		Page   any    `json:"page"`
	} `json:"changes"`
	InsertedFiles []fileOut `json:"insertedFiles"`
}

// pageID is the id of an outcome's page: an object for created and updated
// pages, the bare id for deleted ones.
func (b cmBatchOut) pageID(i int) string {
	switch p := b.Changes[i].Page.(type) {
	case string:
		return p
	case map[string]any:
		id, _ := p["id"].(string)
		return id
	}
	return ""
}

// cmNewCR opens a change request in a space as token's holder and returns its path.
func (e *env) cmNewCR(t *testing.T, token, spaceID string) string {
	t.Helper()
	var c cmCR
	e.call(t, token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Edits"}).want(t, http.StatusCreated).Decode(t, &c)
	return "/v1/spaces/" + spaceID + "/change-requests/" + c.ID
}

func (e *env) cmCR(t *testing.T, crPath string) cmCR {
	t.Helper()
	var c cmCR
	e.call(t, e.admin.token, "GET", crPath, nil).want(t, http.StatusOK).Decode(t, &c)
	return c
}

func (e *env) cmSpace(t *testing.T, spaceID string) crSpaceCounts {
	t.Helper()
	var sp crSpaceCounts
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID, nil).want(t, http.StatusOK).Decode(t, &sp)
	return sp
}

// cmMerge merges a change request as token's holder and returns the space's new revision.
func (e *env) cmMerge(t *testing.T, token, crPath string) string {
	t.Helper()
	var res cmResult
	e.call(t, token, "POST", crPath+"/merge", nil).want(t, http.StatusOK).Decode(t, &res)
	if res.Result != "merge" || res.Revision == "" {
		t.Fatalf("merge answered %+v", res)
	}
	return res.Revision
}

// cmSeed puts content into a space through a merged change request and
// returns the ids of the space's pages by title.
func (e *env) cmSeed(t *testing.T, spaceID string, changes ...map[string]any) map[string]string {
	t.Helper()
	cr := e.cmNewCR(t, e.admin.token, spaceID)
	e.author(t, e.admin.token, cr, changes...).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, cr)
	return cmIDs(e.revision(t, "/v1/spaces/"+spaceID+"/content").Pages)
}

// cmIDs maps the title of every page of a tree to its id.
func cmIDs(pages []pageOut) map[string]string {
	out := map[string]string{}
	var walk func([]pageOut)
	walk = func(ps []pageOut) {
		for _, p := range ps {
			out[p.Title] = p.ID
			walk(p.Pages)
		}
	}
	walk(pages)
	return out
}

// cmFind returns the page titled title anywhere in a tree.
func cmFind(t *testing.T, pages []pageOut, title string) pageOut {
	t.Helper()
	var found *pageOut
	var walk func([]pageOut)
	walk = func(ps []pageOut) {
		for i := range ps {
			if ps[i].Title == title && found == nil {
				found = &ps[i]
			}
			walk(ps[i].Pages)
		}
	}
	walk(pages)
	if found == nil {
		t.Fatalf("no page %q in %v", title, cmOutline(pages))
	}
	return *found
}

// cmOutline lists a tree's pages in order as "path title".
func cmOutline(pages []pageOut) []string {
	out := []string{}
	var walk func([]pageOut)
	walk = func(ps []pageOut) {
		for _, p := range ps {
			out = append(out, p.Path+" "+p.Title)
			walk(p.Pages)
		}
	}
	walk(pages)
	return out
}

// cmContent lists a tree's pages in order with their markdown.
func cmContent(pages []pageOut) []string {
	out := []string{}
	var walk func([]pageOut)
	walk = func(ps []pageOut) {
		for _, p := range ps {
			out = append(out, p.Path+" "+p.Title+": "+p.Markdown)
			walk(p.Pages)
		}
	}
	walk(pages)
	return out
}

func cmUpdatePage(id string, kv ...any) map[string]any {
	c := map[string]any{"operation": "update_page", "page": id}
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i].(string)] = kv[i+1]
	}
	return c
}

func cmDeletePage(id string) map[string]any {
	return map[string]any{"operation": "delete_page", "page": id}
}

func cmMarkdown(md string) map[string]any { return map[string]any{"markdown": md} }

func cmPNG(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestAuthoringUpdateMoveAndDeletePages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	editor := e.addUser(t, "edit", "Eddie Editor")
	initial := e.cmCR(t, cr)
	crID := initial.ID

	// A first batch inserts a small tree and a file, answered in full with compat=false.
	var first cmBatchOut
	e.call(t, e.admin.token, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
		insertPage("guides", "# Guides\n\nAll the guides.\n"),
		insertPage("install", "# Install\n\nRun it. ![Logo](./logo)\n", "into", "guides"),
		insertPage("configure", "# Configure\n\nSet it up.\n", "into", "guides"),
		insertPage("faq", "# FAQ\n\nAsk.\n"),
		{"operation": "insert_files", "files": []map[string]any{{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": cmPNG(t)}}},
	}}).want(t, http.StatusOK).Decode(t, &first)

	if first.ChangeRequest.ID != crID || first.ChangeRequest.Revision == initial.Revision || first.ChangeRequest.Revision == "" {
		t.Fatalf("change request after the batch: %+v; it had revision %s", first.ChangeRequest, initial.Revision)
	}
	var kinds, refs []string
	for i, c := range first.Changes {
		kinds, refs = append(kinds, c.Object), append(refs, c.Ref)
		page, _ := c.Page.(map[string]any)
		urls, _ := page["urls"].(map[string]any)
		loc, _ := urls["location"].(string)
		if page["object"] != "page" || first.pageID(i) == "" {
			t.Errorf("change %d page %v", i, c.Page)
			continue
		}
		// The location fetches the page as stored.
		var got pageOut
		e.call(t, e.admin.token, "GET", strings.TrimPrefix(loc, testPublicURL), nil).want(t, http.StatusOK).Decode(t, &got)
		if got.ID != first.pageID(i) {
			t.Errorf("change %d location %s gives page %s", i, loc, got.ID)
		}
	}
	if diff := cmp.Diff([]string{"created_page", "created_page", "created_page", "created_page"}, kinds); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"guides", "install", "configure", "faq"}, refs); diff != "" {
		t.Errorf("refs echoed (-want +got):\n%s", diff)
	}
	if len(first.InsertedFiles) != 1 {
		t.Fatalf("insertedFiles %+v, want the logo", first.InsertedFiles)
	}
	logo := first.InsertedFiles[0]
	if logo.Name != "logo.png" || logo.ContentType != "image/png" || logo.ID == "" || logo.Dimensions == nil || logo.Dimensions.Width != 3 || logo.Dimensions.Height != 2 {
		t.Errorf("inserted file %+v", logo)
	}

	rev1 := e.revision(t, cr+"/content")
	if rev1.ID != first.ChangeRequest.Revision || !slices.Equal(rev1.Parents, []string{initial.Revision}) {
		t.Errorf("revision %s parents %v; want %s with parent %s", rev1.ID, rev1.Parents, first.ChangeRequest.Revision, initial.Revision)
	}
	if got := e.cmCR(t, cr); got.Revision != rev1.ID {
		t.Errorf("GET CR revision %s, want %s", got.Revision, rev1.ID)
	}
	want := []string{"guides Guides", "guides/install Install", "guides/configure Configure", "faq FAQ"}
	if diff := cmp.Diff(want, cmOutline(rev1.Pages)); diff != "" {
		t.Fatalf("tree after the first batch (-want +got):\n%s", diff)
	}
	if md := cmFind(t, rev1.Pages, "Install").Markdown; md != "Run it. ![Logo](/files/"+logo.ID+")\n" {
		t.Errorf("install markdown %q: the file ref should resolve to the file id", md)
	}
	ids := cmIDs(rev1.Pages)

	// The editor is not a contributor yet.
	contributions := "/v1/spaces/" + spaceID + "/change-requests?status=draft&contributor=" + editor.id
	if got := crNumbers(t, e, e.admin.token, contributions); len(got) != 0 {
		t.Errorf("editor contributes to %v before editing", got)
	}

	// Rename, change a slug, rewrite a document, move within and to the root.
	var second cmBatchOut
	e.call(t, editor.token, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
		cmUpdatePage(ids["Install"], "title", "Installation"),
		cmUpdatePage(ids["Configure"], "slug", "config"),
		cmUpdatePage(ids["FAQ"], "document", cmMarkdown("Ask anything.\n")),
		cmUpdatePage(ids["FAQ"], "into", ids["Guides"], "at", 0),
		cmUpdatePage(ids["Install"], "into", nil),
	}}).want(t, http.StatusOK).Decode(t, &second)
	kinds = nil
	var touched []string
	for i, c := range second.Changes {
		kinds, touched = append(kinds, c.Object), append(touched, second.pageID(i))
	}
	if diff := cmp.Diff([]string{"updated_page", "updated_page", "updated_page"}, kinds); diff != "" {
		t.Errorf("outcomes of the second batch, one per page (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{ids["Install"], ids["Configure"], ids["FAQ"]}, touched); diff != "" {
		t.Errorf("pages touched, in order (-want +got):\n%s", diff)
	}
	if len(second.InsertedFiles) != 0 {
		t.Errorf("insertedFiles %+v, want none", second.InsertedFiles)
	}
	rev2 := e.revision(t, cr+"/content")
	if rev2.ID != second.ChangeRequest.Revision || !slices.Equal(rev2.Parents, []string{rev1.ID}) || rev2.Type != "edits" {
		t.Errorf("revision %s (%s) parents %v; want %s (edits) with parent %s", rev2.ID, rev2.Type, rev2.Parents, second.ChangeRequest.Revision, rev1.ID)
	}
	want = []string{"guides Guides", "guides/faq FAQ", "guides/config Configure", "install Installation"}
	if diff := cmp.Diff(want, cmOutline(rev2.Pages)); diff != "" {
		t.Errorf("tree after the second batch (-want +got):\n%s", diff)
	}
	if got := cmFind(t, rev2.Pages, "FAQ"); got.Markdown != "Ask anything.\n" || got.ID != ids["FAQ"] {
		t.Errorf("FAQ after its new document: %q (%s)", got.Markdown, got.ID)
	}
	if got := cmFind(t, rev2.Pages, "Installation"); got.ID != ids["Install"] || got.Slug != "install" {
		t.Errorf("renamed page keeps its id and slug: %+v", got)
	}
	if diff := cmp.Diff([]int{initial.Number}, crNumbers(t, e, e.admin.token, contributions)); diff != "" {
		t.Errorf("the editor's contributions (-want +got):\n%s", diff)
	}
	// The space itself is untouched.
	if live := e.revision(t, "/v1/spaces/"+spaceID+"/content"); len(live.Pages) != 0 || live.ID != initial.Revision {
		t.Errorf("space content changed by authoring: %s %v", live.ID, cmOutline(live.Pages))
	}

	// Deleting a page deletes its subpages.
	var third cmBatchOut
	e.call(t, e.admin.token, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{cmDeletePage(ids["Guides"])}}).
		want(t, http.StatusOK).Decode(t, &third)
	deleted := map[string]bool{}
	for i, c := range third.Changes {
		if c.Object != "deleted_page" {
			t.Errorf("outcome %d is %s, want deleted_page", i, c.Object)
		}
		deleted[third.pageID(i)] = true
	}
	if want := map[string]bool{ids["Guides"]: true, ids["FAQ"]: true, ids["Configure"]: true}; !cmp.Equal(want, deleted) {
		t.Errorf("deleted pages %v, want %v", deleted, want)
	}
	rev3 := e.revision(t, cr+"/content")
	if diff := cmp.Diff([]string{"install Installation"}, cmOutline(rev3.Pages)); diff != "" {
		t.Errorf("tree after deleting guides (-want +got):\n%s", diff)
	}
	if len(rev3.Files) != 1 || rev3.Files[0].ID != logo.ID {
		t.Errorf("files after the deletion: %+v", rev3.Files)
	}
	e.call(t, e.admin.token, "GET", cr+"/content/page/"+ids["FAQ"], nil).wantError(t, http.StatusNotFound)
	// The compat answer is the change request itself.
	var compat cmCR
	e.author(t, e.admin.token, cr, insertPage("", "# Again\n")).want(t, http.StatusOK).Decode(t, &compat)
	if compat.ID != crID || compat.Revision == rev3.ID {
		t.Errorf("compat answer %+v", compat)
	}
}

func TestAuthoringBatchIsAtomic(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr, insertPage("", "# Keep\n\nBody.\n"), insertPage("", "# Other\n")).want(t, http.StatusOK)
	before := e.revision(t, cr+"/content")
	ids := cmIDs(before.Pages)
	keep := ids["Keep"]

	for name, third := range map[string]map[string]any{
		"unknown page":        cmUpdatePage("no-such-page", "title", "X"),
		"unknown operation":   {"operation": "explode"},
		"move into itself":    cmUpdatePage(keep, "into", keep),
		"at past the end":     insertPage("", "# Late\n", "at", 99),
		"slug of a sibling":   cmUpdatePage(ids["Other"], "slug", "keep"),
		"delete unknown page": cmDeletePage("no-such-page"),
		"unknown field":       cmUpdatePage(keep, "colour", "red"),
		"empty title":         cmUpdatePage(keep, "title", ""),
	} {
		t.Run(name, func(t *testing.T) {
			e.author(t, e.admin.token, cr,
				insertPage("fresh", "# Fresh\n"),
				cmUpdatePage(keep, "title", "Changed", "document", cmMarkdown("Changed body.\n")),
				third,
			).wantError(t, http.StatusBadRequest, "changes[2]")
			after := e.revision(t, cr+"/content")
			if after.ID != before.ID || e.cmCR(t, cr).Revision != before.ID {
				t.Errorf("revision moved from %s to %s", before.ID, after.ID)
			}
			if diff := cmp.Diff(cmContent(before.Pages), cmContent(after.Pages)); diff != "" {
				t.Errorf("content changed by a refused batch (-before +after):\n%s", diff)
			}
		})
	}

	tooMany := make([]map[string]any, 51)
	for i := range tooMany {
		tooMany[i] = insertPage("", fmt.Sprintf("# Page %d\n", i))
	}
	e.author(t, e.admin.token, cr, tooMany...).wantError(t, http.StatusBadRequest, "changes", "50")
	e.call(t, e.admin.token, "POST", cr+"/content", `{"changes": [`).wantError(t, http.StatusBadRequest)
	e.call(t, e.admin.token, "POST", cr+"/content", `{"changes": []}`).wantError(t, http.StatusBadRequest, "changes")
	e.call(t, e.admin.token, "POST", cr+"/content", `{"changes": {}}`).wantError(t, http.StatusBadRequest, "changes")
	e.call(t, e.admin.token, "POST", cr+"/content", nil).wantError(t, http.StatusBadRequest, "changes")
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded"} {
		req := httptest.NewRequestWithContext(t.Context(), "POST", cr+"/content", strings.NewReader(`{"changes":[{"operation":"insert_page","document":{}}]}`))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+e.admin.token)
		e.do(t, req).wantError(t, http.StatusUnsupportedMediaType)
	}
	if after := e.revision(t, cr+"/content"); after.ID != before.ID {
		t.Errorf("a refused request made revision %s", after.ID)
	}

	// Exactly 50 changes is a batch.
	e.author(t, e.admin.token, cr, tooMany[:50]...).want(t, http.StatusOK)
	after := e.revision(t, cr+"/content")
	if len(after.Pages) != 52 || !slices.Equal(after.Parents, []string{before.ID}) {
		t.Errorf("after 50 inserts: %d pages, parents %v; want 52 and [%s]", len(after.Pages), after.Parents, before.ID)
	}
	if live := e.revision(t, "/v1/spaces/"+spaceID+"/content"); len(live.Pages) != 0 {
		t.Errorf("the space got %d pages", len(live.Pages))
	}
}

func TestAuthoringPermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	reader := e.addUser(t, "read", "Rita Reader")
	commenter := e.addUser(t, "comment", "Cora Commenter")
	editor := e.addUser(t, "edit", "Eddie Editor")
	reviewer := e.addUser(t, "review", "Rory Reviewer")
	outsider := e.outsider(t)

	for _, u := range []user{reader, commenter} {
		e.author(t, u.token, cr, insertPage("", "# Nope\n")).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "POST", cr+"/update", nil).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "POST", cr+"/merge", nil).wantError(t, http.StatusForbidden)
	}
	e.author(t, outsider.token, cr, insertPage("", "# Nope\n")).wantError(t, http.StatusNotFound)
	e.call(t, outsider.token, "POST", cr+"/update", nil).wantError(t, http.StatusNotFound)
	e.call(t, outsider.token, "POST", cr+"/merge", nil).wantError(t, http.StatusNotFound)
	if rev := e.revision(t, cr+"/content"); len(rev.Pages) != 0 {
		t.Fatalf("refused callers changed the request: %v", cmOutline(rev.Pages))
	}

	// An editor authors and updates but may not merge.
	e.author(t, editor.token, cr, insertPage("", "# By the editor\n")).want(t, http.StatusOK)
	e.call(t, editor.token, "POST", cr+"/update", nil).want(t, http.StatusOK)
	e.call(t, editor.token, "POST", cr+"/merge", nil).wantError(t, http.StatusForbidden)
	if c := e.cmCR(t, cr); c.Status != "draft" {
		t.Errorf("status %q after a refused merge", c.Status)
	}

	// Locked space: no authoring, update or merge, even for an admin.
	lock := func(mode string) {
		t.Helper()
		e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+spaceID, map[string]any{"editMode": mode}).want(t, http.StatusOK)
	}
	lock("locked")
	head := e.cmCR(t, cr).Revision
	for _, u := range []user{e.admin, reviewer, editor} {
		e.author(t, u.token, cr, insertPage("", "# Locked out\n")).wantError(t, http.StatusForbidden, "locked")
		e.call(t, u.token, "POST", cr+"/update", nil).wantError(t, http.StatusForbidden, "locked")
		e.call(t, u.token, "POST", cr+"/merge", nil).wantError(t, http.StatusForbidden)
	}
	if c := e.cmCR(t, cr); c.Revision != head || c.Status != "draft" {
		t.Errorf("locked space: request changed to %+v", c)
	}
	if live := e.revision(t, "/v1/spaces/"+spaceID+"/content"); len(live.Pages) != 0 {
		t.Errorf("locked space got content %v", cmOutline(live.Pages))
	}

	lock("live")
	e.author(t, editor.token, cr, insertPage("", "# Unlocked\n")).want(t, http.StatusOK)
	e.call(t, editor.token, "POST", cr+"/update", nil).want(t, http.StatusOK)
	// A reviewer may merge.
	e.cmMerge(t, reviewer.token, cr)
	live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
	if diff := cmp.Diff([]string{"by-the-editor By the editor", "unlocked Unlocked"}, cmOutline(live.Pages)); diff != "" {
		t.Errorf("space after the reviewer's merge (-want +got):\n%s", diff)
	}
	if c := e.cmCR(t, cr); c.Status != "merged" || c.RevisionMerged != live.ID {
		t.Errorf("merged request %+v; space revision %s", c, live.ID)
	}
}

func TestUpdateOutdatedRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID := e.crSpace(t)
	seeded := e.cmSeed(t, spaceID, insertPage("", "# Home\n\nWelcome.\n"))
	a := e.cmNewCR(t, e.admin.token, spaceID)
	b := e.cmNewCR(t, e.admin.token, spaceID)
	e.call(t, e.admin.token, "PATCH", b, map[string]any{"status": "open"}).want(t, http.StatusOK)
	base := e.cmSpace(t, spaceID).Revision

	// Up to date from the start: update changes nothing.
	var res cmResult
	e.call(t, e.admin.token, "POST", a+"/update", nil).want(t, http.StatusOK).Decode(t, &res)
	if ca := e.cmCR(t, a); res.Result != "update" || res.Revision != ca.Revision || ca.Revision != base || ca.Outdated {
		t.Errorf("update of a fresh request: %+v; request %+v; space at %s", res, ca, base)
	}

	e.author(t, e.admin.token, a, insertPage("", "# Alpha\n\nFrom A.\n"), cmUpdatePage(seeded["Home"], "document", cmMarkdown("Welcome home.\n"))).want(t, http.StatusOK)
	e.author(t, e.admin.token, b, insertPage("", "# Beta\n\nFrom B.\n")).want(t, http.StatusOK)
	if cb := e.cmCR(t, b); cb.Outdated {
		t.Errorf("B outdated before anything merged")
	}
	merged := e.cmMerge(t, e.admin.token, a)

	if ca := e.cmCR(t, a); ca.Outdated || ca.Status != "merged" {
		t.Errorf("merged request: %+v", ca)
	}
	before := e.cmCR(t, b)
	if !before.Outdated || before.Status != "open" {
		t.Fatalf("B after A's merge: %+v, want outdated and still open", before)
	}
	var list struct{ Items []cmCR }
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/change-requests", nil).want(t, http.StatusOK).Decode(t, &list)
	if len(list.Items) != 1 || !list.Items[0].Outdated {
		t.Errorf("open list %+v, want B outdated", list.Items)
	}

	e.call(t, e.admin.token, "POST", b+"/update", nil).want(t, http.StatusOK).Decode(t, &res)
	after := e.cmCR(t, b)
	if res.Result != "update" || res.Revision != after.Revision || after.Revision == before.Revision {
		t.Errorf("update answered %+v; request now %+v (was at %s)", res, after, before.Revision)
	}
	if after.RevisionMergedAncestor != merged || after.Outdated || after.RevisionInitial != base || after.Status != "open" {
		t.Errorf("B after the update: %+v; want revisionMergedAncestor %s, not outdated, initial %s, open", after, merged, base)
	}
	rev := e.revision(t, b+"/content")
	if rev.Type != "update" || !slices.Equal(rev.Parents, []string{before.Revision, merged}) {
		t.Errorf("update revision %s parents %v; want update with [%s %s]", rev.Type, rev.Parents, before.Revision, merged)
	}
	// The space's pages come first, where a merge without the update puts them.
	want := []string{"home Home: Welcome home.\n", "alpha Alpha: From A.\n", "beta Beta: From B.\n"}
	if diff := cmp.Diff(want, cmContent(rev.Pages)); diff != "" {
		t.Errorf("B's content after the update (-want +got):\n%s", diff)
	}
	// The space is not touched by an update.
	if sp := e.cmSpace(t, spaceID); sp.Revision != merged {
		t.Errorf("space moved to %s on update", sp.Revision)
	}

	// Already up to date: the same revision again.
	e.call(t, e.admin.token, "POST", b+"/update", nil).want(t, http.StatusOK).Decode(t, &res)
	if again := e.cmCR(t, b); res.Revision != after.Revision || again.Revision != after.Revision {
		t.Errorf("second update: %+v, request at %s; want %s", res, again.Revision, after.Revision)
	}

	// Authoring after the update builds on it, and the merge takes everything.
	e.author(t, e.admin.token, b, cmUpdatePage(cmIDs(rev.Pages)["Alpha"], "title", "Alpha, reviewed")).want(t, http.StatusOK)
	head := e.cmCR(t, b).Revision
	final := e.cmMerge(t, e.admin.token, b)
	live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
	if live.ID != final || !slices.Equal(live.Parents, []string{merged, head}) {
		t.Errorf("space revision %s parents %v; want %s with [%s %s]", live.ID, live.Parents, final, merged, head)
	}
	want = []string{"home Home: Welcome home.\n", "alpha Alpha, reviewed: From A.\n", "beta Beta: From B.\n"}
	if diff := cmp.Diff(want, cmContent(live.Pages)); diff != "" {
		t.Errorf("space after merging B (-want +got):\n%s", diff)
	}
	// A merged request cannot be updated.
	e.call(t, e.admin.token, "POST", a+"/update", nil).wantError(t, http.StatusBadRequest, "merged")
}

// cmTwoRequests seeds a space, opens two requests from the same base, applies
// each side's changes, merges the first, and returns the second's path.
func cmTwoRequests(t *testing.T, e *env, seed []map[string]any, sideA, sideB func(ids map[string]string) []map[string]any) (spaceID, crB string, ids map[string]string) {
	t.Helper()
	spaceID = e.crSpace(t)
	ids = e.cmSeed(t, spaceID, seed...)
	crA := e.cmNewCR(t, e.admin.token, spaceID)
	crB = e.cmNewCR(t, e.admin.token, spaceID)
	e.author(t, e.admin.token, crA, sideA(ids)...).want(t, http.StatusOK)
	e.author(t, e.admin.token, crB, sideB(ids)...).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, crA)
	return spaceID, crB, ids
}

func TestMergeSemantics(t *testing.T) {
	t.Parallel()
	doc := "# Doc\n\none\ntwo\nthree\nfour\nfive\n"

	t.Run("edits on different lines and pages are all taken", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		spaceID, b, _ := cmTwoRequests(t, e,
			[]map[string]any{insertPage("", doc), insertPage("", "# Old\n"), insertPage("", "# Older\n")},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{
					cmUpdatePage(ids["Doc"], "document", cmMarkdown("ONE\ntwo\nthree\nfour\nfive\n")),
					cmDeletePage(ids["Old"]),
					insertPage("", "# Alpha\n"),
				}
			},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{
					cmUpdatePage(ids["Doc"], "document", cmMarkdown("one\ntwo\nthree\nfour\nFIVE\n"), "description", "From B"),
					cmDeletePage(ids["Older"]),
					insertPage("", "# Beta\n"),
				}
			})
		e.cmMerge(t, e.admin.token, b)
		live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		want := []string{"doc Doc: ONE\ntwo\nthree\nfour\nFIVE\n", "alpha Alpha: ", "beta Beta: "}
		if diff := cmp.Diff(want, cmContent(live.Pages)); diff != "" {
			t.Errorf("merged content (-want +got):\n%s", diff)
		}
		if d := cmFind(t, live.Pages, "Doc").Description; d != "From B" {
			t.Errorf("description %q, want B's", d)
		}
	})

	t.Run("the same change on both sides is taken once", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		same := func(ids map[string]string) []map[string]any {
			return []map[string]any{cmUpdatePage(ids["Doc"], "title", "Document", "document", cmMarkdown("one\nTWO\nthree\nfour\nfive\nsix\n"))}
		}
		spaceID, b, _ := cmTwoRequests(t, e, []map[string]any{insertPage("", doc)}, same, same)
		e.cmMerge(t, e.admin.token, b)
		live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		if diff := cmp.Diff([]string{"doc Document: one\nTWO\nthree\nfour\nfive\nsix\n"}, cmContent(live.Pages)); diff != "" {
			t.Errorf("merged content (-want +got):\n%s", diff)
		}
	})

	t.Run("different edits of the same line conflict and change nothing", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		spaceID, b, _ := cmTwoRequests(t, e, []map[string]any{insertPage("", doc), insertPage("", "# Untouched\n")},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{cmUpdatePage(ids["Doc"], "document", cmMarkdown("one\ntwo\nthree by A\nfour\nfive\n"))}
			},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{
					cmUpdatePage(ids["Doc"], "document", cmMarkdown("one\ntwo\nthree by B\nfour\nfive\n")),
					insertPage("", "# Fine on its own\n"),
				}
			})
		e.call(t, e.admin.token, "PATCH", b, map[string]any{"status": "open"}).want(t, http.StatusOK)
		space := e.cmSpace(t, spaceID)
		liveBefore := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		crBefore := e.cmCR(t, b)

		e.call(t, e.admin.token, "POST", b+"/merge", nil).wantError(t, http.StatusConflict, `"Doc"`)
		e.call(t, e.admin.token, "POST", b+"/update", nil).wantError(t, http.StatusConflict, `"Doc"`)

		if after := e.cmSpace(t, spaceID); after.Revision != space.Revision || after.ChangeRequestsOpen != 1 {
			t.Errorf("space after the conflict: %+v, was %+v", after, space)
		}
		liveAfter := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		if diff := cmp.Diff(cmContent(liveBefore.Pages), cmContent(liveAfter.Pages)); diff != "" {
			t.Errorf("space content changed by a conflict (-before +after):\n%s", diff)
		}
		if c := e.cmCR(t, b); c != crBefore {
			t.Errorf("request after the conflict %+v, was %+v", c, crBefore)
		}
		if md := cmFind(t, e.revision(t, b+"/content").Pages, "Doc").Markdown; md != "one\ntwo\nthree by B\nfour\nfive\n" {
			t.Errorf("request content changed: %q", md)
		}
		// Resolving the conflict in the request (taking A's line) lets it merge.
		page := cmFind(t, liveBefore.Pages, "Doc")
		e.author(t, e.admin.token, b, cmUpdatePage(page.ID, "document", cmMarkdown("one\ntwo\nthree by A\nfour\nfive\n"))).want(t, http.StatusOK)
		e.cmMerge(t, e.admin.token, b)
		want := []string{"doc Doc: one\ntwo\nthree by A\nfour\nfive\n", "untouched Untouched: ", "fine-on-its-own Fine on its own: "}
		if diff := cmp.Diff(want, cmContent(e.revision(t, "/v1/spaces/"+spaceID+"/content").Pages)); diff != "" {
			t.Errorf("space after the resolved merge (-want +got):\n%s", diff)
		}
	})

	t.Run("deletion against edit conflicts both ways", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		spaceID, b, _ := cmTwoRequests(t, e, []map[string]any{insertPage("", "# First\n\nbody\n"), insertPage("", "# Second\n\nbody\n")},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{cmDeletePage(ids["First"]), cmUpdatePage(ids["Second"], "document", cmMarkdown("edited by A\n"))}
			},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{cmUpdatePage(ids["First"], "document", cmMarkdown("edited by B\n")), cmDeletePage(ids["Second"])}
			})
		head := e.cmSpace(t, spaceID).Revision
		e.call(t, e.admin.token, "POST", b+"/merge", nil).wantError(t, http.StatusConflict, `"First"`, `"Second"`, "deleted")
		if sp := e.cmSpace(t, spaceID); sp.Revision != head {
			t.Errorf("space moved on a conflict")
		}
		if c := e.cmCR(t, b); c.Status != "draft" || c.RevisionMerged != "" {
			t.Errorf("request after the conflict: %+v", c)
		}
	})

	t.Run("a move on one side and a rename on the other are both applied", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		spaceID, b, ids := cmTwoRequests(t, e,
			[]map[string]any{insertPage("parent", "# Parent\n"), insertPage("", "# Sibling\n", "into", "parent"), insertPage("", "# Child\n\nText.\n")},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{cmUpdatePage(ids["Child"], "into", ids["Parent"], "at", 0)}
			},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{cmUpdatePage(ids["Child"], "title", "Renamed child", "slug", "renamed")}
			})
		e.cmMerge(t, e.admin.token, b)
		live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		want := []string{"parent Parent", "parent/renamed Renamed child", "parent/sibling Sibling"}
		if diff := cmp.Diff(want, cmOutline(live.Pages)); diff != "" {
			t.Errorf("merged tree (-want +got):\n%s", diff)
		}
		if got := cmFind(t, live.Pages, "Renamed child"); got.ID != ids["Child"] || got.Markdown != "Text.\n" {
			t.Errorf("moved and renamed page %+v", got)
		}
	})

	t.Run("pages added at the same place on both sides keep distinct paths", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		spaceID, b, ids := cmTwoRequests(t, e, []map[string]any{insertPage("parent", "# Parent\n"), insertPage("", "# Child\n\nMoved by A.\n")},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{insertPage("", "# FAQ\n\nBy A.\n"), cmUpdatePage(ids["Child"], "into", ids["Parent"])}
			},
			func(ids map[string]string) []map[string]any {
				return []map[string]any{insertPage("", "# FAQ\n\nBy B.\n"), insertPage("", "# Child\n\nAdded by B.\n", "into", ids["Parent"])}
			})
		liveBefore := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		// Pulling the space into B renames B's pages, not the live ones.
		e.call(t, e.admin.token, "POST", b+"/update", nil).want(t, http.StatusOK)
		want := []string{"parent Parent: ", "parent/child Child: Moved by A.\n", "parent/child-2 Child: Added by B.\n", "faq FAQ: By A.\n", "faq-2 FAQ: By B.\n"}
		if diff := cmp.Diff(want, cmContent(e.revision(t, b+"/content").Pages)); diff != "" {
			t.Errorf("B after the update (-want +got):\n%s", diff)
		}
		e.cmMerge(t, e.admin.token, b)
		live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		if diff := cmp.Diff(want, cmContent(live.Pages)); diff != "" {
			t.Errorf("space after the merge (-want +got):\n%s", diff)
		}
		// The live pages kept their paths; each page is reachable by its own.
		for _, p := range []string{"faq", "parent/child"} {
			var page pageOut
			e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/content/path/"+p, nil).want(t, http.StatusOK).Decode(t, &page)
			if page.ID != cmFind(t, liveBefore.Pages, page.Title).ID {
				t.Errorf("path %s is now page %s (%s)", p, page.ID, page.Markdown)
			}
		}
		var page pageOut
		e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/content/path/faq-2", nil).want(t, http.StatusOK).Decode(t, &page)
		if page.Markdown != "By B.\n" || page.ID == ids["FAQ"] {
			t.Errorf("faq-2 is %+v", page)
		}
	})

	t.Run("adding under a page the other side deleted conflicts", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		_, b, _ := cmTwoRequests(t, e, []map[string]any{insertPage("", "# Section\n")},
			func(ids map[string]string) []map[string]any { return []map[string]any{cmDeletePage(ids["Section"])} },
			func(ids map[string]string) []map[string]any {
				return []map[string]any{insertPage("", "# Orphan\n", "into", ids["Section"])}
			})
		e.call(t, e.admin.token, "POST", b+"/merge", nil).wantError(t, http.StatusConflict, `"Orphan"`)
	})

	t.Run("merge revision, merged request and merging twice", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		spaceID := e.crSpace(t)
		e.cmSeed(t, spaceID, insertPage("", doc))
		cr := e.cmNewCR(t, e.admin.token, spaceID)
		other := e.cmNewCR(t, e.admin.token, spaceID)
		e.call(t, e.admin.token, "PATCH", other, map[string]any{"status": "open"}).want(t, http.StatusOK)
		e.author(t, e.admin.token, cr, insertPage("", "# New\n")).want(t, http.StatusOK)
		head := e.cmSpace(t, spaceID).Revision
		crHead := e.cmCR(t, cr).Revision
		if e.cmCR(t, other).Outdated {
			t.Errorf("other request outdated before the merge")
		}

		revision := e.cmMerge(t, e.admin.token, cr)
		live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
		if live.ID != revision || live.Type != "merge" || !slices.Equal(live.Parents, []string{head, crHead}) {
			t.Errorf("space revision %s (%s) parents %v; want %s (merge) with [%s %s]", live.ID, live.Type, live.Parents, revision, head, crHead)
		}
		if sp := e.cmSpace(t, spaceID); sp.Revision != revision {
			t.Errorf("space revision %s, want %s", sp.Revision, revision)
		}
		c := e.cmCR(t, cr)
		if c.Status != "merged" || c.RevisionMerged != revision || c.Revision != crHead || c.Outdated {
			t.Errorf("merged request %+v; want merged with revisionMerged %s", c, revision)
		}
		if o := e.cmCR(t, other); !o.Outdated || o.Status != "open" {
			t.Errorf("other open request after the merge: %+v, want outdated", o)
		}
		e.call(t, e.admin.token, "POST", cr+"/merge", nil).wantError(t, http.StatusBadRequest, "merged")
		e.author(t, e.admin.token, cr, insertPage("", "# Late\n")).wantError(t, http.StatusBadRequest, "merged")
		e.call(t, e.admin.token, "PATCH", cr, map[string]any{"status": "open"}).wantError(t, http.StatusBadRequest, "status")
		if sp := e.cmSpace(t, spaceID); sp.Revision != revision {
			t.Errorf("space moved to %s after refused calls", sp.Revision)
		}
		// A request without changes merges as a no-op on the content.
		var res cmResult
		e.call(t, e.admin.token, "POST", other+"/merge", nil).want(t, http.StatusOK).Decode(t, &res)
		if after := e.revision(t, "/v1/spaces/"+spaceID+"/content"); !cmp.Equal(cmContent(after.Pages), cmContent(live.Pages)) || after.ID != res.Revision {
			t.Errorf("merging an empty request changed the content: %v", cmContent(after.Pages))
		}
	})
}

func TestChangeRequestSpaceCounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID := e.crSpace(t)
	counts := func(total, open, draft int) {
		t.Helper()
		sp := e.cmSpace(t, spaceID)
		if sp.ChangeRequests != total || sp.ChangeRequestsOpen != open || sp.ChangeRequestsDraft != draft {
			t.Errorf("counts %d total, %d open, %d draft; want %d, %d, %d", sp.ChangeRequests, sp.ChangeRequestsOpen, sp.ChangeRequestsDraft, total, open, draft)
		}
	}
	counts(0, 0, 0)
	first := e.cmNewCR(t, e.admin.token, spaceID)
	counts(1, 0, 1)
	e.call(t, e.admin.token, "PATCH", first, map[string]any{"status": "open"}).want(t, http.StatusOK)
	counts(1, 1, 0)
	second := e.cmNewCR(t, e.admin.token, spaceID)
	counts(2, 1, 1)
	e.author(t, e.admin.token, first, insertPage("", "# Page\n")).want(t, http.StatusOK)
	counts(2, 1, 1)
	e.cmMerge(t, e.admin.token, first)
	counts(2, 0, 1)
	e.cmMerge(t, e.admin.token, second)
	counts(2, 0, 0)
	if diff := cmp.Diff([]int{2, 1}, crNumbers(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/change-requests?status=merged")); diff != "" {
		t.Errorf("merged requests (-want +got):\n%s", diff)
	}
}

func TestDuplicateCopiesCurrentContent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID := e.crSpace(t)
	cr := e.cmNewCR(t, e.admin.token, spaceID)
	e.call(t, e.admin.token, "POST", cr+"/content", map[string]any{"changes": []map[string]any{
		insertPage("guide", "---\ndescription: How to\n---\n# Guide\n\nSee ![Logo](./logo)\n"),
		insertPage("step", "# Step\n\nDo it.\n", "into", "guide"),
		insertPage("", "# About\n\nUs.\n"),
		{"operation": "insert_files", "files": []map[string]any{{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": cmPNG(t)}}},
	}}).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, cr)
	orig := e.revision(t, "/v1/spaces/"+spaceID+"/content")

	var dup struct{ ID, Title, Revision string }
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/duplicate", nil).want(t, http.StatusCreated).Decode(t, &dup)
	if dup.ID == spaceID || dup.Title != "Handbook (copy)" {
		t.Fatalf("duplicate %+v", dup)
	}
	copied := e.revision(t, "/v1/spaces/"+dup.ID+"/content")
	if copied.ID != dup.Revision {
		t.Errorf("copy's content revision %s, space says %s", copied.ID, dup.Revision)
	}
	if diff := cmp.Diff(cmContent(orig.Pages), cmContent(copied.Pages)); diff != "" {
		t.Errorf("copied content (-original +copy):\n%s", diff)
	}
	if diff := cmp.Diff(cmIDs(orig.Pages), cmIDs(copied.Pages)); diff != "" {
		t.Errorf("copied page ids (-original +copy):\n%s", diff)
	}
	if g := cmFind(t, copied.Pages, "Guide"); g.Description != "How to" {
		t.Errorf("copied guide %+v", g)
	}
	if len(copied.Files) != 1 || copied.Files[0].Name != "logo.png" || copied.Files[0].ID != orig.Files[0].ID {
		t.Errorf("copied files %+v, original %+v", copied.Files, orig.Files)
	}
	var page pageOut
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+dup.ID+"/content/path/guide/step", nil).want(t, http.StatusOK).Decode(t, &page)
	if page.Title != "Step" {
		t.Errorf("copy's page by path: %+v", page)
	}

	// The copy and the original go their own ways.
	e.cmSeed(t, spaceID, insertPage("", "# Only in the original\n"))
	dupCR := e.cmNewCR(t, e.admin.token, dup.ID)
	e.author(t, e.admin.token, dupCR, cmUpdatePage(cmIDs(copied.Pages)["About"], "title", "About the copy")).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, dupCR)
	want := []string{"guide Guide", "guide/step Step", "about About", "only-in-the-original Only in the original"}
	if diff := cmp.Diff(want, cmOutline(e.revision(t, "/v1/spaces/"+spaceID+"/content").Pages)); diff != "" {
		t.Errorf("original (-want +got):\n%s", diff)
	}
	want = []string{"guide Guide", "guide/step Step", "about About the copy"}
	if diff := cmp.Diff(want, cmOutline(e.revision(t, "/v1/spaces/"+dup.ID+"/content").Pages)); diff != "" {
		t.Errorf("copy (-want +got):\n%s", diff)
	}
}

func TestAuthoringConcurrentBatches(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	initial := e.cmCR(t, cr).Revision
	const n = 10
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res := e.call(t, e.admin.token, "POST", cr+"/content", map[string]any{"changes": []map[string]any{
				insertPage("", fmt.Sprintf("# Page %d\n\nWritten by goroutine %d.\n", i, i)),
			}})
			if res.Status != http.StatusOK {
				t.Errorf("batch %d: %d %s", i, res.Status, res.Body)
			}
		})
	}
	wg.Wait()
	rev := e.revision(t, cr+"/content")
	got := titles(rev.Pages)
	slices.Sort(got)
	want := make([]string, n)
	for i := range n {
		want[i] = fmt.Sprintf("Page %d", i)
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages after %d concurrent batches (-want +got):\n%s", n, diff)
	}
	// Every batch is one revision, each on top of the previous one.
	id := rev.ID
	for range n {
		r := e.revision(t, "/v1/spaces/"+spaceID+"/revisions/"+id)
		if len(r.Parents) != 1 {
			t.Fatalf("revision %s parents %v", id, r.Parents)
		}
		id = r.Parents[0]
	}
	if id != initial {
		t.Errorf("%d revisions back from the head is %s, want the initial %s", n, id, initial)
	}
	e.cmMerge(t, e.admin.token, cr)
	if live := e.revision(t, "/v1/spaces/"+spaceID+"/content"); len(live.Pages) != n {
		t.Errorf("space has %d pages after the merge, want %d", len(live.Pages), n)
	}
}

func TestConcurrentMergesIntoOneSpace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID := e.crSpace(t)
	const n = 6
	crs := make([]string, n)
	for i := range n {
		crs[i] = e.cmNewCR(t, e.admin.token, spaceID)
		e.author(t, e.admin.token, crs[i], insertPage("", fmt.Sprintf("# Part %d\n", i))).want(t, http.StatusOK)
	}
	var wg sync.WaitGroup
	revisions := make([]string, n)
	for i, cr := range crs {
		wg.Go(func() {
			res := e.call(t, e.admin.token, "POST", cr+"/merge", nil)
			var out cmResult
			if res.Status != http.StatusOK || json.Unmarshal(res.Body, &out) != nil {
				t.Errorf("merge %d: %d %s", i, res.Status, res.Body)
			}
			revisions[i] = out.Revision
		})
	}
	wg.Wait()
	live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
	if got := titles(live.Pages); len(got) != n {
		t.Errorf("space pages %v after %d concurrent merges", got, n)
	}
	// The merges applied one after the other: each one's first parent is
	// the revision an earlier merge made.
	seen := map[string]bool{}
	for i, cr := range crs {
		c := e.cmCR(t, cr)
		if c.Status != "merged" || c.RevisionMerged != revisions[i] || seen[c.RevisionMerged] {
			t.Errorf("request %d: %+v; merge answered %s", i, c, revisions[i])
		}
		seen[c.RevisionMerged] = true
	}
	chain := 0
	for id := live.ID; seen[id]; chain++ {
		id = e.revision(t, "/v1/spaces/"+spaceID+"/revisions/"+id).Parents[0]
	}
	if chain != n {
		t.Errorf("%d of %d merge revisions on the space's first-parent chain", chain, n)
	}
}
