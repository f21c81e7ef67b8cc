package render

import (
	"fmt"
	"strings"
)

// tabs converts tabs: at the top level (or in an update) a tabs block of
// tabs-items, each
// titled; elsewhere, where the schema allows none, each tab's title as a
// paragraph (when it has one) and its content. Blocks between the tabs
// belong to the tab before them (or to an untitled first tab).
func (c *converter) tabs(n *formNode, at place) []any {
	if at != atTop && at != inUpdate {
		var nodes []any
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if t, ok := ch.(*formNode); ok && t.kind == kindTab {
				if title := t.attrs["title"]; title != "" {
					nodes = append(nodes, titleParagraph(title))
				}
				nodes = append(nodes, c.blocks(t, at)...)
				continue
			}
			nodes = append(nodes, c.block(ch, at)...)
		}
		return nodes
	}
	type tab struct {
		title string
		nodes []any
	}
	var tabs []*tab
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if t, ok := ch.(*formNode); ok && t.kind == kindTab {
			tabs = append(tabs, &tab{title: t.attrs["title"], nodes: c.blocks(t, inTab)})
			continue
		}
		nodes := c.block(ch, inTab)
		if len(nodes) == 0 {
			continue
		}
		if len(tabs) == 0 {
			tabs = append(tabs, &tab{})
		}
		last := tabs[len(tabs)-1]
		last.nodes = append(last.nodes, nodes...)
	}
	items := []any{}
	for _, t := range tabs {
		if len(t.nodes) == 0 { // a tab holds a block
			t.nodes = []any{block("paragraph", nil, []any{textNode(leaf("", nil))})}
		}
		items = append(items, block("tabs-item", map[string]any{"title": t.title}, t.nodes))
	}
	return []any{block("tabs", nil, items)}
}

// tabsMD writes tabs as Git Sync does: "{% tabs %}", each tab's
// "{% tab title="…" %}", content and "{% endtab %}" with a blank line
// between tabs, "{% endtabs %}". An item that is not a tabs-item is an
// untitled tab holding it.
func tabsMD(out *[]chunk, items []any, paths []*nodePath) error {
	lines := []string{"{% tabs %}"}
	for i, it := range items {
		m, _, err := object(it, paths[i])
		if err != nil {
			return err
		}
		var inner []chunk
		title := ""
		if m["type"] == "tabs-item" {
			data, _ := m["data"].(map[string]any)
			title, _ = data["title"].(string)
			for _, f := range []string{"icon", "slug"} { // no form Git Sync is known to write
				if s, _ := data[f].(string); s != "" {
					return fmt.Errorf("%s.data.%s: cannot be written as markdown", paths[i], f)
				}
			}
			kids, err := nodesOf(m, paths[i])
			if err != nil {
				return err
			}
			if err := blocksMD(&inner, kids, paths[i].field("nodes"), inTab); err != nil {
				return err
			}
		} else if err := blockMD(&inner, it, paths[i], inTab); err != nil {
			return err
		}
		if len(inner) == 1 && inner[0].empty {
			inner = nil // nothing in the tab is a tab of one empty paragraph
		}
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, `{% tab title="`+tagValue(title)+`" %}`)
		lines = append(lines, joinChunks(inner, inTab)...)
		lines = append(lines, "{% endtab %}")
	}
	*out = append(*out, chunk{lines: append(lines, "{% endtabs %}")})
	return nil
}

// tagValue escapes s for a quoted attribute of a GitBook tag, which reads
// backslash escapes and character references (tagAttrs), on one line.
func tagValue(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "&", "&amp;", "\n", "&#10;", "\r", "&#13;").Replace(s)
}
