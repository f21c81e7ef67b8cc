package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/quiredocs/quire/store"
)

// Issue 19's site operations (share links, permissions, customization,
// structure, publish): outside the reference's subset, so every answer is
// also checked against the whole reference document.

// fullChecked adds to each scenario a check of its answer against the whole
// reference.
func fullChecked(scenarios []scenario) []scenario {
	for i := range scenarios {
		method, path := scenarios[i].method, scenarios[i].path
		if method == "" {
			method = http.MethodGet
		}
		path, _, _ = strings.Cut(path, "?")
		scenarios[i].want = append([]check{func(t testing.TB, r *response) {
			if ref := fullReference(t); ref != nil {
				if err := ref.Check(method, strings.TrimPrefix(path, "/v1"), r.Status, r.Body); err != nil {
					t.Errorf("contract: %v", err)
				}
			}
		}}, scenarios[i].want...)
	}
	return scenarios
}

type shareLinkOut struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Key    string `json:"key"`
	Active bool   `json:"active"`
	URLs   struct {
		Published string `json:"published"`
	} `json:"urls"`
}

func TestSiteShareLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, out := e.addUser(t, "read", "Rae Reader"), e.outsider(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs", "visibility": "share-link", "spaces": []string{siteNewSpace(t, e, "Guide")}})
	links := sitePath(e, s.ID, "/share-links")
	var first sitePage[shareLinkOut]
	var made, second shareLinkOut
	run(t, e, fullChecked([]scenario{
		{method: "POST", path: sitePath(e, s.ID, "/publish"), want: []check{field("published", true)}},
		// Every site starts with one link.
		{path: links, want: []check{into(&first), field("count", 1), field("items.0.object", "share-link"), field("items.0.active", true), nonzero("items.0.createdAt", "items.0.key")}},
		{name: "create", method: "POST", path: links, body: map[string]any{"name": "Partners"}, status: http.StatusCreated, want: []check{
			into(&made), field("object", "share-link"), field("name", "Partners"), field("active", true), nonzero("id", "key", "createdAt"),
			func(t testing.TB, r *response) {
				if !strings.HasSuffix(r.Header.Get("Location"), "/share-links/"+made.ID) {
					t.Errorf("Location %q", r.Header.Get("Location"))
				}
				if made.URLs.Published != testPublicURL+"/sites/"+s.ID+"/?shareKey="+url.QueryEscape(made.Key) {
					t.Errorf("urls.published %q does not carry the key %q", made.URLs.Published, made.Key)
				}
			}}},
		{method: "POST", path: links, body: map[string]any{"name": "Second"}, status: http.StatusCreated, want: []check{into(&second)}},
		{method: "POST", path: links, body: map[string]any{}, status: http.StatusBadRequest, errs: []string{"name"}},
		{method: "POST", path: links, body: map[string]any{"name": strings.Repeat("n", 51)}, status: http.StatusBadRequest, errs: []string{"name"}},
		{path: links + "?search=PART", want: []check{field("count", 1), field("items.0.name", "Partners")}},
		{path: links + "?limit=2", want: []check{field("count", 3), field("items.#.name", []string{"Share link", "Partners"}), nonzero("next.page")}},
		// Who may: managers of the site only; another organization sees nothing.
		{as: reader, path: links, status: http.StatusForbidden},
		{as: reader, method: "POST", path: links, body: map[string]any{"name": "Mine"}, status: http.StatusForbidden},
		{as: out, method: "POST", path: links, body: map[string]any{"name": "Theirs"}, status: http.StatusNotFound},
	}))
	// The new link's key opens the site to the API's shareKey operations.
	published := func(key string, status int) scenario {
		return scenario{as: out, path: sitePath(e, s.ID, "/published?shareKey="+url.QueryEscape(key)), status: status}
	}
	run(t, e, fullChecked([]scenario{
		{method: "PATCH", path: links + "/" + made.ID, body: map[string]any{}, status: http.StatusBadRequest, errs: []string{"name"}},
		{method: "PATCH", path: links + "/" + made.ID, body: map[string]any{"active": nil}, status: http.StatusBadRequest, errs: []string{"active"}},
		{as: reader, method: "DELETE", path: links + "/" + made.ID, status: http.StatusForbidden},
		{as: out, method: "PATCH", path: links + "/" + made.ID, body: map[string]any{"active": false}, status: http.StatusNotFound},
		published(made.Key, http.StatusOK),
		published(first.Items[0].Key, http.StatusOK),
		{method: "PATCH", path: links + "/" + made.ID, body: map[string]any{"active": false, "name": "Partners (revoked)"}, want: []check{field("active", false), field("name", "Partners (revoked)")}},
		published(made.Key, http.StatusNotFound),
		published(second.Key, http.StatusOK),
		{method: "PATCH", path: links + "/" + made.ID, body: map[string]any{"active": true}, want: []check{field("active", true)}},
		published(made.Key, http.StatusOK),
		{method: "DELETE", path: links + "/" + made.ID, status: http.StatusResetContent},
		{method: "DELETE", path: links + "/" + made.ID, status: http.StatusNoContent},
		published(made.Key, http.StatusNotFound),
		{method: "PATCH", path: links + "/" + made.ID, body: map[string]any{"active": true}, status: http.StatusNotFound},
		{path: links, want: []check{field("count", 2)}},
		// Another site's link is not this site's.
		{method: "DELETE", path: sitePath(e, siteCreate(t, e, map[string]any{"title": "Other"}).ID, "/share-links/"+second.ID), status: http.StatusNoContent},
		published(second.Key, http.StatusOK),
	}))
}

