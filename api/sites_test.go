package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Contract §4.8 to §4.12, end to end through the real router (every answer
// checked against the reference). Identifiers declared here start with
// "site" so they cannot clash with other test files.

type siteSite struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	AppliedType string `json:"appliedType"`
	Title       string `json:"title"`
	Hostname    string `json:"hostname"`
	Basename    string `json:"basename"`
	Proxy       *struct {
		Origin string `json:"origin"`
		Target string `json:"target"`
	} `json:"proxy"`
	Visibility      string `json:"visibility"`
	Published       bool   `json:"published"`
	SiteSpaces      int    `json:"siteSpaces"`
	AdaptiveContent struct {
		Enabled bool `json:"enabled"`
	} `json:"adaptiveContent"`
	Features []struct {
		ID string `json:"id"`
	} `json:"features"`
	Permissions struct {
		View   bool `json:"view"`
		Create bool `json:"create"`
		Admin  bool `json:"admin"`
	} `json:"permissions"`
	URLs struct {
		Location  string `json:"location"`
		Published string `json:"published"`
	} `json:"urls"`
}

type siteSiteSpace struct {
	ID        string `json:"id"`
	Path      string `json:"path"`
	Section   string `json:"section"`
	Title     string `json:"title"`
	Default   bool   `json:"default"`
	Condition string `json:"condition"`
	Space     struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"space"`
	URLs struct {
		Published string `json:"published"`
	} `json:"urls"`
}

type siteSection struct {
	Object       string          `json:"object"`
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	Path         string          `json:"path"`
	Default      bool            `json:"default"`
	Condition    string          `json:"condition"`
	Description  string          `json:"description"`
	Icon         string          `json:"icon"`
	SectionGroup string          `json:"sectionGroup"`
	SiteSpaces   []siteSiteSpace `json:"siteSpaces"`
	URLs         struct {
		Published string `json:"published"`
	} `json:"urls"`
}

type siteGroup struct {
	ID       string        `json:"id"`
	Title    string        `json:"title"`
	Icon     string        `json:"icon"`
	Sections []siteSection `json:"sections"`
}

type sitePage[T any] struct {
	Items []T `json:"items"`
	Count int `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

func siteOrg(e *env, rest string) string { return "/v1/orgs/" + e.org + rest }

func sitePath(e *env, siteID, rest string) string { return siteOrg(e, "/sites/"+siteID+rest) }

// siteNewSpace creates a space as the admin and returns its id.
func siteNewSpace(t *testing.T, e *env, title string) string {
	t.Helper()
	var sp struct {
		ID string `json:"id"`
	}
	e.call(t, e.admin.token, "POST", siteOrg(e, "/spaces"), map[string]any{"title": title}).want(t, http.StatusCreated).Decode(t, &sp)
	return sp.ID
}

func siteCreate(t *testing.T, e *env, body map[string]any) siteSite {
	t.Helper()
	var s siteSite
	e.call(t, e.admin.token, "POST", siteOrg(e, "/sites"), body).want(t, http.StatusCreated).Decode(t, &s)
	return s
}

func siteGet[T any](t *testing.T, e *env, token, path string) T {
	t.Helper()
	var v T
	e.call(t, token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &v)
	return v
}

func siteCall[T any](t *testing.T, e *env, method, path string, body any, status int) T {
	t.Helper()
	var v T
	e.call(t, e.admin.token, method, path, body).want(t, status).Decode(t, &v)
	return v
}

// siteIDs lists the ids of sections (or site spaces).
func siteIDs[T any](items []T, id func(T) string) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, id(it))
	}
	return out
}

func sectionIDs(list []siteSection) []string {
	return siteIDs(list, func(s siteSection) string { return s.ID })
}

func siteSpaceIDs(list []siteSiteSpace) []string {
	return siteIDs(list, func(s siteSiteSpace) string { return s.ID })
}

func TestSiteCreateAndRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "API Reference")
	sites := siteOrg(e, "/sites")
	var s, s2 siteSite
	run(t, e, []scenario{
		{name: "create", method: "POST", path: sites, body: map[string]any{"title": "Docs", "spaces": []string{a, b}}, status: http.StatusCreated, want: []check{
			into(&s), field("type", "basic"), field("appliedType", "basic"), field("visibility", "public"), field("published", false),
			field("siteSpaces", 2), field("title", "Docs"), zero("urls.published"),
			func(t testing.TB, r *response) {
				if r.Header.Get("Location") != s.URLs.Location || len(s.Features) == 0 {
					t.Errorf("Location %q, urls %+v, features %v", r.Header.Get("Location"), s.URLs, s.Features)
				}
			},
		}},
		// The second form of spaces creates a space tied to the site.
		{name: "create with a new space", method: "POST", path: sites, status: http.StatusCreated,
			body: map[string]any{"title": "Handbook", "type": "premium", "visibility": "unlisted", "spaces": map[string]any{"emoji": "📘"}},
			want: []check{into(&s2), field("type", "premium"), field("siteSpaces", 1)}},
	})
	list := func(q string, ids ...string) scenario {
		return scenario{path: sites + q, want: []check{field("items.#.id", append([]string{}, ids...))}}
	}
	var page sitePage[siteSite]
	run(t, e, []scenario{
		{path: sitePath(e, s.ID, "/site-spaces"), want: []check{
			field("items.#.space.id", []string{a, b}), field("items.#.default", []bool{true, false}),
			field("items.#.path", []string{"guide", "api-reference"}), field("items.1.title", "API Reference"),
		}},
		{path: sitePath(e, s2.ID, "/site-spaces"), want: []check{field("items.0.space.title", "Handbook")}},
		// Filters.
		list("", s.ID, s2.ID),
		list("?space="+b, s.ID),
		list("?title=HAND", s2.ID),
		list("?published=false", s.ID, s2.ID),
		list("?published=true"),
		list("?type=premium", s2.ID),
		list("?type=basic&type=ultimate", s.ID),
		list("?type=basic,premium", s.ID, s2.ID),
		{path: sites + "?limit=1", want: []check{into(&page), field("count", 2), field("items.0.id", s.ID)}},
		{path: sites + "?type=gold", status: http.StatusBadRequest, errs: []string{"type"}},
		{path: sites + "?published=maybe", status: http.StatusBadRequest, errs: []string{"published"}},
	})
	bad := func(body any, part string) scenario {
		return scenario{method: "POST", path: sites, body: body, status: http.StatusBadRequest, errs: []string{part}}
	}
	run(t, e, []scenario{
		{path: sites + "?limit=1&page=" + page.Next.Page, want: []check{field("items.0.id", s2.ID), absent("next")}},
		bad(map[string]any{"title": "D"}, "title"),
		bad(map[string]any{"type": "gold"}, "type"),
		bad(map[string]any{"visibility": "private"}, "visibility"),
		bad(map[string]any{"spaces": []string{"nope"}}, "spaceId"),
		bad(map[string]any{"spaces": []string{a, a}}, "spaces[1]"),
		bad(map[string]any{"spaces": "x"}, "spaces"),
	})
}

func TestSitePermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	creator, reader, guest, out := e.addUser(t, "create", "Cy Creator"), e.addUser(t, "read", "Rae Reader"), e.addUser(t, "guest", "Gil Guest"), e.outsider(t)
	sp := siteNewSpace(t, e, "Guide")
	var s siteSite
	run(t, e, []scenario{{as: creator, method: "POST", path: siteOrg(e, "/sites"), body: map[string]any{"title": "Docs", "spaces": []string{sp}},
		status: http.StatusCreated, want: []check{into(&s), field("permissions.create", true), field("permissions.admin", true)}}})
	site, theirs := sitePath(e, s.ID, ""), map[string]any{"title": "Theirs"}
	scenarios := []scenario{
		{as: reader, path: site, want: []check{field("permissions.view", true), zero("permissions.create")}},
		{as: reader, method: "POST", path: siteOrg(e, "/sites"), body: map[string]any{"title": "Mine"}, status: http.StatusForbidden},
		{as: reader, method: "PATCH", path: site, body: theirs, status: http.StatusForbidden},
		{as: reader, method: "POST", path: sitePath(e, s.ID, "/sections"), body: map[string]any{"spaceId": sp}, status: http.StatusForbidden},
		{as: reader, method: "DELETE", path: site, status: http.StatusForbidden},
		{as: reader, path: sitePath(e, s.ID, "/share-links"), status: http.StatusForbidden},
	}
	for _, u := range []user{guest, out} {
		scenarios = append(scenarios,
			scenario{as: u, path: site, status: http.StatusNotFound},
			scenario{as: u, method: "PATCH", path: site, body: theirs, status: http.StatusNotFound},
			scenario{as: u, path: sitePath(e, s.ID, "/published"), status: http.StatusNotFound})
	}
	run(t, e, append(scenarios,
		// A guest lists only the sites granted to them: none here.
		scenario{as: guest, path: siteOrg(e, "/sites"), want: []check{field("count", 0), field("items", []any{})}},
		scenario{as: out, path: siteOrg(e, "/sites"), status: http.StatusNotFound},
		scenario{as: creator, method: "DELETE", path: site, status: http.StatusNoContent},
		scenario{as: creator, path: site, status: http.StatusNotFound},
	))
}

func TestSitePatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "Other")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	other := siteCreate(t, e, map[string]any{"title": "Other"})
	path := sitePath(e, s.ID, "")
	bad := func(body any, part string) scenario {
		return scenario{method: "PATCH", path: path, body: body, status: http.StatusBadRequest, errs: []string{part}}
	}
	var list sitePage[siteSiteSpace]
	var o siteSiteSpace
	run(t, e, []scenario{
		{name: "patch", method: "PATCH", path: path, body: map[string]any{
			"title": "Docs 2", "visibility": "share-link", "hostname": "docs.example.com", "basename": "docs",
			"proxy": "example.com/docs", "adaptiveContent": map[string]any{"enabled": true}, "published": true,
		}, want: []check{
			field("title", "Docs 2"), field("visibility", "share-link"), field("hostname", "docs.example.com"), field("basename", "docs"),
			field("proxy.origin", "example.com/docs"), field("proxy.target", "https://docs.example.com/docs/"),
			field("adaptiveContent.enabled", true), field("published", true), field("urls.published", "https://example.com/docs/"),
		}},
		{name: "remove proxy and hostname", method: "PATCH", path: path, body: map[string]any{"proxy": nil, "hostname": nil},
			want: []check{zero("proxy", "hostname"), field("basename", "docs"), field("urls.published", testPublicURL+"/sites/"+s.ID+"/")}},
		{method: "PATCH", path: sitePath(e, other.ID, ""), body: map[string]any{"basename": "docs"}, status: http.StatusConflict, errs: []string{"basename"}},
		{method: "PATCH", path: path, body: map[string]any{"hostname": "docs.example.com"}},
		{method: "PATCH", path: sitePath(e, other.ID, ""), body: map[string]any{"hostname": "docs.example.com"}, status: http.StatusConflict, errs: []string{"hostname"}},
		bad(map[string]any{"title": "x"}, "title"),
		bad(map[string]any{"title": nil}, "title"),
		bad(map[string]any{"visibility": "in-collection"}, "visibility"),
		bad(map[string]any{"hostname": "Docs.Example.com"}, "hostname"),
		bad(map[string]any{"hostname": "example.com"}, "hostname"),
		bad(map[string]any{"basename": ""}, "basename"),
		bad(map[string]any{"proxy": "example.com"}, "proxy"),
		bad(map[string]any{"proxy": "https://example.com/docs"}, "proxy"),
		bad(map[string]any{"defaultSiteSpace": "nope"}, "defaultSiteSpace"),
		bad(map[string]any{"defaultSiteSection": "nope"}, "defaultSiteSection"),
		bad(map[string]any{"adaptiveContent": map[string]any{}}, "adaptiveContent.enabled"),
		{path: sitePath(e, s.ID, "/site-spaces"), want: []check{into(&list)}},
		{name: "a site space of another site", method: "POST", path: sitePath(e, other.ID, "/site-spaces"), body: map[string]any{"spaceId": a},
			status: http.StatusCreated, want: []check{into(&o)}},
	})
	// defaultSiteSpace: a site space at the root, not one of another site.
	run(t, e, []scenario{
		{method: "PATCH", path: path, body: map[string]any{"defaultSiteSpace": list.Items[1].ID}},
		{path: sitePath(e, s.ID, "/site-spaces?default=true"), want: []check{field("items.#.id", []string{list.Items[1].ID})}},
		{path: sitePath(e, s.ID, "/site-spaces?default=false"), want: []check{field("items.#.id", []string{list.Items[0].ID})}},
		bad(map[string]any{"defaultSiteSpace": o.ID}, "defaultSiteSpace"),
	})
}

