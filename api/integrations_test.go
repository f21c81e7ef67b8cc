package api_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
)

// Contract §4.17 Integrations, end to end. Identifiers declared here start
// with "integ" so they cannot clash with other test files of the package.

// integOut is an integration as the API answers it.
type integOut struct {
	Object         string            `json:"object"`
	Name           string            `json:"name"`
	Version        int               `json:"version"`
	Title          string            `json:"title"`
	Description    string            `json:"description"`
	Summary        string            `json:"summary"`
	PreviewImages  []string          `json:"previewImages"`
	Target         string            `json:"target"`
	Verified       bool              `json:"verified"`
	Visibility     string            `json:"visibility"`
	Scopes         []string          `json:"scopes"`
	Categories     []string          `json:"categories"`
	Blocks         []json.RawMessage `json:"blocks"`
	ContentSources []json.RawMessage `json:"contentSources"`
	Configurations json.RawMessage   `json:"configurations"`
	ExternalLinks  []map[string]any  `json:"externalLinks"`
	Owner          orgOut            `json:"owner"`
	URLs           struct {
		Location       string `json:"location"`
		Icon           string `json:"icon"`
		App            string `json:"app"`
		Assets         string `json:"assets"`
		PublicEndpoint string `json:"publicEndpoint"`
	} `json:"urls"`
	Permissions struct {
		Admin   bool `json:"admin"`
		Install bool `json:"install"`
	} `json:"permissions"`
	ContentSecurityPolicy json.RawMessage `json:"contentSecurityPolicy"`
}

// integImage encodes a w×h image as png, jpeg or gif.
func integImage(t testing.TB, format string, w, h int) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.White, color.Black})
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func integB64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// integBody is the smallest valid publish body for the env's organization.
func integBody(e *env) map[string]any {
	return map[string]any{
		"organization": e.org, "title": "My Integration", "description": "Does things",
		"script": "export default {}", "scopes": []string{"space:content:read"},
	}
}

// integPublish publishes as token's holder and decodes a 200.
func integPublish(t *testing.T, e *env, token, name string, body map[string]any) integOut {
	t.Helper()
	var out integOut
	e.call(t, token, "POST", "/v1/integrations/"+name, body).want(t, http.StatusOK).Decode(t, &out)
	return out
}

func integGet(t *testing.T, e *env, token, name string) integOut {
	t.Helper()
	var out integOut
	e.call(t, token, "GET", "/v1/integrations/"+name, nil).want(t, http.StatusOK).Decode(t, &out)
	return out
}

// integNames lists integration names as token's holder sees them with query.
func integNames(t *testing.T, e *env, token, query string) []string {
	t.Helper()
	var list listOut[integOut]
	e.call(t, token, "GET", "/v1/integrations"+query, nil).want(t, http.StatusOK).Decode(t, &list)
	names := []string{}
	for _, in := range list.Items {
		names = append(names, in.Name)
	}
	if list.Count != len(names) && list.Next == nil {
		t.Errorf("GET /integrations%s: count %d, %d items on the only page", query, list.Count, len(names))
	}
	return names
}

// integFetch fetches an asset URL with no token.
func integFetch(t *testing.T, e *env, rawURL string) *response {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return e.call(t, "", "GET", u.Path, nil)
}