func TestSitePermissionGrants(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, guest, out := e.addUser(t, "read", "Rae Reader"), e.addUser(t, "guest", "Gil Guest"), e.outsider(t)
	teamMate := e.addUser(t, "guest", "Tim Team")
	team := colTeam(t, e, "Writers", teamMate.id)
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{siteNewSpace(t, e, "Guide")}})
	siteCreate(t, e, map[string]any{"title": "Ungranted"})
	site, perms := sitePath(e, s.ID, ""), sitePath(e, s.ID, "/permissions")
	originOf := func(userID string, want map[string]any) check {
		return func(t testing.TB, r *response) {
			var list struct {
				Items []struct {
					Permission string              `json:"permission"`
					User       struct{ ID string } `json:"user"`
					Origin     map[string]any      `json:"origin"`
				} `json:"items"`
			}
			r.Decode(t, &list)
			for _, it := range list.Items {
				if it.User.ID == userID {
					got, _ := json.Marshal(it.Origin)
					wanted, _ := json.Marshal(want)
					if string(got) != string(wanted) {
						t.Errorf("origin of %s: %s, want %s", userID, got, wanted)
					}
					return
				}
			}
			if want != nil {
				t.Errorf("%s not listed", userID)
			}
		}
	}
	run(t, e, fullChecked([]scenario{
		// Before any grant, a guest does not see the site, nor list it.
		{as: guest, path: site, status: http.StatusNotFound},
		{as: guest, path: siteOrg(e, "/sites"), want: []check{field("count", 0)}},
		{path: perms + "/aggregate", want: []check{originOf(e.admin.id, map[string]any{"type": "organization", "organization": e.org}), originOf(guest.id, nil)}},
		// Bad requests change nothing.
		{method: "POST", path: perms, body: map[string]any{"role": "edit"}, status: http.StatusBadRequest, errs: []string{"users"}},
		{method: "POST", path: perms, body: map[string]any{"role": "owner", "users": []string{guest.id}}, status: http.StatusBadRequest, errs: []string{"role"}},
		{method: "POST", path: perms, body: map[string]any{"role": "edit", "users": []string{guest.id, "nobody"}}, status: http.StatusNotFound, errs: []string{"users[1]"}},
		{as: guest, path: site, status: http.StatusNotFound},
		// Who may grant: the site's admins; a reader may not; another org sees nothing.
		{as: reader, method: "POST", path: perms, body: map[string]any{"role": "edit", "users": []string{guest.id}}, status: http.StatusForbidden},
		{as: reader, method: "PATCH", path: perms + "/users/" + guest.id, body: map[string]any{"role": "admin"}, status: http.StatusForbidden},
		{as: out, method: "POST", path: perms, body: map[string]any{"role": "edit", "users": []string{out.id}}, status: http.StatusNotFound},
		{as: out, path: perms + "/aggregate", status: http.StatusNotFound},
		{method: "POST", path: perms, body: map[string]any{"role": "read", "users": []string{guest.id}, "teams": []string{team}}, status: http.StatusNoContent},
		// A guest granted read reads the site, and may not change it.
		{as: guest, path: site, want: []check{field("permissions.view", true), zero("permissions.edit")}},
		{as: guest, method: "PATCH", path: site, body: map[string]any{"title": "Mine"}, status: http.StatusForbidden},
		{as: teamMate, path: sitePath(e, s.ID, "/site-spaces"), want: []check{field("count", 1)}},
		// The granted guests list that site only, not the organization's others.
		{as: guest, path: siteOrg(e, "/sites"), want: []check{field("count", 1), field("items.0.id", s.ID), field("items.0.permissions.view", true)}},
		{as: teamMate, path: siteOrg(e, "/sites"), want: []check{field("count", 1), field("items.0.id", s.ID)}},
		{path: siteOrg(e, "/sites"), want: []check{field("count", 2)}},
		{path: perms + "/users", want: []check{field("count", 1), field("items.0.permission", "read"), field("items.0.user.id", guest.id)}},
		{path: perms + "/teams", want: []check{field("count", 1), field("items.0.permission", "read"), field("items.0.team.id", team)}},
		{path: perms + "/aggregate?role=read", want: []check{
			originOf(guest.id, map[string]any{"type": "site", "site": s.ID, "reason": "member"}),
			originOf(teamMate.id, map[string]any{"type": "site", "site": s.ID, "reason": "team"}),
			originOf(reader.id, map[string]any{"type": "organization", "organization": e.org}),
		}},
		{path: perms + "/aggregate?role=boss", status: http.StatusBadRequest, errs: []string{"role"}},
		// Raised to create, the guest manages the site; the grant does not
		// lower a stronger organization role.
		{method: "PATCH", path: perms + "/users/" + guest.id, body: map[string]any{"role": "create"}, status: http.StatusNoContent},
		{as: guest, method: "PATCH", path: site, body: map[string]any{"title": "Guest's docs"}, want: []check{field("title", "Guest's docs"), field("permissions.create", true)}},
		{as: guest, method: "POST", path: sitePath(e, s.ID, "/share-links"), body: map[string]any{"name": "Mine"}, status: http.StatusCreated},
		{as: guest, method: "POST", path: perms, body: map[string]any{"role": "admin", "users": []string{guest.id}}, status: http.StatusForbidden},
		{method: "PATCH", path: perms + "/users/" + reader.id, body: map[string]any{"role": "read"}, status: http.StatusNoContent},
		{as: reader, path: site, want: []check{field("permissions.view", true)}},
		{method: "PATCH", path: perms + "/teams/" + team, body: map[string]any{"role": "edit"}, status: http.StatusNoContent},
		{as: teamMate, path: site, want: []check{field("permissions.edit", true), zero("permissions.create")}},
		{method: "PATCH", path: perms + "/teams/nope", body: map[string]any{"role": "edit"}, status: http.StatusNotFound, errs: []string{"teams[0]"}},
		// Removing: 205 when there was a grant, 204 when not.
		{method: "DELETE", path: perms + "/users/" + guest.id, status: http.StatusResetContent},
		{method: "DELETE", path: perms + "/users/" + guest.id, status: http.StatusNoContent},
		{method: "DELETE", path: perms + "/teams/" + team, status: http.StatusResetContent},
		{as: guest, path: site, status: http.StatusNotFound},
		{as: teamMate, path: site, status: http.StatusNotFound},
	}))
	// Deleting the site takes its grants with it.
	run(t, e, []scenario{
		{method: "POST", path: perms, body: map[string]any{"role": "read", "users": []string{guest.id}}, status: http.StatusNoContent},
		{method: "DELETE", path: site, status: http.StatusNoContent},
	})
	if list, err := e.db.ListUserGrants(t.Context(), s.ID, store.Page{Limit: 10}); err != nil || list.Count != 0 {
		t.Errorf("grants of a deleted site: %+v (%v), want none", list, err)
	}
}

