package render

import (
	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// expandableParser reads an expandable as HTML does (detailsParser), but
// its end tag inside fenced code is code, as in a hint.
type expandableParser struct{ detailsParser }

// Continue implements parser.BlockParser.
func (p expandableParser) Continue(node ast.Node, reader text.Reader, pc gparser.Context) gparser.State {
	if inFence(node, pc) {
		return gparser.Continue | gparser.HasChildren
	}
	return p.detailsParser.Continue(node, reader, pc)
}

// expandable converts an expandable: at the top level (or in a step, a
// column or an update) an expandable block,
// its title and its body in fragments; elsewhere, where the schema allows
// none, its title as a paragraph (when it has one) and its body.
func (c *converter) expandable(n *formNode, at place) []any {
	var title ast.Node
	first := n.FirstChild()
	if s, ok := first.(*formNode); ok && s.kind == kindSummary {
		title, first = s, s.NextSibling()
	}
	if at != atTop && at != inStep && at != inColumn && at != inUpdate {
		var nodes []any
		if title != nil && title.HasChildren() {
			nodes = append(nodes, block("paragraph", nil, c.inlines(title, nil)))
		}
		for b := first; b != nil; b = b.NextSibling() {
			nodes = append(nodes, c.block(b, at)...)
		}
		return nodes
	}
	titleInlines := []any{textNode(leaf("", nil))}
	if title != nil {
		titleInlines = c.inlines(title, nil)
	}
	var body []any
	for b := first; b != nil; b = b.NextSibling() {
		body = append(body, c.block(b, inBody)...)
	}
	if len(body) == 0 { // a fragment holds a block
		body = []any{block("paragraph", nil, []any{textNode(leaf("", nil))})}
	}
	data := map[string]any{}
	if _, open := n.attrs["open"]; open {
		data["defaultExpanded"] = true
	}
	return []any{map[string]any{
		"object": "block", "type": "expandable", "isVoid": true, "data": data,
		"fragments": []any{
			map[string]any{"object": "fragment", "fragment": "expandable-title", "type": "expandable-title",
				"nodes": []any{block("paragraph", nil, titleInlines)}},
			map[string]any{"object": "fragment", "fragment": "expandable-body", "type": "expandable-body", "nodes": body},
		},
	}}
}

// expandableMD writes an expandable as Git Sync does: "<details>", its
// title in "<summary>" on one line, its body, "</details>", with blank
// lines between. Its nodes, if any, are written after the body's.
func expandableMD(out *[]chunk, m, data map[string]any, path *nodePath) error {
	frags, err := fragmentsOf(m, path)
	if err != nil {
		return err
	}
	var title []span
	var inner []chunk
	for _, f := range frags {
		if f.name == "expandable-title" || f.typ == "expandable-title" {
			if err := spansMD(&title, f.nodes, f.path.field("nodes")); err != nil {
				return err
			}
			continue
		}
		if err := blocksMD(&inner, f.nodes, f.path.field("nodes"), inBody); err != nil {
			return err
		}
	}
	kids, err := nodesOf(m, path)
	if err != nil {
		return err
	}
	if err := blocksMD(&inner, kids, path.field("nodes"), inBody); err != nil {
		return err
	}
	if len(inner) == 1 && inner[0].empty {
		inner = nil // an empty body is a body of one empty paragraph
	}
	open := "<details>"
	if expanded, _ := data["defaultExpanded"].(bool); expanded {
		open = "<details open>"
	}
	lines := []string{open, "", "<summary>" + inlineMD(title, ctxHeading) + "</summary>", ""}
	if body := joinChunks(inner, inBody); len(body) > 0 {
		lines = append(append(lines, body...), "")
	}
	*out = append(*out, chunk{lines: append(lines, "</details>")})
	return nil
}
