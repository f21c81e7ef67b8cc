package render

import (
	"fmt"
	"strings"
)

// ifBlock converts adaptive content, "{% if <expression> %}" … "{% endif %}":
// at the top level an if block of its expression and its blocks (those of
// the top level); elsewhere, where the schema allows none, the text it is,
// so that its condition is not lost.
func (c *converter) ifBlock(n *formNode, at place) []any {
	if !allowed("if", at) {
		return c.tagText(n, at)
	}
	return []any{block("if", map[string]any{"expression": n.attrs["expression"]}, c.blocks(n, atTop))}
}

// ifMD writes an if block as Git Sync does: its tags around its blocks.
func ifMD(out *[]chunk, kids []any, data map[string]any, path *nodePath, at place) error {
	expr, _ := data["expression"].(string)
	if strings.TrimSpace(expr) != expr || expr == "" || strings.ContainsAny(expr, "\r\n") || strings.Contains(expr, "%}") {
		return fmt.Errorf("%s.data.expression: must be one line, not blank, without \"%%}\" or white space at its ends", path)
	}
	if !allowed("if", at) {
		return fmt.Errorf("%s: the schema allows no if block here", path)
	}
	var inner []chunk
	if err := blocksMD(&inner, kids, path.field("nodes"), atTop); err != nil {
		return err
	}
	lines := append([]string{"{% if " + expr + " %}"}, joinChunks(inner, atTop)...)
	*out = append(*out, chunk{lines: append(lines, "{% endif %}")})
	return nil
}