func TestSiteCustomization(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, out := e.addUser(t, "read", "Rae Reader"), e.outsider(t)
	a, b := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "API")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	var spaces sitePage[siteSiteSpace]
	custom := sitePath(e, s.ID, "/customization")
	var settings map[string]any
	run(t, e, fullChecked([]scenario{
		{path: sitePath(e, s.ID, "/site-spaces"), want: []check{into(&spaces)}},
		// Until set, the defaults, titled with the site's title.
		{path: custom, want: []check{into(&settings), field("title", "Docs"), field("styling.theme", "clean"), absent("updatedAt")}},
		{as: reader, path: custom, want: []check{field("title", "Docs")}},
		{as: out, path: custom, status: http.StatusNotFound},
	}))
	styling := settings["styling"].(map[string]any)
	styling["theme"], styling["primaryColor"] = "bold", map[string]any{"light": "#aa0000", "dark": "#ff5555"}
	settings["title"] = "Acme Docs"
	settings["header"] = map[string]any{"preset": "default", "links": []any{
		map[string]any{"title": "Home", "to": map[string]any{"kind": "url", "url": "https://acme.example.com/"}, "links": []any{}},
	}}
	settings["footer"] = map[string]any{"groups": []any{map[string]any{"title": "Company", "links": []any{
		map[string]any{"title": "Blog", "to": map[string]any{"kind": "url", "url": "https://acme.example.com/blog"}},
	}}}, "copyright": "© Acme"}
	bad := func(change func(m map[string]any), part string) scenario {
		raw, _ := json.Marshal(settings)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		change(m)
		return scenario{method: "PUT", path: custom, body: m, status: http.StatusBadRequest, errs: []string{part}}
	}
	ss := sitePath(e, s.ID, "/site-spaces/"+spaces.Items[1].ID+"/customization")
	run(t, e, fullChecked([]scenario{
		bad(func(m map[string]any) {
			m["styling"].(map[string]any)["primaryColor"] = map[string]any{"light": "red", "dark": "#000"}
		}, "styling.primaryColor.light"),
		bad(func(m map[string]any) { m["styling"].(map[string]any)["theme"] = "neon" }, "styling.theme"),
		bad(func(m map[string]any) { delete(m, "footer") }, "footer"),
		{method: "PUT", path: custom, body: "[1]", status: http.StatusBadRequest, errs: []string{"body"}},
		{method: "PUT", path: custom, body: strings.Repeat(" ", 300<<10), status: http.StatusRequestEntityTooLarge},
		{path: custom, want: []check{field("title", "Docs")}},
		{as: reader, method: "PUT", path: custom, body: settings, status: http.StatusForbidden},
		{as: out, method: "PUT", path: custom, body: settings, status: http.StatusNotFound},
		{method: "PUT", path: custom, body: settings, want: []check{field("title", "Acme Docs"), field("styling.theme", "bold"), field("styling.primaryColor.dark", "#ff5555"), nonzero("updatedAt")}},
		{path: custom, want: []check{field("title", "Acme Docs"), field("footer.copyright", "© Acme"), field("header.links.0.title", "Home"), nonzero("updatedAt")}},
		{path: sitePath(e, s.ID, "/published"), want: []check{field("customizations.site.title", "Acme Docs"), field("customizations.site.styling.theme", "bold")}},
		// A site space inherits, then overrides part of it.
		{path: ss, want: []check{field("hasOverrides", false), field("title", "Acme Docs")}},
		{as: reader, method: "PATCH", path: ss, body: map[string]any{"title": "API docs"}, status: http.StatusForbidden},
		{method: "PATCH", path: ss, body: map[string]any{"styling": map[string]any{"theme": "neon"}}, status: http.StatusBadRequest, errs: []string{"styling.theme"}},
		{method: "PATCH", path: ss, body: map[string]any{"title": "API docs", "styling": map[string]any{"theme": "muted"}}, want: []check{
			field("hasOverrides", true), field("title", "API docs"), field("styling.theme", "muted"), field("styling.primaryColor.light", "#aa0000")}},
		{path: sitePath(e, s.ID, "/published"), want: []check{field("customizations.site.title", "Acme Docs"),
			field("customizations.siteSpaces."+spaces.Items[1].ID+".title", "API docs"), field("customizations.siteSpaces."+spaces.Items[1].ID+".styling.theme", "muted"),
			field("customizations.siteSpaces."+spaces.Items[0].ID+".title", "Acme Docs"), field("customizations.siteSpaces."+spaces.Items[0].ID+".styling.theme", "bold")}},
		{method: "PATCH", path: ss, body: map[string]any{"title": nil}, want: []check{field("hasOverrides", true), field("title", "Acme Docs"), field("styling.theme", "muted")}},
		{path: sitePath(e, s.ID, "/site-spaces/"+spaces.Items[0].ID+"/customization"), want: []check{field("hasOverrides", false), field("styling.theme", "bold")}},
		{method: "DELETE", path: ss, status: http.StatusResetContent},
		{method: "DELETE", path: ss, status: http.StatusNoContent},
		{path: ss, want: []check{field("hasOverrides", false), field("styling.theme", "bold")}},
		{path: sitePath(e, s.ID, "/site-spaces/nope/customization"), status: http.StatusNotFound},
		{as: out, path: ss, status: http.StatusNotFound},
	}))
}

