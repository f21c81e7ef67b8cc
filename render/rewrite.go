package render

import (
	"html"
	"regexp"
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
	return replaceOutside(markdown, codeRanges(markdown, true), r.Replace)
}

// attrLinks finds the attributes that hold a destination in GitBook's
// block tags and in HTML: group 1 is what comes before the value, 2 the
// value, 3 the closing quote (4 to 6 the same for HTML).
var attrLinks = regexp.MustCompile(`(\{%\s*(?:file|embed|content-ref)\s[^%\n]*?\b(?:src|url)=")([^"\n]*)(")|(<(?:img|a|source)\s[^>\n]*?\b(?:src|href)=")([^"\n]*)(")`)

// RewriteTargets replaces each destination of markdown for which to
// answers ok: those of markdown links and images (as RewriteLinks), and
// the paths GitBook's blocks and HTML carry in attributes ({% file src %},
// {% embed url %}, {% content-ref url %}, <img src>, <a href>, <source
// src>), which to sees decoded and which are written back escaped. Code is
// left as written: a link shown as an example is not a link.
func RewriteTargets(markdown string, to func(target string) (string, bool)) string {
	if markdown == "" {
		return markdown
	}
	repl := map[string]string{}
	for _, l := range Links(markdown) {
		if _, done := repl[l.Target]; done {
			continue
		}
		if n, ok := to(l.Target); ok && n != l.Target {
			repl[l.Target] = n
		}
	}
	markdown = RewriteLinks(markdown, repl)
	if !strings.Contains(markdown, `="`) {
		return markdown
	}
	return replaceOutside(markdown, codeRanges(markdown, false), func(s string) string {
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

// replaceOutside applies f to the parts of s outside the sorted, disjoint
// ranges.
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

// codeRanges returns the sorted, disjoint byte ranges of markdown that hold
// code, fences and backticks included, and with rawHTML raw HTML too.
func codeRanges(markdown string, rawHTML bool) [][2]int {
	src := []byte(markdown)
	doc := parser.Parse(text.NewReader(src))
	var ranges [][2]int
	add := func(start, stop int) {
		if start < stop {
			ranges = append(ranges, [2]int{start, stop})
		}
	}
	addLines := func(n ast.Node) {
		if lines := n.Lines(); lines.Len() > 0 {
			add(lineStart(src, lines.At(0).Start), lines.At(lines.Len()-1).Stop)
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			addLines(n)
			if n.Info != nil {
				add(lineStart(src, n.Info.Segment.Start), n.Info.Segment.Stop)
			}
		case *ast.CodeBlock:
			addLines(n)
		case *ast.HTMLBlock:
			if rawHTML {
				addLines(n)
			}
		case *ast.CodeSpan:
			if start, stop, ok := CodeSpanBounds(src, n); ok {
				add(start, stop)
			}
		case *ast.RawHTML:
			for i := 0; rawHTML && i < n.Segments.Len(); i++ {
				s := n.Segments.At(i)
				add(s.Start, s.Stop)
			}
		default:
			return ast.WalkContinue, nil
		}
		return ast.WalkSkipChildren, nil
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
