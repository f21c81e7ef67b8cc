package render

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// ictx is where inline content is written.
type ictx int

const (
	ctxPara    ictx = iota // a paragraph below the top level
	ctxTop                 // a top-level paragraph: images alone would be an images block
	ctxHeading             // an ATX heading: one line, trailing "#"s would close it
	ctxCell                // a table cell: one line, "|" ends it
)

// writeMode is how carefully inline content is written. Each is tried in
// turn until markdown reads back as what was written (checkInline).
type writeMode int

const (
	modeNatural    writeMode = iota // "*italic*", escapes only where needed
	modeUnderscore                  // "_italic_", so it never joins a "**"
	modeSafe                        // every punctuation escaped, no line breaks, and the characters next to "_", "**" and "~~" written so they always open and close
)

// inlineMD writes spans in ctx in the first mode that reads back.
func inlineMD(spans []span, ctx ictx) string {
	spans = normalize(spans)
	var s, prev string
	for mode := modeNatural; mode <= modeSafe; mode++ {
		s = (&iwriter{ctx: ctx, mode: mode}).write(spans)
		if mode > modeNatural && s == prev {
			continue
		}
		if checkInline(s, spans, ctx) {
			return s
		}
		prev = s
	}
	return s
}

// checkInline reports whether s, written in ctx, reads back as want.
func checkInline(s string, want []span, ctx ictx) bool {
	src := s
	switch ctx {
	case ctxHeading:
		src = "# " + s
	case ctxCell:
		src = "| x |\n| --- |\n| " + s + " |"
	}
	c := &converter{src: []byte(src)}
	doc := docParser.Parse(text.NewReader(c.src))
	n := doc.FirstChild()
	if n == nil || n.NextSibling() != nil {
		return false
	}
	switch ctx {
	case ctxHeading:
		if _, ok := n.(*ast.Heading); !ok {
			return false
		}
	case ctxCell:
		t, ok := n.(*east.Table)
		if !ok || t.FirstChild().NextSibling() == nil || t.FirstChild().NextSibling().NextSibling() != nil {
			return false
		}
		n = t.FirstChild().NextSibling().FirstChild()
	default:
		if _, ok := n.(*ast.Paragraph); !ok || ctx == ctxTop && c.images(n) != nil {
			return false
		}
	}
	var got []span
	return spansMD(&got, c.inlines(n, nil), nil) == nil && equalSpans(normalize(got), want)
}

func imageMD(s span) string { return inlineMD([]span{s}, ctxPara) }

type iwriter struct {
	b         strings.Builder
	ctx       ictx
	mode      writeMode
	plain     bool       // writing what Document reads as plain text: alt text, a column title
	stack     []openMark // the marks open, outermost first
	lineStart bool       // nothing written yet on this line
}

type openMark struct{ name, delim string }

func (w *iwriter) write(spans []span) string {
	w.lineStart = true
	images := w.ctx == ctxTop && !slices.ContainsFunc(spans, func(s span) bool { return s.kind != spanImage }) ||
		(w.ctx == ctxTop || w.ctx == ctxPara) && len(spans) == 1 && spans[0].kind == spanMath
	if images { // alone they would be an images or math block; emphasis, marking no text, keeps them a paragraph
		w.b.WriteString("*")
	}
	w.seq(spans, 0, true)
	if images {
		w.b.WriteString("*")
	}
	return w.b.String()
}

// step is what changes before a span: the marks kept open, then those
// opened.
type step struct {
	keep int
	open []string
}

// seq writes spans, leaving the first base marks open; end says they end
// the paragraph, heading or cell.
func (w *iwriter) seq(spans []span, base int, end bool) {
	cur := make([]string, len(w.stack))
	for i, m := range w.stack {
		cur[i] = m.name
	}
	steps := make([]step, len(spans)+1)
	for i, s := range spans {
		switch s.kind {
		case spanText:
			em := emphasis(s.marks)
			k := max(commonPrefix(cur, em), base)
			steps[i] = step{keep: k, open: em[min(k, len(em)):]}
			cur = append(cur[:k:k], steps[i].open...)
		case spanLink: // marks stay open across a link only when all its text has them
			if w.auto(s) { // its marks are opened around it
				em := emphasis(s.kids[0].marks)
				k := max(commonPrefix(cur, em), base)
				steps[i] = step{keep: k, open: em[min(k, len(em)):]}
				cur = append(cur[:k:k], steps[i].open...)
				continue
			}
			k := max(keptOpen(cur, s.kids), base)
			steps[i] = step{keep: k}
			cur = cur[:k]
		default:
			steps[i] = step{keep: len(cur)}
		}
	}
	steps[len(spans)] = step{keep: base}
	for i, s := range spans {
		// White space only next to emphasis changes how it reads, not next to a mark's HTML tag.
		open := steps[i].open
		e := edges{before: w.boundary(steps[i]), opened: len(open) > 0 && emphasisMark(open[len(open)-1]), end: end && i == len(spans)-1}
		switch s.kind {
		case spanText:
			next := steps[i+1]
			e.closes = next.keep < len(w.stack) && emphasisMark(w.stack[len(w.stack)-1].name)
			e.after = e.closes || len(next.open) > 0
			if slices.Contains(s.marks, "code") {
				w.code(s.text)
			} else {
				w.text(s.text, e)
			}
		case spanLink:
			w.lineStart = false
			if w.auto(s) {
				w.b.WriteString("<" + s.kids[0].text + ">")
				continue
			}
			w.b.WriteString("[")
			w.seq(s.kids, len(w.stack), false)
			w.b.WriteString("](" + w.dest(s.target) + ")")
		case spanMath:
			w.lineStart = false
			w.b.WriteString("$$" + s.text + "$$")
		case spanExpression, spanButton, spanMention, spanIcon:
			w.tagSpan(s)
		case spanImage:
			w.lineStart = false
			w.b.WriteString("![")
			alt := &iwriter{ctx: w.ctx, mode: w.mode, plain: true}
			alt.text(s.alt, edges{})
			w.b.WriteString(alt.b.String() + "](" + w.dest(s.target) + ")")
		}
	}
	w.boundary(steps[len(spans)])
}