func TestPublishIntegration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	icon, preview1, preview2 := integImage(t, "png", 64, 64), integImage(t, "jpeg", 320, 200), integImage(t, "gif", 10, 10)
	body := map[string]any{
		"runtime":       "v2",
		"icon":          integB64(icon),
		"title":         "Figma Embeds",
		"description":   "Embed Figma files",
		"summary":       "# Figma\n\nLong **markdown** summary.",
		"previewImages": []string{integB64(preview1), integB64(preview2)},
		"visibility":    "public",
		"target":        "space",
		"scopes":        []string{"space:content:read", "site:views:read", "space:content:read"},
		"categories":    []string{"content", "collaboration"},
		"blocks": []map[string]any{{
			"id": "figma-embed", "title": "Figma file", "description": "A Figma frame", "icon": "https://example.com/f.png",
			"urlUnfurl": []string{"https://www.figma.com/file/*"}, "markdown": map[string]any{"codeblock": "figma", "body": "url"},
			"unknown": "dropped",
		}},
		"contentSources": []map[string]any{{"id": "pages", "title": "Figma pages", "configuration": map[string]any{"componentId": "configure"}}},
		"externalLinks":  []map[string]any{{"url": "https://figma.com", "label": "Website"}},
		"configurations": map[string]any{
			"account": map[string]any{
				"properties": map[string]any{
					"token":   map[string]any{"type": "string", "title": "API token", "description": "Personal token", "default": ""},
					"count":   map[string]any{"type": "number", "default": 3},
					"enabled": map[string]any{"type": "boolean", "default": true},
					"connect": map[string]any{"type": "button", "callback_url": "/oauth", "button_text": "Connect"},
					"team":    map[string]any{"type": "string", "enum": []string{"a", "b"}, "completion_url": "/complete"},
				},
				"required": []string{"token"},
			},
			"space": map[string]any{"componentId": "space-config"},
			"other": map[string]any{"dropped": true},
		},
		"script":                "export default { fetch() {} }",
		"organization":          e.org,
		"secrets":               map[string]string{"FIGMA_SECRET": "s3cr3t-value-1234"},
		"contentSecurityPolicy": map[string]string{"script-src": "'self'"},
	}
	res := e.call(t, e.admin.token, "POST", "/v1/integrations/figma", body).want(t, http.StatusOK)
	if bytes.Contains(res.Body, []byte("s3cr3t-value-1234")) || bytes.Contains(res.Body, []byte("FIGMA_SECRET")) {
		t.Errorf("publish answer shows the secrets: %s", res.Body)
	}
	var got integOut
	res.Decode(t, &got)

	base := testPublicURL + "/v1/integrations/figma"
	if got.URLs.Location != base || got.URLs.Assets != base+"/assets" || got.URLs.App == "" || got.URLs.PublicEndpoint == "" {
		t.Errorf("urls = %+v", got.URLs)
	}
	if !strings.HasPrefix(got.URLs.Icon, base+"/assets/") || len(got.PreviewImages) != 2 {
		t.Fatalf("icon %q, previewImages %q", got.URLs.Icon, got.PreviewImages)
	}
	// Every image is served, with no token, with its bytes and type.
	for i, c := range []struct {
		url, contentType string
		data             []byte
	}{{got.URLs.Icon, "image/png", icon}, {got.PreviewImages[0], "image/jpeg", preview1}, {got.PreviewImages[1], "image/gif", preview2}} {
		r := integFetch(t, e, c.url).want(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != c.contentType {
			t.Errorf("image %d: Content-Type %q, want %q", i, ct, c.contentType)
		}
		if !bytes.Equal(r.Body, c.data) {
			t.Errorf("image %d: served %d bytes, not the %d published", i, len(r.Body), len(c.data))
		}
		if r.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("image %d: headers %v", i, r.Header)
		}
	}

	want := integOut{
		Object: "integration", Name: "figma", Version: 1, Title: "Figma Embeds", Description: "Embed Figma files",
		Summary: "# Figma\n\nLong **markdown** summary.", PreviewImages: got.PreviewImages, Target: "space",
		Visibility: "public", Scopes: []string{"space:content:read", "site:views:read"},
		Categories: []string{"content", "collaboration"},
		Blocks: []json.RawMessage{json.RawMessage(`{"id":"figma-embed","title":"Figma file","description":"A Figma frame",` +
			`"icon":"https://example.com/f.png","urlUnfurl":["https://www.figma.com/file/*"],"markdown":{"codeblock":"figma","body":"url"}}`)},
		ContentSources:        []json.RawMessage{json.RawMessage(`{"id":"pages","title":"Figma pages","configuration":{"componentId":"configure"}}`)},
		ExternalLinks:         []map[string]any{{"url": "https://figma.com", "label": "Website"}},
		Owner:                 e.fetchOrg(t, e.admin.token, e.org),
		URLs:                  got.URLs,
		Configurations:        got.Configurations,
		ContentSecurityPolicy: json.RawMessage(`{"script-src":"'self'"}`),
	}
	want.Permissions.Admin, want.Permissions.Install = true, true
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("published integration (-want +got):\n%s", diff)
	}
	var configs map[string]map[string]any
	if err := json.Unmarshal(got.Configurations, &configs); err != nil {
		t.Fatal(err)
	}
	if _, ok := configs["other"]; ok || configs["space"]["componentId"] != "space-config" || configs["account"]["properties"] == nil {
		t.Errorf("configurations = %s", got.Configurations)
	}
	if diff := cmp.Diff(got, integGet(t, e, e.admin.token, "figma")); diff != "" {
		t.Errorf("GET differs from the publish answer (-publish +get):\n%s", diff)
	}

	// Publishing again replaces every field and counts one more version.
	again := integPublish(t, e, e.admin.token, "figma", integBody(e))
	if again.Version != 2 || again.Title != "My Integration" || again.URLs.Icon != "" || len(again.PreviewImages) != 0 ||
		len(again.Blocks) != 0 || again.Visibility != "private" || again.Target != "all" || string(again.Configurations) != "{}" ||
		again.ContentSecurityPolicy != nil || len(again.Categories) != 0 {
		t.Errorf("republished integration = %+v", again)
	}
	if v := integPublish(t, e, e.admin.token, "figma", integBody(e)).Version; v != 3 {
		t.Errorf("third publish: version %d, want 3", v)
	}
	// The images of the replaced version are no longer served.
	integFetch(t, e, got.URLs.Icon).wantError(t, http.StatusNotFound, "asset not found")

	// The organization may be named by its hostname.
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"hostname": "acme-docs"}).want(t, http.StatusOK)
	b := integBody(e)
	b["organization"] = "acme-docs"
	if o := integPublish(t, e, e.admin.token, "by-hostname", b).Owner.ID; o != e.org {
		t.Errorf("owner %q, want %q", o, e.org)
	}
}