func TestSiteStructureSortAndPublish(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, out := e.addUser(t, "read", "Rae Reader"), e.outsider(t)
	a, b := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "API")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	var spaces sitePage[siteSiteSpace]
	structure, sort := sitePath(e, s.ID, "/structure"), sitePath(e, s.ID, "/structure/sort")
	run(t, e, fullChecked([]scenario{
		{path: sitePath(e, s.ID, "/site-spaces"), want: []check{into(&spaces)}},
		{path: structure, want: []check{field("type", "siteSpaces"), field("structure.#.space.id", []string{a, b})}},
		{as: reader, path: structure, want: []check{field("type", "siteSpaces")}},
		{as: out, path: structure, status: http.StatusNotFound},
	}))
	ptr := func(kind, id string) map[string]any { return map[string]any{"type": kind, "id": id} }
	first, second := spaces.Items[0].ID, spaces.Items[1].ID
	var sec siteSection
	run(t, e, fullChecked([]scenario{
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-space", second), "position": map[string]any{"before": ptr("site-space", first)}},
			want: []check{field("object", "site-space"), field("id", second)}},
		{path: structure, want: []check{field("structure.#.space.id", []string{b, a})}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-space", second), "position": map[string]any{}}},
		{path: structure, want: []check{field("structure.#.space.id", []string{a, b})}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-page", "x"), "position": map[string]any{}}, status: http.StatusBadRequest, errs: []string{"item.type"}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-space", second)}, status: http.StatusBadRequest, errs: []string{"position"}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-space", second), "position": map[string]any{"after": ptr("site-section", first)}}, status: http.StatusBadRequest, errs: []string{"position.after"}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-space", "nope"), "position": map[string]any{}}, status: http.StatusNotFound},
		{as: reader, method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-space", second), "position": map[string]any{}}, status: http.StatusForbidden},
		{as: out, method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-space", second), "position": map[string]any{}}, status: http.StatusNotFound},
		// With sections, the structure lists them.
		{method: "POST", path: sitePath(e, s.ID, "/sections"), body: map[string]any{"spaceId": a}, status: http.StatusCreated, want: []check{into(&sec)}},
	}))
	var secs sitePage[siteSection]
	run(t, e, fullChecked([]scenario{
		{path: sitePath(e, s.ID, "/sections"), want: []check{into(&secs)}},
		{path: structure, want: []check{field("type", "sections"), field("structure.#.object", []string{"site-section", "site-section"})}},
	}))
	run(t, e, fullChecked([]scenario{
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-section", sec.ID), "position": map[string]any{"before": ptr("site-section", secs.Items[0].ID)}},
			want: []check{field("object", "site-section"), field("id", sec.ID)}},
		{path: structure, want: []check{field("structure.0.id", sec.ID)}},
	}))
	// Prefer: return=minimal answers 204.
	req := httptest.NewRequestWithContext(t.Context(), "PATCH", sort, strings.NewReader(`{"item":{"type":"site-section","id":"`+sec.ID+`"},"position":{}}`))
	req.Header.Set("Authorization", "Bearer "+e.admin.token)
	req.Header.Set("Prefer", "return=minimal")
	req.Header.Set("Content-Type", "application/json")
	e.do(t, req).want(t, http.StatusNoContent)
	run(t, e, []scenario{{path: structure, want: []check{field("structure.1.id", sec.ID)}}})
	// External links stand among the sections and groups of their level,
	// in the structure and in sort.
	other := secs.Items[0].ID
	if other == sec.ID {
		other = secs.Items[1].ID
	}
	var group, top, inGroup, draft struct{ ID string }
	e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/section-groups"), map[string]any{"title": "More", "sections": []string{sec.ID}}).
		want(t, http.StatusCreated).Decode(t, &group)
	links := sitePath(e, s.ID, "/external-links")
	e.call(t, e.admin.token, "POST", links, map[string]any{"title": "Status", "url": "https://status.example.com/"}).want(t, http.StatusCreated).Decode(t, &top)
	e.call(t, e.admin.token, "POST", links, map[string]any{"title": "Forum", "url": "https://forum.example.com/", "parent": group.ID}).
		want(t, http.StatusCreated).Decode(t, &inGroup)
	e.call(t, e.admin.token, "POST", links, map[string]any{"title": "Plans", "url": "https://plans.example.com/", "draft": true}).
		want(t, http.StatusCreated).Decode(t, &draft)
	run(t, e, fullChecked([]scenario{
		{path: structure, want: []check{
			field("structure.#.object", []string{"site-section", "site-section-group", "site-external-link", "site-external-link"}),
			field("structure.#.id", []string{other, group.ID, top.ID, draft.ID}),
			field("structure.1.children.#.id", []string{sec.ID, inGroup.ID}), field("structure.1.sections.#.id", []string{sec.ID}),
			field("structure.2.url", "https://status.example.com/"), field("structure.3.draft", true)}},
		{as: reader, path: structure, want: []check{field("structure.#.id", []string{other, group.ID, top.ID, draft.ID})}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-external-link", top.ID), "position": map[string]any{"before": ptr("site-section", other)}},
			want: []check{field("object", "site-external-link"), field("id", top.ID)}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-external-link", inGroup.ID), "position": map[string]any{"before": ptr("site-section", sec.ID)}},
			want: []check{field("sectionGroup", group.ID)}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-section", other), "position": map[string]any{"after": ptr("site-external-link", draft.ID)}}},
		{path: structure, want: []check{field("structure.#.id", []string{top.ID, group.ID, draft.ID, other}), field("structure.1.children.#.id", []string{inGroup.ID, sec.ID})}},
		// A sibling of another level, or no such link.
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-external-link", top.ID), "position": map[string]any{"before": ptr("site-section", sec.ID)}},
			status: http.StatusBadRequest, errs: []string{"position.before"}},
		{method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-external-link", "nope"), "position": map[string]any{}}, status: http.StatusNotFound},
		{as: reader, method: "PATCH", path: sort, body: map[string]any{"item": ptr("site-external-link", top.ID), "position": map[string]any{}}, status: http.StatusForbidden},
		// Deleting the group leaves its section and link in its place.
		{method: "DELETE", path: sitePath(e, s.ID, "/section-groups/"+group.ID), status: http.StatusNoContent},
		{path: structure, want: []check{field("structure.#.id", []string{top.ID, inGroup.ID, sec.ID, draft.ID, other})}},
	}))
	// Publishing and unpublishing.
	run(t, e, fullChecked([]scenario{
		{as: reader, method: "POST", path: sitePath(e, s.ID, "/publish"), status: http.StatusForbidden},
		{as: out, method: "POST", path: sitePath(e, s.ID, "/publish"), status: http.StatusNotFound},
		{method: "POST", path: sitePath(e, s.ID, "/publish"), want: []check{field("published", true), field("urls.published", testPublicURL+"/sites/"+s.ID+"/")}},
		{path: sitePath(e, s.ID, ""), want: []check{field("published", true)}},
		{method: "POST", path: sitePath(e, s.ID, "/unpublish"), want: []check{field("published", false), zero("urls.published")}},
		{as: reader, method: "POST", path: sitePath(e, s.ID, "/unpublish"), status: http.StatusForbidden},
		{path: siteOrg(e, "/sites?published=true"), want: []check{field("count", 0)}},
	}))
}

