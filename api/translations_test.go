package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Contract §4.18 Translation languages, end to end. Identifiers declared here
// start with "trans" so they cannot clash with other test files of the package.

type transOut struct {
	Object       string          `json:"object"`
	Language     string          `json:"language"`
	Instructions json.RawMessage `json:"instructions"`
	CreatedAt    string          `json:"createdAt"`
	UpdatedAt    string          `json:"updatedAt"`
	URLs         struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// transDoc is a small valid document saying text.
func transDoc(text string) map[string]any {
	return map[string]any{
		"object": "document",
		"data":   map[string]any{"schemaVersion": 1, "free": "property"},
		"nodes": []any{map[string]any{
			"object": "block", "type": "paragraph", "key": "k1", "isVoid": false, "data": map[string]any{},
			"nodes": []any{map[string]any{"object": "text", "leaves": []any{
				map[string]any{"object": "leaf", "text": text, "marks": []any{map[string]any{"object": "mark", "type": "bold"}}},
			}}},
		}},
	}
}

func transURL(e *env, settingsID string, rest ...string) string {
	return "/v1/orgs/" + e.org + "/translations/" + settingsID + "/languages" + strings.Join(rest, "")
}

func transLanguages(t *testing.T, e *env, token, settingsID string) []string {
	t.Helper()
	var list listOut[transOut]
	e.call(t, token, "GET", transURL(e, settingsID), nil).want(t, http.StatusOK).Decode(t, &list)
	langs := []string{}
	for _, it := range list.Items {
		langs = append(langs, it.Language)
	}
	if list.Count != len(langs) {
		t.Errorf("count %d, %d items", list.Count, len(langs))
	}
	return langs
}

func TestTranslationLanguages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tickClock(e)

	// An id no language was put under is an empty configuration.
	if got := transLanguages(t, e, e.admin.token, "main"); len(got) != 0 {
		t.Errorf("fresh id lists %v", got)
	}
	e.call(t, e.admin.token, "GET", transURL(e, "main", "/fr"), nil).wantError(t, http.StatusNotFound, "translation language not found")

	// The first PUT creates: 201 with a Location.
	res := e.call(t, e.admin.token, "PUT", transURL(e, "main", "/fr"), map[string]any{"instructions": transDoc("Vouvoyez.")})
	res.want(t, http.StatusCreated)
	var created transOut
	res.Decode(t, &created)
	loc := testPublicURL + transURL(e, "main", "/fr")
	if created.Object != "translation-language-settings" || created.Language != "fr" || created.URLs.Location != loc || res.Header.Get("Location") != loc {
		t.Errorf("created = %+v, Location %q", created, res.Header.Get("Location"))
	}
	var doc map[string]any
	if err := json.Unmarshal(created.Instructions, &doc); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	raw, _ := json.Marshal(transDoc("Vouvoyez."))
	json.Unmarshal(raw, &want)
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("instructions (-want +got):\n%s", diff)
	}
	var got transOut
	e.call(t, e.admin.token, "GET", transURL(e, "main", "/fr"), nil).want(t, http.StatusOK).Decode(t, &got)
	if diff := cmp.Diff(created, got); diff != "" {
		t.Errorf("GET (-put +get):\n%s", diff)
	}

	// A second PUT replaces: 200, same createdAt, later updatedAt.
	var updated transOut
	e.call(t, e.admin.token, "PUT", transURL(e, "main", "/fr"), map[string]any{"instructions": transDoc("Tutoyez.")}).
		want(t, http.StatusOK).Decode(t, &updated)
	c0, _ := time.Parse(time.RFC3339, created.UpdatedAt)
	u1, _ := time.Parse(time.RFC3339, updated.UpdatedAt)
	if updated.CreatedAt != created.CreatedAt || !u1.After(c0) || !strings.Contains(string(updated.Instructions), "Tutoyez.") {
		t.Errorf("after update: %+v (created %+v)", updated, created)
	}
	// Numbers keep their digits.
	big := transDoc("x")
	big["data"] = map[string]any{"schemaVersion": json.Number("12345678901234567890")}
	var bigOut transOut
	e.call(t, e.admin.token, "PUT", transURL(e, "main", "/de"), map[string]any{"instructions": big}).want(t, http.StatusCreated).Decode(t, &bigOut)
	if !strings.Contains(string(bigOut.Instructions), "12345678901234567890") {
		t.Errorf("instructions changed a number: %s", bigOut.Instructions)
	}

	for _, l := range []string{"pt-br", "zh-tw", "en"} {
		e.call(t, e.admin.token, "PUT", transURL(e, "main", "/", l), map[string]any{"instructions": transDoc(l)}).want(t, http.StatusCreated)
	}
	if diff := cmp.Diff([]string{"de", "en", "fr", "pt-br", "zh-tw"}, transLanguages(t, e, e.admin.token, "main")); diff != "" {
		t.Errorf("languages (-want +got):\n%s", diff)
	}
	// Pages of two, by language.
	var walked []string
	path := transURL(e, "main") + "?limit=2"
	for range 5 {
		var list listOut[transOut]
		e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &list)
		if list.Count != 5 {
			t.Errorf("count %d, want 5", list.Count)
		}
		for _, it := range list.Items {
			walked = append(walked, it.Language)
		}
		if list.Next == nil {
			break
		}
		path = transURL(e, "main") + "?limit=2&page=" + url.QueryEscape(list.Next.Page)
	}
	if diff := cmp.Diff([]string{"de", "en", "fr", "pt-br", "zh-tw"}, walked); diff != "" {
		t.Errorf("walking pages (-want +got):\n%s", diff)
	}

	// Settings ids are separate configurations.
	if got := transLanguages(t, e, e.admin.token, "other_config-2"); len(got) != 0 {
		t.Errorf("another id lists %v", got)
	}
	e.call(t, e.admin.token, "PUT", transURL(e, "other_config-2", "/fr"), map[string]any{"instructions": transDoc("autre")}).want(t, http.StatusCreated)
	e.call(t, e.admin.token, "GET", transURL(e, "main", "/fr"), nil).want(t, http.StatusOK).Decode(t, &got)
	if !strings.Contains(string(got.Instructions), "Tutoyez.") {
		t.Errorf("putting under another id changed main: %s", got.Instructions)
	}

	// Delete: 204, then gone; a second delete is 404.
	e.call(t, e.admin.token, "DELETE", transURL(e, "main", "/fr"), nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "GET", transURL(e, "main", "/fr"), nil).wantError(t, http.StatusNotFound, "translation language not found")
	e.call(t, e.admin.token, "DELETE", transURL(e, "main", "/fr"), nil).wantError(t, http.StatusNotFound, "translation language not found")
	if diff := cmp.Diff([]string{"de", "en", "pt-br", "zh-tw"}, transLanguages(t, e, e.admin.token, "main")); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"fr"}, transLanguages(t, e, e.admin.token, "other_config-2")); diff != "" {
		t.Errorf("other id after delete (-want +got):\n%s", diff)
	}
}

