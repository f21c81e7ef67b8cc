package api_test

import (
	"github.com/quiredocs/quire/store"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type siteMCPServerOut struct {
	Object    string            `json:"object"`
	ID        string            `json:"id"`
	Name      string            `json:"name"`
	URL       string            `json:"url"`
	Transport string            `json:"transport"`
	Headers   map[string]string `json:"headers"`
	Condition string            `json:"condition"`
	URLs      struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// TestSiteMCPServers: a site's MCP servers are created, listed (paged),
// read, changed and deleted by those who manage the site, who alone read
// their headers; bad bodies are refused naming the field.
func TestSiteMCPServers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs"})
	path := sitePath(e, s.ID, "/mcp-servers")
	var a, b siteMCPServerOut
	siteRefCall(t, e, e.admin.token, "POST", path, map[string]any{"name": "Tools", "url": "https://mcp.example.com/sse",
		"headers": map[string]string{"Authorization": "Bearer x"}}, http.StatusCreated).Decode(t, &a)
	if a.Object != "site-mcp-server" || a.Transport != "sse" || a.Headers["Authorization"] != "Bearer x" || !strings.HasSuffix(a.URLs.Location, "/mcp-servers/"+a.ID) {
		t.Errorf("created %+v", a)
	}
	siteRefCall(t, e, e.admin.token, "POST", path, map[string]any{"name": "More", "url": "https://more.example.com/mcp", "transport": "http",
		"headers": map[string]string{}, "condition": `visitor.claims.plan == "pro"`}, http.StatusCreated).Decode(t, &b)
	var list listOut[siteMCPServerOut]
	siteRefCall(t, e, e.admin.token, "GET", path+"?limit=1", nil, http.StatusOK).Decode(t, &list)
	if list.Count != 2 || len(list.Items) != 1 || list.Items[0].ID != a.ID || list.Next == nil {
		t.Fatalf("first page %+v", list)
	}
	var second listOut[siteMCPServerOut]
	siteRefCall(t, e, e.admin.token, "GET", path+"?limit=1&page="+list.Next.Page, nil, http.StatusOK).Decode(t, &second)
	if len(second.Items) != 1 || second.Items[0].ID != b.ID || second.Next != nil {
		t.Errorf("second page %+v", second)
	}
	var got, read siteMCPServerOut
	siteRefCall(t, e, e.admin.token, "PATCH", path+"/"+b.ID, map[string]any{"name": "Renamed", "condition": nil, "headers": map[string]string{"X-Key": "k"}}, http.StatusOK).Decode(t, &got)
	if got.Name != "Renamed" || got.Condition != "" || got.Transport != "http" || len(got.Headers) != 1 || got.URL != b.URL {
		t.Errorf("patched %+v", got)
	}
	siteRefCall(t, e, e.admin.token, "GET", path+"/"+b.ID, nil, http.StatusOK).Decode(t, &read)
	if read.Name != "Renamed" || len(read.Headers) != 1 || read.Headers["X-Key"] != "k" {
		t.Errorf("read %+v", read)
	}

	for _, c := range []struct {
		method, path string
		body         any
		want         string
	}{
		{"POST", path, map[string]any{"url": "https://x.example.com", "headers": map[string]string{}}, "name"},
		{"POST", path, map[string]any{"name": "N", "headers": map[string]string{}}, "url"},
		{"POST", path, map[string]any{"name": "N", "url": "https://x.example.com"}, "headers"},
		{"POST", path, map[string]any{"name": "N", "url": "ftp://x.example.com", "headers": map[string]string{}}, "url"},
		{"POST", path, map[string]any{"name": "N", "url": "https://x.example.com", "headers": map[string]string{}, "transport": "smoke"}, "transport"},
		{"POST", path, map[string]any{"name": "N", "url": "https://x.example.com", "headers": map[string]string{"Bad Name": "v"}}, "headers"},
		{"PATCH", path + "/" + a.ID, map[string]any{"name": strings.Repeat("n", 101)}, "name"},
		{"PATCH", path + "/" + a.ID, map[string]any{"condition": "visitor.claims.plan =="}, "condition"},
	} {
		e.call(t, e.admin.token, c.method, c.path, c.body).wantError(t, http.StatusBadRequest, c.want)
	}
	siteRefCall(t, e, e.admin.token, "PATCH", path+"/nope", map[string]any{"name": "x"}, http.StatusNotFound)

	// Headers hold credentials: editors and readers see no MCP server.
	editor, reader := e.addUser(t, "edit", "Eddie Editor"), e.addUser(t, "read", "Rita Reader")
	for _, u := range []user{editor, reader} {
		e.call(t, u.token, "GET", path, nil).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "GET", path+"/"+a.ID, nil).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "DELETE", path+"/"+a.ID, nil).wantError(t, http.StatusForbidden)
	}
	e.call(t, e.outsider(t).token, "GET", path, nil).wantError(t, http.StatusNotFound)

	// Deleting answers 205, then 204 once there is nothing to delete.
	siteRefCall(t, e, e.admin.token, "DELETE", path+"/"+a.ID, nil, http.StatusResetContent)
	siteRefCall(t, e, e.admin.token, "DELETE", path+"/"+a.ID, nil, http.StatusNoContent)
	siteRefCall(t, e, e.admin.token, "GET", path+"/"+a.ID, nil, http.StatusNotFound)
}

