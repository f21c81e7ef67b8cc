package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/render"
)

// paragraphDoc is a JSON document of one paragraph per text.
func paragraphDoc(texts ...string) map[string]any {
	nodes := []any{}
	for _, s := range texts {
		nodes = append(nodes, map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{},
			"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": s, "marks": []any{}}}}}})
	}
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": nodes}
}

// descriptionOf is the description a change request answers, nil for none.
func descriptionOf(t *testing.T, res *response) any {
	t.Helper()
	return res.JSON(t)["description"]
}

// TestChangeRequestDescription: PATCH CR takes the reference's description,
// a JSONDocument kept as markdown as a page's document is, and change
// requests answer it as a document; those without one answer as before.
func TestChangeRequestDescription(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := e.crSpace(t)
	editor, reader := e.addUser(t, "edit", "Eddie Editor"), e.addUser(t, "read", "Ray Reader")
	cr := e.newCR(t, editor, sp, "Fix typos")
	list := "/v1/spaces/" + sp + "/change-requests?status=draft"

	// Without a description, the answer has none, and setting the subject
	// alone answers as before.
	before := fullCall(t, e, editor, "GET", cr, nil, http.StatusOK)
	if strings.Contains(string(before.Body), `"description"`) {
		t.Errorf("a change request without a description answers one: %s", before.Body)
	}
	listBefore := fullCall(t, e, editor, "GET", list, nil, http.StatusOK)
	fullCall(t, e, editor, "PATCH", cr, map[string]any{"subject": "Fix typos"}, http.StatusOK)

	// A document is kept as the markdown it writes and answered as the
	// document of that markdown.
	doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
		map[string]any{"object": "block", "type": "heading-2", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Why", "marks": []any{}}}}}},
		map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "text", "leaves": []any{
				map[string]any{"object": "leaf", "text": "The guide was ", "marks": []any{}},
				map[string]any{"object": "leaf", "text": "wrong", "marks": []any{map[string]any{"object": "mark", "type": "bold", "data": map[string]any{}}}},
				map[string]any{"object": "leaf", "text": " <script>.", "marks": []any{}}}}}}}}
	md, err := render.Markdown(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := jsonValue(t, render.Document(md, nil))
	res := fullCall(t, e, editor, "PATCH", cr, map[string]any{"description": doc}, http.StatusOK)
	if diff := cmp.Diff(want, descriptionOf(t, res)); diff != "" {
		t.Errorf("PATCH description (-want +got):\n%s", diff)
	}
	if got := res.JSON(t)["subject"]; got != "Fix typos" {
		t.Errorf("subject %v after setting the description", got)
	}
	for _, path := range []string{cr, "/v1/spaces/" + sp + "/change-requests/1"} { // by id and by number
		if diff := cmp.Diff(want, descriptionOf(t, fullCall(t, e, reader, "GET", path, nil, http.StatusOK))); diff != "" {
			t.Errorf("GET description (-want +got):\n%s", diff)
		}
	}
	var items struct {
		Items []map[string]any `json:"items"`
	}
	fullCall(t, e, reader, "GET", list, nil, http.StatusOK).Decode(t, &items)
	if len(items.Items) != 1 || cmp.Diff(want, items.Items[0]["description"]) != "" {
		t.Errorf("listed change requests %v, want the description %v", items.Items, want)
	}

	// Refusals name description and change nothing.
	deep := paragraphDoc("deep")
	for range render.MaxNesting + 1 {
		deep = map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "blockquote", "data": map[string]any{}, "nodes": deep["nodes"]}}}
	}
	for _, tc := range []struct {
		name string
		body any
		errs []string
	}{
		{"null", `{"description": null}`, []string{"description: must be a JSON document"}},
		{"a string", map[string]any{"description": "Why"}, []string{"description: must be a JSON document"}},
		{"not a document", map[string]any{"description": map[string]any{"object": "block"}}, []string{"description: object must be"}},
		{"nodes not an array", map[string]any{"description": map[string]any{"object": "document", "nodes": "x"}}, []string{"description.nodes: must be an array"}},
		{"past the bounds", map[string]any{"description": deep}, []string{"description: "}},
		{"NUL", map[string]any{"description": paragraphDoc("a\x00b")}, []string{"description"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fullCall(t, e, editor, "PATCH", cr, tc.body, http.StatusBadRequest, tc.errs...)
		})
	}
	fullCall(t, e, reader, "PATCH", cr, map[string]any{"description": paragraphDoc("Mine")}, http.StatusForbidden)
	if diff := cmp.Diff(want, descriptionOf(t, fullCall(t, e, editor, "GET", cr, nil, http.StatusOK))); diff != "" {
		t.Errorf("description after refusals (-want +got):\n%s", diff)
	}

	// A document without nodes clears it: the answers are as before, byte
	// for byte but for updatedAt.
	fullCall(t, e, editor, "PATCH", cr, map[string]any{"description": paragraphDoc()}, http.StatusOK)
	after := fullCall(t, e, editor, "GET", cr, nil, http.StatusOK)
	if got, want := withoutUpdatedAt(t, after.Body), withoutUpdatedAt(t, before.Body); !bytes.Equal(got, want) {
		t.Errorf("cleared change request answers\n%s\nwant\n%s", got, want)
	}
	listAfter := fullCall(t, e, editor, "GET", list, nil, http.StatusOK)
	if got, want := withoutUpdatedAt(t, listAfter.Body), withoutUpdatedAt(t, listBefore.Body); !bytes.Equal(got, want) {
		t.Errorf("cleared change requests list as\n%s\nwant\n%s", got, want)
	}
}

// jsonValue is v as encoding/json decodes it into any.
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// withoutUpdatedAt is body with each "updatedAt" value blanked.
func withoutUpdatedAt(t *testing.T, body []byte) []byte {
	t.Helper()
	out := body
	for i := 0; ; {
		j := bytes.Index(out[i:], []byte(`"updatedAt":"`))
		if j < 0 {
			return out
		}
		start := i + j + len(`"updatedAt":"`)
		end := bytes.IndexByte(out[start:], '"')
		out = append(append(append([]byte{}, out[:start]...), 'X'), out[start+end:]...)
		i = start + 1
	}
}

// TestRequestReviewersDescription: asking for reviews updates the
// description too, as the reference has it, checked as PATCH CR checks it.
func TestRequestReviewersDescription(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := e.crSpace(t)
	editor, reviewer := e.addUser(t, "edit", "Eddie Editor"), e.addUser(t, "review", "Vic Reviewer")
	cr := e.newCR(t, editor, sp, "Fix typos")
	fullCall(t, e, editor, "POST", cr+"/requested-reviewers", map[string]any{"users": []string{reviewer.id}, "description": "Why"},
		http.StatusBadRequest, "description: must be a JSON document")
	if got := descriptionOf(t, fullCall(t, e, editor, "GET", cr, nil, http.StatusOK)); got != nil {
		t.Errorf("description %v after a refused request", got)
	}
	fullCall(t, e, editor, "POST", cr+"/requested-reviewers", map[string]any{"users": []string{reviewer.id}, "description": paragraphDoc("Please look.")}, http.StatusOK)
	want := jsonValue(t, render.Document("Please look.\n", nil))
	if diff := cmp.Diff(want, descriptionOf(t, fullCall(t, e, reviewer, "GET", cr, nil, http.StatusOK))); diff != "" {
		t.Errorf("description (-want +got):\n%s", diff)
	}
}