func TestSiteSectioning(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b, c := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "Guide v2"), siteNewSpace(t, e, "API")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	root := siteGet[sitePage[siteSiteSpace]](t, e, e.admin.token, sitePath(e, s.ID, "/site-spaces"))

	// The first section moves the root site spaces into a default section.
	res := e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/sections"), map[string]any{"spaceId": c, "title": "API docs"}).want(t, http.StatusCreated)
	var api siteSection
	res.Decode(t, &api)
	if api.Object != "site-section" || api.Title != "API docs" || api.Path != "api-docs" || api.Default || len(api.SiteSpaces) != 1 ||
		api.SiteSpaces[0].Space.ID != c || !api.SiteSpaces[0].Default || res.Header.Get("Location") == "" {
		t.Errorf("new section %+v", api)
	}
	secs := siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections"))
	if secs.Count != 2 || secs.Items[1].ID != api.ID {
		t.Fatalf("sections %+v", secs)
	}
	first := secs.Items[0]
	if !first.Default || first.Title != "Docs" || !cmp.Equal(siteSpaceIDs(first.SiteSpaces), siteSpaceIDs(root.Items)) || first.SiteSpaces[0].Section != first.ID {
		t.Errorf("default section %+v: want the root site spaces %v", first, siteSpaceIDs(root.Items))
	}
	// New site spaces go to the default section unless told.
	d := siteNewSpace(t, e, "Extra")
	ss := siteCall[siteSiteSpace](t, e, "POST", sitePath(e, s.ID, "/site-spaces"), map[string]any{"spaceId": d}, http.StatusCreated)
	ss2 := siteCall[siteSiteSpace](t, e, "POST", sitePath(e, s.ID, "/site-spaces"), map[string]any{"spaceId": d, "sectionId": api.ID}, http.StatusCreated)
	if ss.Section != first.ID || ss.Default || ss2.Section != api.ID {
		t.Errorf("site spaces %+v, %+v", ss, ss2)
	}
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/site-spaces"), map[string]any{"spaceId": d}).wantError(t, http.StatusConflict, "already")
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/site-spaces"), map[string]any{"spaceId": d, "sectionId": "nope"}).wantError(t, http.StatusBadRequest, "sectionId")
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/site-spaces"), map[string]any{}).wantError(t, http.StatusBadRequest, "spaceId")

	// Defaults: of the site (default section), of a section, of the site's default section.
	siteCall[siteSite](t, e, "PATCH", sitePath(e, s.ID, ""), map[string]any{"defaultSiteSection": api.ID}, http.StatusOK)
	e.call(t, e.admin.token, "PATCH", sitePath(e, s.ID, ""), map[string]any{"defaultSiteSpace": ss.ID}).wantError(t, http.StatusBadRequest, "defaultSiteSpace")
	siteCall[siteSite](t, e, "PATCH", sitePath(e, s.ID, ""), map[string]any{"defaultSiteSpace": ss2.ID}, http.StatusOK)
	sec := siteCall[siteSection](t, e, "PATCH", sitePath(e, s.ID, "/sections/"+first.ID), map[string]any{"defaultSiteSpace": ss.ID}, http.StatusOK)
	if sec.Default || !sec.SiteSpaces[2].Default || sec.SiteSpaces[0].Default {
		t.Errorf("section after defaults %+v", sec)
	}
	e.call(t, e.admin.token, "PATCH", sitePath(e, s.ID, "/sections/"+first.ID), map[string]any{"defaultSiteSpace": ss2.ID}).wantError(t, http.StatusBadRequest, "defaultSiteSpace")
	defs := siteGet[sitePage[siteSiteSpace]](t, e, e.admin.token, sitePath(e, s.ID, "/site-spaces?default=true"))
	if !cmp.Equal(siteSpaceIDs(defs.Items), []string{ss.ID, ss2.ID}) {
		t.Errorf("default site spaces %v, want %v", siteSpaceIDs(defs.Items), []string{ss.ID, ss2.ID})
	}

	// Section patch: path unique, condition kept, removed or set.
	path := sitePath(e, s.ID, "/sections/"+api.ID)
	sec = siteCall[siteSection](t, e, "PATCH", path, map[string]any{"title": "API", "path": "api", "condition": "visitor.claims.beta", "icon": "gear", "description": "All of it"}, http.StatusOK)
	if sec.Title != "API" || sec.Path != "api" || sec.Condition != "visitor.claims.beta" || sec.Icon != "gear" || sec.Description != "All of it" {
		t.Errorf("patched section %+v", sec)
	}
	if sec = siteCall[siteSection](t, e, "PATCH", path, map[string]any{"title": "API 2"}, http.StatusOK); sec.Condition != "visitor.claims.beta" {
		t.Errorf("condition omitted: %q, want it kept", sec.Condition)
	}
	if sec = siteCall[siteSection](t, e, "PATCH", path, map[string]any{"condition": nil, "icon": nil}, http.StatusOK); sec.Condition != "" || sec.Icon != "" {
		t.Errorf("condition null: %q, want it removed", sec.Condition)
	}
	e.call(t, e.admin.token, "PATCH", path, map[string]any{"path": first.Path}).wantError(t, http.StatusConflict, "path")
	for body, want := range map[string]string{`{"path":""}`: "path", `{"path":"a/b"}`: "path", `{"title":"A"}`: "title", `{"condition":""}`: "condition"} {
		e.call(t, e.admin.token, "PATCH", path, body).wantError(t, http.StatusBadRequest, want)
	}
	e.call(t, e.admin.token, "PATCH", sitePath(e, s.ID, "/sections/nope"), map[string]any{"title": "API"}).wantError(t, http.StatusNotFound)

	// Site space patch and move.
	ssPath := sitePath(e, s.ID, "/site-spaces/"+ss.ID)
	got := siteCall[siteSiteSpace](t, e, "PATCH", ssPath, map[string]any{"path": "extra-v1", "condition": "true"}, http.StatusOK)
	if got.Path != "extra-v1" || got.Condition != "true" {
		t.Errorf("patched site space %+v", got)
	}
	got = siteCall[siteSiteSpace](t, e, "PATCH", ssPath, map[string]any{"condition": nil}, http.StatusOK)
	if got.Condition != "" || got.Path != "extra-v1" {
		t.Errorf("condition null: %+v", got)
	}
	e.call(t, e.admin.token, "PATCH", ssPath, map[string]any{"path": root.Items[0].Path}).wantError(t, http.StatusConflict, "path")
	siteCall[siteSiteSpace](t, e, "POST", ssPath+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": root.Items[0].ID}}}, http.StatusOK)
	order := siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections")).Items[0]
	if want := []string{ss.ID, root.Items[0].ID, root.Items[1].ID}; !cmp.Equal(siteSpaceIDs(order.SiteSpaces), want) {
		t.Errorf("after move: %v, want %v", siteSpaceIDs(order.SiteSpaces), want)
	}
	siteCall[siteSiteSpace](t, e, "POST", ssPath+"/move", nil, http.StatusOK)
	order = siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections")).Items[0]
	if want := []string{root.Items[0].ID, root.Items[1].ID, ss.ID}; !cmp.Equal(siteSpaceIDs(order.SiteSpaces), want) {
		t.Errorf("after move to the end: %v, want %v", siteSpaceIDs(order.SiteSpaces), want)
	}
	e.call(t, e.admin.token, "POST", ssPath+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": ss2.ID}}}).wantError(t, http.StatusBadRequest, "position.after")
	e.call(t, e.admin.token, "POST", ssPath+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": a}}}).wantError(t, http.StatusBadRequest, "position.after")

	// Deleting the default site space makes the next one the default; the space stays.
	e.call(t, e.admin.token, "DELETE", ssPath, nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "DELETE", ssPath, nil).wantError(t, http.StatusNotFound)
	order = siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections")).Items[0]
	if !order.SiteSpaces[0].Default {
		t.Errorf("after deleting the default, %+v", order.SiteSpaces)
	}
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+d, nil).want(t, http.StatusOK)

	// Deleting the default section makes the next one the default, and its
	// site spaces and redirects go with it.
	rd := siteCall[map[string]any](t, e, "POST", sitePath(e, s.ID, "/redirects"), map[string]any{"source": "/old-api", "destination": map[string]any{"kind": "site-section", "siteSectionId": api.ID}}, http.StatusCreated)
	e.call(t, e.admin.token, "DELETE", path, nil).want(t, http.StatusNoContent)
	secs = siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections"))
	if secs.Count != 1 || !secs.Items[0].Default {
		t.Errorf("sections after delete %+v", secs)
	}
	e.call(t, e.admin.token, "DELETE", sitePath(e, s.ID, "/redirects/"+rd["id"].(string)), nil).wantError(t, http.StatusNotFound)
	if n := siteGet[siteSite](t, e, e.admin.token, sitePath(e, s.ID, "")).SiteSpaces; n != 2 {
		t.Errorf("siteSpaces = %d, want 2", n)
	}
}

func TestSiteGroupsAndOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs"})
	var secs []string
	for _, title := range []string{"One", "Two", "Three", "Four"} {
		sec := siteCall[siteSection](t, e, "POST", sitePath(e, s.ID, "/sections"), map[string]any{"spaceId": siteNewSpace(t, e, title)}, http.StatusCreated)
		secs = append(secs, sec.ID)
	}
	structure := func() []string {
		t.Helper()
		var p struct {
			Structure struct {
				Type      string `json:"type"`
				Structure []struct {
					Object   string        `json:"object"`
					ID       string        `json:"id"`
					Sections []siteSection `json:"sections"`
				} `json:"structure"`
			} `json:"structure"`
		}
		e.call(t, e.admin.token, "GET", sitePath(e, s.ID, "/published"), nil).want(t, http.StatusOK).Decode(t, &p)
		var out []string
		for _, it := range p.Structure.Structure {
			if it.Object == "site-section-group" {
				out = append(out, "g:"+strings.Join(sectionIDs(it.Sections), ","))
			} else {
				out = append(out, it.ID)
			}
		}
		// The sections list is the same order, groups flattened.
		list := siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections"))
		var want []string
		for _, it := range out {
			if it = strings.TrimPrefix(it, "g:"); it != "" {
				want = append(want, it)
			}
		}
		if flat := strings.Join(sectionIDs(list.Items), ","); flat != strings.Join(want, ",") {
			t.Errorf("sections list %s, structure %s", flat, out)
		}
		return out
	}
	if got := structure(); !cmp.Equal(got, secs) {
		t.Fatalf("structure %v, want %v", got, secs)
	}
	res := e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/section-groups"), map[string]any{"title": "Group", "icon": "book", "sections": []string{secs[2], secs[1]}}).want(t, http.StatusCreated)
	var g siteGroup
	res.Decode(t, &g)
	if g.Title != "Group" || g.Icon != "book" || !cmp.Equal(sectionIDs(g.Sections), []string{secs[2], secs[1]}) || g.Sections[0].SectionGroup != g.ID {
		t.Errorf("group %+v", g)
	}
	gs := "g:" + secs[2] + "," + secs[1]
	if got, want := structure(), []string{secs[0], secs[3], gs}; !cmp.Equal(got, want) {
		t.Errorf("structure %v, want %v", got, want)
	}
	gpath := sitePath(e, s.ID, "/section-groups/"+g.ID)
	siteCall[siteGroup](t, e, "POST", gpath+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": secs[3]}}}, http.StatusOK)
	if got, want := structure(), []string{secs[0], gs, secs[3]}; !cmp.Equal(got, want) {
		t.Errorf("after group move %v, want %v", got, want)
	}
	// A section moves among the items of its container.
	siteCall[siteSection](t, e, "POST", sitePath(e, s.ID, "/sections/"+secs[1]+"/move"), map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": secs[2]}}}, http.StatusOK)
	gs = "g:" + secs[1] + "," + secs[2]
	siteCall[siteSection](t, e, "POST", sitePath(e, s.ID, "/sections/"+secs[3]+"/move"), map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": secs[0]}}}, http.StatusOK)
	if got, want := structure(), []string{secs[0], secs[3], gs}; !cmp.Equal(got, want) {
		t.Errorf("after section moves %v, want %v", got, want)
	}
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/sections/"+secs[3]+"/move"), map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": secs[1]}}}).wantError(t, http.StatusBadRequest, "position.after")
	e.call(t, e.admin.token, "POST", gpath+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "id": secs[1]}}}).wantError(t, http.StatusBadRequest, "position.after")

	// Adding a section to a second group moves it; removing puts it after the group.
	g2 := siteCall[siteGroup](t, e, "POST", sitePath(e, s.ID, "/section-groups"), map[string]any{"title": "Second"}, http.StatusCreated)
	g2 = siteCall[siteGroup](t, e, "POST", sitePath(e, s.ID, "/section-groups/"+g2.ID+"/sections"), map[string]any{"sectionId": secs[1]}, http.StatusOK)
	if !cmp.Equal(sectionIDs(g2.Sections), []string{secs[1]}) {
		t.Errorf("second group %+v", g2)
	}
	g2s := "g:" + secs[1]
	if got, want := structure(), []string{secs[0], secs[3], "g:" + secs[2], g2s}; !cmp.Equal(got, want) {
		t.Errorf("after adding to the second group %v, want %v", got, want)
	}
	e.call(t, e.admin.token, "DELETE", gpath+"/sections/"+secs[1], nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "DELETE", gpath+"/sections/"+secs[2], nil).want(t, http.StatusNoContent)
	if got, want := structure(), []string{secs[0], secs[3], "g:", secs[2], g2s}; !cmp.Equal(got, want) {
		t.Errorf("after removing from the group %v, want %v", got, want)
	}
	// Patch, then delete: the sections stay in its place.
	g = siteCall[siteGroup](t, e, "PATCH", gpath, map[string]any{"title": "Renamed", "icon": nil}, http.StatusOK)
	if g.Title != "Renamed" || g.Icon != "" {
		t.Errorf("patched group %+v", g)
	}
	e.call(t, e.admin.token, "PATCH", gpath, map[string]any{"title": ""}).wantError(t, http.StatusBadRequest, "title")
	groups := siteGet[sitePage[siteGroup]](t, e, e.admin.token, sitePath(e, s.ID, "/section-groups"))
	if groups.Count != 2 || groups.Items[0].ID != g.ID {
		t.Errorf("groups %+v", groups)
	}
	e.call(t, e.admin.token, "DELETE", sitePath(e, s.ID, "/section-groups/"+g2.ID), nil).want(t, http.StatusNoContent)
	if got, want := structure(), []string{secs[0], secs[3], "g:", secs[2], secs[1]}; !cmp.Equal(got, want) {
		t.Errorf("after deleting the group %v, want %v", got, want)
	}
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/section-groups"), map[string]any{"title": "Bad", "sections": []string{"nope"}}).wantError(t, http.StatusBadRequest, "sections[0]")
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/section-groups"), map[string]any{}).wantError(t, http.StatusBadRequest, "title")
	e.call(t, e.admin.token, "POST", gpath+"/sections", map[string]any{"sectionId": "nope"}).wantError(t, http.StatusBadRequest, "sectionId")

	// Sections list pages.
	p1 := siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections?limit=3"))
	p2 := siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections?limit=3&page="+p1.Next.Page))
	if got := append(sectionIDs(p1.Items), sectionIDs(p2.Items)...); !cmp.Equal(got, []string{secs[0], secs[3], secs[2], secs[1]}) || p2.Next != nil || p1.Count != 4 {
		t.Errorf("pages %v", got)
	}
}

