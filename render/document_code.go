package render

import (
	"fmt"

	"github.com/yuin/goldmark/ast"
)

// codeFrame converts GitBook's frame of a code block,
// {% code title="…" overflow="wrap" lineNumbers="true" fullWidth="true" %}:
// its blocks, the first code block among them with the frame's title,
// overflow, line numbers and full width in its data.
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
				if o := n.attrs["overflow"]; o == "wrap" || o == "scroll" {
					data["overflow"] = o
				}
				if n.attrs["fullwidth"] == "true" {
					data["fullWidth"] = true
				}
			}
		}
		nodes = append(nodes, out...)
	}
	return nodes
}

// codeFrameMD puts code (a fenced code block) in GitBook's frame when data
// gives it a title, overflow, line numbers or full width, as Git Sync
// writes it ({% code title="x" overflow="wrap" lineNumbers="true"
// fullWidth="true" %}). An expandable code block has no form Git Sync is
// known to write: it is refused.
func codeFrameMD(code chunk, data map[string]any, path *nodePath) (chunk, error) {
	if err := noData(data, path, "expandable", "collapsedLineCount"); err != nil {
		return chunk{}, err
	}
	title, _ := data["title"].(string)
	numbers, _ := data["lineNumbers"].(bool)
	full, _ := data["fullWidth"].(bool)
	overflow, _ := data["overflow"].(string)
	if o, ok := data["overflow"]; ok && overflow != "wrap" && overflow != "scroll" {
		return chunk{}, fmt.Errorf("%s.data.overflow: must be scroll or wrap, not %v", path, o)
	}
	if title == "" && !numbers && !full && overflow == "" {
		return code, nil
	}
	tag := "{% code"
	if title != "" {
		tag += ` title="` + tagValue(title) + `"`
	}
	if overflow != "" {
		tag += ` overflow="` + overflow + `"`
	}
	if numbers {
		tag += ` lineNumbers="true"`
	}
	if full {
		tag += ` fullWidth="true"`
	}
	lines := append([]string{tag + " %}"}, code.lines...)
	return chunk{lines: append(lines, "{% endcode %}")}, nil
}
