package render

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// A heading with an id of its own is written by Git Sync with an empty
// anchor after its text, a space between:
//
//	## Title <a href="#custom-id" id="custom-id"></a>
//
// The document keeps the id as the heading's meta.id, which GitBook's
// renderer uses for the heading's anchor, and Markdown writes it back so.

// anchorOpen is the anchor's start tag; headingID what an id may hold to be
// written back as it was read.
var (
	anchorOpen = regexp.MustCompile(`^<a href="#([^"&<>\\\s]+)" id="([^"&<>\\\s]+)">$`)
	headingID  = regexp.MustCompile(`^[^"&<>\\\s]+$`)
)

// heading converts a heading: levels past 3 are level 3, as the schema has
// no deeper one.
func (c *converter) heading(n *ast.Heading) []any {
	id, anchor := headingAnchor(n, c.src)
	b := &inlines{}
	c.walkRange(b, n.FirstChild(), anchor, nil, pairTags(n, c.src))
	nodes := b.nodes()
	h := block("heading-"+strconv.Itoa(min(n.Level, 3)), nil, nodes)
	if id != "" {
		trimLastSpace(nodes)
		h["meta"] = map[string]any{"id": id}
	}
	return []any{h}
}

// headingAnchor is the id of the anchor ending heading h and the node it
// starts at, or "" and nil: the anchor must follow text and a space.
func headingAnchor(h *ast.Heading, src []byte) (string, ast.Node) {
	end, ok := h.LastChild().(*ast.RawHTML)
	if !ok || rawHTML(end, src) != "</a>" {
		return "", nil
	}
	open, ok := end.PreviousSibling().(*ast.RawHTML)
	if !ok || open.Segments.Len() != 1 {
		return "", nil
	}
	m := anchorOpen.FindStringSubmatch(rawHTML(open, src))
	before, ok := open.PreviousSibling().(*ast.Text)
	if m == nil || m[1] != m[2] || !ok || !strings.HasSuffix(string(before.Value(src)), " ") {
		return "", nil
	}
	return m[1], open
}

// trimLastSpace drops the space before the anchor from the heading's last
// text.
func trimLastSpace(nodes []any) {
	text, _ := nodes[len(nodes)-1].(map[string]any)
	leaves, _ := text["leaves"].([]any)
	if len(leaves) == 0 {
		return
	}
	last := leaves[len(leaves)-1].(map[string]any)
	last["text"] = strings.TrimSuffix(last["text"].(string), " ")
}

// headingAnchorMD is the anchor Markdown writes after a heading's text for
// its meta.id, "" when it has none.
func headingAnchorMD(m map[string]any, path *nodePath) (string, error) {
	meta, _ := m["meta"].(map[string]any)
	id, ok := meta["id"].(string)
	if !ok {
		return "", nil
	}
	if !headingID.MatchString(id) {
		return "", fmt.Errorf("%s: a heading's id is written as an anchor's and may hold no spaces, quotes, &, < or >", path.field("meta").field("id"))
	}
	return ` <a href="#` + id + `" id="` + id + `"></a>`, nil
}