func TestSiteRedirects(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs"})
	one := siteCall[siteSection](t, e, "POST", sitePath(e, s.ID, "/sections"), map[string]any{"spaceId": siteNewSpace(t, e, "One")}, http.StatusCreated)
	two := siteCall[siteSection](t, e, "POST", sitePath(e, s.ID, "/sections"), map[string]any{"spaceId": siteNewSpace(t, e, "Two")}, http.StatusCreated)
	other := siteCreate(t, e, map[string]any{"title": "Other"})
	otherSec := siteCall[siteSection](t, e, "POST", sitePath(e, other.ID, "/sections"), map[string]any{"spaceId": siteNewSpace(t, e, "Three")}, http.StatusCreated)
	dest := func(id string) map[string]any { return map[string]any{"kind": "site-section", "siteSectionId": id} }
	redirects := sitePath(e, s.ID, "/redirects")
	bad := func(body any, part string) scenario {
		return scenario{method: "POST", path: redirects, body: body, status: http.StatusBadRequest, errs: []string{part}}
	}
	var rd struct{ ID string }
	var list sitePage[struct{ ID string }]
	run(t, e, []scenario{
		{name: "create", method: "POST", path: redirects, body: map[string]any{"source": "/old/page", "destination": dest(two.ID)}, status: http.StatusCreated,
			want: []check{into(&rd), field("source", "/old/page"), field("destination.siteSectionId", two.ID), zero("updatedAt")}},
		{name: "same source", method: "POST", path: redirects, body: map[string]any{"source": "/old/page", "destination": dest(one.ID)}, status: http.StatusConflict, errs: []string{"source"}},
		bad(map[string]any{"source": "old", "destination": dest(one.ID)}, "source"),
		bad(map[string]any{"source": "/a", "destination": dest(one.ID)}, "source"),
		bad(map[string]any{"source": "/a/", "destination": dest(one.ID)}, "source"),
		bad(map[string]any{"source": "/a//b", "destination": dest(one.ID)}, "source"),
		bad(map[string]any{"source": "/a b", "destination": dest(one.ID)}, "source"),
		bad(map[string]any{"source": "/" + strings.Repeat("a", 512), "destination": dest(one.ID)}, "source"),
		bad(map[string]any{"source": "/ok-path"}, "destination"),
		bad(map[string]any{"destination": dest(one.ID)}, "source"),
		bad(map[string]any{"source": "/ok-path", "destination": dest(otherSec.ID)}, "destination.siteSectionId"),
		bad(map[string]any{"source": "/ok-path", "destination": map[string]any{"kind": "url", "url": "https://x.y"}}, "destination"),
		{method: "POST", path: redirects, body: map[string]any{"source": "/a-first.html", "destination": dest(one.ID)}, status: http.StatusCreated},
		// Lookup: the redirect and its target, the section's URL.
		{path: sitePath(e, s.ID, "/redirect?source=/old/page"), want: []check{field("target", testPublicURL+"/sites/"+s.ID+"/"+two.Path+"/"),
			func(t testing.TB, r *response) { field("redirect.id", rd.ID)(t, r) }}},
		{path: sitePath(e, s.ID, "/redirect?source=/nowhere"), status: http.StatusNotFound},
		{path: sitePath(e, s.ID, "/redirect?source=nowhere"), status: http.StatusBadRequest, errs: []string{"source"}},
		{path: sitePath(e, s.ID, "/redirect"), status: http.StatusBadRequest, errs: []string{"source"}},
	})
	// Patch, list in source order, delete.
	rdPath := redirects + "/" + rd.ID
	run(t, e, []scenario{
		{method: "PATCH", path: rdPath, body: map[string]any{"source": "/older", "destination": dest(one.ID)},
			want: []check{field("source", "/older"), field("destination.siteSectionId", one.ID), nonzero("updatedAt")}},
		{name: "target of the default section", path: sitePath(e, s.ID, "/redirect?source=/older"), want: []check{field("target", testPublicURL+"/sites/"+s.ID+"/")}},
		{method: "PATCH", path: rdPath, body: map[string]any{"source": "/a-first.html"}, status: http.StatusConflict, errs: []string{"source"}},
		{path: redirects + "?limit=1", want: []check{into(&list), field("count", 2), field("items.0.source", "/a-first.html")}},
	})
	run(t, e, []scenario{
		{path: redirects + "?limit=1&page=" + list.Next.Page, want: []check{field("items.0.source", "/older"), absent("next")}},
		{method: "DELETE", path: rdPath, status: http.StatusNoContent},
		{path: sitePath(e, s.ID, "/redirect?source=/older"), status: http.StatusNotFound},
		{name: "through another site", method: "DELETE", path: sitePath(e, other.ID, "/redirects/"+list.Items[0].ID), status: http.StatusNotFound},
	})
}