func TestPublishIntegrationInvalid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	png := integB64(integImage(t, "png", 8, 8))
	huge := integB64(integImage(t, "png", 8193, 1))
	big := base64.StdEncoding.EncodeToString(append(integImage(t, "png", 8, 8), make([]byte, 1<<20)...))
	prop := func(p map[string]any) map[string]any {
		return map[string]any{"account": map[string]any{"properties": map[string]any{"p": p}}}
	}
	tests := []struct {
		name  string
		path  string // default "ok-name"
		edit  func(b map[string]any)
		parts []string
	}{
		{"name with space", "bad%20name", nil, []string{"integrationName"}},
		{"name too long", strings.Repeat("a", 101), nil, []string{"integrationName", "100"}},
		{"name slash", "a%2Fb", nil, []string{"integrationName"}},
		{"no organization", "", func(b map[string]any) { delete(b, "organization") }, []string{"organization", "required"}},
		{"no title", "", func(b map[string]any) { delete(b, "title") }, []string{"title", "required"}},
		{"title short", "", func(b map[string]any) { b["title"] = "X" }, []string{"title", "2 to 30"}},
		{"title long", "", func(b map[string]any) { b["title"] = strings.Repeat("é", 31) }, []string{"title", "2 to 30"}},
		{"no description", "", func(b map[string]any) { delete(b, "description") }, []string{"description", "required"}},
		{"description long", "", func(b map[string]any) { b["description"] = strings.Repeat("d", 101) }, []string{"description", "100"}},
		{"summary long", "", func(b map[string]any) { b["summary"] = strings.Repeat("s", 2049) }, []string{"summary", "2048"}},
		{"no script", "", func(b map[string]any) { delete(b, "script") }, []string{"script", "required"}},
		{"empty script", "", func(b map[string]any) { b["script"] = "" }, []string{"script"}},
		{"no scopes", "", func(b map[string]any) { delete(b, "scopes") }, []string{"scopes", "required"}},
		{"bad scope", "", func(b map[string]any) { b["scopes"] = []string{"space:content:read", "root"} }, []string{"scopes[1]", "space:content:read"}},
		{"scopes not array", "", func(b map[string]any) { b["scopes"] = "space:content:read" }, []string{"scopes", "array"}},
		{"bad category", "", func(b map[string]any) { b["categories"] = []string{"games"} }, []string{"categories[0]", "analytics"}},
		{"bad visibility", "", func(b map[string]any) { b["visibility"] = "secret" }, []string{"visibility"}},
		{"bad target", "", func(b map[string]any) { b["target"] = "page" }, []string{"target"}},
		{"bad runtime", "", func(b map[string]any) { b["runtime"] = "v3" }, []string{"runtime"}},
		{"icon not base64", "", func(b map[string]any) { b["icon"] = "not base64!" }, []string{"icon", "base64"}},
		{"icon not image", "", func(b map[string]any) { b["icon"] = integB64([]byte("<svg></svg>")) }, []string{"icon", "image"}},
		{"icon too big", "", func(b map[string]any) { b["icon"] = big }, []string{"icon", "bytes"}},
		{"icon too wide", "", func(b map[string]any) { b["icon"] = huge }, []string{"icon", "pixels"}},
		{"four previews", "", func(b map[string]any) { b["previewImages"] = []string{png, png, png, png} }, []string{"previewImages", "3"}},
		{"preview not image", "", func(b map[string]any) { b["previewImages"] = []string{png, integB64([]byte("text"))} }, []string{"previewImages[1]"}},
		{"six links", "", func(b map[string]any) {
			l := map[string]any{"url": "https://a.example", "label": "A"}
			b["externalLinks"] = []any{l, l, l, l, l, l}
		}, []string{"externalLinks", "5"}},
		{"link not URL", "", func(b map[string]any) {
			b["externalLinks"] = []any{map[string]any{"url": "javascript:alert(1)", "label": "x"}}
		}, []string{"externalLinks[0].url"}},
		{"link no label", "", func(b map[string]any) { b["externalLinks"] = []any{map[string]any{"url": "https://a.example"}} }, []string{"externalLinks[0].label"}},
		{"block no id", "", func(b map[string]any) { b["blocks"] = []any{map[string]any{"title": "Block"}} }, []string{"blocks[0].id"}},
		{"block short title", "", func(b map[string]any) { b["blocks"] = []any{map[string]any{"id": "b", "title": "B"}} }, []string{"blocks[0].title", "2 to 40"}},
		{"block twice", "", func(b map[string]any) {
			b["blocks"] = []any{map[string]any{"id": "b", "title": "Block"}, map[string]any{"id": "b", "title": "Block"}}
		}, []string{"blocks[1].id"}},
		{"block half markdown", "", func(b map[string]any) {
			b["blocks"] = []any{map[string]any{"id": "b", "title": "Block", "markdown": map[string]any{"codeblock": "x"}}}
		}, []string{"blocks[0].markdown"}},
		{"source no configuration", "", func(b map[string]any) { b["contentSources"] = []any{map[string]any{"id": "s", "title": "Source"}} }, []string{"contentSources[0].configuration"}},
		{"configuration both", "", func(b map[string]any) {
			b["configurations"] = map[string]any{"site": map[string]any{"componentId": "c", "properties": map[string]any{}}}
		}, []string{"configurations.site", "not both"}},
		{"configuration neither", "", func(b map[string]any) { b["configurations"] = map[string]any{"site": map[string]any{}} }, []string{"configurations.site"}},
		{"property bad type", "", func(b map[string]any) { b["configurations"] = prop(map[string]any{"type": "date"}) }, []string{"configurations.account.properties.p.type"}},
		{"property bad default", "", func(b map[string]any) { b["configurations"] = prop(map[string]any{"type": "number", "default": "3"}) }, []string{"configurations.account.properties.p.default"}},
		{"property short title", "", func(b map[string]any) { b["configurations"] = prop(map[string]any{"type": "string", "title": "T"}) }, []string{"properties.p.title"}},
		{"button without callback", "", func(b map[string]any) {
			b["configurations"] = prop(map[string]any{"type": "button", "button_text": "Go"})
		}, []string{"callback_url"}},
		{"required unknown", "", func(b map[string]any) {
			b["configurations"] = map[string]any{"account": map[string]any{"properties": map[string]any{}, "required": []string{"nope"}}}
		}, []string{"configurations.account.required[0]"}},
		{"csp number", "", func(b map[string]any) { b["contentSecurityPolicy"] = 3 }, []string{"contentSecurityPolicy"}},
		{"too many secrets", "", func(b map[string]any) {
			s := map[string]string{}
			for i := range 21 {
				s[strings.Repeat("k", i+1)] = "v"
			}
			b["secrets"] = s
		}, []string{"secrets", "20"}},
		{"secret not string", "", func(b map[string]any) { b["secrets"] = map[string]any{"k": 1} }, []string{"secrets"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := integBody(e)
			if tt.edit != nil {
				tt.edit(b)
			}
			path := tt.path
			if path == "" {
				path = "ok-name"
			}
			e.call(t, e.admin.token, "POST", "/v1/integrations/"+path, b).wantError(t, http.StatusBadRequest, tt.parts...)
		})
	}
	e.call(t, e.admin.token, "POST", "/v1/integrations/ok-name", "{").wantError(t, http.StatusBadRequest, "malformed")
	e.call(t, e.admin.token, "POST", "/v1/integrations/ok-name", nil).wantError(t, http.StatusBadRequest, "required")
	// Nothing invalid was published.
	e.call(t, e.admin.token, "GET", "/v1/integrations/ok-name", nil).wantError(t, http.StatusNotFound, "integration not found")
}