func TestTranslationLanguagesWho(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor := e.addUser(t, "edit", "Eddie Editor")
	guest := e.addUser(t, "guest", "Gus Guest")
	out := e.outsider(t)
	body := map[string]any{"instructions": transDoc("x")}
	e.call(t, e.admin.token, "PUT", transURL(e, "cfg", "/es"), body).want(t, http.StatusCreated)

	// Members read, guests included.
	for _, u := range []user{editor, guest} {
		e.call(t, u.token, "GET", transURL(e, "cfg", "/es"), nil).want(t, http.StatusOK)
		if got := transLanguages(t, e, u.token, "cfg"); len(got) != 1 {
			t.Errorf("member lists %v", got)
		}
		// Only admins write.
		e.call(t, u.token, "PUT", transURL(e, "cfg", "/es"), body).wantError(t, http.StatusForbidden, "admins")
		e.call(t, u.token, "PUT", transURL(e, "cfg", "/it"), body).wantError(t, http.StatusForbidden, "admins")
		e.call(t, u.token, "DELETE", transURL(e, "cfg", "/es"), nil).wantError(t, http.StatusForbidden, "admins")
	}
	// Outsiders see nothing of the organization.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", transURL(e, "cfg"), nil},
		{"GET", transURL(e, "cfg", "/es"), nil},
		{"PUT", transURL(e, "cfg", "/es"), body},
		{"DELETE", transURL(e, "cfg", "/es"), nil},
	} {
		e.call(t, out.token, c.method, c.path, c.body).wantError(t, http.StatusNotFound, "organization not found")
		e.call(t, "", c.method, c.path, c.body).wantError(t, http.StatusUnauthorized)
	}
	if got := transLanguages(t, e, e.admin.token, "cfg"); len(got) != 1 {
		t.Errorf("after refused writes: %v", got)
	}
}

