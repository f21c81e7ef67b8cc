package render

import (
	"fmt"
	"strings"
)

// openAPITypes are the blocks of the OpenAPI tags.
var openAPITypes = map[string]string{
	"openapi": "swagger", "openapi-operation": "openapi-operation", "openapi-schemas": "openapi-schemas", "openapi-webhook": "openapi-webhook",
}

// openAPIAttrs are each OpenAPI tag's attributes, in the order Git Sync
// writes them; required says how many of the first are.
var openAPIAttrs = map[string]struct {
	names    []string
	required int
}{
	"openapi":           {[]string{"src", "path", "method", "expanded", "fullWidth"}, 3},
	"openapi-operation": {[]string{"spec", "path", "method"}, 3},
	"openapi-schemas":   {[]string{"spec", "schemas", "grouped"}, 2},
	"openapi-webhook":   {[]string{"spec", "name", "method"}, 3},
}

// openAPI converts an OpenAPI tag: a block of the operation, schemas or
// webhook it shows, from the spec it names (by its slug, or for the older
// "openapi" tag by a file or URL). The link Git Sync writes in its body is
// derived from the spec and not kept. A tag without a required attribute,
// or with one Quire does not know, stays the text it is; where the schema
// allows no such block (anywhere but the top level), it is its body.
func (c *converter) openAPI(n *formNode, at place) []any {
	typ := openAPITypes[n.tag]
	spec := openAPIAttrs[n.tag]
	known := map[string]bool{}
	for i, k := range spec.names {
		known[strings.ToLower(k)] = true
		if _, ok := n.attrs[strings.ToLower(k)]; !ok && i < spec.required {
			return c.tagText(n, at)
		}
	}
	for k, v := range n.attrs {
		if !known[k] || (k == "grouped" || k == "expanded" || k == "fullwidth") && v != "true" && v != "false" {
			return c.tagText(n, at)
		}
	}
	if !allowed(typ, at) {
		return c.blocks(n, at)
	}
	data := map[string]any{}
	for _, k := range spec.names {
		v, ok := n.attrs[strings.ToLower(k)]
		switch {
		case !ok:
		case k == "src":
			data["ref"] = c.ref(v, true)
		case k == "spec":
			data["ref"] = map[string]any{"kind": "openapi", "spec": v}
		case k == "schemas":
			list := []any{}
			if v != "" {
				for _, s := range strings.Split(v, ",") {
					list = append(list, s)
				}
			}
			data["schemas"] = list
		case k == "grouped" || k == "expanded" || k == "fullWidth":
			data[k] = v == "true"
		default:
			data[k] = v
		}
	}
	return []any{map[string]any{"object": "block", "type": typ, "isVoid": true, "data": data}}
}

// openAPIMD writes an OpenAPI block as Git Sync does: its tag, for the
// older "openapi" tag a link to its spec, and its end tag.
func openAPIMD(out *[]chunk, typ string, data map[string]any, path *nodePath, at place) error {
	tag := "openapi"
	for t, ty := range openAPITypes {
		if ty == typ {
			tag = t
		}
	}
	if !allowed(typ, at) {
		return fmt.Errorf("%s: the schema allows no %s block here", path, typ)
	}
	spec := openAPIAttrs[tag]
	open, body := "{% "+tag, []string(nil)
	for i, k := range spec.names {
		var v string
		switch k {
		case "src":
			ref, _ := data["ref"].(map[string]any)
			t, ok := refTarget(ref)
			if !ok || ref["kind"] != "file" && ref["kind"] != "url" {
				return fmt.Errorf("%s.data.ref: must refer to a file or a URL", path)
			}
			v, body = t, []string{bodyLink(t)}
		case "spec":
			ref, _ := data["ref"].(map[string]any)
			s, _ := ref["spec"].(string)
			if ref["kind"] != "openapi" || s == "" {
				return fmt.Errorf("%s.data.ref: must refer to an OpenAPI specification", path)
			}
			v = s
		case "schemas":
			list, ok := data["schemas"].([]any)
			if !ok {
				return fmt.Errorf("%s.data.schemas: must be an array", path)
			}
			names := make([]string, len(list))
			for j, s := range list {
				name, ok := s.(string)
				if !ok || name == "" || strings.Contains(name, ",") {
					return fmt.Errorf("%s.data.schemas[%d]: must be a name without \",\"", path, j)
				}
				names[j] = name
			}
			v = strings.Join(names, ",")
		case "grouped", "expanded", "fullWidth":
			b, ok := data[k].(bool)
			if !ok {
				if _, set := data[k]; set {
					return fmt.Errorf("%s.data.%s: must be a boolean", path, k)
				}
				continue
			}
			v = fmt.Sprint(b)
		default:
			s, ok := data[k].(string)
			if !ok && i < spec.required {
				return fmt.Errorf("%s.data.%s: must be a string", path, k)
			}
			v = s
		}
		open += " " + k + `="` + tagValue(v) + `"`
	}
	lines := append([]string{open + " %}"}, body...)
	*out = append(*out, chunk{lines: append(lines, "{% end"+tag+" %}")})
	return nil
}