func TestPublishIntegrationWho(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor := e.addUser(t, "edit", "Eddie Editor")
	out := e.outsider(t)
	e.call(t, "", "POST", "/v1/integrations/x", integBody(e)).wantError(t, http.StatusUnauthorized)
	e.call(t, editor.token, "POST", "/v1/integrations/x", integBody(e)).wantError(t, http.StatusForbidden, "admins")
	e.call(t, out.token, "POST", "/v1/integrations/x", integBody(e)).wantError(t, http.StatusNotFound, "organization not found")
	b := integBody(e)
	b["organization"] = "no-such-org"
	e.call(t, e.admin.token, "POST", "/v1/integrations/x", b).wantError(t, http.StatusNotFound, "organization not found")

	// A name is one integration: another organization cannot take it over.
	// A private one's name answers as a name no one holds does to a read,
	// so that publishing tells no one which private names are in use.
	integPublish(t, e, e.admin.token, "taken", integBody(e))
	public := integBody(e)
	public["visibility"] = "public"
	integPublish(t, e, e.admin.token, "taken-public", public)
	other := e.outsiderOrg(t)
	ob := integBody(e)
	ob["organization"] = other.org
	run(t, e, []scenario{
		{name: "a private name, read", as: other.user, path: "/v1/integrations/taken", status: 404, errs: []string{"integration not found"}},
		{name: "a private name, published", as: other.user, method: "POST", path: "/v1/integrations/taken", body: ob, status: 404, errs: []string{"integration not found"}},
		{name: "a public name, published", as: other.user, method: "POST", path: "/v1/integrations/taken-public", body: ob, status: 409, errs: []string{"another organization"}},
	})
	for _, name := range []string{"taken", "taken-public"} {
		if in := integGet(t, e, e.admin.token, name); in.Version != 1 || in.Owner.ID != e.org {
			t.Errorf("%s after refused publishes: version %d, owner %s", name, in.Version, in.Owner.ID)
		}
	}
}

