package render

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Math as Git Sync writes it (TeX, rendered by KaTeX): a block between two
// lines of "$$", or "$$…$$" alone on its line; inline, "$$…$$" in a
// paragraph.
//
//	$$
//	f(x) = x * e^{2 \pi i \xi x}
//	$$
//
//	The mean is $$\bar{x}$$.

var (
	kindMathBlock  = ast.NewNodeKind("QuireMathBlock")
	kindInlineMath = ast.NewNodeKind("QuireInlineMath")
)

// mathBlock is a block of math: its lines are the formula, raw.
type mathBlock struct{ ast.BaseBlock }

// Kind implements ast.Node.
func (*mathBlock) Kind() ast.NodeKind { return kindMathBlock }

// IsRaw implements ast.Node: the formula is no markdown.
func (*mathBlock) IsRaw() bool { return true }

// Dump implements ast.Node.
func (b *mathBlock) Dump(source []byte, level int) { ast.DumpHelper(b, source, level, nil, nil) }

// mathInline is inline math.
type mathInline struct {
	ast.BaseInline
	formula string
}

// Kind implements ast.Node.
func (*mathInline) Kind() ast.NodeKind { return kindInlineMath }

// Dump implements ast.Node.
func (m *mathInline) Dump(source []byte, level int) {
	ast.DumpHelper(m, source, level, map[string]string{"formula": m.formula}, nil)
}

// documentInlineParsers are the inline parsers docParser adds to gfmParser.
func documentInlineParsers() []util.PrioritizedValue {
	return []util.PrioritizedValue{util.Prioritized(mathInlineParser{}, 150)}
}

// isMathFence reports whether line is "$$" alone.
func isMathFence(line []byte) bool { return string(bytes.TrimSpace(line)) == "$$" }

// mathBlockParser reads a block of math from a line of "$$" to the next;
// one left open runs to the end of its container, as fenced code does.
type mathBlockParser struct{}

func (mathBlockParser) Trigger() []byte { return []byte{'$'} }

func (mathBlockParser) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	line, _, ok := lineAt(reader)
	if !ok || !isMathFence(line) {
		return nil, gparser.NoChildren
	}
	reader.AdvanceToEOL()
	return &mathBlock{}, gparser.NoChildren
}

func (mathBlockParser) Continue(node ast.Node, reader text.Reader, pc gparser.Context) gparser.State {
	line, seg := reader.PeekLine()
	if line == nil {
		return gparser.Close
	}
	if l, _, ok := lineAt(reader); ok && isMathFence(l) {
		reader.AdvanceToEOL()
		return gparser.Close
	}
	node.Lines().Append(seg)
	reader.AdvanceToEOL()
	return gparser.Continue | gparser.NoChildren
}

func (mathBlockParser) Close(ast.Node, text.Reader, gparser.Context) {}
func (mathBlockParser) CanInterruptParagraph() bool                  { return false }
func (mathBlockParser) CanAcceptIndentedLine() bool                  { return false }

// mathInlineParser reads "$$formula$$" on one line, no "$" before or
// after it; the formula is not blank and neither starts nor ends with "$".
type mathInlineParser struct{}

func (mathInlineParser) Trigger() []byte { return []byte{'$'} }

func (mathInlineParser) Parse(parent ast.Node, block text.Reader, pc gparser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("$$")) || block.PrecendingCharacter() == '$' {
		return nil
	}
	end := bytes.Index(line[2:], []byte("$$"))
	if end <= 0 {
		return nil
	}
	f := line[2 : 2+end]
	if f[0] == '$' || f[len(f)-1] == '$' || bytes.ContainsAny(f, "\r\n") || len(bytes.TrimSpace(f)) == 0 ||
		2+end+2 < len(line) && line[2+end+2] == '$' {
		return nil
	}
	block.Advance(2 + end + 2)
	return &mathInline{formula: string(f)}
}

// mathFormula is a block of math's formula: its lines, the last line
// ending dropped.
func (c *converter) mathFormula(n ast.Node) string {
	return strings.TrimSuffix(c.lines(n), "\n")
}

// math converts a block of math: a math block where the schema allows one,
// else a paragraph of inline math, its line endings spaces (or of its text,
// "$$" around it, when inline math cannot hold it: see mathSpan).
func (c *converter) math(formula string, at place) map[string]any {
	if !allowed("math", at) {
		f := strings.ReplaceAll(formula, "\n", " ")
		if _, err := mathSpan(map[string]any{"formula": f}, nil); err != nil {
			return block("paragraph", nil, []any{textNode(leaf("$$"+f+"$$", nil))})
		}
		return block("paragraph", nil, []any{inlineMath(f)})
	}
	return map[string]any{"object": "block", "type": "math", "isVoid": true, "data": map[string]any{"formula": formula}}
}

// mathAlone is the formula of a paragraph that holds only inline math,
// which Git Sync reads as a block.
func mathAlone(n ast.Node) (string, bool) {
	m, ok := n.FirstChild().(*mathInline)
	if !ok || m.NextSibling() != nil {
		return "", false
	}
	return m.formula, true
}

func inlineMath(formula string) map[string]any {
	return map[string]any{"object": "inline", "type": "inline-math", "isVoid": true, "data": map[string]any{"formula": formula}}
}

// mathMD writes a block of math between lines of "$$".
func mathMD(out *[]chunk, data map[string]any, path *nodePath, at place) error {
	formula, ok := data["formula"].(string)
	if !ok {
		return fmt.Errorf("%s.data.formula: must be a string", path)
	}
	if !allowed("math", at) {
		return fmt.Errorf("%s: the schema allows no math block here", path)
	}
	lines := []string{"$$"}
	if formula != "" {
		lines = append(lines, strings.Split(formula, "\n")...)
	}
	for _, l := range lines[1:] {
		if isMathFence([]byte(l)) || strings.Contains(l, "\r") {
			return fmt.Errorf("%s.data.formula: a line of \"$$\" cannot be written", path)
		}
	}
	*out = append(*out, chunk{lines: append(lines, "$$")})
	return nil
}

// mathSpan is inline math as a span, or an error when "$$…$$" cannot hold
// its formula.
func mathSpan(data map[string]any, path *nodePath) (span, error) {
	f, ok := data["formula"].(string)
	if !ok {
		return span{}, fmt.Errorf("%s.data.formula: must be a string", path)
	}
	if strings.TrimSpace(f) == "" || f[0] == '$' || f[len(f)-1] == '$' || strings.Contains(f, "$$") || strings.ContainsAny(f, "\r\n") {
		return span{}, fmt.Errorf("%s.data.formula: inline math cannot be blank, hold a line break or \"$$\", or start or end with \"$\"", path)
	}
	return span{kind: spanMath, text: f}, nil
}