func TestSiteSpaceDuplicate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, out := e.addUser(t, "read", "Rae Reader"), e.outsider(t)
	a, b := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "API")
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{a, b}})
	var spaces sitePage[siteSiteSpace]
	var dup siteSiteSpace
	run(t, e, fullChecked([]scenario{{path: sitePath(e, s.ID, "/site-spaces"), want: []check{into(&spaces)}}}))
	first := spaces.Items[0].ID
	dupPath := sitePath(e, s.ID, "/site-spaces/"+first+"/duplicate")
	run(t, e, fullChecked([]scenario{
		{as: reader, method: "POST", path: dupPath, status: http.StatusForbidden},
		{as: out, method: "POST", path: dupPath, status: http.StatusNotFound},
		{method: "POST", path: dupPath, body: map[string]any{"draft": true}, status: http.StatusBadRequest, errs: []string{"draft"}},
		{method: "POST", path: sitePath(e, s.ID, "/site-spaces/nope/duplicate"), status: http.StatusNotFound},
		{method: "POST", path: dupPath, body: map[string]any{"draft": false}, status: http.StatusCreated, want: []check{
			into(&dup), field("object", "site-space"), field("space.title", "Guide (copy)"), field("path", "guide-copy"), field("default", false)}},
	}))
	run(t, e, fullChecked([]scenario{
		// The copy is published right after the original, and is a space of its own.
		{path: sitePath(e, s.ID, "/structure"), want: []check{field("structure.#.id", []string{first, dup.ID, spaces.Items[1].ID})}},
		{path: "/v1/spaces/" + dup.Space.ID, want: []check{field("title", "Guide (copy)")}},
		{path: siteOrg(e, "/spaces"), want: []check{field("count", 3)}},
	}))
}

