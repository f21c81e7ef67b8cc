package api_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// TestControlCharacters: NUL and other control characters in titles,
// labels, descriptions, slugs and text bodies are refused with a 400 naming
// the field, on SQLite and PostgreSQL alike (which cannot store NUL), and
// nothing changes.
func TestControlCharacters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.admin.token
	org := "/v1/orgs/" + e.org
	idOf := func(res *response) string {
		t.Helper()
		id, _ := res.JSON(t)["id"].(string)
		if id == "" {
			t.Fatalf("no id in %s", res.Body)
		}
		return id
	}
	spaceID, crPath := e.newChangeRequest(t)
	space := "/v1/spaces/" + spaceID
	col := "/v1/collections/" + idOf(e.call(t, tok, "POST", org+"/collections", map[string]any{"title": "Guides"}).want(t, http.StatusCreated))
	team := org + "/teams/" + idOf(e.call(t, tok, "PUT", org+"/teams", map[string]any{"title": "Writers"}).want(t, http.StatusCreated))
	comment := space + "/comments/" + idOf(e.call(t, tok, "POST", space+"/comments", map[string]any{"body": md("Hello")}).want(t, http.StatusOK))
	site := org + "/sites/" + idOf(e.call(t, tok, "POST", org+"/sites", map[string]any{"title": "Docs"}).want(t, http.StatusCreated))
	section := site + "/sections/" + idOf(e.call(t, tok, "POST", site+"/sections", map[string]any{"spaceId": spaceID, "title": "API docs"}).want(t, http.StatusCreated))
	group := site + "/section-groups/" + idOf(e.call(t, tok, "POST", site+"/section-groups", map[string]any{"title": "Group"}).want(t, http.StatusCreated))
	siteSpaces := site + "/site-spaces"
	e.call(t, tok, "PUT", org+"/openapi/petstore", map[string]any{"source": map[string]any{"text": specsValid}}).want(t, http.StatusCreated)
	integ := integBody(e)
	e.call(t, tok, "POST", "/v1/integrations/my-integ", integ).want(t, http.StatusOK)
	with := func(base map[string]any, k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		m[k] = v
		return m
	}

	for _, c := range []struct {
		name, method, path string
		body               any
		field              string // named in the message, with "control characters" unless it has its own rule
		get                string // answers the same before and after
	}{
		{"org title", "PATCH", org, map[string]any{"title": "Org\x00"}, "title", org},
		{"space title", "POST", org + "/spaces", map[string]any{"title": "Bad\x00title"}, "title", org + "/spaces"},
		{"space title update", "PATCH", space, map[string]any{"title": "bell\a"}, "title", space},
		{"space emoji", "PATCH", space, map[string]any{"emoji": "\x00"}, "emoji", space},
		{"collection title", "POST", org + "/collections", map[string]any{"title": "x\x00"}, "title", org + "/collections"},
		{"collection description", "PATCH", col, map[string]any{"description": "a\x00b"}, "description", col},
		{"collection title update", "PATCH", col, map[string]any{"title": "esc\x1b[31m"}, "title", col},
		{"team title", "PUT", org + "/teams", map[string]any{"title": "T\x00"}, "title", org + "/teams"},
		{"team title update", "PATCH", team, map[string]any{"title": "next\u0085line"}, "title", team},
		{"change request subject", "POST", space + "/change-requests", map[string]any{"subject": "s\x00"}, "subject", space + "/change-requests"},
		{"change request subject update", "PATCH", crPath, map[string]any{"subject": "del\x7f"}, "subject", crPath},
		{"comment body", "POST", space + "/comments", map[string]any{"body": md("hi\x00")}, "body", space + "/comments"},
		{"comment body update", "PUT", comment, map[string]any{"body": md("x\x00")}, "body", comment},
		{"reply body", "POST", comment + "/replies", map[string]any{"body": md("nul\x00")}, "body", comment + "/replies"},
		{"change request comment", "POST", crPath + "/comments", map[string]any{"body": md("\x00")}, "body", crPath + "/comments"},
		{"site title", "POST", org + "/sites", map[string]any{"title": "Docs\x00"}, "title", org + "/sites"},
		{"site title update", "PATCH", site, map[string]any{"title": "x\x00y"}, "title", site},
		{"site basename", "PATCH", site, map[string]any{"basename": "docs\x00"}, "basename", site},
		{"site section title", "POST", site + "/sections", map[string]any{"spaceId": spaceID, "title": "API\x00"}, "title", site + "/sections"},
		{"site section description", "PATCH", section, map[string]any{"description": "d\x00"}, "description", site + "/sections"},
		{"site section group title", "POST", site + "/section-groups", map[string]any{"title": "g\x00"}, "title", site + "/section-groups"},
		{"site section group title update", "PATCH", group, map[string]any{"title": "g\x01"}, "title", site + "/section-groups"},
		{"site space title", "POST", siteSpaces, map[string]any{"spaceId": spaceID, "title": "t\x00"}, "title", siteSpaces},
		{"openapi slug", "POST", org + "/openapi", map[string]any{"slug": "pet\x00store", "source": map[string]any{"text": specsValid}}, "slug: must be lowercase", org + "/openapi"},
		{"integration title", "POST", "/v1/integrations/my-integ", with(integ, "title", "My\x00Integration"), "title", "/v1/integrations/my-integ"},
		{"integration description", "POST", "/v1/integrations/my-integ", with(integ, "description", "Does\x00things"), "description", "/v1/integrations/my-integ"},
		{"integration summary", "POST", "/v1/integrations/my-integ", with(integ, "summary", "# Sum\x00mary"), "summary", "/v1/integrations/my-integ"},
		{"translation instructions", "PUT", org + "/translations/main/languages/fr", map[string]any{"instructions": transDoc("Vouvoyez\x00.")}, "instructions", org + "/translations/main/languages"},
		{"page title", "POST", crPath + "/content", map[string]any{"changes": []any{insertPage("", "# Guide\n\nBody.", "title", "Gui\x00de")}}, "title", crPath + "/changes"},
		{"page markdown", "POST", crPath + "/content", map[string]any{"changes": []any{insertPage("", "# Guide\n\nNUL \x00 here.")}}, "markdown", crPath + "/changes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := e.call(t, tok, "GET", c.get, nil).want(t, http.StatusOK).Body
			want := []string{c.field}
			if !strings.Contains(c.field, ":") {
				want = append(want, "control characters")
			}
			e.call(t, tok, c.method, c.path, c.body).wantError(t, http.StatusBadRequest, want...)
			if after := e.call(t, tok, "GET", c.get, nil).want(t, http.StatusOK).Body; !bytes.Equal(before, after) {
				t.Errorf("GET %s changed:\n%s\nthen\n%s", c.get, before, after)
			}
		})
	}
}