// boundary closes and opens marks, and reports whether it wrote any. A
// "*" italic next to a "**" would make one run of three, so it is "_" there.
func (w *iwriter) boundary(st step) bool {
	wrote, star := false, false
	for len(w.stack) > st.keep {
		m := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.b.WriteString(m.delim)
		wrote, star = true, strings.HasSuffix(m.delim, "*")
	}
	for i, name := range st.open {
		d, end := markDelims(name)
		if name == "italic" && (w.mode != modeNatural || star || i+1 < len(st.open) && st.open[i+1] == "bold") {
			d, end = "_", "_"
		}
		w.stack = append(w.stack, openMark{name, end})
		w.b.WriteString(d)
		wrote, star = true, strings.HasSuffix(d, "*")
	}
	if wrote {
		w.lineStart = false
	}
	return wrote
}

// edges says what is written around a text: before, marks closed or
// opened (opened: some opened); after, marks closed (closes: some closed)
// or opened; end: nothing, the paragraph, heading or cell ends.
type edges struct{ before, opened, after, closes, end bool }

// text writes s escaped. A mark's "*" or "_" opens only before, and closes
// only after, something other than white space, so white space there is a
// character reference; in safe mode so is any character next to a mark
// that is not escaped punctuation. Trailing space, dropped at the end of a
// paragraph, heading or cell, is one too.
func (w *iwriter) text(s string, e edges) {
	safe := w.mode == modeSafe
	blank := safe && strings.TrimFunc(s, unicode.IsSpace) == "" // between images it must not be white space
	para := w.ctx == ctxPara || w.ctx == ctxTop
	breaks := para && !w.plain && !safe
	lastAt := len(s) - 1 // the character before what follows, as the parser decodes it
	for lastAt > 0 && !utf8.RuneStart(s[lastAt]) {
		lastAt--
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		last := i+size == len(s)
		next, prev := rune(-1), rune(-1)
		if !last {
			next, _ = utf8.DecodeRuneInString(s[i+size:])
		}
		if i > 0 {
			prev, _ = utf8.DecodeLastRuneInString(s[:i])
		}
		inner := i == 0 && e.opened || i == lastAt && e.closes
		edge := safe && (i == 0 && e.before || i == lastAt && e.after)
		start := w.lineStart
		w.lineStart = false
		switch {
		case r == 0 && w.plain: // text would read it as U+FFFD, code as it is
			j := i
			for j < len(s) && s[j] == 0 {
				j++
			}
			w.b.WriteString("`" + s[i:j] + "`")
			i = j
			continue
		case r == utf8.RuneError && size == 1:
			w.b.WriteByte(s[i])
		case r == '\n' && breaks && !start && !last && next != '\n':
			w.b.WriteString("\\\n") // a hard line break
			w.lineStart = true
		case r == '~' && i == lastAt && e.after: // "~" before "~~" would stop it being one
			w.b.WriteString("&#126;")
		case safe && r < utf8.RuneSelf && (unicode.IsPunct(r) || unicode.IsSymbol(r)):
			w.b.WriteString("\\" + string(r))
		case r == '\n' || r == '\r' || r == '\v' || r == '\f',
			unicode.IsSpace(r) && (inner || start || last && e.end || blank),
			edge:
			fmt.Fprintf(&w.b, "&#%d;", r)
		case start && para && (strings.ContainsRune("#>-+=|:~`*_<[\\", r) || r == '{' && (documentTag(firstLine(s[i:])) || containerTagAhead(s[i:]))): // what would start a block
			w.b.WriteString("\\" + string(r))
		case start && para && '0' <= r && r <= '9':
			j := i
			for j < len(s) && '0' <= s[j] && s[j] <= '9' {
				j++
			}
			if j-i <= 9 && j < len(s) && (s[j] == '.' || s[j] == ')') { // an ordered list item
				w.b.WriteString(s[i:j] + "\\" + s[j:j+1])
				i = j + 1
				continue
			}
			w.b.WriteRune(r)
		case strings.ContainsRune("\\`*[]~", r),
			r == '$' && (next == '$' || prev == '$'), // "$$" opens math
			r == '_' && !(isAlnum(prev) && isAlnum(next)),
			r == '<' && (last || next == '/' || next == '!' || next == '?' || next < utf8.RuneSelf && unicode.IsLetter(next)),
			r == '&' && entityLike(s[i:]),
			r == '!' && last,
			r == '|' && w.ctx == ctxCell,
			r == '#' && w.ctx == ctxHeading && last && e.end:
			w.b.WriteString("\\" + string(r))
		default:
			w.b.WriteString(s[i : i+size])
		}
		i += size
	}
}