func TestSiteShareKeyAndPublished(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	guest, out := e.addUser(t, "guest", "Gil Guest"), e.outsider(t)
	sp := siteNewSpace(t, e, "Guide")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{sp}})
	site := sitePath(e, s.ID, "")
	var links sitePage[struct{ Key string }]
	run(t, e, []scenario{
		{method: "POST", path: sitePath(e, s.ID, "/redirects"), body: map[string]any{"source": "/x/y", "destination": map[string]any{"kind": "site-section", "siteSectionId": "nope"}}, status: http.StatusBadRequest},
		{path: sitePath(e, s.ID, "/published"), want: []check{
			field("object", "published-content-site"), field("site.id", s.ID), field("structure.type", "siteSpaces"), field("structure.structure.#.space.id", []string{sp}),
			field("customizations.site.title", "Docs"), nonzero("customizations.site.styling"),
			// Unpublished: no published URL.
			zero("structure.structure.0.urls.published"),
		}},
		{path: sitePath(e, s.ID, "/share-links"), want: []check{into(&links), field("count", 1), nonzero("items.0.key")}},
	})
	key := links.Items[0].Key
	// access: what who gets of the published site, its sections and site
	// spaces with query q; everything else stays closed to them.
	access := func(who user, q string, status int) []scenario {
		var out []scenario
		for _, op := range []string{"/published", "/sections", "/site-spaces"} {
			out = append(out, scenario{as: who, path: sitePath(e, s.ID, op+q), status: status})
		}
		return append(out, scenario{as: who, path: site, status: http.StatusNotFound})
	}
	patch := func(body map[string]any, want ...check) scenario {
		return scenario{method: "PATCH", path: site, body: body, want: want}
	}
	// Unpublished: nothing for them, key or not.
	scenarios := []scenario{patch(map[string]any{"visibility": "share-link"})}
	scenarios = append(scenarios, access(out, "?shareKey="+key, http.StatusNotFound)...)
	scenarios = append(scenarios, patch(map[string]any{"published": true}, field("published", true), field("urls.published", testPublicURL+"/sites/"+s.ID+"/")))
	for _, who := range []user{out, guest} {
		scenarios = append(scenarios, access(who, "", http.StatusNotFound)...)
		scenarios = append(scenarios, access(who, "?shareKey=wrong", http.StatusNotFound)...)
		scenarios = append(scenarios, access(who, "?shareKey="+key, http.StatusOK)...)
	}
	scenarios = append(scenarios, scenario{name: "outsider's view", as: out, path: sitePath(e, s.ID, "/published?shareKey="+key),
		want: []check{zero("site.permissions.view"), field("structure.structure.0.urls.published", testPublicURL+"/sites/"+s.ID+"/")}})
	// Public sites need no key; visitor-auth ones are closed to the API.
	scenarios = append(scenarios, patch(map[string]any{"visibility": "public"}))
	scenarios = append(scenarios, access(out, "", http.StatusOK)...)
	scenarios = append(scenarios, patch(map[string]any{"visibility": "visitor-auth"}))
	scenarios = append(scenarios, access(out, "?shareKey="+key, http.StatusNotFound)...)
	// Members who read the org need no key.
	run(t, e, append(scenarios, scenario{path: sitePath(e, s.ID, "/published")}))
}

