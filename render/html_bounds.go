package render

import (
	"bytes"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// What keeps HTML's parse linear in the length of the markdown, beside the
// bounds of NewGFMParser.

// maxNesting bounds how deep these blocks nest. goldmark offers every line
// to every open block, so with a block per line nesting unbounded would
// make parsing quadratic.
const maxNesting = 32

// tooDeep reports whether parent is maxNesting blocks of ours deep.
func tooDeep(parent ast.Node) bool {
	n := 0
	for p := parent; p != nil && n < maxNesting; p = p.Parent() {
		if _, ok := p.(*formNode); ok {
			n++
		}
	}
	return n >= maxNesting
}

// tagIndex records where end tags and embeds are, so that a block is opened
// only when its end tag follows: a tag left open would otherwise hold the
// rest of the page. It is built once per parse, in one pass.
type tagIndex struct {
	ends  map[string][]int // tag → offsets of the lines ending it, ascending
	opens map[string][]int // "embed", "file" → offsets of their lines, ascending
}

var tagIndexKey = gparser.NewContextKey()

func tagsOf(pc gparser.Context, source []byte) *tagIndex {
	if v, ok := pc.Get(tagIndexKey).(*tagIndex); ok {
		return v
	}
	idx := &tagIndex{ends: map[string][]int{}, opens: map[string][]int{}}
	for off := 0; off < len(source); {
		end := bytes.IndexByte(source[off:], '\n')
		if end < 0 {
			end = len(source) - off
		}
		// Inside blockquotes and list items a tag follows "> " or indentation.
		line := bytes.TrimLeft(source[off:off+end], " \t>")
		if name, _, ok := liquidTag(line); ok {
			if e, ok := strings.CutPrefix(name, "end"); ok {
				idx.ends[e] = append(idx.ends[e], off)
			} else if name == "embed" || name == "file" {
				idx.opens[name] = append(idx.opens[name], off)
			}
		} else if isDetailsEnd(line) {
			idx.ends["details"] = append(idx.ends["details"], off)
		}
		off += end + 1
	}
	pc.Set(tagIndexKey, idx)
	return idx
}

// next returns the first of offs after off, or -1.
func next(offs []int, off int) int {
	if i := sort.SearchInts(offs, off+1); i < len(offs) {
		return offs[i]
	}
	return -1
}

// hasEnd reports whether an end tag of tag follows offset off.
func (t *tagIndex) hasEnd(tag string, off int) bool { return next(t.ends[tag], off) >= 0 }

// hasBody reports whether the embed or file tag at off has a caption: its
// end tag follows before the next tag of its kind.
func (t *tagIndex) hasBody(tag string, off int) bool {
	end := next(t.ends[tag], off)
	following := next(t.opens[tag], off)
	return end >= 0 && (following < 0 || end < following)
}

// footnoteDefsKey holds, per parse, the first footnote definition of each
// label.
var footnoteDefsKey = gparser.NewContextKey()

func footnoteDefsOf(pc gparser.Context) map[string]*east.Footnote {
	m, ok := pc.Get(footnoteDefsKey).(map[string]*east.Footnote)
	if !ok {
		m = map[string]*east.Footnote{}
		pc.Set(footnoteDefsKey, m)
	}
	return m
}

// footnoteDefs is goldmark's footnote definition parser, indexing the
// definitions by label for footnoteRefs.
type footnoteDefs struct{ gparser.BlockParser }

func (f footnoteDefs) Close(node ast.Node, reader text.Reader, pc gparser.Context) {
	f.BlockParser.Close(node, reader, pc)
	m := footnoteDefsOf(pc)
	if d, ok := node.(*east.Footnote); ok && m[string(d.Ref)] == nil {
		m[string(d.Ref)] = d
	}
}

// footnoteRefs is goldmark's footnote reference parser made linear:
// goldmark looks a reference's label up through the definitions in turn,
// so n references to the last of n definitions cost n². The definition
// referred to is moved first, where goldmark finds it at once (the list is
// sorted by first reference afterwards anyway), and a label with no
// definition is no reference, as in goldmark.
type footnoteRefs struct{ gparser.InlineParser }

func (f footnoteRefs) Parse(parent ast.Node, block text.Reader, pc gparser.Context) ast.Node {
	line, seg := block.PeekLine()
	pos := 1
	if len(line) > 0 && line[0] == '!' {
		pos++
	}
	if pos+1 >= len(line) || line[pos] != '^' {
		return nil
	}
	pos++
	closure := util.FindClosure(line[pos:min(len(line), pos+999)], '[', ']', false, false) //nolint:staticcheck // as goldmark does
	if closure < 0 {
		return nil
	}
	d := footnoteDefsOf(pc)[string(block.Value(text.NewSegment(seg.Start+pos, seg.Start+pos+closure)))]
	if d == nil {
		return nil
	}
	if list := d.Parent(); list != nil && list.FirstChild() != d {
		list.RemoveChild(list, d)
		list.InsertBefore(list, list.FirstChild(), d)
	}
	return f.InlineParser.Parse(parent, block, pc)
}

// maxParagraphLines bounds the lines of a paragraph; a longer one goes on
// as another. goldmark reads a link label, a reference definition or a
// footnote label by looking for its line from the paragraph's last, so a
// paragraph of n lines of "[a]" or "[a]: b" costs n² (100,000 lines: 5 s).
// No paragraph of prose is this long; a table is (see paragraphBound).
const maxParagraphLines = 256

// paragraphBound starts a new paragraph where the open one reaches its
// bound. A paragraph that becomes a table may hold as many rows as
// MaxTableCells allows: goldmark parses each of its cells on its own.
// Continuing and closing is the paragraph parser's.
type paragraphBound struct{ gparser.BlockParser }

var tableColumnsKey = gparser.NewContextKey()

// tableColumns is the table begun in paragraph p: its columns so far.
type tableColumns struct {
	p    *ast.Paragraph
	cols int
}

func (paragraphBound) Trigger() []byte { return nil }

func (b paragraphBound) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	p, ok := pc.LastOpenedBlock().Node.(*ast.Paragraph)
	line, seg := reader.PeekLine()
	if !ok || util.IsBlank(line) {
		return nil, gparser.NoChildren
	}
	n := p.Lines().Len()
	t, _ := pc.Get(tableColumnsKey).(*tableColumns)
	if t == nil || t.p != p {
		t = nil
	}
	if delimiterLike(line) {
		// goldmark makes a table at the first delimiter row whose header
		// (the line above) has as many cells; boundedTable counts the most
		// columns of any row like one.
		header := p.Lines().At(n - 1)
		switch {
		case t != nil:
			t.cols = max(t.cols, columns(line))
		case headerCells(header.Value(reader.Source())) == columns(line):
			t = &tableColumns{p: p, cols: columns(line)}
			pc.Set(tableColumnsKey, t)
		}
	}
	limit := maxParagraphLines
	if t != nil && t.cols > 0 {
		limit = max(limit, MaxTableCells/t.cols+1)
	}
	if n < limit {
		return nil, gparser.NoChildren
	}
	node := ast.NewParagraph() // as the paragraph parser opens one
	node.Lines().Append(seg)
	reader.AdvanceToEOL()
	return node, gparser.NoChildren
}

// CanInterruptParagraph: it interrupts only a paragraph, and only at its bound.
func (paragraphBound) CanInterruptParagraph() bool { return true }

// CanAcceptIndentedLine: an indented line continues a paragraph too.
func (paragraphBound) CanAcceptIndentedLine() bool { return true }

// headerCells counts the cells of a table's header row as goldmark does:
// the unescaped pipes split it, and a pipe at either end opens or closes
// none.
func headerCells(line []byte) int {
	line = bytes.TrimSpace(line)
	line = bytes.TrimPrefix(line, []byte("|"))
	if len(line) > 0 && line[len(line)-1] == '|' {
		line = line[:len(line)-1]
	}
	if len(line) == 0 {
		return 0
	}
	n := 1
	for i, c := range line {
		if c == '|' && (i == 0 || line[i-1] != '\\') {
			n++
		}
	}
	return n
}
