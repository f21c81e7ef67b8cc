package render

import (
	"fmt"
	"unicode/utf8"
)

// promptAttrs are a prompt's attributes, in the order Git Sync writes
// them, and the values each may take ("" for any).
var promptAttrs = []struct{ name, values string }{
	{"description", ""}, {"icon", ""}, {"openInAIProviders", "true false"}, {"defaultExpanded", "hidden partial full"},
}

// prompt converts a prompt, "{% prompt description="…" %}", a code block,
// "{% endprompt %}": a prompt block of that code block. One with anything
// but one code block, without a description, or with an attribute Quire
// does not know stays the text it is, and so does one where the schema
// allows no prompt.
func (c *converter) prompt(n *formNode, at place) []any {
	data := map[string]any{}
	for _, a := range promptAttrs {
		v, ok := n.attrs[lowerASCII(a.name)]
		switch {
		case !ok && a.name == "description":
			return c.tagText(n, at)
		case !ok:
		case a.values == "" && (a.name != "icon" || v != "" && utf8.RuneCountInString(v) <= 50):
			data[a.name] = v
		case a.name == "openInAIProviders" && (v == "true" || v == "false"):
			data[a.name] = v == "true"
		case a.name == "defaultExpanded" && (v == "hidden" || v == "partial" || v == "full"):
			data[a.name] = v
		default:
			return c.tagText(n, at)
		}
	}
	if len(n.attrs) != len(data) || !allowed("prompt", at) || n.ChildCount() != 1 {
		return c.tagText(n, at)
	}
	code := c.block(n.FirstChild(), atTop)
	if len(code) != 1 || code[0].(map[string]any)["type"] != "code" {
		return c.tagText(n, at)
	}
	return []any{block("prompt", data, code)}
}

// lowerASCII is s with ASCII letters in lower case, as tagAttrs keys are.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// promptMD writes a prompt as Git Sync does: its tag, its code block, its
// end tag.
func promptMD(out *[]chunk, kids []any, data map[string]any, path *nodePath, at place) error {
	if !allowed("prompt", at) {
		return fmt.Errorf("%s: the schema allows no prompt block here", path)
	}
	tag := "{% prompt"
	for _, a := range promptAttrs {
		v, ok := data[a.name]
		if !ok {
			if a.name == "description" {
				return fmt.Errorf("%s.data.description: must be a string", path)
			}
			continue
		}
		s, isString := v.(string)
		if b, isBool := v.(bool); isBool && a.name == "openInAIProviders" {
			s, isString = fmt.Sprint(b), true
		}
		if !isString || a.name == "defaultExpanded" && s != "hidden" && s != "partial" && s != "full" {
			return fmt.Errorf("%s.data.%s: cannot be written", path, a.name)
		}
		tag += " " + a.name + `="` + tagValue(s) + `"`
	}
	if len(kids) != 1 {
		return fmt.Errorf("%s.nodes: a prompt holds one code block", path)
	}
	m, _, err := object(kids[0], path.field("nodes").item(0))
	if err != nil {
		return err
	}
	if m["type"] != "code" {
		return fmt.Errorf("%s.nodes[0]: a prompt holds one code block", path)
	}
	var inner []chunk
	if err := blockMD(&inner, m, path.field("nodes").item(0), atTop); err != nil {
		return err
	}
	lines := append([]string{tag + " %}"}, joinChunks(inner, atTop)...)
	*out = append(*out, chunk{lines: append(lines, "{% endprompt %}")})
	return nil
}
