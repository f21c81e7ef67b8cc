package render

import (
	"bytes"
	"fmt"

	"github.com/quiredocs/quire"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Bounds of a page's document. Markdown is at most 1 MiB, but some of it
// grows a hundredfold or more as a document: a table row pads its missing
// cells, each a JSON fragment of some 200 bytes, a code line becomes a
// block, and each ">" a level of JSON. Pages are checked against these
// bounds when written (CheckDocument), JSON documents also as they are read
// (CheckDocumentJSON), and the document form is built only within them,
// whatever is stored.
const (
	// MaxNesting bounds blockquotes and lists within one another. The
	// document holds four JSON levels per list level, and encoding/json
	// refuses more than 10,000.
	MaxNesting = 100
	// MaxTableCells bounds the cells of one table, counting those that a
	// short row leaves out; the document holds each as a fragment.
	MaxTableCells = 20_000
	// MaxDocumentNodes bounds a page's nodes: elements of the parsed
	// markdown, and lines of its code blocks. A document node is at most a
	// few hundred bytes of JSON beside its text, so a document within
	// bounds is at most some MiB.
	MaxDocumentNodes = 100_000
)

// gfmParser is CommonMark with GFM tables and strikethrough, within the
// bounds: a blockquote or list deeper than MaxNesting, or a table of more
// than MaxTableCells cells, stays text (and the parse context records it).
// So parsing takes bounded time and memory: goldmark's work on a line grows
// with the square of the blocks open on it (512 Ki ">" took minutes), and
// a table row pads missing cells (18 KB of markdown made 10 million).
var gfmParser = gparser.NewParser(gfmOptions()...)

// docParser is gfmParser with the GitBook blocks the JSON document holds
// (see documentBlockParsers), inline math and task lists' check boxes:
// what Document reads.
var docParser = gparser.NewParser(append(gfmOptions(), gparser.WithBlockParsers(documentBlockParsers()...),
	gparser.WithInlineParsers(append(documentInlineParsers(), util.Prioritized(taskBoxParser{extension.NewTaskCheckBoxParser()}, 0))...))...)

func gfmOptions() []gparser.Option {
	return []gparser.Option{
		gparser.WithBlockParsers(boundedBlockParsers()...),
		gparser.WithInlineParsers(append(gparser.DefaultInlineParsers(),
			util.Prioritized(extension.NewStrikethroughParser(), 500))...),
		gparser.WithParagraphTransformers(append(gparser.DefaultParagraphTransformers(),
			util.Prioritized(boundedTable{extension.NewTableParagraphTransformer()}, 200))...),
		gparser.WithASTTransformers(util.Prioritized(extension.NewTableASTTransformer(), 0)),
	}
}

// NewGFMParser returns a parser of GitHub-flavoured markdown (tables,
// strikethrough, autolinks, task lists) within the same bounds as
// gfmParser, with opts: for others that read pages (search), so that no
// stored page, whenever it was written, costs them more than its length.
func NewGFMParser(opts ...gparser.Option) gparser.Parser {
	return gparser.NewParser(append([]gparser.Option{
		gparser.WithBlockParsers(boundedBlockParsers()...),
		gparser.WithInlineParsers(append(gparser.DefaultInlineParsers(),
			util.Prioritized(extension.NewStrikethroughParser(), 500),
			util.Prioritized(extension.NewLinkifyParser(), 999),
			util.Prioritized(extension.NewTaskCheckBoxParser(), 0))...),
		gparser.WithParagraphTransformers(append(gparser.DefaultParagraphTransformers(),
			util.Prioritized(boundedTable{extension.NewTableParagraphTransformer()}, 200))...),
		gparser.WithASTTransformers(util.Prioritized(extension.NewTableASTTransformer(), 0)),
	}, opts...)...)
}

// What the parse context records when markdown goes past a bound.
var (
	tooDeepKey   = gparser.NewContextKey()
	tooManyCells = gparser.NewContextKey()
)

// boundedBlockParsers are goldmark's block parsers, with blockquotes and
// lists refused beyond MaxNesting.
func boundedBlockParsers() []util.PrioritizedValue {
	ps := gparser.DefaultBlockParsers()
	for i, p := range ps {
		switch p.Value {
		case gparser.NewBlockquoteParser(), gparser.NewListParser():
			ps[i].Value = boundedNesting{p.Value.(gparser.BlockParser)}
		}
	}
	return ps
}

// boundedNesting opens its block only within MaxNesting levels; deeper,
// the line is text. (A list in a list is no block: the list parser
// declines it, so it is let be.)
type boundedNesting struct{ gparser.BlockParser }

func (b boundedNesting) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	if _, inList := parent.(*ast.List); inList || nesting(parent) < MaxNesting {
		return b.BlockParser.Open(parent, reader, pc)
	}
	line, seg := reader.Position()
	n, state := b.BlockParser.Open(parent, reader, pc)
	if n == nil { // not a blockquote or list: nothing past the bound
		return nil, state
	}
	reader.SetPosition(line, seg)
	pc.Set(tooDeepKey, true)
	return nil, gparser.NoChildren
}

