package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// urlCall calls an operation as token's holder ("" for none), checks the
// answer against the whole reference and wants status.
func urlCall(t *testing.T, e *env, token, method, path string, body any, status int) *response {
	t.Helper()
	res := e.call(t, token, method, path, body)
	if ref := fullReference(t); ref != nil {
		u, _ := url.Parse(path)
		if err := ref.Check(method, strings.TrimPrefix(u.Path, "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res.want(t, status)
}

// TestContentByURL: app addresses of a space, a page, a change request and
// a collection resolve to what they show, for those who may see it.
func TestContentByURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID := e.crSpace(t)
	e.cmSeed(t, spaceID, insertPage("", "# Guide\n\nHello."))
	crPath := e.cmNewCR(t, e.admin.token, spaceID)
	crID := crPath[strings.LastIndexByte(crPath, '/')+1:]
	var coll struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/collections", map[string]any{"title": "Guides"}).want(t, http.StatusCreated).Decode(t, &coll)
	resolve := func(token, u string, status int) map[string]any {
		t.Helper()
		res := urlCall(t, e, token, "GET", "/v1/urls/content?url="+url.QueryEscape(u), nil, status)
		if status != http.StatusOK {
			return nil
		}
		return res.JSON(t)
	}
	id := func(v any) any { m, _ := v.(map[string]any); return m["id"] }

	got := resolve(e.admin.token, testPublicURL+"/s/"+spaceID, http.StatusOK)
	if id(got["space"]) != spaceID || got["page"] != nil {
		t.Errorf("space URL: %v", got)
	}
	got = resolve(e.admin.token, testPublicURL+"/s/"+spaceID+"/guide", http.StatusOK)
	if page, _ := got["page"].(map[string]any); id(got["space"]) != spaceID || page["title"] != "Guide" {
		t.Errorf("page URL: %v", got)
	}
	got = resolve(e.admin.token, testPublicURL+"/s/"+spaceID+"/changes/"+crID, http.StatusOK)
	if id(got["changeRequest"]) != crID {
		t.Errorf("change request URL: %v", got)
	}
	got = resolve(e.admin.token, testPublicURL+"/c/"+coll.ID, http.StatusOK)
	if id(got["collection"]) != coll.ID {
		t.Errorf("collection URL: %v", got)
	}

	// Embeds: the title of what an app address shows, else a plain link.
	embed := func(token, u string) map[string]any {
		t.Helper()
		return urlCall(t, e, token, "GET", "/v1/urls/embed?url="+url.QueryEscape(u), nil, http.StatusOK).JSON(t)
	}
	if got := embed(e.admin.token, testPublicURL+"/s/"+spaceID+"/guide"); got["type"] != "link" || got["title"] != "Guide" || got["site"] != "quire.test" {
		t.Errorf("page embed: %v", got)
	}
	if got := embed(e.admin.token, testPublicURL+"/s/"+spaceID); got["title"] != "Handbook" {
		t.Errorf("space embed: %v", got)
	}
	if got := embed(e.outsider(t).token, testPublicURL+"/s/"+spaceID); got["title"] != testPublicURL+"/s/"+spaceID {
		t.Errorf("an outsider's embed shows the title: %v", got)
	}
	if got := embed(e.admin.token, "https://example.org/a"); got["title"] != "https://example.org/a" || got["site"] != "example.org" {
		t.Errorf("other embed: %v", got)
	}

	resolve(e.admin.token, "https://elsewhere.example/s/"+spaceID, http.StatusNotFound)
	resolve(e.admin.token, testPublicURL+"/tokens", http.StatusNotFound)
	resolve(e.outsider(t).token, testPublicURL+"/s/"+spaceID, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", "/v1/urls/content?url=not%20a%20url", nil).wantError(t, http.StatusBadRequest, "url")
	e.call(t, e.admin.token, "GET", "/v1/urls/content", nil).wantError(t, http.StatusBadRequest, "url")
}

// TestPublishedContentByURL: addresses of a published site resolve to its
// site space, space and page path, by GET and POST, to anyone; an
// unpublished site's do not.
func TestPublishedContentByURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first, second := e.crSpace(t), e.crSpace(t)
	var site struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": "Docs", "spaces": []string{first, second}}).
		want(t, http.StatusCreated).Decode(t, &site)
	var siteSpaces struct {
		Items []struct {
			ID, Path string
			Default  bool
			Space    struct{ ID string }
		}
	}
	e.call(t, e.admin.token, "GET", sitePath(e, site.ID, "/site-spaces"), nil).want(t, http.StatusOK).Decode(t, &siteSpaces)
	if len(siteSpaces.Items) != 2 {
		t.Fatalf("site spaces %+v", siteSpaces)
	}
	def, other := siteSpaces.Items[0], siteSpaces.Items[1]
	if other.Default {
		def, other = other, def
	}
	root := testPublicURL + "/sites/" + site.ID + "/"
	lookup := func(method, u string, status int) map[string]any {
		t.Helper()
		if method == "GET" {
			return jsonOf(t, urlCall(t, e, "", "GET", "/v1/urls/published?url="+url.QueryEscape(u), nil, status), status)
		}
		return jsonOf(t, urlCall(t, e, "", "POST", "/v1/urls/published", map[string]any{"url": u}, status), status)
	}
	lookup("GET", root+"guide", http.StatusNotFound) // not published yet
	e.call(t, e.admin.token, "PATCH", sitePath(e, site.ID, ""), map[string]any{"published": true}).want(t, http.StatusOK)

	got := lookup("GET", root+"guide/install", http.StatusOK)
	if got["site"] != site.ID || got["siteSpace"] != def.ID || got["space"] != def.Space.ID || got["pathname"] != "guide/install" ||
		got["organization"] != e.org || got["siteBasePath"] != "/sites/"+site.ID+"/" || got["canonicalUrl"] != root+"guide/install" {
		t.Errorf("default site space: %v", got)
	}
	got = lookup("POST", root+other.Path+"/intro", http.StatusOK)
	if got["siteSpace"] != other.ID || got["space"] != other.Space.ID || got["pathname"] != "intro" || got["basePath"] != "/sites/"+site.ID+"/"+other.Path+"/" {
		t.Errorf("second site space (%s): %v", other.Path, got)
	}
	lookup("GET", testPublicURL+"/s/"+first, http.StatusNotFound)
	lookup("GET", "https://docs.nowhere.example/", http.StatusNotFound)
	e.call(t, "", "POST", "/v1/urls/published", map[string]any{}).wantError(t, http.StatusBadRequest, "url")
}

func jsonOf(t *testing.T, res *response, status int) map[string]any {
	t.Helper()
	if status != http.StatusOK {
		return nil
	}
	return res.JSON(t)
}

// TestAPIInformation: GET /v1/ answers the version and build; nothing
// below it that is not a route does.
func TestAPIInformation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	got := urlCall(t, e, "", "GET", "/v1/", nil, http.StatusOK).JSON(t)
	if v, _ := got["version"].(string); v == "" {
		t.Errorf("version: %v", got)
	}
	if _, ok := got["build"].(string); !ok {
		t.Errorf("build: %v", got)
	}
	e.call(t, "", "GET", "/v1/nothing-here", nil).wantError(t, http.StatusNotFound)
}

// TestEmailDomainsAndJoin: a user sees the organizations that take their
// address's domain, and joins one with its default role; others' domains
// tell nothing, and an organization that does not take the domain is not
// found.
func TestEmailDomainsAndJoin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"emailDomains": []string{"example.com"}, "defaultRole": "edit"}).want(t, http.StatusOK)
	joiner := e.outsider(t) // outsider…@example.com, in an organization of their own
	var list struct {
		Organizations []struct{ ID string }
	}
	urlCall(t, e, joiner.token, "GET", "/v1/email-domains/example.com/orgs", nil, http.StatusOK).Decode(t, &list)
	if len(list.Organizations) != 1 || list.Organizations[0].ID != e.org {
		t.Errorf("organizations of example.com: %+v", list)
	}
	urlCall(t, e, joiner.token, "GET", "/v1/email-domains/other.org/orgs", nil, http.StatusOK).Decode(t, &list)
	if len(list.Organizations) != 0 {
		t.Errorf("another domain's organizations: %+v", list)
	}

	e.call(t, joiner.token, "GET", "/v1/orgs/"+e.org+"/members/"+joiner.id, nil).want(t, http.StatusNotFound)
	urlCall(t, e, joiner.token, "POST", "/v1/orgs/"+e.org+"/join", nil, http.StatusNoContent)
	var m struct{ Role string }
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+joiner.id, nil).want(t, http.StatusOK).Decode(t, &m)
	if m.Role != "edit" {
		t.Errorf("joined as %q, want the default role edit", m.Role)
	}
	urlCall(t, e, joiner.token, "POST", "/v1/orgs/"+e.org+"/join", nil, http.StatusNoContent) // again: nothing changes

	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"emailDomains": []string{"example.org"}}).want(t, http.StatusOK)
	late := e.outsider(t)
	urlCall(t, e, late.token, "POST", "/v1/orgs/"+e.org+"/join", nil, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+late.id, nil).want(t, http.StatusNotFound)
}

