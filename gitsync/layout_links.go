package gitsync

import (
	"html"
	"regexp"
	"sort"
	"strings"

	"github.com/quiredocs/quire/render"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// A stored body links to pages and files as /pages/<id> and /files/<id>
// (edit resolves what a writer types to those); in the folder they are
// relative paths. rewriteTargets translates every destination of a body:
// markdown links and images, and the paths GitBook's blocks carry in
// attributes ({% file src %}, {% embed url %}, {% content-ref url %},
// <img src>, <a href>).

// attrLinks finds the attributes that hold a destination in GitBook's
// block tags and in HTML: group 1 is what comes before the value, 2 the
// value, 3 the closing quote.
var attrLinks = regexp.MustCompile(`(\{%\s*(?:file|embed|content-ref)\s[^%\n]*?\b(?:src|url)=")([^"\n]*)(")|(<(?:img|a|source)\s[^>\n]*?\b(?:src|href)=")([^"\n]*)(")`)

var mdParser = goldmark.New().Parser()

// rewriteTargets replaces each destination of body for which to answers
// ok. Code is left as written: a link shown as an example is not a link.
func rewriteTargets(body string, to func(target string) (string, bool)) string {
	if body == "" {
		return body
	}
	repl := map[string]string{}
	for _, l := range render.Links(body) {
		if _, done := repl[l.Target]; done {
			continue
		}
		if n, ok := to(l.Target); ok && n != l.Target {
			repl[l.Target] = n
		}
	}
	body = render.RewriteLinks(body, repl)
	if !strings.Contains(body, `="`) {
		return body
	}
	code := codeRanges(body)
	return replaceOutside(body, code, func(s string) string {
		return attrLinks.ReplaceAllStringFunc(s, func(m string) string {
			g := attrLinks.FindStringSubmatch(m)
			pre, val, post := g[1], g[2], g[3]
			if pre == "" {
				pre, val, post = g[4], g[5], g[6]
			}
			n, ok := to(html.UnescapeString(val))
			if !ok {
				return m
			}
			return pre + html.EscapeString(n) + post
		})
	})
}

// replaceOutside applies f to the parts of s outside the sorted ranges.
func replaceOutside(s string, ranges [][2]int, f func(string) string) string {
	var b strings.Builder
	last := 0
	for _, r := range ranges {
		b.WriteString(f(s[last:r[0]]))
		b.WriteString(s[r[0]:r[1]])
		last = r[1]
	}
	b.WriteString(f(s[last:]))
	return b.String()
}

// codeRanges returns the sorted, disjoint byte ranges of md that hold code:
// code blocks with their fences, and code spans with their backticks.
func codeRanges(md string) [][2]int {
	src := []byte(md)
	doc := mdParser.Parse(text.NewReader(src))
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
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			start, stop := -1, -1
			if lines.Len() > 0 {
				start, stop = lines.At(0).Start, lines.At(lines.Len()-1).Stop
			}
			if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
				if start < 0 || f.Info.Segment.Start < start {
					start = f.Info.Segment.Start
				}
				if stop < f.Info.Segment.Stop {
					stop = f.Info.Segment.Stop
				}
			}
			if start >= 0 {
				add(lineStart(src, start), stop)
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			if start, stop, ok := render.CodeSpanBounds(src, n); ok {
				add(start, stop)
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

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// splitTarget cuts a destination into its path and what follows it
// ("#fragment" or "?query…", with the separator).
func splitTarget(t string) (p, rest string) {
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		return t[:i], t[i:]
	}
	return t, ""
}
