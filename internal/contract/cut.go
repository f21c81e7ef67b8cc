package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Cut is the part of an OpenAPI document full that the operations keep
// selects use: those operations (with their path's own parameters), every
// component they refer to, directly or through other components, and the
// document's other top-level fields. It is what a project keeps of the
// reference for the operations it serves; JSON keys come out sorted, so
// cuts of the same operations are the same bytes.
func Cut(full []byte, keep func(method, template string) bool) ([]byte, error) {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(full))
	dec.UseNumber() // numbers as written
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("parse the document: %w", err)
	}
	paths, _ := doc["paths"].(map[string]any)
	components, _ := doc["components"].(map[string]any)
	kept := map[string]any{}
	for template, v := range paths {
		item, _ := v.(map[string]any)
		out := map[string]any{}
		for key, op := range item {
			switch key {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				if keep(strings.ToUpper(key), template) {
					out[key] = op
				}
			}
		}
		if len(out) == 0 {
			continue
		}
		for key, v := range item { // the path's own fields: parameters, summary, …
			switch key {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
			default:
				out[key] = v
			}
		}
		kept[template] = out
	}
	doc["paths"] = kept

	// Components: those referred to, followed until no new one is found.
	used := map[string]map[string]any{}
	var walk func(v any) error
	walk = func(v any) error {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				kind, name, ok := strings.Cut(strings.TrimPrefix(ref, "#/components/"), "/")
				if !ok || !strings.HasPrefix(ref, "#/components/") {
					return fmt.Errorf("reference %q is not to a component", ref)
				}
				if used[kind][name] == nil {
					c, _ := components[kind].(map[string]any)
					if c[name] == nil {
						return fmt.Errorf("reference %q names no component", ref)
					}
					if used[kind] == nil {
						used[kind] = map[string]any{}
					}
					used[kind][name] = c[name]
					if err := walk(c[name]); err != nil {
						return err
					}
				}
			}
			for _, x := range v {
				if err := walk(x); err != nil {
					return err
				}
			}
		case []any:
			for _, x := range v {
				if err := walk(x); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(kept); err != nil {
		return nil, err
	}
	cut := map[string]any{}
	for kind, names := range used {
		cut[kind] = names
	}
	if s, ok := components["securitySchemes"]; ok { // referred to by name, not $ref
		cut["securitySchemes"] = s
	}
	doc["components"] = cut
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