// code writes a code span: a run of backticks longer than any in it, padded
// with a space when it starts or ends with a backtick, or with a space at
// each end (one of which would be dropped).
func (w *iwriter) code(t string) {
	w.lineStart = false
	fence := strings.Repeat("`", longestRun(t, '`')+1)
	pad := t[0] == '`' || t[len(t)-1] == '`' ||
		(t[0] == ' ' || t[0] == '\n') && (t[len(t)-1] == ' ' || t[len(t)-1] == '\n') && !util.IsBlank([]byte(t))
	if w.ctx == ctxCell {
		t = strings.ReplaceAll(t, "|", `\|`)
	}
	if pad {
		t = " " + t + " "
	}
	w.b.WriteString(fence + t + fence)
}

// dest writes a link destination so that decode reads it back: in angle
// brackets when it has a space or unbalanced parentheses, "&" before what
// looks like a character reference as "&amp;".
func (w *iwriter) dest(t string) string {
	angle := t == "" || strings.ContainsRune(t, ' ') || !balanced(t)
	var b strings.Builder
	if angle {
		b.WriteByte('<')
	}
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		switch {
		case r == '\\' || r == '<' || r == '>' || r == '|' && w.ctx == ctxCell:
			b.WriteString("\\" + string(r))
		case r == '&' && entityLike(t[i:]):
			b.WriteString("&amp;")
		case r < ' ' && r != 0 || r == 0x7f:
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteString(t[i : i+size])
		}
		i += size
	}
	if angle {
		b.WriteByte('>')
	}
	return b.String()
}

// balanced reports whether the parentheses of t pair up (its backslashes
// are escaped, so none escapes a parenthesis).
func balanced(t string) bool {
	depth := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// entityLike reports whether s starts with what reads as a character
// reference: "&", an optional "#", letters or digits, ";".
func entityLike(s string) bool {
	i := 1
	if i < len(s) && s[i] == '#' {
		i++
	}
	j := i
	for j < len(s) && j < 40 && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	return j > i && j < len(s) && s[j] == ';'
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// emphasis is marks without code, which is written as a code span.
func emphasis(marks []string) []string {
	if n := len(marks); n > 0 && marks[n-1] == "code" {
		return marks[:n-1]
	}
	return marks
}

// emphasisMark reports whether mark m is written with emphasis delimiters,
// not HTML tags.
func emphasisMark(m string) bool { return m == "bold" || m == "italic" || m == "strikethrough" }

// keptOpen is how many of the marks open can stay open around spans: those
// all their text has.
func keptOpen(open []string, spans []span) int {
	k := len(open)
	for _, s := range spans {
		switch s.kind {
		case spanText:
			k = min(k, commonPrefix(open, emphasis(s.marks)))
		case spanLink:
			k = min(k, keptOpen(open, s.kids))
		}
	}
	return k
}

func commonPrefix(a, b []string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// auto reports whether link s is written "<target>": in natural mode when
// it can be (normalize leaves no link inside a link).
func (w *iwriter) auto(s span) bool {
	if w.ctx == ctxCell && len(s.kids) == 1 && strings.Contains(strings.ReplaceAll(s.kids[0].text, `\|`, ""), "|") {
		return false // it would end the cell
	}
	return w.mode == modeNatural && autolink(s)
}

// autolink reports whether link s can be written "<target>": its text, not
// code, reads back as an autolink to its target, as goldmark finds one.
func autolink(s span) bool {
	if len(s.kids) != 1 || s.kids[0].kind != spanText || slices.Contains(s.kids[0].marks, "code") {
		return false
	}
	t := s.kids[0].text
	line := []byte(t + ">")
	if n := util.FindEmailIndex(line); n >= 0 {
		return n == len(t) && s.target == "mailto:"+t
	}
	return util.FindURLIndex(line) == len(t) && s.target == t
}

// firstLine is s up to its first line ending.
func firstLine(s string) string {
	if i := strings.IndexAny(s, "\n\r"); i >= 0 {
		return s[:i]
	}
	return s
}
