package render

import (
	"fmt"
	"strings"
)

// GitBook's blocks of items (steppers of steps, columns, updates) are
// read and written as Git Sync writes them, like tabs:
//
//	{% stepper %}
//	{% step %}
//	…
//	{% endstep %}
//
//	{% step %}
//	…
//	{% endstep %}
//	{% endstepper %}
//
// Blocks between the items belong to the item before them (or to a first
// item without attributes). Where the schema allows no such block, it is
// its items' content (see flatItems).

// item is one item of a block of items: its tag's attributes and blocks.
type item struct {
	attrs map[string]string
	nodes []any
}

// items converts the items of n, of kind kind's tag, their content at in.
func (c *converter) items(n *formNode, kindTag string, in place) []*item {
	var items []*item
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if t, ok := ch.(*formNode); ok && t.tag == kindTag && !t.leaf {
			items = append(items, &item{attrs: t.attrs, nodes: c.blocks(t, in)})
			continue
		}
		nodes := c.block(ch, in)
		if len(nodes) == 0 {
			continue
		}
		if len(items) == 0 {
			items = append(items, &item{attrs: map[string]string{}})
		}
		last := items[len(items)-1]
		last.nodes = append(last.nodes, nodes...)
	}
	for _, it := range items {
		if len(it.nodes) == 0 { // an item holds a block
			it.nodes = []any{block("paragraph", nil, []any{textNode(leaf("", nil))})}
		}
	}
	return items
}

// flatItems is a block of items where the schema allows none: each item's
// title (when title gives one) as a paragraph, then its content, at at.
func (c *converter) flatItems(n *formNode, kindTag string, at place, title func(map[string]string) string) []any {
	var nodes []any
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if t, ok := ch.(*formNode); ok && t.tag == kindTag && !t.leaf {
			if s := title(t.attrs); s != "" {
				nodes = append(nodes, titleParagraph(s))
			}
			nodes = append(nodes, c.blocks(t, at)...)
			continue
		}
		nodes = append(nodes, c.block(ch, at)...)
	}
	return nodes
}

// titleParagraph is a paragraph of an attribute's text, a NUL in it U+FFFD
// as in all other text (CommonMark §2.3).
func titleParagraph(s string) map[string]any {
	return block("paragraph", nil, []any{textNode(leaf(strings.ReplaceAll(s, "\x00", "\uFFFD"), nil))})
}

// itemsMD writes a block of items as Git Sync does: its tag (name and
// attrs, its attributes written), each item's tag (itemName and the
// attributes attrs gives for its data), content at in and end tag with a
// blank line between items, its end tag. An item of another type than
// itemType is an item without attributes holding it.
func itemsMD(out *[]chunk, name, attrs, itemName, itemType string, items []any, paths []*nodePath, in place,
	itemAttrs func(data map[string]any, path *nodePath) (string, error)) error {
	lines := []string{"{% " + name + attrs + " %}"}
	for i, it := range items {
		m, _, err := object(it, paths[i])
		if err != nil {
			return err
		}
		var inner []chunk
		var data map[string]any
		if m["type"] == itemType {
			data, _ = m["data"].(map[string]any)
			kids, err := nodesOf(m, paths[i])
			if err != nil {
				return err
			}
			if err := blocksMD(&inner, kids, paths[i].field("nodes"), in); err != nil {
				return err
			}
		} else if err := blockMD(&inner, it, paths[i], in); err != nil {
			return err
		}
		a, err := itemAttrs(data, paths[i])
		if err != nil {
			return err
		}
		if len(inner) == 1 && inner[0].empty {
			inner = nil // nothing in the item is an item of one empty paragraph
		}
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, "{% "+itemName+a+" %}")
		lines = append(lines, joinChunks(inner, in)...)
		lines = append(lines, "{% end"+itemName+" %}")
	}
	*out = append(*out, chunk{lines: append(lines, "{% end"+name+" %}")})
	return nil
}

// noData is an item tag's error when data holds a field markdown cannot
// write.
func noData(data map[string]any, path *nodePath, fields ...string) error {
	for _, f := range fields {
		if _, ok := data[f]; ok {
			return fmt.Errorf("%s.data.%s: cannot be written as markdown", path, f)
		}
	}
	return nil
}