// TestSubdomain: an organization's hostname is its subdomain, which its
// members look up; to others, and for a name no one holds, it is not
// found; a name of the wrong shape is 400.
func TestSubdomain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"hostname": "acme-docs"}).want(t, http.StatusOK)
	reader := e.addUser(t, "read", "Rita Reader")
	var got struct {
		Object, Subdomain string
		IsActive          bool
		Target            struct{ Type, Organization string }
	}
	urlCall(t, e, reader.token, "GET", "/v1/subdomains/acme-docs", nil, http.StatusOK).Decode(t, &got)
	if got.Object != "subdomain" || got.Subdomain != "acme-docs" || !got.IsActive || got.Target.Type != "organization" || got.Target.Organization != e.org {
		t.Errorf("subdomain: %+v", got)
	}
	urlCall(t, e, e.outsider(t).token, "GET", "/v1/subdomains/acme-docs", nil, http.StatusNotFound)
	urlCall(t, e, reader.token, "GET", "/v1/subdomains/nobody-here", nil, http.StatusNotFound)
	e.call(t, reader.token, "GET", "/v1/subdomains/A_b", nil).wantError(t, http.StatusBadRequest)
	e.call(t, "", "GET", "/v1/subdomains/acme-docs", nil).wantError(t, http.StatusUnauthorized)
}
