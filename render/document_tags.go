package render

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// The GitBook tags of blocks that stand for something outside the page, as
// Git Sync writes them, each on a line of its own:
//
//	{% embed url="…" %}                       (a caption, then {% endembed %}, optional)
//	{% file src="…" %}                        (the same)
//	{% content-ref url="…" %} … {% endcontent-ref %}
//	{% openapi src="…" path="…" method="…" %} … {% endopenapi %}
//	{% openapi-operation spec="…" path="…" method="…" %} … {% endopenapi-operation %}
//	{% openapi-schemas spec="…" schemas="A,B" grouped="true" %} … {% endopenapi-schemas %}
//	{% openapi-webhook spec="…" name="…" method="…" %} … {% endopenapi-webhook %}
//	{% include "…" %}
//	{% @integration/block key="value" … %}
//	{% if <expression> %} … {% endif %}
//	{% prompt description="…" icon="…" defaultExpanded="full" %} ```…``` {% endprompt %}
//
// docTagParser reads them for the document; HTML reads some of them itself
// (liquidParser).

// Node kinds of the blocks docTagParser reads, beside kindEmbed (an embed
// or a file, as in HTML).
var (
	kindRef         = ast.NewNodeKind("QuireContentRef") // content-ref and the openapi tags: their body is derived
	kindInclude     = ast.NewNodeKind("QuireInclude")
	kindIntegration = ast.NewNodeKind("QuireIntegration")
	kindIf          = ast.NewNodeKind("QuireIf")
	kindPrompt      = ast.NewNodeKind("QuirePrompt")
)

// refTags are the tags read to their end tag whose body the document does
// not keep: Git Sync writes there a link it derives from the tag.
var refTags = map[string]bool{
	"content-ref": true, "openapi": true, "openapi-operation": true, "openapi-schemas": true, "openapi-webhook": true,
}

// docTagParser reads the tags above; a line that is not one of them, or a
// block tag without its end tag, stays text.
type docTagParser struct{ liquidParser }

// Open implements parser.BlockParser.
func (p docTagParser) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	line, off, ok := lineAt(reader)
	if !ok {
		return nil, gparser.NoChildren
	}
	b, ok := docTag(line)
	if !ok || b.kind == kindIntegration && len(b.attrs) > 0 { // with props it is text (see integration)
		return nil, gparser.NoChildren
	}
	idx := tagsOf(pc, reader.Source())
	switch b.kind {
	case kindEmbed:
		b.leaf = !idx.hasBody(b.tag, off) || tooDeep(parent)
	case kindInclude, kindIntegration:
		b.leaf = true
	default:
		if !idx.hasEnd(b.tag, off) || tooDeep(parent) {
			return nil, gparser.NoChildren
		}
	}
	reader.AdvanceToEOL()
	if b.leaf {
		return b, gparser.NoChildren
	}
	return b, gparser.HasChildren
}

// Continue implements parser.BlockParser: as in a hint, an end tag in
// fenced code is code.
func (p docTagParser) Continue(node ast.Node, reader text.Reader, pc gparser.Context) gparser.State {
	if b := node.(*formNode); !b.leaf && inFence(node, pc) {
		return gparser.Continue | gparser.HasChildren
	}
	return p.liquidParser.Continue(node, reader, pc)
}

// docTag parses a line that is one of the tags above; the node's leaf is
// left for Open to set.
func docTag(line []byte) (*formNode, bool) {
	s := bytes.TrimSpace(line)
	b := &formNode{line: string(s)}
	if name, rest, ok := integrationTag(s); ok {
		attrs, end, ok := tagAttrsCase(rest, 0, true)
		if !ok || end != len(rest) {
			return nil, false
		}
		b.kind, b.tag, b.attrs = kindIntegration, string(name), attrs
		return b, true
	}
	name, rest, ok := tagName(s)
	if !ok {
		return nil, false
	}
	b.tag = string(name)
	switch b.tag {
	case "include":
		v, end, ok := attrValue(bytes.TrimSpace(rest), 0, 0)
		if !ok || end != len(bytes.TrimSpace(rest)) || v == "" || !bytes.HasPrefix(bytes.TrimSpace(rest), []byte(`"`)) {
			return nil, false
		}
		b.kind, b.attrs = kindInclude, map[string]string{"src": v}
		return b, true
	case "if":
		expr, ok := ifTag(s)
		if !ok {
			return nil, false
		}
		b.kind, b.attrs = kindIf, map[string]string{"expression": expr}
		return b, true
	}
	attrs, end, ok := tagAttrs(rest, 0)
	if !ok || end != len(rest) {
		return nil, false
	}
	b.attrs = attrs
	switch {
	case b.tag == "embed" && attrs["url"] != "", b.tag == "file" && attrs["src"] != "":
		b.kind = kindEmbed
	case refTags[b.tag]:
		b.kind = kindRef
	case b.tag == "prompt":
		b.kind = kindPrompt
	default:
		return nil, false
	}
	return b, true
}

