package app_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

// world is what the reading tests read: in the admin's organization, a
// collection holding a space of three pages, an open change request on it,
// a comment with a reply, and a published share-link site; and an outsider,
// admin of an organization of their own.
type world struct {
	*env
	collection, space, revision, cr, comment, site, sitePath string
	outsider, outsiderToken, outsiderSpace                   string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{env: newEnv(t)}
	var c struct{ ID string }
	w.api(t, w.token, "POST", "/v1/orgs/"+w.org+"/collections", map[string]any{"title": "Guides"}, http.StatusCreated, &c)
	w.collection = c.ID
	w.space = w.spaceIn(t, w.token, w.org, c.ID, "Handbook",
		page{ref: "install", title: "Install", markdown: "Run the **installer**.\n\n## Requirements\n\nA computer."},
		page{parent: "install", title: "Setup", markdown: "After [installing](../install.md), set it up."},
		page{title: "Welcome", markdown: "Start by reading [Install](install.md)."})
	var sp struct {
		RevisionID string `json:"revision"`
	}
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space, nil, http.StatusOK, &sp)
	w.revision = sp.RevisionID

	var cr struct{ ID string }
	w.api(t, w.token, "POST", "/v1/spaces/"+w.space+"/change-requests", map[string]any{"subject": "Add a FAQ"}, http.StatusCreated, &cr)
	w.cr = cr.ID
	w.api(t, w.token, "POST", "/v1/spaces/"+w.space+"/change-requests/"+cr.ID+"/content", map[string]any{"changes": []any{
		map[string]any{"operation": "insert_page", "title": "FAQ", "document": map[string]any{"markdown": "Questions."}}}}, http.StatusOK, nil)

	var pg struct{ ID string }
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/content/path/install", nil, http.StatusOK, &pg)
	var cm struct{ ID string }
	w.api(t, w.token, "POST", "/v1/spaces/"+w.space+"/comments", map[string]any{"page": pg.ID, "body": map[string]any{"markdown": "Which **OS**?"}}, http.StatusOK, &cm)
	w.comment = cm.ID
	w.api(t, w.token, "POST", "/v1/spaces/"+w.space+"/comments/"+cm.ID+"/replies", map[string]any{"body": map[string]any{"markdown": "Any of them."}}, http.StatusOK, nil)

	var site struct {
		ID   string
		URLs struct{ Published string }
	}
	w.api(t, w.token, "POST", "/v1/orgs/"+w.org+"/sites", map[string]any{"title": "Docs", "visibility": "share-link", "spaces": []string{w.space}}, http.StatusCreated, &site)
	w.api(t, w.token, "PATCH", "/v1/orgs/"+w.org+"/sites/"+site.ID, map[string]any{"published": true}, http.StatusOK, &site)
	w.site, w.sitePath = site.ID, strings.TrimPrefix(site.URLs.Published, w.srv.URL)

	w.outsider = "olga@example.org"
	b, err := w.db.InitOrganization(t.Context(), "Other Org", w.outsider, "Olga Outsider")
	if err != nil {
		t.Fatal(err)
	}
	w.outsiderToken = b.Token
	w.outsiderSpace = w.space2(t, b.Organization.ID)
	return w
}

func (w *world) space2(t *testing.T, org string) string {
	return w.env.space(t, w.outsiderToken, org, "Secrets", page{title: "Plans", markdown: "Hidden plans about installing."})
}

func TestReadingPermissions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	member, outsider, anon := w.browser(t), w.browser(t), w.browser(t)
	member.signIn(t, w.admin)
	outsider.signIn(t, w.outsider)
	for _, tc := range []struct {
		path     string
		member   int
		outsider int
		contains string // in the member's answer
	}{
		{"/o/" + w.org, 200, 404, "Handbook"},
		{"/o/" + w.org + "/search?q=installer", 200, 404, "Install"},
		{"/c/" + w.collection, 200, 404, "Handbook"},
		{"/s/" + w.space, 200, 404, "installer"},
		{"/s/" + w.space + "/install", 200, 404, "Which <strong>OS</strong>?"},
		{"/s/" + w.space + "/install/setup", 200, 404, "Setup"},
		{"/s/" + w.space + "/nope", 404, 404, ""},
		{"/s/" + w.space + "/revisions/" + w.revision, 200, 404, "past revision"},
		{"/s/" + w.space + "/revisions/" + w.revision + "?page=welcome", 200, 404, "Start by reading"},
		{"/s/" + w.space + "/changes/" + w.cr, 200, 404, "FAQ"},
		{"/s/" + w.space + "/comments/" + w.comment, 303, 404, ""},
		{"/o/" + w.org + "/sites/" + w.site, 200, 404, "Docs"},
		{"/o/" + w.org + "/openapi/none", 404, 404, ""},
		{"/integrations/none", 404, 404, ""},
		{"/s/" + w.outsiderSpace, 404, 200, ""},
		{"/tokens", 200, 200, "API tokens"},
	} {
		if a := member.get(t, tc.path); a.status != tc.member || !strings.Contains(a.body, tc.contains) {
			t.Errorf("member GET %s: %d, want %d with %q", tc.path, a.status, tc.member, tc.contains)
		}
		if a := outsider.get(t, tc.path); a.status != tc.outsider {
			t.Errorf("outsider GET %s: %d, want %d", tc.path, a.status, tc.outsider)
		}
		if a := anon.get(t, tc.path); a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/signin?next=") {
			t.Errorf("signed out GET %s: %d to %q, want 303 to sign in", tc.path, a.status, a.location)
		}
	}
}

