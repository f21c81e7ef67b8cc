package app_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
)

// editing is a world with a change request opened by "Edit" on the
// install page: its editor's address and where its posts go.
type editing struct {
	*world
	b      *browser
	cr     string
	editor string // the editor's path
	post   string
	page   string // the install page's id
	base   string // the change request's revision the editor shows
}

var (
	baseValue = regexp.MustCompile(`name="base" value="([^"]+)"`)
	pageValue = regexp.MustCompile(`name="page" value="([^"]+)"`)
	crInPath  = regexp.MustCompile(`/changes/([^/]+)/edit/`)
)

func startEditing(t *testing.T) *editing {
	t.Helper()
	w := newWorld(t)
	e := &editing{world: w, b: w.browser(t)}
	e.b.signIn(t, w.admin)
	if a := e.b.get(t, "/s/"+w.space+"/install"); !strings.Contains(a.body, `id="edit-page"`) {
		t.Fatalf("space page: no Edit button for the admin")
	}
	a := e.b.post(t, "/s/"+w.space+"/edit", url.Values{"path": {"install"}})
	m := crInPath.FindStringSubmatch(a.location)
	if a.status != http.StatusSeeOther || m == nil || !strings.HasSuffix(a.location, "/edit/install") {
		t.Fatalf("Edit: %d to %q, want the editor of install", a.status, a.location)
	}
	e.cr, e.editor = m[1], a.location
	e.post = "/s/" + w.space + "/changes/" + e.cr + "/editor"
	e.reload(t)
	return e
}

// reload opens the editor again, reading its page and base.
func (e *editing) reload(t *testing.T) answer {
	t.Helper()
	a := e.b.get(t, e.editor)
	if a.status != http.StatusOK {
		t.Fatalf("GET %s: %d: %s", e.editor, a.status, a.body)
	}
	e.base, e.page = baseValue.FindStringSubmatch(a.body)[1], pageValue.FindStringSubmatch(a.body)[1]
	return a
}

// fetch posts form as the editor's script does: token in the header,
// answer as JSON.
func (e *editing) fetch(t *testing.T, path string, form url.Values, out any) answer {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-CSRF-Token", e.b.csrf)
	req.Header.Set("Origin", e.srv.URL)
	a := e.b.do(t, req)
	if out != nil {
		if err := json.Unmarshal([]byte(a.body), out); err != nil {
			t.Fatalf("POST %s: decode %q: %v", path, a.body, err)
		}
	}
	return a
}

