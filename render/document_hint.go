package render

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The GitBook blocks the JSON document holds as blocks of their own, read
// and written as GitBook's Git Sync writes them:
//
//	{% hint style="warning" %}
//	Careful.
//	{% endhint %}
//
//	<details>
//
//	<summary>Title</summary>
//
//	Body.
//
//	</details>
//
// and tabs and code titles (see tabsMD, codeFrameMD). Other GitBook tags
// stay the text they are in the document.

// documentBlockParsers are the block parsers docParser adds to gfmParser.
// They come before the HTML block parser (900), as in blockForms.
func documentBlockParsers() []util.PrioritizedValue {
	return []util.PrioritizedValue{util.Prioritized(docLiquidParser{}, 850), util.Prioritized(expandableParser{}, 850),
		util.Prioritized(docTagParser{}, 850), util.Prioritized(docFigureParser{}, 850),
		util.Prioritized(mathBlockParser{}, 850)}
}

// documentTags are the GitBook tags the document reads; end tags are
// "end" and the name.
var documentTags = map[string]bool{"hint": true, "tabs": true, "tab": true, "code": true,
	"stepper": true, "step": true, "columns": true, "column": true, "updates": true, "update": true}

// containerTagAhead reports whether s starts a tag of documentTags, or its
// end tag, whatever follows the name: text written at a line's start may
// become such a tag once the rest of the line, other spans, is written, or
// once the writer puts an end tag after it (a tab's, say).
func containerTagAhead(s string) bool {
	rest, ok := strings.CutPrefix(s, "{%")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	i := strings.IndexFunc(rest, func(r rune) bool { return (r < 'a' || r > 'z') && r != '-' })
	if i < 0 {
		i = len(rest)
	}
	name := rest[:i]
	return documentTags[name] || strings.HasPrefix(name, "end") && documentTags[name[3:]]
}

// docLiquidParser reads hints, tabs and code frames as HTML does (liquidParser), and
// nothing else: a line of another tag, or a block without its end tag (a
// tab outside tabs), stays text.
type docLiquidParser struct{ liquidParser }

// Open implements parser.BlockParser.
func (p docLiquidParser) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	line, off, ok := lineAt(reader)
	if !ok {
		return nil, gparser.NoChildren
	}
	name, _, ok := liquidTag(line)
	if !ok || !documentTags[name] || tooDeep(parent) || !tagsOf(pc, reader.Source()).hasEnd(name, off) ||
		!inItemParent(parent, name) {
		return nil, gparser.NoChildren
	}
	return p.liquidParser.Open(parent, reader, pc)
}

// Continue does not end the hint at its end tag inside a fenced code block
// (HTML does): code in a hint is written fenced, and may hold that line.
func (p docLiquidParser) Continue(node ast.Node, reader text.Reader, pc gparser.Context) gparser.State {
	if inFence(node, pc) {
		return gparser.Continue | gparser.HasChildren
	}
	return p.liquidParser.Continue(node, reader, pc)
}

// inFence reports whether the innermost block open in node is fenced code.
func inFence(node ast.Node, pc gparser.Context) bool {
	opened := pc.OpenedBlocks()
	if len(opened) == 0 || opened[len(opened)-1].Node == node {
		return false
	}
	_, code := opened[len(opened)-1].Node.(*ast.FencedCodeBlock)
	return code
}

// documentTag reports whether line, as text, would read as the opening or
// end tag of a block the document reads, so that text written so must be
// escaped.
func documentTag(line string) bool {
	name, _, ok := tagName([]byte(line))
	return ok && (documentTags[string(name)] || strings.HasPrefix(string(name), "end") && documentTags[string(name[3:])]) ||
		refTag(line)
}

// hint converts a hint: a hint block where the schema allows one, else (in
// a blockquote or a hint) its content.
func (c *converter) hint(n *formNode, at place) []any {
	if at == inQuote || at == inHint {
		return c.blocks(n, at)
	}
	nodes := c.blocks(n, inHint)
	if len(nodes) == 0 { // a hint holds a block
		nodes = []any{block("paragraph", nil, []any{textNode(leaf("", nil))})}
	}
	style, _ := HintStyle(n.attrs)
	data := map[string]any{"style": style}
	if icon := n.attrs["icon"]; validIcon(icon) {
		data["icon"] = icon
	}
	return []any{block("hint", data, nodes)}
}

// hintMD writes a hint: its tags around its content. A style the schema
// does not know reads back as info, so it is written so.
func hintMD(out *[]chunk, kids []any, data map[string]any, path *nodePath) error {
	s, _ := data["style"].(string)
	style, _ := HintStyle(map[string]string{"style": s})
	var inner []chunk
	if err := blocksMD(&inner, kids, path.field("nodes"), inHint); err != nil {
		return err
	}
	if len(inner) == 1 && inner[0].empty {
		inner = nil // nothing between the tags is a hint of one empty paragraph
	}
	tag := `{% hint style="` + style + `"`
	if icon, _ := data["icon"].(string); icon != "" {
		tag += ` icon="` + tagValue(icon) + `"`
	}
	lines := []string{tag + " %}"}
	lines = append(lines, joinChunks(inner, inHint)...)
	*out = append(*out, chunk{lines: append(lines, "{% endhint %}")})
	return nil
}
