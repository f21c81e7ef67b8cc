package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/wire"
)

// POST S/content/computed/document (getComputedDocument): the document a
// computed page shows, for a reader of the space. Quire computes
// builtin:openapi sources, from the latest processed version of the
// organization's API specification the source names: the blocks GitBook's
// renderer draws from the specification itself (openapi-operation,
// openapi-schemas), after the description the specification gives the
// tag or the API, as document blocks. The specification must be one the
// caller may read (every member but guests), or a public one. The seed
// makes the blocks' keys: the same source and seed, the same document.

func (s *Server) getComputedDocument(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return err
	}
	switch query(r).Get("schema") {
	case "", "current", "next":
	default:
		return errorf(quire.CodeInvalid, "schema: must be current or next")
	}
	var body wire.ComputeDocument
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	slug := body.Source.Dependencies.Spec.Ref.Spec
	notFound := errorf(quire.CodeNotFound, "source.dependencies.spec.ref.spec: API specification %q not found", slug)
	p, err := s.db.OpenAPISpec(r.Context(), sp.OrgID, slug)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return notFound
	} else if err != nil {
		return err
	}
	if p.Visibility != quire.SpecPublic {
		me, err := s.db.Membership(r.Context(), sp.OrgID, caller(r.Context()).ID)
		if quire.ErrorCode(err) == quire.CodeNotFound || (err == nil && quire.CheckSpecAccess(me, false) != nil) {
			return notFound
		} else if err != nil {
			return err
		}
	}
	v, err := s.author.SpecVersion(r.Context(), p, "latest")
	if err != nil {
		return err
	}
	doc := v.JSONDocument
	if doc == "" {
		doc = v.Document
	}
	props := body.Source.Props
	out, err := computeOpenAPIDocument([]byte(doc), slug, props.Doc, props.Page, props.Method, *body.Seed)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// specOutline is what a computed document reads of an API specification,
// in the order its JSON form has it: as written for a JSON spec, keys
// sorted for a YAML one (its stored JSON form, jobs/openapi_parse.go).
type specOutline struct {
	Info struct {
		Description any `json:"description"`
	} `json:"info"`
	Tags []struct {
		Name        any `json:"name"`
		Description any `json:"description"`
	} `json:"tags"`
	Paths      orderedObject `json:"paths"`
	Components struct {
		Schemas orderedObject `json:"schemas"`
	} `json:"components"`
	Definitions orderedObject `json:"definitions"` // Swagger 2.0's schemas
}

// orderedObject is a JSON object's members in the order written.
type orderedObject []struct {
	key   string
	value json.RawMessage
}

func (o *orderedObject) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil // not an object: nothing in it
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, struct {
			key   string
			value json.RawMessage
		}{t.(string), v})
	}
	return nil
}

// specMethods are the methods of a path item that name operations.
var specMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// computeOpenAPIDocument is document doc (models, operations, info,
// operation or tag; page names the tag, or the operation's path) of the
// specification spec (JSON) whose slug is slug, its top-level blocks keyed
// from seed. A page the specification has not is CodeInvalid naming
// source.props.page.
func computeOpenAPIDocument(spec []byte, slug, doc, page, method, seed string) (map[string]any, error) {
	var o specOutline
	if err := json.Unmarshal(spec, &o); err != nil {
		return nil, errorf(quire.CodeInvalid, "source.dependencies.spec: the specification's latest version cannot be read as an OpenAPI document")
	}
	ref := map[string]any{"kind": "openapi", "spec": slug}
	operation := func(path, method string) map[string]any {
		return map[string]any{"object": "block", "type": "openapi-operation", "isVoid": true,
			"data": map[string]any{"ref": ref, "method": method, "path": path}}
	}
	tagDescription := func() (string, bool) {
		for _, t := range o.Tags {
			if name, _ := t.Name.(string); name == page {
				d, _ := t.Description.(string)
				return d, true
			}
		}
		return "", false
	}
	var nodes []map[string]any
	switch doc {
	case "models":
		schemas := o.Components.Schemas
		if len(schemas) == 0 {
			schemas = o.Definitions
		}
		names := make([]string, len(schemas))
		for i, m := range schemas {
			names[i] = m.key
		}
		if len(names) > 0 {
			nodes = append(nodes, map[string]any{"object": "block", "type": "openapi-schemas", "isVoid": true,
				"data": map[string]any{"ref": ref, "schemas": names, "grouped": true}})
		}
	case "info":
		d, _ := o.Info.Description.(string)
		nodes = descriptionNodes(d)
	case "tag", "operations":
		d, known := tagDescription()
		nodes = descriptionNodes(d)
		if doc == "tag" {
			if !known {
				return nil, errorf(quire.CodeInvalid, "source.props.page: the specification has no tag %q", page)
			}
			break
		}
		eachOperation(o, func(path, m string, tags []string) {
			if slices.Contains(tags, page) {
				known = true
				nodes = append(nodes, operation(path, m))
			}
		})
		if !known {
			return nil, errorf(quire.CodeInvalid, "source.props.page: the specification has no tag %q", page)
		}
	case "operation":
		found := false
		eachOperation(o, func(path, m string, _ []string) {
			if path == page && m == method && !found {
				found = true
				nodes = append(nodes, operation(path, m))
			}
		})
		if !found {
			return nil, errorf(quire.CodeInvalid, "source.props.page: the specification has no %s operation at %q", method, page)
		}
	}
	if nodes == nil {
		nodes = []map[string]any{}
	}
	for i, n := range nodes {
		sum := sha256.Sum256([]byte(seed + "\x00" + strconv.Itoa(i)))
		n["key"] = hex.EncodeToString(sum[:6])
	}
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": nodes}, nil
}

// eachOperation calls fn with each operation of o, in the order written,
// and its tags.
func eachOperation(o specOutline, fn func(path, method string, tags []string)) {
	for _, p := range o.Paths {
		var item orderedObject
		if json.Unmarshal(p.value, &item) != nil {
			continue
		}
		for _, m := range item {
			if !slices.Contains(specMethods, m.key) {
				continue // parameters, summary, $ref …
			}
			var op struct {
				Tags []any `json:"tags"`
			}
			_ = json.Unmarshal(m.value, &op)
			var tags []string
			for _, t := range op.Tags {
				if s, ok := t.(string); ok {
					tags = append(tags, s)
				}
			}
			fn(p.key, m.key, tags)
		}
	}
}

// descriptionNodes is a description (markdown, as OpenAPI writes them) as
// document blocks; none for none, or one past the document's bounds.
func descriptionNodes(markdown string) []map[string]any {
	if markdown == "" {
		return nil
	}
	b, err := render.DocumentJSON(render.NormalizeLineEndings(markdown), nil)
	if err != nil { // past the bounds (render.ErrDocumentTooLarge): left out
		return nil
	}
	var d struct {
		Nodes []map[string]any `json:"nodes"`
	}
	if json.Unmarshal(b, &d) != nil {
		return nil
	}
	return d.Nodes
}