// integOrg is a second organization and its admin.
type integOrg struct {
	org  string
	user user
}

// outsiderOrg creates an outsider and returns their organization with them.
func (e *env) outsiderOrg(t *testing.T) integOrg {
	t.Helper()
	u := e.outsider(t)
	var list listOut[orgOut]
	e.call(t, u.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &list)
	if len(list.Items) != 1 {
		t.Fatalf("outsider in %d organizations", len(list.Items))
	}
	return integOrg{org: list.Items[0].ID, user: u}
}

func TestIntegrationVisibility(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	guest := e.addUser(t, "guest", "Gus Guest")
	out := e.outsider(t)
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"emailDomains": []string{"acme.example"}}).want(t, http.StatusOK)
	for _, v := range []string{"public", "unlisted", "private"} {
		b := integBody(e)
		b["visibility"] = v
		integPublish(t, e, e.admin.token, "vis-"+v, b)
	}
	if diff := cmp.Diff([]string{"vis-private", "vis-public", "vis-unlisted"}, integNames(t, e, guest.token, "")); diff != "" {
		t.Errorf("a member's list (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"vis-public"}, integNames(t, e, out.token, "")); diff != "" {
		t.Errorf("an outsider's list (-want +got):\n%s", diff)
	}
	e.call(t, out.token, "GET", "/v1/integrations/vis-private", nil).wantError(t, http.StatusNotFound, "integration not found")
	for _, name := range []string{"vis-public", "vis-unlisted"} {
		in := integGet(t, e, out.token, name)
		if in.Permissions.Admin || in.Owner.Permissions.Admin || len(in.Owner.EmailDomains) != 0 {
			t.Errorf("%s as an outsider: permissions %+v, owner %+v", name, in.Permissions, in.Owner)
		}
	}
	if in := integGet(t, e, guest.token, "vis-private"); in.Permissions.Admin || len(in.Owner.EmailDomains) != 1 {
		t.Errorf("private as a guest member: permissions %+v, owner email domains %v", in.Permissions, in.Owner.EmailDomains)
	}
	e.call(t, out.token, "GET", "/v1/integrations/nothing", nil).wantError(t, http.StatusNotFound, "integration not found")
	e.call(t, out.token, "GET", "/v1/integrations/bad%20name", nil).wantError(t, http.StatusBadRequest, "integrationName")
	e.call(t, "", "GET", "/v1/integrations", nil).wantError(t, http.StatusUnauthorized)
}

func TestListIntegrationsFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.outsiderOrg(t)
	publish := func(token, org, name string, edit func(b map[string]any)) {
		b := integBody(e)
		b["organization"], b["visibility"] = org, "public"
		if edit != nil {
			edit(b)
		}
		integPublish(t, e, token, name, b)
	}
	block := func(patterns ...string) []any {
		return []any{map[string]any{"id": "b", "title": "Block", "urlUnfurl": patterns}}
	}
	publish(e.admin.token, e.org, "figma", func(b map[string]any) {
		b["title"], b["categories"], b["target"] = "Figma Frames", []string{"content"}, "space"
		b["blocks"] = block("https://*.figma.com/file/*", "https://figma.com/proto/*")
	})
	publish(e.admin.token, e.org, "analytics-pro", func(b map[string]any) {
		b["title"], b["categories"], b["target"] = "Plausible Übersicht", []string{"analytics", "marketing"}, "site"
		b["scopes"] = []string{"site:views:read"}
	})
	publish(e.admin.token, e.org, "docs_import", func(b map[string]any) {
		b["contentSources"] = []any{map[string]any{"id": "s", "title": "Source", "configuration": map[string]any{"componentId": "c"}}}
		b["target"] = "organization"
	})
	publish(other.user.token, other.org, "youtube.embed", func(b map[string]any) {
		b["title"], b["categories"] = "YouTube", []string{"content"}
		b["blocks"] = block("youtube.com/watch*", "https://youtu.be:443/*")
	})

	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{"analytics-pro", "docs_import", "figma", "youtube.embed"}},
		{"?search=FIG", []string{"figma"}},
		{"?search=übersicht", []string{"analytics-pro"}},
		{"?search=_", []string{"docs_import"}}, // LIKE wildcards are literal
		{"?search=%25", []string{}},
		{"?category=content", []string{"figma", "youtube.embed"}},
		{"?category=marketing", []string{"analytics-pro"}},
		{"?scope=site:views:read", []string{"analytics-pro"}},
		{"?scope=space:content:read", []string{"docs_import", "figma", "youtube.embed"}},
		{"?target=space", []string{"figma", "youtube.embed"}}, // target space, or all
		{"?target=all", []string{"youtube.embed"}},
		{"?blockDomain=figma.com", []string{"figma"}},
		{"?blockDomain=www.figma.com", []string{"figma"}},
		{"?blockDomain=FIGMA.com", []string{"figma"}},
		{"?blockDomain=youtu.be", []string{"youtube.embed"}},
		{"?blockDomain=com", []string{}},
		{"?blockDomain=notfigma.com", []string{}},
		{"?blocks=true", []string{"figma", "youtube.embed"}},
		{"?blocks=false", []string{"analytics-pro", "docs_import"}},
		{"?contentSources=true", []string{"docs_import"}},
		{"?contentSources=false&blocks=false", []string{"analytics-pro"}},
		{"?owner=" + other.org, []string{"youtube.embed"}},
		{"?owner=" + e.org + "&category=content", []string{"figma"}},
		{"?owner=nobody", []string{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, integNames(t, e, e.admin.token, tt.query)); diff != "" {
			t.Errorf("GET /integrations%s (-want +got):\n%s", tt.query, diff)
		}
	}
	for _, q := range []string{"?category=games", "?scope=root", "?target=page", "?blockDomain=a/b", "?blockDomain=" + strings.Repeat("a", 101),
		"?blocks=maybe", "?contentSources=2", "?limit=0", "?page=bad"} {
		e.call(t, e.admin.token, "GET", "/v1/integrations"+q, nil).want(t, http.StatusBadRequest)
	}

	// Pages of one follow the names, with the full count on each.
	var got []string
	path := "/v1/integrations?limit=1"
	for range 10 {
		var list listOut[integOut]
		e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &list)
		if list.Count != 4 {
			t.Errorf("count %d, want 4", list.Count)
		}
		for _, in := range list.Items {
			got = append(got, in.Name)
		}
		if list.Next == nil {
			break
		}
		path = "/v1/integrations?limit=1&page=" + url.QueryEscape(list.Next.Page)
	}
	if diff := cmp.Diff([]string{"analytics-pro", "docs_import", "figma", "youtube.embed"}, got); diff != "" {
		t.Errorf("walking pages (-want +got):\n%s", diff)
	}
}

func TestUnpublishIntegration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor := e.addUser(t, "edit", "Eddie Editor")
	out := e.outsider(t)
	b := integBody(e)
	b["icon"] = integB64(integImage(t, "png", 4, 4))
	in := integPublish(t, e, e.admin.token, "gone", b)
	if _, err := e.db.CreateIntegrationInstallation(t.Context(), "gone", e.org, []string{"x"}, nil); err != nil {
		t.Fatal(err)
	}

	e.call(t, editor.token, "DELETE", "/v1/integrations/gone", nil).wantError(t, http.StatusForbidden, "admins")
	// A private integration is none to an outsider: nothing to delete.
	e.call(t, out.token, "DELETE", "/v1/integrations/gone", nil).want(t, http.StatusNoContent)
	integGet(t, e, e.admin.token, "gone")

	res := e.call(t, e.admin.token, "DELETE", "/v1/integrations/gone", nil).want(t, http.StatusResetContent)
	if len(res.Body) != 0 {
		t.Errorf("205 with a body: %q", res.Body)
	}
	e.call(t, e.admin.token, "GET", "/v1/integrations/gone", nil).wantError(t, http.StatusNotFound, "integration not found")
	e.call(t, e.admin.token, "DELETE", "/v1/integrations/gone", nil).want(t, http.StatusNoContent)
	integFetch(t, e, in.URLs.Icon).wantError(t, http.StatusNotFound, "asset not found")
	if names := integNames(t, e, e.admin.token, ""); len(names) != 0 {
		t.Errorf("after unpublishing: %v", names)
	}

	// The name is free again, even for another organization; versions start over.
	other := e.outsiderOrg(t)
	ob := integBody(e)
	ob["organization"] = other.org
	if v := integPublish(t, e, other.user.token, "gone", ob).Version; v != 1 {
		t.Errorf("version %d after unpublish, want 1", v)
	}
	var list listOut[map[string]any]
	e.call(t, other.user.token, "GET", "/v1/integrations/gone/installations", nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 0 {
		t.Errorf("installations of the old integration survived: %d", list.Count)
	}
	e.call(t, e.admin.token, "DELETE", "/v1/integrations/bad%20name", nil).wantError(t, http.StatusBadRequest, "integrationName")
}