func TestSiteRedirectsBulkUpsert(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader, out := e.addUser(t, "read", "Rae Reader"), e.outsider(t)
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{siteNewSpace(t, e, "Guide")}})
	var secs sitePage[siteSection]
	run(t, e, []scenario{
		{method: "POST", path: sitePath(e, s.ID, "/sections"), body: map[string]any{"spaceId": siteNewSpace(t, e, "API")}, status: http.StatusCreated},
		{path: sitePath(e, s.ID, "/sections"), want: []check{into(&secs)}},
	})
	guide, api := secs.Items[0].ID, secs.Items[1].ID
	to := func(id string) map[string]any { return map[string]any{"kind": "site-section", "siteSectionId": id} }
	redirects, bulk := sitePath(e, s.ID, "/redirects"), func(items ...map[string]any) map[string]any { return map[string]any{"redirects": items} }
	run(t, e, fullChecked([]scenario{
		{method: "POST", path: redirects, body: map[string]any{"source": "/old/api", "destination": to(guide)}, status: http.StatusCreated},
		{method: "PUT", path: redirects, body: bulk(
			map[string]any{"source": "/old/guide", "destination": to(guide)},
			map[string]any{"source": "/old/api", "destination": to(api)},
			map[string]any{"source": "/old/nowhere", "destination": to("nope")},
			map[string]any{"source": "/old/draft", "intent": "draft", "destination": to(guide)},
			map[string]any{"source": "/old/gone", "destination": nil},
		), want: []check{
			field("results.#.status", []string{"created", "updated", "error", "error", "error"}),
			field("results.#.source", []string{"/old/guide", "/old/api", "/old/nowhere", "/old/draft", "/old/gone"}),
			nonzero("results.0.id", "results.1.id", "results.2.error", "results.3.error", "results.4.error"),
		}},
		{path: redirects, want: []check{field("items.#.source", []string{"/old/api", "/old/guide"}), field("items.0.destination.siteSectionId", api)}},
		{method: "PUT", path: redirects, body: bulk(map[string]any{"source": "/old/guide", "destination": nil}), want: []check{field("results.0.status", "deleted")}},
		{path: redirects, want: []check{field("items.#.source", []string{"/old/api"})}},
		// Bad requests change nothing.
		{method: "PUT", path: redirects, body: bulk(), status: http.StatusBadRequest, errs: []string{"redirects"}},
		{method: "PUT", path: redirects, body: bulk(map[string]any{"source": "/ab", "destination": to(guide)}, map[string]any{"source": "no-slash", "destination": to(guide)}), status: http.StatusBadRequest, errs: []string{"redirects[1].source"}},
		{method: "PUT", path: redirects, body: bulk(map[string]any{"source": "/a/b"}), status: http.StatusBadRequest, errs: []string{"redirects[0].destination"}},
		{path: redirects, want: []check{field("count", 1)}},
		{as: reader, method: "PUT", path: redirects, body: bulk(map[string]any{"source": "/a/b", "destination": to(guide)}), status: http.StatusForbidden},
		{as: out, method: "PUT", path: redirects, body: bulk(map[string]any{"source": "/a/b", "destination": to(guide)}), status: http.StatusNotFound},
	}))
}
