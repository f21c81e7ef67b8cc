package render

import (
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// RewriteLinks replaces link destinations written exactly as a key of repl
// — "](target)", "](target "title")", "](<target>)" or a "[label]: target"
// definition — with the key's value. Code spans, code blocks and raw HTML
// are left as written: a link shown as an example is not a link.
func RewriteLinks(markdown string, repl map[string]string) string {
	if len(repl) == 0 {
		return markdown
	}
	var pairs []string
	for from, to := range repl {
		pairs = append(pairs,
			"]("+from+")", "]("+to+")",
			"]("+from+" ", "]("+to+" ",
			"](<"+from+">)", "](<"+to+">)",
			"]: "+from+"\n", "]: "+to+"\n",
			"]: "+from+" ", "]: "+to+" ")
	}
	r := strings.NewReplacer(pairs...)
	var b strings.Builder
	last := 0
	for _, c := range codeRanges(markdown) {
		b.WriteString(r.Replace(markdown[last:c[0]]))
		b.WriteString(markdown[c[0]:c[1]])
		last = c[1]
	}
	b.WriteString(r.Replace(markdown[last:]))
	return b.String()
}

// codeRanges returns the sorted, disjoint byte ranges of markdown that hold
// code or raw HTML, fences and backticks included.
func codeRanges(markdown string) [][2]int {
	src := []byte(markdown)
	doc := parser.Parse(text.NewReader(src))
	var ranges [][2]int
	add := func(start, stop int) {
		if start < stop {
			ranges = append(ranges, [2]int{start, stop})
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			lines := n.Lines()
			if lines.Len() > 0 {
				add(lineStart(src, lines.At(0).Start), lines.At(lines.Len()-1).Stop)
			}
			if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
				add(lineStart(src, f.Info.Segment.Start), f.Info.Segment.Stop)
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if start, stop, ok := CodeSpanBounds(src, n); ok {
				add(start, stop)
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				s := n.Segments.At(i)
				add(s.Start, s.Stop)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] < ranges[j][0] })
	merged := ranges[:0]
	for _, r := range ranges {
		if n := len(merged); n > 0 && r[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// lineStart is the offset where the line holding off starts.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// CodeSpanBounds is where code span n stands in src, its backticks
// included; false when it holds no text.
func CodeSpanBounds(src []byte, n *ast.CodeSpan) (start, stop int, ok bool) {
	start, stop = -1, -1
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			if start < 0 {
				start = t.Segment.Start
			}
			stop = t.Segment.Stop
		}
	}
	if start < 0 {
		return 0, 0, false
	}
	for start > 0 && src[start-1] == '`' {
		start--
	}
	for stop < len(src) && src[stop] == '`' {
		stop++
	}
	return start, stop, true
}