func TestSiteCascades(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "Other")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	published := func() []string {
		var p struct {
			Structure struct {
				Structure []siteSiteSpace `json:"structure"`
			} `json:"structure"`
		}
		e.call(t, e.admin.token, "GET", sitePath(e, s.ID, "/published"), nil).want(t, http.StatusOK).Decode(t, &p)
		var ids []string
		for _, ss := range p.Structure.Structure {
			ids = append(ids, ss.Space.ID)
		}
		return ids
	}
	if got := published(); !cmp.Equal(got, []string{a, b}) {
		t.Fatalf("published %v", got)
	}
	// Deleting a space unpublishes it at once, from every read; the next
	// site space becomes the default. Restoring it does not publish it again.
	e.call(t, e.admin.token, "DELETE", "/v1/spaces/"+a, nil).want(t, http.StatusNoContent)
	if got := published(); !cmp.Equal(got, []string{b}) {
		t.Errorf("after deleting a space: %v", got)
	}
	list := siteGet[sitePage[siteSiteSpace]](t, e, e.admin.token, sitePath(e, s.ID, "/site-spaces"))
	if list.Count != 1 || !list.Items[0].Default || siteGet[siteSite](t, e, e.admin.token, sitePath(e, s.ID, "")).SiteSpaces != 1 {
		t.Errorf("site spaces after deleting a space %+v", list)
	}
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+a+"/restore", nil).want(t, http.StatusOK)
	if got := published(); !cmp.Equal(got, []string{b}) {
		t.Errorf("after restoring: %v", got)
	}
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/site-spaces"), map[string]any{"spaceId": a}).want(t, http.StatusCreated)
	// A deleted space cannot be published; a space in a deleted collection goes too.
	var col struct {
		ID string `json:"id"`
	}
	e.call(t, e.admin.token, "POST", siteOrg(e, "/collections"), map[string]any{"title": "Col"}).want(t, http.StatusCreated).Decode(t, &col)
	var inCol struct {
		ID string `json:"id"`
	}
	e.call(t, e.admin.token, "POST", siteOrg(e, "/spaces"), map[string]any{"title": "Inner", "parent": col.ID}).want(t, http.StatusCreated).Decode(t, &inCol)
	sec := siteCall[siteSection](t, e, "POST", sitePath(e, s.ID, "/sections"), map[string]any{"spaceId": inCol.ID}, http.StatusCreated)
	e.call(t, e.admin.token, "DELETE", "/v1/collections/"+col.ID, nil).want(t, http.StatusNoContent)
	secs := siteGet[sitePage[siteSection]](t, e, e.admin.token, sitePath(e, s.ID, "/sections"))
	if len(secs.Items) != 2 || secs.Items[1].ID != sec.ID || len(secs.Items[1].SiteSpaces) != 0 {
		t.Errorf("sections after deleting the collection %+v", secs)
	}
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/site-spaces"), map[string]any{"spaceId": inCol.ID}).wantError(t, http.StatusBadRequest, "spaceId")

	// Purging keeps everything consistent; deleting the site removes all in it.
	if _, err := e.db.PurgeDeleted(t.Context(), e.db.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	e.call(t, e.admin.token, "GET", sitePath(e, s.ID, "/published"), nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "DELETE", sitePath(e, s.ID, ""), nil).want(t, http.StatusNoContent)
	for _, op := range []string{"", "/published", "/sections", "/site-spaces", "/redirects", "/section-groups"} {
		e.call(t, e.admin.token, "GET", sitePath(e, s.ID, op), nil).wantError(t, http.StatusNotFound)
	}
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+b, nil).want(t, http.StatusOK)

	// A space transferred to another organization leaves the sites of its old one.
	s = siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{b}})
	other, err := e.db.InitOrganization(t.Context(), "Elsewhere", uniqueEmail("else"), "Elsa")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.TransferSpace(t.Context(), b, other.Organization.ID); err != nil {
		t.Fatal(err)
	}
	if n := siteGet[siteSite](t, e, e.admin.token, sitePath(e, s.ID, "")).SiteSpaces; n != 0 {
		t.Errorf("siteSpaces after transfer = %d, want 0", n)
	}
}

