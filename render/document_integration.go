package render

import (
	"fmt"
	"slices"
	"strings"
)

// integration converts "{% @integration/block key="value" … %}": an
// integration block of that integration's block, the attributes its props
// (strings, named as written). But the reference's props (PlainObject,
// which lacks "type": "object") validate no string, nor any value but an
// object, so a tag with attributes stays the text it is, and so does one
// where the schema allows no integration block.
func (c *converter) integration(n *formNode, at place) []any {
	if !allowed("integration", at) || len(n.attrs) > 0 {
		return c.tagText(n, at)
	}
	scope, blk, _ := strings.Cut(strings.TrimPrefix(n.tag, "@"), "/")
	props := map[string]any{}
	for k, v := range n.attrs {
		props[k] = v
	}
	return []any{map[string]any{"object": "block", "type": "integration", "isVoid": true,
		"data": map[string]any{"integration": scope, "block": blk, "props": props}}}
}

// integrationMD writes an integration block as Git Sync does, its props in
// the order of their names. A prop that is not a string, and the data
// markdown has no place for (an unfurled URL, an action, full width),
// cannot be written.
func integrationMD(out *[]chunk, data map[string]any, path *nodePath, at place) error {
	scope, _ := data["integration"].(string)
	blk, _ := data["block"].(string)
	if !integrationName(scope) || !integrationName(blk) {
		return fmt.Errorf("%s.data: integration and block must be names of letters, digits, \"-\", \"_\" and \".\"", path)
	}
	for _, k := range []string{"url", "action", "fullWidth"} {
		if _, ok := data[k]; ok {
			return fmt.Errorf("%s.data.%s: cannot be written", path, k)
		}
	}
	if !allowed("integration", at) {
		return fmt.Errorf("%s: the schema allows no integration block here", path)
	}
	props, ok := data["props"].(map[string]any)
	if _, set := data["props"]; set && !ok {
		return fmt.Errorf("%s.data.props: must be an object", path)
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	tag := "{% @" + scope + "/" + blk
	for _, k := range keys {
		v, ok := props[k].(string)
		if !ok {
			return fmt.Errorf("%s.data.props.%s: only a string can be written", path, k)
		}
		if !integrationName(k) {
			return fmt.Errorf("%s.data.props: the name %q cannot be written", path, k)
		}
		tag += " " + k + `="` + tagValue(v) + `"`
	}
	*out = append(*out, chunk{lines: []string{tag + " %}"}})
	return nil
}