func TestTranslationLanguagesInvalid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ok := map[string]any{"instructions": transDoc("x")}
	// Path parameters.
	for _, c := range []struct {
		method, path string
		parts        []string
	}{
		{"GET", transURL(e, "cfg", "/xx"), []string{"translationLanguage", "pt-br"}},
		{"PUT", transURL(e, "cfg", "/EN"), []string{"translationLanguage"}},
		{"DELETE", transURL(e, "cfg", "/klingon"), []string{"translationLanguage"}},
		{"GET", transURL(e, "bad.id"), []string{"translationSettingsId"}},
		{"GET", transURL(e, "bad%20id", "/fr"), []string{"translationSettingsId"}},
		{"PUT", transURL(e, strings.Repeat("a", 101), "/fr"), []string{"translationSettingsId", "100"}},
		{"GET", transURL(e, "cfg") + "?limit=1001", []string{"limit"}},
		{"GET", transURL(e, "cfg") + "?page=nope", []string{"page"}},
	} {
		var body any
		if c.method == "PUT" {
			body = ok
		}
		e.call(t, e.admin.token, c.method, c.path, body).wantError(t, http.StatusBadRequest, c.parts...)
	}

	// Bodies: the instructions must be a document.
	withNodes := func(nodes ...any) map[string]any {
		return map[string]any{"object": "document", "nodes": append([]any{}, nodes...)}
	}
	block := func(extra map[string]any) map[string]any {
		b := map[string]any{"object": "block", "type": "paragraph"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	for _, c := range []struct {
		name  string
		body  any
		parts []string
	}{
		{"no body", nil, []string{"instructions", "required"}},
		{"null", map[string]any{"instructions": nil}, []string{"instructions", "required"}},
		{"string", map[string]any{"instructions": "Be formal."}, []string{"instructions", "document"}},
		{"wrong object", map[string]any{"instructions": map[string]any{"object": "block", "nodes": []any{}}}, []string{"instructions.object"}},
		{"no nodes", map[string]any{"instructions": map[string]any{"object": "document"}}, []string{"instructions.nodes"}},
		{"data not object", map[string]any{"instructions": map[string]any{"object": "document", "data": 1, "nodes": []any{}}}, []string{"instructions.data"}},
		{"schemaVersion text", map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{"schemaVersion": "1"}, "nodes": []any{}}}, []string{"schemaVersion"}},
		{"text at top", map[string]any{"instructions": withNodes(map[string]any{"object": "text", "leaves": []any{}})}, []string{"instructions.nodes[0].object", "block"}},
		{"block without type", map[string]any{"instructions": withNodes(map[string]any{"object": "block"})}, []string{"instructions.nodes[0].type"}},
		{"key not string", map[string]any{"instructions": withNodes(block(map[string]any{"key": 1}))}, []string{"nodes[0].key"}},
		{"isVoid not bool", map[string]any{"instructions": withNodes(block(map[string]any{"isVoid": "no"}))}, []string{"nodes[0].isVoid"}},
		{"nodes not array", map[string]any{"instructions": withNodes(block(map[string]any{"nodes": map[string]any{}}))}, []string{"nodes[0].nodes"}},
		{"nested unknown", map[string]any{"instructions": withNodes(block(map[string]any{"nodes": []any{map[string]any{"object": "page"}}}))}, []string{"nodes[0].nodes[0].object"}},
		{"leaf without text", map[string]any{"instructions": withNodes(block(map[string]any{"nodes": []any{
			map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf"}}}}}))}, []string{"nodes[0].nodes[0].leaves[0].text"}},
		{"bad mark", map[string]any{"instructions": withNodes(block(map[string]any{"nodes": []any{
			map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "", "marks": []any{"bold"}}}}}}))}, []string{"marks[0]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.call(t, e.admin.token, "PUT", transURL(e, "cfg", "/fr"), c.body).wantError(t, http.StatusBadRequest, c.parts...)
		})
	}
	// Deep nesting is refused, not followed.
	deep := block(nil)
	for range 100 {
		deep = block(map[string]any{"nodes": []any{deep}})
	}
	e.call(t, e.admin.token, "PUT", transURL(e, "cfg", "/fr"), map[string]any{"instructions": withNodes(deep)}).wantError(t, http.StatusBadRequest, "deep")
	e.call(t, e.admin.token, "PUT", transURL(e, "cfg", "/fr"), "{").wantError(t, http.StatusBadRequest, "malformed")
	if got := transLanguages(t, e, e.admin.token, "cfg"); len(got) != 0 {
		t.Errorf("invalid puts stored %v", got)
	}
	// Inline nodes and an empty document are fine.
	inline := withNodes(block(map[string]any{"nodes": []any{map[string]any{"object": "inline", "type": "link", "data": map[string]any{"url": "https://a.example"},
		"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "a"}}}}}}}))
	e.call(t, e.admin.token, "PUT", transURL(e, "cfg", "/fr"), map[string]any{"instructions": inline}).want(t, http.StatusCreated)
	e.call(t, e.admin.token, "PUT", transURL(e, "cfg", "/ja"), map[string]any{"instructions": withNodes()}).want(t, http.StatusCreated)
}