func TestSiteAdaptiveSchema(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rae Reader")
	s := siteCreate(t, e, map[string]any{"title": "Docs"})
	path := sitePath(e, s.ID, "/adaptive-schema")
	schema := map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type":    "object",
		"properties": map[string]any{
			"isBeta": map[string]any{"type": "boolean", "description": "In the beta"},
			"plan":   map[string]any{"type": "string", "enum": []any{"free", "pro"}, "description": "Plan"},
			"unsigned": map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
				"properties": map[string]any{"lang": map[string]any{"type": "string", "description": "Language"}}},
		},
		"additionalProperties": false,
	}
	var put struct{ JSONSchema map[string]any }
	scenarios := []scenario{
		{name: "none yet", path: path, status: http.StatusNotFound},
		{method: "PUT", path: path, body: map[string]any{"jsonSchema": schema}, want: []check{
			into(&put), field("object", "site-adaptive-schema"), nonzero("updatedAt"), field("jsonSchema.properties", schema["properties"])}},
		{as: reader, path: path, want: []check{func(t testing.TB, r *response) { field("jsonSchema", put.JSONSchema)(t, r) }}},
		{as: reader, method: "PUT", path: path, body: map[string]any{"jsonSchema": schema}, status: http.StatusForbidden},
	}
	for name, bad := range map[string]any{
		"missing":        nil,
		"not an object":  []int{1},
		"invalid draft7": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": 12, "description": "x"}}, "additionalProperties": false},
		"bad type":       map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "bogus", "description": "x"}}, "additionalProperties": false},
		"not object":     map[string]any{"type": "string", "properties": map[string]any{}, "additionalProperties": false},
		"no description": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "boolean"}}, "additionalProperties": false},
		"other draft":    map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": map[string]any{}, "additionalProperties": false},
	} {
		scenarios = append(scenarios, scenario{name: name, method: "PUT", path: path, body: map[string]any{"jsonSchema": bad}, status: http.StatusBadRequest, errs: []string{"jsonSchema"}})
	}
	run(t, e, scenarios)
}