// TestTextThatMisleads: a body that is not UTF-8 (bytes, or an escape of
// half a surrogate pair) is refused rather than stored as U+FFFD, and
// titles and names refuse the characters that override the direction of
// text; nothing changes.
func TestTextThatMisleads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.admin.token
	org := "/v1/orgs/" + e.org
	spaceID, crPath := e.newChangeRequest(t)
	space := "/v1/spaces/" + spaceID
	for _, c := range []struct {
		name, method, path string
		body               any
		errs               []string
		get                string // answers the same before and after
	}{
		{"space title of bytes not UTF-8", "POST", org + "/spaces", "{\"title\":\"caf\xe9\"}", []string{"valid UTF-8 at offset 13"}, org + "/spaces"},
		{"space title of half a surrogate pair", "PATCH", space, `{"title":"\ud800 alone"}`, []string{"valid UTF-8", "surrogate"}, space},
		{"markdown not UTF-8", "POST", crPath + "/content", "{\"changes\":[{\"type\":\"insert_page\",\"title\":\"Guide\",\"document\":{\"markdown\":\"\xff\"}}]}", []string{"valid UTF-8"}, crPath + "/changes"},
		{"space title overriding direction", "PATCH", space, map[string]any{"title": "invoice\u202Efdp.exe"}, []string{"title", "direction of text"}, space},
		{"org title isolating direction", "PATCH", org, map[string]any{"title": "Acme\u2066x\u2069"}, []string{"title", "direction of text"}, org},
		{"page title overriding direction", "POST", crPath + "/content", map[string]any{"changes": []any{insertPage("", "# Guide\n", "title", "Gu\u202Eide")}}, []string{"title", "direction of text"}, crPath + "/changes"},
		{"display name overriding direction", "PATCH", "/v1/users/" + e.admin.id, map[string]any{"displayName": "Ada\u202D"}, []string{"displayName", "direction of text"}, "/v1/user"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := e.call(t, tok, "GET", c.get, nil).want(t, http.StatusOK).Body
			e.call(t, tok, c.method, c.path, c.body).wantError(t, http.StatusBadRequest, c.errs...)
			if after := e.call(t, tok, "GET", c.get, nil).want(t, http.StatusOK).Body; !bytes.Equal(before, after) {
				t.Errorf("GET %s changed:\n%s\nthen\n%s", c.get, before, after)
			}
		})
	}
	// Prose keeps them: right-to-left writers use isolates in descriptions.
	e.call(t, tok, "PATCH", space, map[string]any{"description": "Text \u2067עברית\u2069 inline"}).want(t, http.StatusOK)
}