func TestIntegrationInstallations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tickClock(e)
	editor := e.addUser(t, "edit", "Eddie Editor")
	out := e.outsider(t)
	b := integBody(e)
	b["visibility"] = "public"
	integPublish(t, e, e.admin.token, "installed", b)
	path := "/v1/integrations/installed/installations"

	var list listOut[map[string]any]
	e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 0 || len(list.Items) != 0 {
		t.Errorf("before any installation: %+v", list)
	}
	a, err := e.db.CreateIntegrationInstallation(t.Context(), "installed", e.org, []string{"ext-1", "ext-2"}, json.RawMessage(`{"k":"v"}`))
	if err != nil {
		t.Fatal(err)
	}
	// One installation per organization: the second is on another.
	secondOrg, err := e.db.InitOrganization(t.Context(), "Second Org", uniqueEmail("second"), "Sam Second")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.CreateIntegrationInstallation(t.Context(), "installed", secondOrg.Organization.ID, []string{"ext-3"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.CreateIntegrationInstallation(t.Context(), "nothing", e.org, nil, nil); err == nil {
		t.Error("installed an integration that does not exist")
	}

	e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 2 || len(list.Items) != 2 || list.Items[0]["id"] != a.ID {
		t.Fatalf("installations = %+v", list)
	}
	first := list.Items[0]
	want := map[string]any{
		"object": "integration-installation", "id": a.ID, "status": "active", "space_selection": "all", "site_selection": "all",
		"spaces": 0.0, "configuration": map[string]any{"k": "v"}, "externalIds": []any{"ext-1", "ext-2"},
		"target": map[string]any{"organization": e.org}, "createdAt": first["createdAt"], "updatedAt": first["updatedAt"], "urls": first["urls"],
	}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("installation (-want +got):\n%s", diff)
	}
	for q, wantIDs := range map[string]int{"?externalId=ext-2": 1, "?externalId=ext-3": 1, "?externalId=ext": 0, "?externalId=": 2} {
		e.call(t, e.admin.token, "GET", path+q, nil).want(t, http.StatusOK).Decode(t, &list)
		if list.Count != wantIDs || len(list.Items) != wantIDs {
			t.Errorf("%s: %d installations (count %d), want %d", q, len(list.Items), list.Count, wantIDs)
		}
	}
	e.call(t, e.admin.token, "GET", path+"?limit=1", nil).want(t, http.StatusOK).Decode(t, &list)
	if len(list.Items) != 1 || list.Next == nil {
		t.Fatalf("first page of one: %+v", list)
	}
	var second listOut[map[string]any]
	e.call(t, e.admin.token, "GET", path+"?limit=1&page="+url.QueryEscape(list.Next.Page), nil).want(t, http.StatusOK).Decode(t, &second)
	if len(second.Items) != 1 || second.Next != nil || second.Items[0]["id"] == a.ID {
		t.Errorf("second page of one: %+v", second)
	}

	e.call(t, editor.token, "GET", path, nil).wantError(t, http.StatusForbidden, "admins")
	e.call(t, out.token, "GET", path, nil).wantError(t, http.StatusForbidden, "admins")
	b["visibility"] = "private"
	integPublish(t, e, e.admin.token, "installed", b)
	e.call(t, out.token, "GET", path, nil).wantError(t, http.StatusNotFound, "integration not found")
	e.call(t, e.admin.token, "GET", "/v1/integrations/nothing/installations", nil).wantError(t, http.StatusNotFound, "integration not found")
}