// TestSitePublishedFresh checks that the cached published profile follows
// every change at once.
func TestSitePublishedFresh(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := siteNewSpace(t, e, "Guide")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{a}})
	title := func() (string, string) {
		var p struct {
			Site      siteSite `json:"site"`
			Structure struct {
				Structure []siteSiteSpace `json:"structure"`
			} `json:"structure"`
		}
		e.call(t, e.admin.token, "GET", sitePath(e, s.ID, "/published"), nil).want(t, http.StatusOK).Decode(t, &p)
		return p.Site.Title, p.Structure.Structure[0].Space.Title
	}
	title()
	e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+a, map[string]any{"title": "Guide 2"}).want(t, http.StatusOK)
	siteCall[siteSite](t, e, "PATCH", sitePath(e, s.ID, ""), map[string]any{"title": "Docs 2"}, http.StatusOK)
	if st, sp := title(); st != "Docs 2" || sp != "Guide 2" {
		t.Errorf("published titles %q, %q; want Docs 2, Guide 2", st, sp)
	}
}

// TestMemberSitesCount: a member's `sites` counts the organization's sites,
// which every member who is not a guest may read; a guest's is 0.
func TestMemberSitesCount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, guest := e.addUser(t, "read", "Rita Reader"), e.addUser(t, "guest", "Gil Guest")
	sites := func(userID string) int {
		t.Helper()
		var m struct{ Sites int }
		e.call(t, e.admin.token, "GET", e.membersPath("/"+userID), nil).want(t, http.StatusOK).Decode(t, &m)
		return m.Sites
	}
	if n := sites(reader.id); n != 0 {
		t.Errorf("before any site: %d sites, want 0", n)
	}
	siteCreate(t, e, map[string]any{"title": "Docs"})
	siteCreate(t, e, map[string]any{"title": "API"})
	if n := sites(reader.id); n != 2 {
		t.Errorf("reader: %d sites, want 2", n)
	}
	if n := sites(guest.id); n != 0 {
		t.Errorf("guest: %d sites, want 0", n)
	}
	var list struct {
		Items []struct {
			ID    string
			Sites int
		}
	}
	e.call(t, e.admin.token, "GET", e.membersPath("?limit=10"), nil).want(t, http.StatusOK).Decode(t, &list)
	for _, m := range list.Items {
		if want := map[bool]int{true: 0, false: 2}[m.ID == guest.id]; m.Sites != want {
			t.Errorf("listed member %s with %d sites, want %d", m.ID, m.Sites, want)
		}
	}
}

// TestSiteTitleFilterUnicode: the title filter ignores case beyond ASCII,
// on SQLite too, and follows renames.
func TestSiteTitleFilterUnicode(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := siteCreate(t, e, map[string]any{"title": "ÉVÉNEMENTS"})
	siteCreate(t, e, map[string]any{"title": "Guide"})
	titled := func(q string) []string {
		t.Helper()
		l := siteGet[sitePage[siteSite]](t, e, e.admin.token, siteOrg(e, "/sites?title="+url.QueryEscape(q)))
		return siteIDs(l.Items, func(s siteSite) string { return s.ID })
	}
	if got := titled("événement"); !cmp.Equal(got, []string{s.ID}) {
		t.Errorf("title=événement: %v, want the ÉVÉNEMENTS site", got)
	}
	e.call(t, e.admin.token, "PATCH", sitePath(e, s.ID, ""), map[string]any{"title": "Ärzte"}).want(t, http.StatusOK)
	if got, old := titled("ärz"), titled("événement"); !cmp.Equal(got, []string{s.ID}) || len(old) != 0 {
		t.Errorf("after renaming: title=ärz %v, title=événement %v", got, old)
	}
}