type siteExternalLinkOut struct {
	Object       string `json:"object"`
	ID           string `json:"id"`
	Title        string `json:"title"`
	Description  string `json:"description"`
	URL          string `json:"url"`
	SectionGroup string `json:"sectionGroup"`
	Draft        bool   `json:"draft"`
	Condition    string `json:"condition"`
}

// TestSiteExternalLinks: external links go beside a site's sections, at
// the root or in a group; the published site shows them (not drafts, nor
// those whose condition the visitor does not meet).
func TestSiteExternalLinks(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	guide := siteNewSpace(t, e.env, "Guide")
	e.cmSeed(t, guide, insertPage("start", "# Start\n\nWelcome.\n"))
	s := siteCreate(t, e.env, map[string]any{"title": "Docs", "spaces": []string{guide}})
	path := sitePath(e.env, s.ID, "/external-links")
	// A site without sections has no place for them.
	e.call(t, e.admin.token, "POST", path, map[string]any{"title": "Status", "url": "https://status.example.com"}).wantError(t, http.StatusBadRequest, "sections")
	sec := siteCall[siteSection](t, e.env, "POST", sitePath(e.env, s.ID, "/sections"), map[string]any{"spaceId": siteNewSpace(t, e.env, "API")}, http.StatusCreated)
	var group struct{ ID string }
	e.call(t, e.admin.token, "POST", sitePath(e.env, s.ID, "/section-groups"), map[string]any{"title": "More", "sections": []string{sec.ID}}).want(t, http.StatusCreated).Decode(t, &group)

	var root, inGroup, draft siteExternalLinkOut
	siteRefCall(t, e.env, e.admin.token, "POST", path, map[string]any{"title": "Status page", "url": "https://status.example.com/", "description": "Uptime"}, http.StatusCreated).Decode(t, &root)
	if root.Object != "site-external-link" || root.SectionGroup != "" || root.Draft || root.Description != "Uptime" {
		t.Errorf("root link %+v", root)
	}
	res := siteRefCall(t, e.env, e.admin.token, "POST", path, map[string]any{"title": "Community", "url": "https://forum.example.com/", "parent": group.ID}, http.StatusCreated)
	res.Decode(t, &inGroup)
	if inGroup.SectionGroup != group.ID || !strings.HasSuffix(res.Header.Get("Location"), "/external-links/"+inGroup.ID) {
		t.Errorf("group link %+v, Location %q", inGroup, res.Header.Get("Location"))
	}
	siteRefCall(t, e.env, e.admin.token, "POST", path, map[string]any{"title": "Secret plans", "url": "https://plans.example.com/", "draft": true}, http.StatusCreated).Decode(t, &draft)
	siteRefCall(t, e.env, e.admin.token, "POST", path, map[string]any{"title": "Pro desk", "url": "https://pro.example.com/", "condition": `visitor.claims.plan == "pro"`}, http.StatusCreated)

	for _, c := range []struct {
		body any
		want string
	}{
		{map[string]any{"url": "https://x.example.com"}, "title"},
		{map[string]any{"title": "X"}, "title"},
		{map[string]any{"title": "Xy"}, "url"},
		{map[string]any{"title": "Xy", "url": "javascript:alert(1)"}, "url"},
		{map[string]any{"title": "Xy", "url": "https://x.example.com", "parent": "nogroup"}, "parent"},
		{map[string]any{"title": "Xy", "url": "https://x.example.com", "localizedTitle": map[string]any{"fr": "X"}}, "localizedTitle"},
		{map[string]any{"title": "Xy", "url": "https://x.example.com", "condition": "visitor.claims.plan =="}, "condition"},
	} {
		e.call(t, e.admin.token, "POST", path, c.body).wantError(t, http.StatusBadRequest, c.want)
	}

	// The published site shows the visible links among its tabs.
	e.call(t, e.admin.token, "PATCH", sitePath(e.env, s.ID, ""), map[string]any{"published": true}).want(t, http.StatusOK)
	page := e.page(t, "/sites/"+s.ID+"/")
	for _, want := range []string{`href="https://status.example.com/"`, ">Status page<", `href="https://forum.example.com/"`} {
		if !strings.Contains(page, want) {
			t.Errorf("published page lacks %s", want)
		}
	}
	for _, hidden := range []string{"Secret plans", "Pro desk"} {
		if strings.Contains(page, hidden) {
			t.Errorf("published page shows %s", hidden)
		}
	}

	// PATCH: move to the root, undraft, return=minimal.
	var got siteExternalLinkOut
	siteRefCall(t, e.env, e.admin.token, "PATCH", path+"/"+inGroup.ID, map[string]any{"parent": nil, "title": "Forum"}, http.StatusOK).Decode(t, &got)
	if got.SectionGroup != "" || got.Title != "Forum" || got.URL != inGroup.URL {
		t.Errorf("moved %+v", got)
	}
	req := httptest.NewRequestWithContext(t.Context(), "PATCH", path+"/"+draft.ID, strings.NewReader(`{"draft":false}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.admin.token)
	req.Header.Set("Prefer", "return=minimal")
	if res := e.do(t, req); res.Status != http.StatusNoContent || res.Header.Get("Preference-Applied") != "return=minimal" {
		t.Errorf("return=minimal: %d %v", res.Status, res.Header)
	}
	if page := e.page(t, "/sites/"+s.ID+"/"); !strings.Contains(page, "Secret plans") || !strings.Contains(page, ">Forum<") {
		t.Errorf("after the changes, the published page lacks them")
	}
	e.call(t, e.admin.token, "PATCH", path+"/"+root.ID, map[string]any{"url": "mailto:x@example.com"}).wantError(t, http.StatusBadRequest, "url")
	siteRefCall(t, e.env, e.admin.token, "PATCH", path+"/nope", map[string]any{"title": "Xy"}, http.StatusNotFound)

	// Editors and readers may not change them; outsiders see no site.
	editor := e.addUser(t, "edit", "Eddie Editor")
	e.call(t, editor.token, "POST", path, map[string]any{"title": "Xy", "url": "https://x.example.com"}).wantError(t, http.StatusForbidden)
	e.call(t, editor.token, "DELETE", path+"/"+root.ID, nil).wantError(t, http.StatusForbidden)
	e.call(t, e.outsider(t).token, "DELETE", path+"/"+root.ID, nil).wantError(t, http.StatusNotFound)

	siteRefCall(t, e.env, e.admin.token, "DELETE", path+"/"+root.ID, nil, http.StatusResetContent)
	siteRefCall(t, e.env, e.admin.token, "DELETE", path+"/"+root.ID, nil, http.StatusNoContent)
	if page := e.page(t, "/sites/"+s.ID+"/"); strings.Contains(page, "Status page") {
		t.Errorf("the deleted link is still shown")
	}
}

// page reads a published page as an anonymous visitor and wants 200.
func (e *siteEnv) page(t *testing.T, path string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	e.sites.Wrap(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), "GET", path, nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, rec.Code, body)
	}
	return string(body)
}

// TestSiteIntegrations: a site lists the integrations installed for all
// the organization's sites that target sites; it loads no script.
func TestSiteIntegrations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs"})
	path := sitePath(e, s.ID, "/integrations")
	var list listOut[map[string]any]
	siteRefCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 0 || len(list.Items) != 0 {
		t.Errorf("before any installation: %+v", list)
	}
	for _, in := range []struct{ name, target string }{{"analytics", "site"}, {"everywhere", "all"}, {"spaces-only", "space"}, {"not-installed", "site"}} {
		b := integBody(e)
		b["target"], b["title"] = in.target, "Integration "+in.name
		integPublish(t, e, e.admin.token, in.name, b)
		if in.name != "not-installed" {
			if _, err := e.db.CreateIntegrationInstallation(t.Context(), in.name, e.org, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	siteRefCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 2 || len(list.Items) != 2 || list.Items[0]["name"] != "analytics" || list.Items[1]["name"] != "everywhere" {
		t.Errorf("site integrations: %+v", list)
	}
	// An installation for selected sites lists on the sites it was set up on.
	b := integBody(e)
	b["target"], b["title"] = "site", "Integration chosen"
	integPublish(t, e, e.admin.token, "chosen", b)
	inst, err := e.db.CreateIntegrationInstallation(t.Context(), "chosen", e.org, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	selected := "selected"
	if _, err := e.db.UpdateIntegrationInstallation(t.Context(), "chosen", inst.ID, store.InstallationUpdate{SiteSelection: &selected}); err != nil {
		t.Fatal(err)
	}
	siteRefCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 2 {
		t.Errorf("before the site is chosen: %+v", list)
	}
	if _, err := e.db.InstallOnContent(t.Context(), store.SiteInstallations, inst, s.ID); err != nil {
		t.Fatal(err)
	}
	siteRefCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 3 || list.Items[1]["name"] != "chosen" {
		t.Errorf("once the site is chosen: %+v", list)
	}
	siteRefCall(t, e, e.admin.token, "GET", path+"?search=EVERY", nil, http.StatusOK).Decode(t, &list)
	if list.Count != 1 || list.Items[0]["name"] != "everywhere" {
		t.Errorf("searched: %+v", list)
	}
	res := siteRefCall(t, e, e.admin.token, "GET", sitePath(e, s.ID, "/integration-scripts"), nil, http.StatusOK)
	if strings.TrimSpace(string(res.Body)) != "[]" {
		t.Errorf("scripts %s", res.Body)
	}
	reader := e.addUser(t, "read", "Rita Reader")
	siteRefCall(t, e, reader.token, "GET", path, nil, http.StatusOK)
	e.call(t, e.outsider(t).token, "GET", path, nil).wantError(t, http.StatusNotFound)
	e.call(t, e.outsider(t).token, "GET", sitePath(e, s.ID, "/integration-scripts"), nil).wantError(t, http.StatusNotFound)
}