// nesting counts the blockquotes and lists n is in, n included.
func nesting(n ast.Node) int {
	d := 0
	for ; n != nil; n = n.Parent() {
		switch n.(type) {
		case *ast.Blockquote, *ast.List:
			d++
		}
	}
	return d
}

// boundedTable makes a table of a paragraph only when it has at most
// MaxTableCells cells. Every row has as many cells as the delimiter row has
// columns, so a paragraph of n lines makes at most (n-1)×columns.
type boundedTable struct{ gparser.ParagraphTransformer }

func (b boundedTable) Transform(node *ast.Paragraph, reader text.Reader, pc gparser.Context) {
	lines := node.Lines()
	cols := 0
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		if line := seg.Value(reader.Source()); delimiterLike(line) {
			cols = max(cols, columns(line))
		}
	}
	if cols == 0 {
		return
	}
	if cols*(lines.Len()-1) > MaxTableCells {
		pc.Set(tooManyCells, true)
		return
	}
	b.ParagraphTransformer.Transform(node, reader, pc)
}

// columns counts the columns of a delimiter row as goldmark does: the
// pipes split it, and the blank ends are no columns.
func columns(line []byte) int {
	n := bytes.Count(line, []byte{'|'}) + 1
	if i := bytes.IndexByte(line, '|'); util.IsBlank(line[:i]) {
		n--
	}
	if i := bytes.LastIndexByte(line, '|'); n > 0 && util.IsBlank(line[i+1:]) {
		n--
	}
	return n
}

// delimiterLike reports whether line may be a table's delimiter row: only
// "-", ":", "|" and white space, with a "-" and a "|". (Without a "|" a
// table has one column, and then cells are no more than lines.)
func delimiterLike(line []byte) bool {
	dash := false
	for _, c := range line {
		switch c {
		case '-':
			dash = true
		case ':', '|', ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return dash && bytes.IndexByte(line, '|') >= 0
}

// parsed is markdown parsed within the bounds, and what it holds.
type parsed struct {
	doc          ast.Node
	src          []byte
	deep, wide   bool // a blockquote or list, a table, was left as text
	nodes, cells int  // as count counts them
}

// parse parses markdown within the bounds.
func parse(markdown string) *parsed {
	pc := gparser.NewContext()
	p := &parsed{src: []byte(NormalizeLineEndings(markdown))}
	p.doc = docParser.Parse(text.NewReader(p.src), gparser.WithContext(pc))
	p.deep, p.wide = pc.Get(tooDeepKey) != nil, pc.Get(tooManyCells) != nil
	p.nodes, p.cells = count(p.doc)
	return p
}

// over names the bound p goes past, "" when none.
func (p *parsed) over() string {
	switch {
	case p.deep:
		return fmt.Sprintf("blockquotes and lists may be nested at most %d levels deep", MaxNesting)
	case p.wide || p.cells > MaxTableCells:
		return fmt.Sprintf("tables may hold at most %d cells in all, counting those a short row leaves out", MaxTableCells)
	case p.nodes > MaxDocumentNodes:
		return fmt.Sprintf("may hold at most %d elements (blocks, inline elements, table cells and lines of code)", MaxDocumentNodes)
	}
	return ""
}

// count counts the nodes of a parsed document, plus the lines of its code
// blocks, and its table cells. It walks without recursion, so any depth of
// inline elements is fine.
func count(doc ast.Node) (nodes, cells int) {
	for n := doc; n != nil; {
		nodes++
		switch n.(type) {
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			nodes += n.Lines().Len()
		case *east.TableCell:
			cells++
		}
		if c := n.FirstChild(); c != nil {
			n = c
			continue
		}
		for n != doc && n.NextSibling() == nil {
			n = n.Parent()
		}
		if n == doc {
			break
		}
		n = n.NextSibling()
	}
	return nodes, cells
}

// CheckDocument refuses markdown whose document would go past the bounds:
// blockquotes and lists nested more than MaxNesting deep, more than
// MaxTableCells table cells, or more than MaxDocumentNodes nodes. The error
// is CodeInvalid; its message names the bound, and the caller the field.
// It parses the markdown once, in time and memory bounded by its length.
func CheckDocument(markdown string) error {
	if over := parse(markdown).over(); over != "" {
		return quire.Errorf(quire.CodeInvalid, "%s", over)
	}
	return nil
}