// integrationTag splits a line that is one "{% @integration/block … %}"
// tag into the block's name and the rest, its props.
func integrationTag(line []byte) (name, rest []byte, ok bool) {
	inner, ok := bytes.CutPrefix(line, []byte("{%"))
	if !ok {
		return nil, nil, false
	}
	if inner, ok = bytes.CutSuffix(inner, []byte("%}")); !ok {
		return nil, nil, false
	}
	inner = bytes.TrimLeft(inner, " \t")
	if !bytes.HasPrefix(inner, []byte("@")) {
		return nil, nil, false
	}
	i := 1
	for i < len(inner) && inner[i] != ' ' && inner[i] != '\t' {
		i++
	}
	scope, block, ok := strings.Cut(string(inner[1:i]), "/")
	if !ok || !integrationName(scope) || !integrationName(block) {
		return nil, nil, false
	}
	return inner[:i], inner[i:], true
}

// integrationName reports whether s may name an integration or its block:
// letters, digits, "-", "_" and ".".
func integrationName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// refTag reports whether line, as text, would read as one of the tags
// above or their end tags, so that text written so must be escaped.
func refTag(line string) bool {
	if b, ok := docTag([]byte(line)); ok {
		return b.kind != kindIntegration || len(b.attrs) == 0 // with props it is text (see integration)
	}
	name, _, ok := tagName([]byte(line))
	if !ok {
		return false
	}
	tag, end := strings.CutPrefix(string(name), "end")
	return end && (refTags[tag] || tag == "embed" || tag == "file" || tag == "if" || tag == "prompt")
}

// Where the schema allows each block these tags make (DocumentBlock*'s
// containers); elsewhere the converter flattens it.
var allowedAt = map[string][]place{
	"embed":             {atTop, inHint, inTab},
	"file":              {atTop, inTab, inBody},
	"content-ref":       {atTop, inTab},
	"swagger":           {atTop},
	"openapi-operation": {atTop},
	"openapi-schemas":   {atTop},
	"openapi-webhook":   {atTop},
	"reusable-content":  {atTop, inBody},
	"integration":       {atTop, inHint, inTab, inBody},
	"if":                {atTop},
	"drawing":           {atTop, inTab},
	"math":              {atTop, inItem, inTab},
	"prompt":            {atTop, inTab, inBody},
}

// allowed reports whether a block of type typ may be at.
func allowed(typ string, at place) bool {
	for _, p := range allowedAt[typ] {
		if p == at {
			return true
		}
	}
	return false
}

// tagText is a tag block as the text it is: its opening line, its content,
// and its end tag when it has one.
func (c *converter) tagText(n *formNode, at place) []any {
	nodes := []any{block("paragraph", nil, []any{textNode(leaf(n.line, nil))})}
	if n.leaf {
		return nodes
	}
	nodes = append(nodes, c.blocks(n, at)...)
	return append(nodes, block("paragraph", nil, []any{textNode(leaf("{% end"+n.tag+" %}", nil))}))
}

// linkPara is a paragraph of a link to target, written as label.
func (c *converter) linkPara(target, label string) map[string]any {
	return block("paragraph", nil, []any{map[string]any{
		"object": "inline", "type": "link", "isVoid": false,
		"data":  map[string]any{"ref": c.ref(target, false)},
		"nodes": []any{textNode(leaf(label, nil))},
	}})
}

// ifTag reads a line that is one "{% if <expression> %}" tag.
func ifTag(line []byte) (expr string, ok bool) {
	name, rest, ok := tagName(line)
	if !ok || string(name) != "if" {
		return "", false
	}
	expr = string(bytes.TrimSpace(rest))
	return expr, expr != ""
}

// AdaptiveExpressions lists the expressions of the adaptive content in
// markdown ({% if <expression> %}, in any block), at most once each: what a
// page's HTML depends on beside the page (see HTMLOptions.Sees). It reads
// lines, not blocks, so it may list one more (a tag in code): never one
// fewer.
func AdaptiveExpressions(markdown string) []string {
	var exprs []string
	seen := map[string]bool{}
	for line := range strings.Lines(markdown) {
		i := strings.Index(line, "{%") // after any quote's ">", list item's marker or indentation
		if i < 0 {
			continue
		}
		if e, ok := ifTag([]byte(strings.TrimRight(line[i:], " \t\r\n"))); ok && !seen[e] {
			seen[e] = true
			exprs = append(exprs, e)
		}
	}
	return exprs
}