// crTree is the change request's content now, read from the store.
func (e *editing) crTree(t *testing.T) (*content.Tree, *content.Index) {
	t.Helper()
	c, err := e.db.ChangeRequest(t.Context(), e.space, e.cr)
	if err != nil {
		t.Fatal(err)
	}
	_, tree, err := e.db.RevisionTree(t.Context(), e.space, c.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	return tree, content.NewIndex(tree)
}

// crPage is the title and markdown of the change request's page at path.
func (e *editing) crPage(t *testing.T, path string) (title, markdown string) {
	t.Helper()
	tree, x := e.crTree(t)
	pg := tree.Pages[x.ByPath[path]]
	if pg == nil {
		t.Fatalf("the change request has no page at %s", path)
	}
	return pg.Title, pg.Markdown
}

func TestEditSave(t *testing.T) {
	t.Parallel()
	e := startEditing(t)
	var saved struct{ Revision, URL string }
	a := e.fetch(t, e.post+"/save", url.Values{"page": {e.page}, "base": {e.base}, "title": {"Install"},
		"markdown": {"Run the **new** installer.\n\n{% hint style=\"info\" %}\nAs root.\n{% endhint %}\n"}}, &saved)
	if a.status != http.StatusOK || saved.Revision == "" || saved.Revision == e.base {
		t.Fatalf("save: %d %+v", a.status, saved)
	}
	if title, md := e.crPage(t, "install"); title != "Install" || !strings.Contains(md, "**new** installer") {
		t.Errorf("the change request's install page: %q, %q", title, md)
	}
	// The space is unchanged until the change request is merged.
	if a := e.b.get(t, "/s/"+e.space+"/install"); strings.Contains(a.body, "new</strong> installer") {
		t.Errorf("the space shows the unmerged save")
	}
	// "Edit" again opens the same change request.
	if a := e.b.post(t, "/s/"+e.space+"/edit", url.Values{"path": {"welcome"}}); !strings.Contains(a.location, "/changes/"+e.cr+"/edit/welcome") {
		t.Errorf("Edit again: to %q, want change request %s", a.location, e.cr)
	}
	a = e.reload(t)
	if !strings.Contains(a.body, "new</strong> installer") || !strings.Contains(a.body, "hint") {
		t.Errorf("the editor does not show the saved page rendered")
	}
}

func TestEditConflict(t *testing.T) {
	t.Parallel()
	e := startEditing(t)
	old := e.base
	// Another writer saves through the API.
	e.api(t, e.token, "POST", "/v1/spaces/"+e.space+"/change-requests/"+e.cr+"/content", map[string]any{"changes": []any{
		map[string]any{"operation": "update_page", "page": e.page, "document": map[string]any{"markdown": "Theirs."}}}}, http.StatusOK, nil)
	var refused struct{ Error, Revision string }
	a := e.fetch(t, e.post+"/save", url.Values{"page": {e.page}, "base": {old}, "title": {"Install"}, "markdown": {"Mine."}}, &refused)
	if a.status != http.StatusConflict || refused.Revision == "" || refused.Revision == old || refused.Error == "" {
		t.Fatalf("save on an old base: %d %+v, want 409 with the new revision", a.status, refused)
	}
	if _, md := e.crPage(t, "install"); !strings.Contains(md, "Theirs.") {
		t.Errorf("after the refused save: %q, want theirs kept", md)
	}
	// Overwrite: the same save on the revision the conflict named.
	a = e.fetch(t, e.post+"/save", url.Values{"page": {e.page}, "base": {refused.Revision}, "title": {"Install"}, "markdown": {"Mine."}}, nil)
	if a.status != http.StatusOK {
		t.Fatalf("overwrite: %d %s", a.status, a.body)
	}
	if _, md := e.crPage(t, "install"); !strings.Contains(md, "Mine.") {
		t.Errorf("after overwrite: %q, want mine", md)
	}
	// A form without a base is refused: a save always says what it saw.
	if a := e.fetch(t, e.post+"/save", url.Values{"page": {e.page}, "title": {"Install"}, "markdown": {"x"}}, nil); a.status != http.StatusBadRequest {
		t.Errorf("save without a base: %d, want 400", a.status)
	}
}

// Without the editor's script, a save someone else's save overtook shows
// the editor again with the writer's text kept, and saving that form
// overwrites theirs.
func TestEditConflictWithoutScript(t *testing.T) {
	t.Parallel()
	e := startEditing(t)
	old := e.base
	e.api(t, e.token, "POST", "/v1/spaces/"+e.space+"/change-requests/"+e.cr+"/content", map[string]any{"changes": []any{
		map[string]any{"operation": "update_page", "page": e.page, "document": map[string]any{"markdown": "Theirs."}}}}, http.StatusOK, nil)
	a := e.b.post(t, e.post+"/save", url.Values{"page": {e.page}, "base": {old}, "title": {"Install"}, "markdown": {"Mine, by hand."}})
	if a.status != http.StatusConflict || !strings.Contains(a.body, "Someone else saved") || !strings.Contains(a.body, "Mine, by hand.") {
		t.Fatalf("plain save on an old base: %d, want 409 with the writer's text kept: %s", a.status, a.body)
	}
	if _, md := e.crPage(t, "install"); !strings.Contains(md, "Theirs.") {
		t.Errorf("after the refused save: %q, want theirs kept", md)
	}
	m := regexp.MustCompile(`name="base" value="([^"]+)"`).FindStringSubmatch(a.body)
	if m == nil || m[1] == old {
		t.Fatalf("the form's base %v, want the request's revision now", m)
	}
	if a := e.b.post(t, e.post+"/save", url.Values{"page": {e.page}, "base": {m[1]}, "title": {"Install"}, "markdown": {"Mine, by hand."}}); a.status != http.StatusSeeOther {
		t.Fatalf("saving again: %d %s", a.status, a.body)
	}
	if _, md := e.crPage(t, "install"); !strings.Contains(md, "Mine, by hand.") {
		t.Errorf("after saving again: %q, want mine", md)
	}
}

func TestEditPreview(t *testing.T) {
	t.Parallel()
	e := startEditing(t)
	req, _ := http.NewRequestWithContext(t.Context(), "POST", e.srv.URL+e.post+"/preview", strings.NewReader(url.Values{
		"page": {e.page}, "markdown": {"# Title\n\nSee [Welcome](welcome) <script>alert(1)</script> and <b onclick=x>bold</b>\n\n{% hint style=\"warning\" %}\nCareful\n{% endhint %}"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", e.b.csrf)
	a := e.b.do(t, req)
	if a.status != http.StatusOK {
		t.Fatalf("preview: %d %s", a.status, a.body)
	}
	for _, bad := range []string{"<script", "onclick", "<b "} {
		if strings.Contains(a.body, bad) {
			t.Errorf("preview keeps %q: %s", bad, a.body)
		}
	}
	for _, want := range []string{"Careful", `href="/s/` + e.space + `/changes/` + e.cr + `/edit/welcome"`} {
		if !strings.Contains(a.body, want) {
			t.Errorf("preview lacks %q: %s", want, a.body)
		}
	}
	// Bounded: a body over the limit is refused unread.
	req, _ = http.NewRequestWithContext(t.Context(), "POST", e.srv.URL+e.post+"/preview", strings.NewReader("markdown="+strings.Repeat("a", 4<<20)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", e.b.csrf)
	if a := e.b.do(t, req); a.status < 400 || a.status >= 500 {
		t.Errorf("a 4 MiB preview: %d, want refused", a.status)
	}
}

// tinyPNG is a 2×2 image.
func tinyPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func (e *editing) upload(t *testing.T, name string, data []byte) answer {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", e.srv.URL+e.post+"/files?base="+e.base, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-CSRF-Token", e.b.csrf)
	return e.b.do(t, req)
}

func TestEditUpload(t *testing.T) {
	t.Parallel()
	e := startEditing(t)
	a := e.upload(t, "shot.png", tinyPNG(t))
	var up struct {
		ID, Name, Revision, Markdown string
		OnBase                       bool
	}
	if err := json.Unmarshal([]byte(a.body), &up); a.status != http.StatusOK || err != nil {
		t.Fatalf("upload: %d %s", a.status, a.body)
	}
	if up.Markdown != "![shot](/files/"+up.ID+")" || !up.OnBase || up.Revision == e.base {
		t.Errorf("upload answered %+v", up)
	}
	var files struct{ Items []struct{ ID, Name string } }
	e.api(t, e.token, "GET", "/v1/spaces/"+e.space+"/change-requests/"+e.cr+"/content/files", nil, http.StatusOK, &files)
	if len(files.Items) != 1 || files.Items[0].ID != up.ID || files.Items[0].Name != "shot.png" {
		t.Errorf("the change request's files: %+v", files.Items)
	}
	// The image shows in the preview, served from the request's revision.
	var saved struct{ Revision string }
	e.fetch(t, e.post+"/save", url.Values{"page": {e.page}, "base": {up.Revision}, "title": {"Install"}, "markdown": {up.Markdown}}, &saved)
	src := regexp.MustCompile(`<img[^>]+src="([^"]+)"`).FindStringSubmatch(e.reload(t).body)
	if src == nil {
		t.Fatal("the editor's preview shows no image")
	}
	if got := e.b.get(t, src[1]); got.status != http.StatusOK || !bytes.Equal([]byte(got.body), tinyPNG(t)) {
		t.Errorf("GET %s: %d", src[1], got.status)
	}
	if a := e.upload(t, "big.png", bytes.Repeat([]byte{1}, 1<<20+1)); a.status != http.StatusRequestEntityTooLarge {
		t.Errorf("a file over 1 MiB: %d, want 413", a.status)
	}
}

func TestEditPages(t *testing.T) {
	t.Parallel()
	e := startEditing(t)
	a := e.b.post(t, e.post+"/pages", url.Values{"title": {"Troubleshooting"}, "parent": {e.page}})
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "/edit/install/troubleshooting") {
		t.Fatalf("add: %d to %q", a.status, a.location)
	}
	e.editor = a.location
	e.reload(t)
	id := e.page
	a = e.b.post(t, e.post+"/pages/"+id+"/rename", url.Values{"title": {"Fixing problems"}, "slug": {"fixing"}})
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "/edit/install/fixing") {
		t.Fatalf("rename: %d to %q", a.status, a.location)
	}
	if title, _ := e.crPage(t, "install/fixing"); title != "Fixing problems" {
		t.Errorf("renamed: %q", title)
	}
	a = e.b.post(t, e.post+"/pages/"+id+"/move", url.Values{"parent": {""}, "position": {"1"}})
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "/edit/fixing") {
		t.Fatalf("move to the top, first: %d to %q", a.status, a.location)
	}
	if tree, _ := e.crTree(t); len(tree.Root) == 0 || tree.Root[0] != id {
		t.Errorf("after the move, the top pages are %v, want %s first", tree.Root, id)
	}
	a = e.b.post(t, e.post+"/pages/"+id+"/delete", nil)
	if a.status != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", a.status, a.body)
	}
	if _, x := e.crTree(t); x.ByPath["fixing"] != "" {
		t.Errorf("the deleted page is still at fixing")
	}
	if a := e.b.post(t, e.post+"/pages", url.Values{"title": {""}}); a.status != http.StatusBadRequest {
		t.Errorf("add without a title: %d, want 400", a.status)
	}
}

func TestEditPermissions(t *testing.T) {
	t.Parallel()
	e := startEditing(t)
	if _, err := e.db.AddUser(t.Context(), e.org, "rita@example.com", "Rita Reader", quire.RoleRead); err != nil {
		t.Fatal(err)
	}
	r := e.browser(t)
	r.signIn(t, "rita@example.com")
	if a := r.get(t, "/s/"+e.space+"/install"); a.status != http.StatusOK || strings.Contains(a.body, `id="edit-page"`) {
		t.Fatalf("a reader's space page: %d, Edit shown: %v", a.status, strings.Contains(a.body, `id="edit-page"`))
	}
	for _, tc := range []struct {
		path string
		form url.Values
	}{
		{"/s/" + e.space + "/edit", url.Values{"path": {"install"}}},
		{e.post + "/save", url.Values{"page": {e.page}, "base": {e.base}, "title": {"Hacked"}, "markdown": {"x"}}},
		{e.post + "/preview", url.Values{"markdown": {"x"}}},
		{e.post + "/pages", url.Values{"title": {"Hacked"}}},
		{e.post + "/pages/" + e.page + "/delete", nil},
	} {
		if a := r.post(t, tc.path, tc.form); a.status != http.StatusForbidden {
			t.Errorf("a reader's POST %s: %d, want 403", tc.path, a.status)
		}
	}
	if a := r.get(t, e.editor); a.status != http.StatusForbidden {
		t.Errorf("a reader's editor: %d, want 403", a.status)
	}
	// An outsider does not see the space at all.
	o := e.browser(t)
	o.signIn(t, e.outsider)
	o.get(t, "/tokens")
	if a := o.post(t, e.post+"/save", url.Values{"page": {e.page}, "base": {e.base}, "title": {"x"}}); a.status != http.StatusNotFound {
		t.Errorf("an outsider's save: %d, want 404: %s", a.status, regexp.MustCompile(`(?s)<main.*</main>`).FindString(a.body))
	}
	// CSRF: a save without the token, or from another site, is refused.
	if a := e.b.post(t, e.post+"/save", url.Values{"csrf": {"forged"}, "page": {e.page}, "base": {e.base}, "title": {"x"}}); a.status != http.StatusForbidden {
		t.Errorf("a save with a forged token: %d, want 403", a.status)
	}
	e.b.origin = "https://evil.example"
	if a := e.b.post(t, e.post+"/save", url.Values{"page": {e.page}, "base": {e.base}, "title": {"x"}}); a.status != http.StatusForbidden {
		t.Errorf("a cross-site save: %d, want 403", a.status)
	}
	if title, _ := e.crPage(t, "install"); title != "Install" {
		t.Errorf("after refused saves the page is titled %q", title)
	}
	// A merged change request is no longer edited.
	e.api(t, e.token, "POST", "/v1/spaces/"+e.space+"/change-requests/"+e.cr+"/merge", nil, http.StatusOK, nil)
	if a := e.b.get(t, e.editor); a.status != http.StatusBadRequest {
		t.Errorf("the editor of a merged change request: %d, want 400", a.status)
	}
}
