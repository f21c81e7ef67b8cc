package api_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// computedSpec has tagged operations (one path with parameters beside its
// operations), a tag with a description, schemas and an API description.
const computedSpec = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
  description: The **pet** store.
tags:
  - name: pets
    description: Everything about pets.
  - name: store
paths:
  /pets:
    get:
      tags: [pets]
      responses: {"200": {description: OK}}
    post:
      tags: [pets]
      responses: {"201": {description: Created}}
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      tags: [pets]
      responses: {"200": {description: OK}}
  /orders:
    get:
      tags: [store]
      responses: {"200": {description: OK}}
components:
  schemas:
    Pet: {type: object}
    Error: {type: object}
`

type computedDocOut struct {
	Object string           `json:"object"`
	Nodes  []map[string]any `json:"nodes"`
}

// TestComputedDocument: POST S/content/computed/document computes a
// builtin:openapi source from the organization's specification: a tag's
// operations after its description, one operation, the models, the API's
// description, keyed from the seed; other source types, unknown tags and
// operations are 400 naming the field; a spec that is not there is 404; a
// space the caller cannot read is 404.
func TestComputedDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	specsPut(t, e, "petstore", map[string]any{"text": computedSpec}, http.StatusCreated)
	specsProcess(t, e, 1)
	spaceID := e.crSpace(t)
	reader, outsider := e.addUser(t, "read", "Rita Reader"), e.outsider(t)
	path := "/v1/spaces/" + spaceID + "/content/computed/document"
	source := func(props map[string]any) map[string]any {
		return map[string]any{"type": "builtin:openapi", "props": props,
			"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "petstore"}}}}
	}
	compute := func(props map[string]any, seed string) computedDocOut {
		t.Helper()
		var out computedDocOut
		e.call(t, reader.token, "POST", path, map[string]any{"source": source(props), "seed": seed}).want(t, http.StatusOK).Decode(t, &out)
		if out.Object != "document" {
			t.Errorf("object %q", out.Object)
		}
		return out
	}
	type block struct{ Type, Method, Path string }
	blocks := func(d computedDocOut) []block {
		var out []block
		for _, n := range d.Nodes {
			b := block{Type: n["type"].(string)}
			if data, ok := n["data"].(map[string]any); ok && b.Type == "openapi-operation" {
				b.Method, b.Path = data["method"].(string), data["path"].(string)
				if ref, _ := data["ref"].(map[string]any); ref["kind"] != "openapi" || ref["spec"] != "petstore" {
					t.Errorf("operation block's ref %v", data["ref"])
				}
			}
			out = append(out, b)
		}
		return out
	}

	pets := compute(map[string]any{"doc": "operations", "page": "pets"}, "s1")
	want := []block{{Type: "paragraph"}, {"openapi-operation", "get", "/pets"}, {"openapi-operation", "post", "/pets"}, {"openapi-operation", "get", "/pets/{id}"}}
	if diff := cmp.Diff(want, blocks(pets)); diff != "" {
		t.Errorf("the pets tag (-want +got):\n%s", diff)
	}
	keys := map[any]bool{}
	for _, n := range pets.Nodes {
		keys[n["key"]] = true
	}
	if len(keys) != 4 || keys[nil] {
		t.Errorf("keys %v: want one each", keys)
	}
	if again := compute(map[string]any{"doc": "operations", "page": "pets"}, "s1"); !cmp.Equal(again, pets) {
		t.Errorf("the same seed computed another document")
	}
	if other := compute(map[string]any{"doc": "operations", "page": "pets"}, "s2"); other.Nodes[0]["key"] == pets.Nodes[0]["key"] {
		t.Errorf("another seed gave the same keys")
	}
	if diff := cmp.Diff([]block{{"openapi-operation", "get", "/pets/{id}"}},
		blocks(compute(map[string]any{"doc": "operation", "page": "/pets/{id}", "method": "get"}, "s"))); diff != "" {
		t.Errorf("one operation (-want +got):\n%s", diff)
	}
	models := compute(map[string]any{"doc": "models"}, "s")
	if len(models.Nodes) != 1 || models.Nodes[0]["type"] != "openapi-schemas" ||
		!cmp.Equal(models.Nodes[0]["data"].(map[string]any)["schemas"], []any{"Error", "Pet"}) { // a YAML spec's JSON form sorts its keys
		t.Errorf("models: %v", models.Nodes)
	}
	if info := blocks(compute(map[string]any{"doc": "info", "page": "petstore"}, "s")); !cmp.Equal(info, []block{{Type: "paragraph"}}) {
		t.Errorf("info: %v", info)
	}
	if store := compute(map[string]any{"doc": "tag", "page": "store"}, "s"); len(store.Nodes) != 0 {
		t.Errorf("a tag without a description: %v", store.Nodes)
	}

	for _, c := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"another source type", map[string]any{"source": map[string]any{"type": "builtin:translation", "props": map[string]any{}}, "seed": "s"}, "source.type"},
		{"no source type", map[string]any{"source": map[string]any{}, "seed": "s"}, "source.type"},
		{"no source", map[string]any{"seed": "s"}, "source"},
		{"no seed", map[string]any{"source": source(map[string]any{"doc": "models"})}, "seed"},
		{"unknown doc", map[string]any{"source": source(map[string]any{"doc": "everything"}), "seed": "s"}, "source.props.doc"},
		{"no page", map[string]any{"source": source(map[string]any{"doc": "operations"}), "seed": "s"}, "source.props.page"},
		{"unknown tag", map[string]any{"source": source(map[string]any{"doc": "operations", "page": "users"}), "seed": "s"}, "source.props.page"},
		{"unknown operation", map[string]any{"source": source(map[string]any{"doc": "operation", "page": "/pets", "method": "delete"}), "seed": "s"}, "source.props.page"},
		{"bad method", map[string]any{"source": source(map[string]any{"doc": "operation", "page": "/pets", "method": "fetch"}), "seed": "s"}, "source.props.method"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.call(t, reader.token, "POST", path, c.body).wantError(t, http.StatusBadRequest, c.field)
		})
	}
	missing := source(map[string]any{"doc": "models"})
	missing["dependencies"] = map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "nosuchspec"}}}
	e.call(t, reader.token, "POST", path, map[string]any{"source": missing, "seed": "s"}).wantError(t, http.StatusNotFound, "source.dependencies.spec")
	body := map[string]any{"source": source(map[string]any{"doc": "models"}), "seed": "s"}
	e.call(t, reader.token, "POST", path+"?schema=old", body).wantError(t, http.StatusBadRequest, "schema")
	e.call(t, outsider.token, "POST", path, body).wantError(t, http.StatusNotFound)
	e.call(t, "", "POST", path, body).wantError(t, http.StatusUnauthorized)
}
