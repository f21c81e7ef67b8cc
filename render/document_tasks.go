package render

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// A task list is a bullet list whose every item starts with a check box,
// "- [ ] todo" or "- [x] done", as Git Sync writes it (listMD): a
// list-tasks block whose items say whether they are checked. In a list
// where some items have no box, a box is the text it is ("[ ] ").

// taskBoxParser reads a task's check box as goldmark does, but only when
// white space or the end of the line follows it, as GFM says: goldmark
// also reads the "[x]" of a link "[x](…)" starting a list item as one.
type taskBoxParser struct{ gparser.InlineParser }

// Parse implements parser.InlineParser.
func (p taskBoxParser) Parse(parent ast.Node, block text.Reader, pc gparser.Context) ast.Node {
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' || len(line) > 3 && line[3] != ' ' && line[3] != '\t' && line[3] != '\n' {
		return nil
	}
	return p.InlineParser.Parse(parent, block, pc)
}

// checkBox is the check box starting list item it, if any.
func checkBox(it ast.Node) *east.TaskCheckBox {
	first := it.FirstChild()
	if first == nil {
		return nil
	}
	switch first.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		box, _ := first.FirstChild().(*east.TaskCheckBox)
		return box
	}
	return nil
}

// tasks reports whether list n is a task list: every item starts with a
// check box.
func tasks(n *ast.List) bool {
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		if checkBox(it) == nil {
			return false
		}
	}
	return n.HasChildren()
}

// taskList is the list-tasks block of list n, whose items have been
// converted: each item says whether it is checked, and its box, read by the
// converter as text, is dropped from its first paragraph.
func (c *converter) taskList(n *ast.List, items []any) map[string]any {
	i := 0
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		item := items[i].(map[string]any)
		item["data"] = map[string]any{"checked": checkBox(it).IsChecked}
		para := item["nodes"].([]any)[0].(map[string]any)
		para["nodes"] = dropBoxText(para["nodes"].([]any))
		i++
	}
	return block("list-tasks", nil, items)
}

// dropBoxText removes the first leaf's "[ ] " or "[x] " from inline nodes,
// and the leaf when that was all of it; an empty paragraph keeps an empty
// text.
func dropBoxText(nodes []any) []any {
	t := nodes[0].(map[string]any)
	leaves := t["leaves"].([]any)
	l := leaves[0].(map[string]any)
	if s := l["text"].(string)[4:]; s != "" {
		l["text"] = s
		return nodes
	}
	if leaves = leaves[1:]; len(leaves) > 0 {
		t["leaves"] = leaves
		return nodes
	}
	if nodes = nodes[1:]; len(nodes) == 0 {
		return []any{textNode(leaf("", nil))}
	}
	return nodes
}
