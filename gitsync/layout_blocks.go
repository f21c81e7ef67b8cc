package gitsync

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Bodies keep GitBook's block syntax as written ({% hint %}, {% tabs %},
// <details>, {% code %}, {% embed %}, {% file %}, <figure>): render reads it,
// so Import stores it unchanged. The one form of Quire's own that GitBook
// does not read is the hint its document writer makes, a blockquote led by
// the style in bold ("> **Info**"); Export writes it as {% hint %}, which
// renders as the same hint.

// hintStyles are the bold labels of Quire's hints, by style.
var hintStyles = map[string]string{"Info": "info", "Success": "success", "Warning": "warning", "Danger": "danger"}

// hintsToGitBook rewrites the top-level hints of body written as
// blockquotes as {% hint style="…" %} … {% endhint %}.
func hintsToGitBook(body string) string {
	if !strings.Contains(body, "**") || !strings.Contains(body, ">") {
		return body
	}
	if !strings.HasSuffix(body, "\n") { // every line ends in one
		return strings.TrimSuffix(hintsToGitBook(body+"\n"), "\n")
	}
	src := []byte(body)
	doc := mdParser.Parse(text.NewReader(src))
	type hint struct {
		start, stop int // the quote's lines
		style       string
		skip        int // the label's paragraph, in lines
	}
	var hints []hint
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		q, ok := n.(*ast.Blockquote)
		if !ok {
			continue
		}
		style, ok := quireHint(q, src)
		if !ok {
			continue
		}
		start, stop := blockSpan(q)
		if start < 0 {
			continue
		}
		label := q.FirstChild()
		_, le := blockSpan(label)
		qs := lineStart(src, start)
		hints = append(hints, hint{start: qs, stop: lineEnd(src, stop), style: style,
			skip: strings.Count(body[qs:lineEnd(src, le)], "\n")})
	}
	if len(hints) == 0 {
		return body
	}
	var b strings.Builder
	last := 0
	for _, h := range hints {
		b.WriteString(body[last:h.start])
		lines := strings.SplitAfter(body[h.start:h.stop], "\n")
		for i := range lines {
			lines[i] = unquote(lines[i])
		}
		if h.skip < len(lines) {
			lines = lines[h.skip:]
		} else {
			lines = nil
		}
		for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
			lines = lines[1:]
		}
		inner := strings.TrimRight(strings.Join(lines, ""), " \t\r\n")
		b.WriteString(`{% hint style="` + h.style + `" %}` + "\n")
		if inner != "" {
			b.WriteString(inner + "\n")
		}
		b.WriteString("{% endhint %}")
		if strings.HasSuffix(body[h.start:h.stop], "\n") {
			b.WriteString("\n")
		}
		last = h.stop
	}
	b.WriteString(body[last:])
	return b.String()
}

// quireHint reports whether quote q is a hint of Quire's writer: its first
// block a paragraph of only the style in bold, and the style.
func quireHint(q *ast.Blockquote, src []byte) (string, bool) {
	p, ok := q.FirstChild().(*ast.Paragraph)
	if !ok || p.ChildCount() != 1 {
		return "", false
	}
	e, ok := p.FirstChild().(*ast.Emphasis)
	if !ok || e.Level != 2 || e.ChildCount() != 1 {
		return "", false
	}
	t, ok := e.FirstChild().(*ast.Text)
	if !ok {
		return "", false
	}
	style, ok := hintStyles[string(t.Segment.Value(src))]
	return style, ok
}

// blockSpan is the first and last source offsets of the lines of n and
// the blocks in it; -1 when it has none.
func blockSpan(n ast.Node) (start, stop int) {
	start, stop = -1, -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || c.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		if l := c.Lines(); l != nil && l.Len() > 0 {
			if s := l.At(0).Start; start < 0 || s < start {
				start = s
			}
			if e := l.At(l.Len() - 1).Stop; e > stop {
				stop = e
			}
		}
		return ast.WalkContinue, nil
	})
	return start, stop
}

// lineEnd is the offset after the line ending of the line holding off.
func lineEnd(src []byte, off int) int {
	if off > 0 && off <= len(src) && src[off-1] == '\n' {
		return off
	}
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off < len(src) {
		off++
	}
	return off
}

// unquote drops a blockquote's marker from a line: up to three spaces,
// ">" and one space. A lazy continuation line has none and stays.
func unquote(line string) string {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 || !strings.HasPrefix(s, ">") {
		return line
	}
	s = s[1:]
	if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\t") {
		s = s[1:]
	}
	return s
}

// lineStart is the offset where the line holding off starts.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}