func TestSpacePage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.browser(t)
	b.signIn(t, w.admin)
	a := b.get(t, "/s/"+w.space+"/install")
	for _, want := range []string{
		`<strong>installer</strong>`,                       // rendered
		`href="/s/` + w.space + `/install/setup"`,          // sidebar
		`id="requirements"`,                                // headings anchored
		`Linked from`, `href="/s/` + w.space + `/welcome"`, // backlinks
		`Any of them.`, `id="comment-` + w.comment + `"`, // comments and replies
		`Last updated`, `/revisions/` + w.revision, `by Ada`, // history
	} {
		if !strings.Contains(a.body, want) {
			t.Errorf("space page lacks %s", want)
		}
	}
	if a := b.get(t, "/s/"+w.space+"/comments/"+w.comment); a.location != "/s/"+w.space+"/install#comment-"+w.comment {
		t.Errorf("comment leads to %q", a.location)
	}
	// Search finds what the user reads, never another organization's.
	if a := b.get(t, "/o/"+w.org+"/search?q=installing"); !strings.Contains(a.body, "Setup") || strings.Contains(a.body, "Plans") {
		t.Errorf("search: %s", a.body)
	}
}

// TestAppLinks opens, in the app, every urls.app the API answers.
func TestAppLinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.browser(t)
	b.signIn(t, w.admin)
	type urls struct {
		URLs struct{ App string } `json:"urls"`
	}
	for _, tc := range []struct {
		path     string
		contains string
		pick     func(any) string
	}{
		{"/v1/orgs/" + w.org, "Handbook", nil},
		{"/v1/collections/" + w.collection, "Handbook", nil},
		{"/v1/spaces/" + w.space, "installer", nil},
		{"/v1/spaces/" + w.space + "/content", "installer", nil},
		{"/v1/spaces/" + w.space + "/revisions/" + w.revision, "past revision", nil},
		{"/v1/spaces/" + w.space + "/content/path/install/setup", "set it up", nil},
		{"/v1/spaces/" + w.space + "/change-requests/" + w.cr, "Add a FAQ", nil},
		{"/v1/orgs/" + w.org + "/sites/" + w.site, "share-link", nil},
	} {
		var got urls
		w.api(t, w.token, "GET", tc.path, nil, http.StatusOK, &got)
		link, ok := strings.CutPrefix(got.URLs.App, w.srv.URL)
		if !ok {
			t.Errorf("%s: urls.app %q is not on the server", tc.path, got.URLs.App)
			continue
		}
		if a := b.get(t, link); a.status != http.StatusOK || !strings.Contains(a.body, tc.contains) {
			t.Errorf("%s: urls.app %s answers %d, want 200 with %q", tc.path, link, a.status, tc.contains)
		}
	}
	var found struct {
		Items []struct {
			URLs     struct{ App string }
			Sections []struct{ URLs struct{ App string } }
		}
	}
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/search?query=requirements", nil, http.StatusOK, &found)
	if len(found.Items) == 0 || len(found.Items[0].Sections) == 0 {
		t.Fatalf("search found nothing")
	}
	for _, u := range []string{found.Items[0].URLs.App, found.Items[0].Sections[0].URLs.App} {
		link, anchor, _ := strings.Cut(strings.TrimPrefix(u, w.srv.URL), "#")
		a := b.get(t, link)
		if a.status != http.StatusOK || (anchor != "" && !strings.Contains(a.body, `id="`+anchor+`"`)) {
			t.Errorf("search urls.app %s: %d, anchor %q found: %v", u, a.status, anchor, strings.Contains(a.body, anchor))
		}
	}
	if got := quire.AppSpaceURL(w.srv.URL, w.space); !strings.HasPrefix(got, w.srv.URL+"/s/") {
		t.Errorf("AppSpaceURL = %q", got)
	}
}

// TestOtherPaths: the API, health and sites are not shadowed by the app,
// and paths of the app without a page answer its 404 page.
func TestOtherPaths(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.browser(t)
	b.signIn(t, w.admin)
	for path, want := range map[string]int{"/healthz": 200, "/v1/orgs/" + w.org: 401, "/s/": 404, "/o/" + w.org + "/nothing/here": 404} {
		if a := b.get(t, path); a.status != want {
			t.Errorf("GET %s: %d, want %d", path, a.status, want)
		}
	}
	if a := b.get(t, "/nothing"); a.status != 404 || !strings.Contains(a.header.Get("Content-Type"), "json") {
		t.Errorf("GET /nothing: %d %s, want the API's JSON 404", a.status, a.header.Get("Content-Type"))
	}
}

// TestSiteReadBySignedInMember: organization members signed in to the app
// read every site of their organization, without its share key.
func TestSiteReadBySignedInMember(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	member, outsider, anon := w.browser(t), w.browser(t), w.browser(t)
	member.signIn(t, w.admin)
	outsider.signIn(t, w.outsider)
	path, _, _ := strings.Cut(w.sitePath, "?")
	if a := anon.get(t, path); a.status != http.StatusNotFound {
		t.Errorf("anonymous, without the key: %d, want 404", a.status)
	}
	if a := outsider.get(t, path); a.status != http.StatusNotFound {
		t.Errorf("signed-in outsider: %d, want 404", a.status)
	}
	a := member.get(t, path)
	if a.status != http.StatusOK || !strings.Contains(a.body, "Welcome") {
		t.Fatalf("signed-in member: %d", a.status)
	}
	if cc := a.header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
		t.Errorf("member's answer is cacheable: %q", cc)
	}
	member.get(t, "/tokens") // a page with the session's CSRF token
	if a := member.post(t, "/signout", nil); a.status != http.StatusSeeOther {
		t.Fatalf("sign out: %d", a.status)
	}
	if a := member.get(t, path); a.status != http.StatusNotFound {
		t.Errorf("after signing out: %d, want 404", a.status)
	}
}
