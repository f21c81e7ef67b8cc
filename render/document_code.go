package render

import "github.com/yuin/goldmark/ast"

// codeFrame converts GitBook's frame of a code block,
// {% code title="…" lineNumbers="true" %}: its blocks, the first code
// block among them with the frame's title and line numbers in its data.
// Where code is code text (a quote, a hint) they are lost.
func (c *converter) codeFrame(n *formNode, at place) []any {
	var nodes []any
	framed := false
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		out := c.block(ch, at)
		switch ch.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if b, ok := out[0].(map[string]any); ok && len(out) == 1 && !framed && b["type"] == "code" {
				framed = true
				data := b["data"].(map[string]any)
				if title := n.attrs["title"]; title != "" {
					data["title"] = title
				}
				if n.attrs["linenumbers"] == "true" {
					data["lineNumbers"] = true
				}
			}
		}
		nodes = append(nodes, out...)
	}
	return nodes
}

// codeFrameMD puts code (a fenced code block) in GitBook's frame when data
// gives it a title or line numbers, as Git Sync writes it.
func codeFrameMD(code chunk, data map[string]any) chunk {
	title, _ := data["title"].(string)
	numbers, _ := data["lineNumbers"].(bool)
	if title == "" && !numbers {
		return code
	}
	tag := "{% code"
	if title != "" {
		tag += ` title="` + tagValue(title) + `"`
	}
	if numbers {
		tag += ` lineNumbers="true"`
	}
	lines := append([]string{tag + " %}"}, code.lines...)
	return chunk{lines: append(lines, "{% endcode %}")}
}
