package render

import (
	"fmt"
	"strconv"
	"strings"
)

// Markdown writes a JSON document (as decoded from JSON: map[string]any, []any, string, float64, bool) as
// markdown. Links and images to pages and files are written /pages/<id> and /files/<id>
// (with #anchor when the ref has one). An error names the node path at fault,
// e.g. "document.nodes[2].nodes[0]: missing \"object\"".
//
// It inverts Document: for markdown m, Document(Markdown(Document(m))) is
// Document(m) (links and images come back as pages and files with a
// resolver that reads /pages/ and /files/, as Resolver does). GitBook's
// blocks, inlines and marks the document reads are written as GitBook's
// Git Sync writes them: hints, tabs, code frames, steppers, columns and
// updates with their {% … %} tags, expandables as <details>, task lists
// as "- [x]" items, expressions, icons, buttons and marks beyond
// markdown's as inline HTML (<code class="expression">, <i class="fa-…">,
// <a class="button …">, <kbd>, <sup>, <sub>, <mark style="color:…;">),
// mentions as links titled "mention", and the blocks of document_tags.go
// (embeds, files, content references, OpenAPI blocks, includes,
// integrations, adaptive content, prompts), figures and drawings
// (document_images.go) and math ("$$") (see document_*.go). Such a block
// where the schema allows none, or data of those nodes that markdown
// cannot write (a mark of an unknown type, a button's action, a column's
// vertical alignment…), is an error naming its path.
//
// An emoji is written as its character; other nodes of unknown types are
// written as their content. A node is otherwise an error only when its
// shape is unusable: not an object, without a known "object", or with
// "nodes", "leaves", "fragments", "marks" or a leaf's "text" of the wrong
// type.
func Markdown(doc map[string]any) (string, error) {
	if doc == nil {
		return "", fmt.Errorf("document: not an object")
	}
	if o, _ := doc["object"].(string); o != "document" {
		return "", fmt.Errorf("document: object must be \"document\"")
	}
	nodes, ok := doc["nodes"].([]any)
	if !ok {
		return "", fmt.Errorf("document.nodes: must be an array")
	}
	var chunks []chunk
	if err := blocksMD(&chunks, nodes, (*nodePath)(nil).field("nodes"), atTop); err != nil {
		return "", err
	}
	lines := joinChunks(chunks, atTop)
	if len(lines) == 0 {
		return "", nil
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// chunk is one written block: its lines, without the indentation or "> "
// of the blocks around it.
type chunk struct {
	lines      []string
	para       bool   // a paragraph
	empty      bool   // a paragraph with no content (lines is nil)
	list       string // a list's marker character: "-", "*", "." or ")"
	interrupts bool   // a list that may start right below a paragraph
	emptyEnd   bool   // its last line is an empty list item
}

// joinChunks puts a blank line between blocks; in a list item a list right
// below a paragraph needs none, which keeps short lists tight. Below a list
// ending with an empty item there must be none: goldmark would then end the
// list item holding both (a quirk), so below the top level it is left out.
func joinChunks(chunks []chunk, at place) []string {
	var lines []string
	var prev *chunk
	for i := range chunks {
		c := &chunks[i]
		if len(c.lines) == 0 {
			continue
		}
		if prev != nil && !(at == inItem && prev.para && c.interrupts) && !(at != atTop && prev.emptyEnd) {
			lines = append(lines, "")
		}
		lines = append(lines, c.lines...)
		prev = c
	}
	return lines
}

// nodePath is where a node is in the document, for errors: nil is the
// document itself. It is spelled out only for an error.
type nodePath struct {
	up    *nodePath
	name  string // a field of up, or "" for an item of up
	index int
}

func (p *nodePath) field(name string) *nodePath { return &nodePath{up: p, name: name} }
func (p *nodePath) item(i int) *nodePath        { return &nodePath{up: p, index: i} }

func (p *nodePath) String() string {
	switch {
	case p == nil:
		return "document"
	case p.name != "":
		return p.up.String() + "." + p.name
	}
	return p.up.String() + "[" + strconv.Itoa(p.index) + "]"
}

// nodesOf is a node's "nodes": nil when absent, an error when not an array.
func nodesOf(m map[string]any, path *nodePath) ([]any, error) {
	v, ok := m["nodes"]
	if !ok || v == nil {
		return nil, nil
	}
	nodes, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.nodes: not an array", path)
	}
	return nodes, nil
}

// object is n as a node: an object with a string "object".
// eachObject runs fn on each node of nodes, an object at path's item i.
func eachObject(nodes []any, path *nodePath, fn func(m map[string]any, p *nodePath) error) error {
	for i, n := range nodes {
		p := path.item(i)
		m, _, err := object(n, p)
		if err != nil {
			return err
		}
		if err := fn(m, p); err != nil {
			return err
		}
	}
	return nil
}

func object(n any, path *nodePath) (map[string]any, string, error) {
	m, ok := n.(map[string]any)
	if !ok {
		return nil, "", fmt.Errorf("%s: not an object", path)
	}
	obj, ok := m["object"].(string)
	if !ok {
		return nil, "", fmt.Errorf("%s: missing \"object\"", path)
	}
	switch obj {
	case "document", "block", "inline", "text", "leaf", "fragment", "mark":
		return m, obj, nil
	}
	return nil, "", fmt.Errorf("%s: unknown object %q", path, obj)
}

// itemPaths are the paths of the first n items of p.
func itemPaths(p *nodePath, n int) []*nodePath {
	paths := make([]*nodePath, n)
	for i := range paths {
		paths[i] = p.item(i)
	}
	return paths
}

// fragment is one of a block's "fragments": named content, such as an
// expandable's title or a table cell.
type fragment struct {
	name, typ string
	path      *nodePath
	nodes     []any
}

// fragmentsOf is a node's "fragments": nil when absent, an error when not
// an array of nodes.
func fragmentsOf(m map[string]any, path *nodePath) ([]fragment, error) {
	v, ok := m["fragments"]
	if !ok || v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.fragments: not an array", path)
	}
	var frags []fragment
	for i, f := range list {
		p := path.field("fragments").item(i)
		fm, _, err := object(f, p)
		if err != nil {
			return nil, err
		}
		nodes, err := nodesOf(fm, p)
		if err != nil {
			return nil, err
		}
		name, _ := fm["fragment"].(string)
		typ, _ := fm["type"].(string)
		frags = append(frags, fragment{name: name, typ: typ, path: p, nodes: nodes})
	}
	return frags, nil
}