// integOpen decrypts sealed secrets as docs/writing/integrations-and-translations.md describes them: a version
// byte 1, a 12-byte nonce, then AES-256-GCM with the name as additional data.
func integOpen(t *testing.T, key, sealed []byte, name string) (map[string]string, error) {
	t.Helper()
	if len(sealed) < 13 || sealed[0] != 1 {
		t.Fatalf("sealed secrets do not start with version 1 and a nonce: %x", sealed)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := gcm.Open(nil, sealed[1:13], sealed[13:], []byte(name))
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := json.Unmarshal(plain, &m); err != nil {
		t.Fatal(err)
	}
	return m, nil
}

func TestIntegrationSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secrets := map[string]string{"API_KEY": "plain-secret-value-42", "OTHER": "second-secret-99"}
	b := integBody(e)
	b["secrets"] = secrets
	b["visibility"] = "public"
	integPublish(t, e, e.admin.token, "secretive", b)

	sealed, err := e.db.IntegrationSecrets(t.Context(), "secretive")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"plain-secret-value-42", "second-secret-99", "API_KEY"} {
		if bytes.Contains(sealed, []byte(v)) {
			t.Errorf("stored secrets hold %q in clear", v)
		}
	}
	key, err := e.db.ServerKey(t.Context(), "integration-secrets")
	if err != nil {
		t.Fatal(err)
	}
	got, err := integOpen(t, key, sealed, "secretive")
	if err != nil {
		t.Fatalf("open with the server key: %v", err)
	}
	if diff := cmp.Diff(secrets, got); diff != "" {
		t.Errorf("decrypted secrets (-want +got):\n%s", diff)
	}
	if _, err := integOpen(t, key, sealed, "another-name"); err == nil {
		t.Error("sealed secrets open under another integration's name")
	}

	// No answer shows them: publish, get, list, as the owner or anyone.
	out := e.outsider(t)
	for _, r := range []*response{
		e.call(t, e.admin.token, "POST", "/v1/integrations/secretive", b),
		e.call(t, e.admin.token, "GET", "/v1/integrations/secretive", nil),
		e.call(t, out.token, "GET", "/v1/integrations/secretive", nil),
		e.call(t, e.admin.token, "GET", "/v1/integrations", nil),
		e.call(t, e.admin.token, "GET", "/v1/integrations/secretive/installations", nil),
	} {
		for _, v := range []string{"plain-secret-value-42", "second-secret-99", "API_KEY", "secrets"} {
			if bytes.Contains(r.Body, []byte(v)) {
				t.Errorf("a response shows %q: %s", v, r.Body)
			}
		}
	}

	// Left out, they stay; {} removes them; each publish seals anew.
	delete(b, "secrets")
	integPublish(t, e, e.admin.token, "secretive", b)
	if kept, _ := e.db.IntegrationSecrets(t.Context(), "secretive"); !bytes.Equal(kept, sealed) {
		resealed, err := integOpen(t, key, kept, "secretive")
		if err != nil || cmp.Diff(secrets, resealed) != "" {
			t.Errorf("secrets left out of a publish changed: %v %v", resealed, err)
		}
	}
	b["secrets"] = map[string]string{}
	integPublish(t, e, e.admin.token, "secretive", b)
	if none, err := e.db.IntegrationSecrets(t.Context(), "secretive"); err != nil || none != nil {
		t.Errorf("after secrets {}: %x, %v", none, err)
	}

	// A configured key is the one used.
	configured := bytes.Repeat([]byte{7}, 32)
	srv := api.New(e.db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()}, SecretKey: configured})
	e2 := &env{db: e.db, srv: srv, org: e.org, admin: e.admin}
	b["secrets"] = map[string]string{"K": "configured-key-secret"}
	integPublish(t, e2, e.admin.token, "secretive", b)
	sealed, err = e.db.IntegrationSecrets(t.Context(), "secretive")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := integOpen(t, configured, sealed, "secretive"); err != nil || got["K"] != "configured-key-secret" {
		t.Errorf("open with the configured key: %v, %v", got, err)
	}
	if _, err := integOpen(t, key, sealed, "secretive"); err == nil {
		t.Error("the database key opens secrets sealed with the configured key")
	}
}

func TestIntegrationAssets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ba, bb := integBody(e), integBody(e)
	ba["icon"] = integB64(integImage(t, "png", 16, 16))
	bb["icon"] = integB64(integImage(t, "gif", 16, 16))
	a := integPublish(t, e, e.admin.token, "asset-a", ba)
	bOut := integPublish(t, e, e.admin.token, "asset-b", bb)
	keyA := a.URLs.Icon[strings.LastIndex(a.URLs.Icon, "/")+1:]
	keyB := bOut.URLs.Icon[strings.LastIndex(bOut.URLs.Icon, "/")+1:]

	// Private integrations' images are served too: a URL names the bytes by
	// their hash, so only who was shown it can ask for it.
	r := e.call(t, "", "GET", "/v1/integrations/asset-a/assets/"+keyA, nil).want(t, http.StatusOK)
	if r.Header.Get("Content-Type") != "image/png" || r.Header.Get("ETag") != `"`+keyA+`"` {
		t.Errorf("headers %v", r.Header)
	}
	// Only an integration's own images, under its own name.
	for _, p := range []string{
		"/v1/integrations/asset-a/assets/" + keyB,
		"/v1/integrations/asset-b/assets/" + keyA,
		"/v1/integrations/nothing/assets/" + keyA,
		"/v1/integrations/asset-a/assets/" + strings.Repeat("0", 64),
		"/v1/integrations/bad%20name/assets/" + keyA,
	} {
		e.call(t, "", "GET", p, nil).wantError(t, http.StatusNotFound, "not found")
	}
	// The script shares the blob store but is not an asset.
	script := blob.Key([]byte(ba["script"].(string)))
	e.call(t, "", "GET", "/v1/integrations/asset-a/assets/"+script, nil).wantError(t, http.StatusNotFound, "asset not found")
}
