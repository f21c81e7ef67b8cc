package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// API specification visibility and versions (issue 19), each answer
// checked against the whole reference document.

type specsVersion struct {
	Object    string `json:"object"`
	ID        string `json:"id"`
	CreatedAt string `json:"createdAt"`
	URL       string `json:"url"`
	URLs      struct {
		Location string `json:"location"`
	} `json:"urls"`
}

type specsVersionList struct {
	Items []specsVersion `json:"items"`
	Count int            `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

type specsContent struct {
	Filesystem map[string]map[string]any `json:"filesystem"`
	URLs       struct {
		Source string  `json:"source"`
		Public *string `json:"public"`
	} `json:"urls"`
}

type specsRaw struct {
	Text   string `json:"text"`
	Format string `json:"format"`
}

// specsValidJSON is specsValid written as JSON, with another title.
const specsValidJSON = `{"openapi":"3.1.0","info":{"title":"Petstore JSON","version":"2.0.0"},"paths":{}}`

func TestSpecsVersions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := specsServer(t)
	base := specsURL(e, "/petstore")

	// Before any version, the latest is 404 and the list is empty.
	specsPut(t, e, "petstore", map[string]any{"text": specsValid}, http.StatusCreated)
	var list specsVersionList
	refGet(t, e, e.admin.token, base+"/versions", http.StatusOK).Decode(t, &list)
	if list.Count != 0 || len(list.Items) != 0 {
		t.Errorf("versions before processing: %+v", list)
	}
	for _, p := range []string{"/versions/latest", "/versions/latest/content", "/versions/latest/content/raw"} {
		refGet(t, e, e.admin.token, base+p, http.StatusNotFound).wantError(t, http.StatusNotFound, "no processed version")
	}

	// Three processings: YAML text, a failure, JSON from a URL, then JSON
	// text. Every success is a version, newest first.
	specsProcess(t, e, 1)
	first := specsGet(t, e, "petstore")
	specsPut(t, e, "petstore", map[string]any{"text": specsInvalid}, http.StatusOK)
	specsProcess(t, e, 1)
	specsPut(t, e, "petstore", map[string]any{"url": srv.URL + "/valid.yaml"}, http.StatusOK)
	specsProcess(t, e, 1)
	fetched := specsGet(t, e, "petstore")
	specsPut(t, e, "petstore", map[string]any{"text": specsValidJSON}, http.StatusOK)
	specsProcess(t, e, 1)
	latest := specsGet(t, e, "petstore")

	refGet(t, e, e.admin.token, base+"/versions", http.StatusOK).Decode(t, &list)
	ids := []string{}
	for _, v := range list.Items {
		ids = append(ids, v.ID)
	}
	if diff := cmp.Diff([]string{latest.LastVersion, fetched.LastVersion, first.LastVersion}, ids); diff != "" || list.Count != 3 {
		t.Errorf("versions, newest first (-want +got):\n%s (count %d)", diff, list.Count)
	}
	// Paged one at a time, the same three.
	var paged []string
	for page := base + "/versions?limit=1"; len(paged) < 10; {
		list = specsVersionList{} // a last page has no next to overwrite
		refGet(t, e, e.admin.token, page, http.StatusOK).Decode(t, &list)
		for _, v := range list.Items {
			paged = append(paged, v.ID)
		}
		if list.Next == nil {
			break
		}
		page = base + "/versions?limit=1&page=" + list.Next.Page
	}
	if diff := cmp.Diff(ids, paged); diff != "" {
		t.Errorf("paged versions (-want +got):\n%s", diff)
	}
	e.call(t, e.admin.token, "GET", base+"/versions?limit=1001", nil).wantError(t, http.StatusBadRequest, "limit")
	e.call(t, e.admin.token, "GET", base+"/versions?page=***", nil).wantError(t, http.StatusBadRequest, "page")

	// Each version by id: where its document is, and its content.
	var v specsVersion
	refGet(t, e, e.admin.token, base+"/versions/"+first.LastVersion, http.StatusOK).Decode(t, &v)
	want := specsVersion{Object: "openapi-spec-version", ID: first.LastVersion, CreatedAt: v.CreatedAt,
		URL: testPublicURL + base + "/versions/" + first.LastVersion + "/content/raw"}
	want.URLs.Location = testPublicURL + base + "/versions/" + first.LastVersion
	if diff := cmp.Diff(want, v); diff != "" || v.CreatedAt == "" {
		t.Errorf("first version (-want +got):\n%s", diff)
	}
	refGet(t, e, e.admin.token, base+"/versions/"+fetched.LastVersion, http.StatusOK).Decode(t, &v)
	if v.URL != srv.URL+"/valid.yaml" {
		t.Errorf("a fetched version's url %q, want the URL it came from", v.URL)
	}
	refGet(t, e, e.admin.token, base+"/versions/latest", http.StatusOK).Decode(t, &v)
	if v.ID != latest.LastVersion {
		t.Errorf("latest version %q, want lastVersion %q", v.ID, latest.LastVersion)
	}

	// Content: the document as JSON, whatever it was given as; raw: as given.
	var c specsContent
	refGet(t, e, e.admin.token, base+"/versions/"+first.LastVersion+"/content", http.StatusOK).Decode(t, &c)
	if doc := c.Filesystem["openapi.yaml"]; doc == nil || doc["info"].(map[string]any)["title"] != "Petstore" || len(c.Filesystem) != 1 {
		t.Errorf("the YAML version's filesystem %v", c.Filesystem)
	}
	if c.URLs.Source != want.URL || c.URLs.Public != nil {
		t.Errorf("a private text version's urls: source %q, public %v", c.URLs.Source, c.URLs.Public)
	}
	refGet(t, e, e.admin.token, base+"/versions/latest/content", http.StatusOK).Decode(t, &c)
	if doc := c.Filesystem["openapi.json"]; doc == nil || doc["info"].(map[string]any)["title"] != "Petstore JSON" {
		t.Errorf("the latest version's filesystem %v", c.Filesystem)
	}
	var raw specsRaw
	refGet(t, e, e.admin.token, base+"/versions/latest/content/raw", http.StatusOK).Decode(t, &raw)
	if diff := cmp.Diff(specsRaw{Text: specsValidJSON, Format: "json"}, raw); diff != "" {
		t.Errorf("latest raw (-want +got):\n%s", diff)
	}
	e.readGet(t, e.admin.token, base+"/versions/"+first.LastVersion+"/content/raw", &raw)
	if diff := cmp.Diff(specsRaw{Text: specsValid, Format: "yaml"}, raw); diff != "" {
		t.Errorf("first version raw (-want +got):\n%s", diff)
	}

	// Unknown versions and specs are 404.
	for _, p := range []string{base + "/versions/nope", base + "/versions/nope/content", specsURL(e, "/ghost/versions"),
		specsURL(e, "/ghost/versions/latest"), specsURL(e, "/ghost/versions/latest/content/raw")} {
		refGet(t, e, e.admin.token, p, http.StatusNotFound)
	}
	// A version of another spec is not this spec's.
	specsPut(t, e, "other", map[string]any{"text": specsValid}, http.StatusCreated)
	specsProcess(t, e, 1)
	other := specsGet(t, e, "other")
	refGet(t, e, e.admin.token, base+"/versions/"+other.LastVersion, http.StatusNotFound)

	// Deleting the spec deletes its versions.
	e.call(t, e.admin.token, "DELETE", specsURL(e, "/other"), nil).want(t, http.StatusResetContent)
	refGet(t, e, e.admin.token, specsURL(e, "/other/versions/"+other.LastVersion), http.StatusNotFound)
}

func TestSpecsVisibility(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := specsServer(t)
	base := specsURL(e, "/petstore")
	specsPut(t, e, "petstore", map[string]any{"text": specsValid}, http.StatusCreated)
	specsProcess(t, e, 1)
	spec := specsGet(t, e, "petstore")
	public := base + "/versions/latest/public"
	var got map[string]any
	refGet(t, e, e.admin.token, base, http.StatusOK).Decode(t, &got)
	if got["visibility"] != "private" || got["urls"].(map[string]any)["published"] != nil {
		t.Errorf("a new spec: visibility %v, urls %v; want private, unpublished", got["visibility"], got["urls"])
	}
	// A private spec's public URL does not exist.
	e.call(t, "", "GET", public, nil).wantError(t, http.StatusNotFound)

	// Made public: anyone reads its document there, as given.
	refCall(t, e, e.admin.token, "PATCH", base, map[string]any{"visibility": "public"}).want(t, http.StatusOK).Decode(t, &got)
	if got["visibility"] != "public" || got["urls"].(map[string]any)["published"] != testPublicURL+public {
		t.Errorf("after PATCH public: visibility %v, urls %v", got["visibility"], got["urls"])
	}
	res := e.call(t, "", "GET", public, nil).want(t, http.StatusOK)
	if string(res.Body) != specsValid || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/yaml") ||
		res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("public document: %q, headers %v", res.Body, res.Header)
	}
	e.call(t, "", "GET", base+"/versions/"+spec.LastVersion+"/public", nil).want(t, http.StatusOK)
	var c specsContent
	refGet(t, e, e.admin.token, base+"/versions/latest/content", http.StatusOK).Decode(t, &c)
	if c.URLs.Public == nil || *c.URLs.Public != testPublicURL+base+"/versions/"+spec.LastVersion+"/public" {
		t.Errorf("a public text version's public URL: %v", c.URLs.Public)
	}
	// A public spec fetched from a URL is public at that URL.
	specsPut(t, e, "petstore", map[string]any{"url": srv.URL + "/valid.yaml"}, http.StatusOK)
	specsProcess(t, e, 1)
	refGet(t, e, e.admin.token, base+"/versions/latest/content", http.StatusOK).Decode(t, &c)
	if c.URLs.Public == nil || *c.URLs.Public != srv.URL+"/valid.yaml" || c.URLs.Source != srv.URL+"/valid.yaml" {
		t.Errorf("a public fetched version's urls: %+v", c.URLs)
	}
	// And private again.
	refCall(t, e, e.admin.token, "PATCH", base, map[string]any{"visibility": "private"}).want(t, http.StatusOK)
	e.call(t, "", "GET", public, nil).wantError(t, http.StatusNotFound)
	e.call(t, "", "GET", base+"/versions/"+spec.LastVersion+"/public", nil).wantError(t, http.StatusNotFound)

	// Bad bodies are 400 naming the field, and change nothing.
	for _, body := range []any{map[string]any{}, map[string]any{"visibility": "published"}, map[string]any{"visibility": nil},
		map[string]any{"visibility": 1}} {
		refCall(t, e, e.admin.token, "PATCH", base, body).wantError(t, http.StatusBadRequest, "visibility")
	}
	e.call(t, e.admin.token, "PATCH", base, "not json").wantError(t, http.StatusBadRequest)
	if got := specsGet(t, e, "petstore"); got.UpdatedAt == "" {
		t.Fatal("spec lost")
	}
	refGet(t, e, e.admin.token, base, http.StatusOK).Decode(t, &got)
	if got["visibility"] != "private" {
		t.Errorf("after refused PATCHes visibility %v, want private", got["visibility"])
	}
	refCall(t, e, e.admin.token, "PATCH", specsURL(e, "/ghost"), map[string]any{"visibility": "public"}).wantError(t, http.StatusNotFound)
}

func TestSpecsVersionsAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	base := specsURL(e, "/petstore")
	specsPut(t, e, "petstore", map[string]any{"text": specsValid}, http.StatusCreated)
	specsProcess(t, e, 1)
	spec := specsGet(t, e, "petstore")
	reads := []string{base + "/versions", base + "/versions/latest", base + "/versions/" + spec.LastVersion,
		base + "/versions/latest/content", base + "/versions/" + spec.LastVersion + "/content", base + "/versions/latest/content/raw"}
	creator, editor, guest, outsider := e.addUser(t, "create", "Cy Creator"), e.addUser(t, "edit", "Ed Editor"), e.addUser(t, "guest", "Gil Guest"), e.outsider(t)
	for _, p := range reads {
		admin := refGet(t, e, e.admin.token, p, http.StatusOK)
		if res := refGet(t, e, editor.token, p, http.StatusOK); string(res.Body) != string(admin.Body) {
			t.Errorf("GET %s: an editor reads %s, the admin %s", p, res.Body, admin.Body)
		}
		refGet(t, e, guest.token, p, http.StatusForbidden)
		refGet(t, e, outsider.token, p, http.StatusNotFound)
		refGet(t, e, "", p, http.StatusUnauthorized)
	}
	// Changing the visibility is for who may change specs (create, admin).
	patch := map[string]any{"visibility": "public"}
	refCall(t, e, editor.token, "PATCH", base, patch).wantError(t, http.StatusForbidden)
	refCall(t, e, guest.token, "PATCH", base, patch).wantError(t, http.StatusForbidden)
	refCall(t, e, outsider.token, "PATCH", base, patch).wantError(t, http.StatusNotFound)
	refCall(t, e, "", "PATCH", base, patch).wantError(t, http.StatusUnauthorized)
	var got map[string]any
	refCall(t, e, creator.token, "PATCH", base, patch).want(t, http.StatusOK).Decode(t, &got)
	if got["visibility"] != "public" {
		t.Errorf("the creator's PATCH: %v", got)
	}
	// Another organization's public spec is reached only by its own path:
	// the outsider's organization id with this slug is nothing.
	e.call(t, "", "GET", base+"/versions/latest/public", nil).want(t, http.StatusOK)
	var outsiderOrgs struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	e.call(t, outsider.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &outsiderOrgs)
	e.call(t, "", "GET", "/v1/orgs/"+outsiderOrgs.Items[0].ID+"/openapi/petstore/versions/latest/public", nil).wantError(t, http.StatusNotFound)
	// Raw JSON stays exactly as submitted, spaces and all.
	spaced := strings.ReplaceAll(specsValidJSON, ",", ", ")
	specsPut(t, e, "petstore", map[string]any{"text": spaced}, http.StatusOK)
	specsProcess(t, e, 1)
	var raw specsRaw
	refGet(t, e, e.admin.token, base+"/versions/latest/content/raw", http.StatusOK).Decode(t, &raw)
	if raw.Text != spaced || raw.Format != "json" {
		t.Errorf("raw %+v", raw)
	}
	if !json.Valid([]byte(raw.Text)) {
		t.Error("raw JSON is not JSON")
	}
}
