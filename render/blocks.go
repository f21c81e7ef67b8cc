package render

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// What other renderers of a page (package pdf) read: the syntax tree HTML
// renders, parsed the same way and within the same bounds, and the GitBook
// blocks in it.

// Parse parses a page's markdown as HTML does: GitHub-flavoured markdown,
// footnotes and GitBook's blocks, within the same bounds, every heading
// given the id HTML gives it (its "id" attribute). It returns the tree and
// the source its segments point into.
func Parse(markdown string) (doc ast.Node, src []byte) {
	src = []byte(NormalizeLineEndings(markdown))
	doc = htmlParser.Parse(text.NewReader(src))
	assignIDs(doc, src)
	return doc, src
}

// Block kinds, as Block.Kind names them.
const (
	BlockHint    = "hint"       // holds blocks; Attrs "style" (info, success, warning, danger) and "label"
	BlockTabs    = "tabs"       // holds BlockTab blocks
	BlockTab     = "tab"        // holds blocks; Attrs "title"
	BlockCode    = "code"       // a code block's frame; Attrs "title", "linenumbers"
	BlockEmbed   = "embed"      // Attrs "url", or "src" for a file; may hold a caption's blocks
	BlockDetails = "details"    // an expandable: a BlockSummary, then blocks
	BlockSummary = "summary"    // holds inline content
	BlockFigure  = "figure"     // Attrs "src", "alt", "title", "width", "height"; may hold a BlockCaption
	BlockCaption = "figcaption" // holds inline content
	BlockDropped = "dropped"    // a tag that is not shown; holds nothing
	BlockFigures = "figures"    // several figures (or a drawing): holds BlockFigure blocks; Attrs "align"
	BlockIf      = "if"         // adaptive content: holds blocks; Attrs "expression", which HTML judges (HTMLOptions.Sees)
)

// Block is a GitBook block of a tree Parse returned.
type Block struct {
	Kind  string            // one of the Block… kinds
	Tag   string            // the tag that opened it: "hint", "file", "embed"…
	Attrs map[string]string // its attributes as written (read only)
}

// BlockOf says which GitBook block n is; ok is false for any other node.
func BlockOf(n ast.Node) (b Block, ok bool) {
	f, ok := n.(*formNode)
	if !ok {
		return Block{}, false
	}
	kinds := map[ast.NodeKind]string{
		kindHint: BlockHint, kindTabs: BlockTabs, kindTab: BlockTab, kindCodeFrame: BlockCode,
		kindEmbed: BlockEmbed, kindDetails: BlockDetails, kindSummary: BlockSummary,
		kindFigure: BlockFigure, kindFigCaption: BlockCaption, kindDropped: BlockDropped,
		kindFigures: BlockFigures, kindIf: BlockIf,
	}
	return Block{Kind: kinds[f.kind], Tag: f.tag, Attrs: f.attrs}, true
}

// HintStyle is the style of a hint's attributes, one of info, success,
// warning and danger (info for any other), and the label shown with it.
func HintStyle(attrs map[string]string) (style, label string) {
	style = strings.ToLower(attrs["style"])
	label, ok := hintStyles[style]
	if !ok {
		style, label = "info", "Info"
	}
	if l := attrs["label"]; l != "" {
		label = l
	}
	return style, label
}

// InlineText is the text of inline node n and its children, as a reader
// sees it (a heading's, a link's).
func InlineText(n ast.Node, src []byte) string { return textOf(n, src) }

// DecodeText resolves the backslash escapes and character references of
// text as written (a text segment, a link destination), as HTML shows it.
func DecodeText(v []byte) string { return decodeText(v) }

// Highlight returns code's chroma tokens in lang, nil when lang is unknown
// or the code is not highlighted: more than a block may hold, or more than
// *budget, the bytes the page may still highlight, which shrinks by what
// is highlighted. The bounds are HTML's.
func Highlight(lang, code string, budget *int) []chroma.Token {
	if *budget <= 0 {
		return nil
	}
	r := htmlRenderer{highlighted: maxHighlightPage - *budget}
	tokens := r.highlight(lang, code)
	*budget = maxHighlightPage - r.highlighted
	return tokens
}

// HighlightBudget is how many bytes of code one page may highlight.
const HighlightBudget = maxHighlightPage

// MathOf is the formula of n when it is math ("$$…$$", inline or a block
// between lines of "$$"), as written; ok is false for any other node. A
// block's lines are its formula's, as a code block's are its code.
func MathOf(n ast.Node, src []byte) (formula string, ok bool) {
	switch n := n.(type) {
	case *mathInline:
		return n.formula, true
	case *mathBlock:
		var b strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			b.Write(seg.Value(src))
		}
		return strings.TrimSuffix(b.String(), "\n"), true
	}
	return "", false
}
