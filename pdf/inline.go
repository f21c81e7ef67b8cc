package pdf

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quiredocs/quire/render"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Text sizes, in points.
const (
	bodySize  = 10.5
	codeSize  = 8.8
	smallSize = 9.0
	titleSize = 22.0
)

// lineHeight is the height of a line of text of size.
func lineHeight(size float64) float64 { return size * 1.45 }

// style is how a run of text looks and where it links.
type style struct {
	bold, italic, mono bool
	strike             bool
	size               float64
	color              rgb
	bg                 rgb
	hasBg              bool
	link               link
}

// face is the font of st: bold over italic, as there is no bold italic.
func (st style) face() font {
	switch {
	case st.mono:
		return fontMono
	case st.bold:
		return fontBold
	case st.italic:
		return fontItalic
	}
	return fontRegular
}

// link is where text links: a URL, or an anchor of the document.
type link struct{ url, anchor string }

func (k link) ok() bool { return k.url != "" || k.anchor != "" }

// run is text in one style; "\n" alone is a line break.
type run struct {
	text string
	st   style
}

// frag is a run's part on one line, at x from the line's start.
type frag struct {
	text string
	st   style
	x, w float64
	sp   bool // white space, where a line may break
}

// body is the style of body text.
func body() style { return style{size: bodySize, color: black} }

// inlines are the runs of inline node n's children, in style st.
func (w *writer) inlines(n ast.Node, st style) []run {
	var runs []run
	var walk func(parent ast.Node, st style)
	walk = func(parent ast.Node, st style) {
		for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				runs = append(runs, run{cleanText(render.DecodeText(c.Segment.Value(w.md))), st})
				if c.HardLineBreak() {
					runs = append(runs, run{"\n", st})
				} else if c.SoftLineBreak() {
					runs = append(runs, run{" ", st})
				}
			case *ast.String:
				runs = append(runs, run{cleanText(string(c.Value)), st})
			case *ast.CodeSpan:
				var b strings.Builder
				for t := c.FirstChild(); t != nil; t = t.NextSibling() {
					if t, ok := t.(*ast.Text); ok {
						b.Write(t.Segment.Value(w.md))
					}
				}
				s := st
				s.mono, s.size, s.bg, s.hasBg = true, st.size*0.9, spanFill, true
				runs = append(runs, run{cleanText(strings.ReplaceAll(b.String(), "\n", " ")), s})
			case *ast.Emphasis:
				s := st
				if c.Level >= 2 {
					s.bold = true
				} else {
					s.italic = true
				}
				walk(c, s)
			case *east.Strikethrough:
				s := st
				s.strike = true
				walk(c, s)
			case *ast.Link:
				walk(c, w.linkStyle(st, render.DecodeText(c.Destination)))
			case *ast.AutoLink:
				u := string(c.URL(w.md))
				if c.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
					u = "mailto:" + u
				}
				runs = append(runs, run{cleanText(string(c.Label(w.md))), w.linkStyle(st, u)})
			case *ast.Image:
				// An image among text is its alt text: laying out images
				// inside lines is not done.
				if alt := render.InlineText(c, w.md); alt != "" {
					s := st
					s.italic, s.color = true, grey
					runs = append(runs, run{cleanText(alt), s})
				}
			case *ast.RawHTML:
				if isBreak(c, w.md) {
					runs = append(runs, run{"\n", st})
				}
			case *east.TaskCheckBox:
				box := "☐ "
				if c.IsChecked {
					box = "☑ "
				}
				runs = append(runs, run{box, st})
			case *east.FootnoteLink:
				s := st
				s.size, s.color = st.size*0.75, linkBlue
				if a := footnoteAnchor(w.page, c.Index); w.anchors[a] {
					s.link = link{anchor: a}
				}
				runs = append(runs, run{"[" + strconv.Itoa(c.Index) + "]", s})
			case *east.FootnoteBacklink:
			default:
				if f, ok := render.MathOf(c, w.md); ok { // TeX as written, in a monospace font
					s := st
					s.mono, s.size = true, st.size*0.9
					runs = append(runs, run{cleanText(f), s})
					continue
				}
				walk(c, st)
			}
		}
	}
	walk(n, st)
	return runs
}

// linkStyle is st linking to dest, blue when the link goes somewhere.
func (w *writer) linkStyle(st style, dest string) style {
	if k := w.linkTo(dest); k.ok() {
		st.link, st.color = k, linkBlue
	}
	return st
}

// isBreak reports whether raw HTML n is "<br>", a line break in GitBook's
// table cells.
func isBreak(n *ast.RawHTML, src []byte) bool {
	if n.Segments.Len() != 1 {
		return false
	}
	seg := n.Segments.At(0)
	v := strings.ToLower(strings.ReplaceAll(string(seg.Value(src)), " ", ""))
	return v == "<br>" || v == "<br/>"
}

// cleanText makes text drawable: tabs and other control characters are
// spaces.
func cleanText(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// wrap breaks runs into lines of at most width, at spaces, and within a
// word only when the word alone is wider than a line.
func (w *writer) wrap(runs []run, width float64) [][]frag {
	var lines [][]frag
	var cur []frag
	x := 0.0
	flush := func() {
		for len(cur) > 0 && cur[len(cur)-1].sp {
			cur = cur[:len(cur)-1]
		}
		lines = append(lines, merge(cur))
		cur, x = nil, 0
	}
	for _, r := range runs {
		if r.text == "\n" {
			flush()
			continue
		}
		f := r.st.face()
		for _, tok := range tokens(r.text) {
			if tok == " " {
				if len(cur) > 0 {
					sw := w.m.width(f, " ", r.st.size)
					cur = append(cur, frag{text: " ", st: r.st, x: x, w: sw, sp: true})
					x += sw
				}
				continue
			}
			tw := w.m.width(f, tok, r.st.size)
			if x+tw > width && len(cur) > 0 {
				// Break at the last space; what follows it goes on.
				i := len(cur) - 1
				for i >= 0 && !cur[i].sp {
					i--
				}
				var carry []frag
				if i >= 0 {
					carry = append(carry, cur[i+1:]...)
					cur = cur[:i+1]
				}
				flush()
				for _, c := range carry {
					c.x = x
					cur = append(cur, c)
					x += c.w
				}
			}
			if tw > width-x && utf8.RuneCountInString(tok) > 1 {
				w.cut(tok, r.st, width, &cur, &x, flush)
				continue
			}
			cur = append(cur, frag{text: tok, st: r.st, x: x, w: tw})
			x += tw
		}
	}
	if len(cur) > 0 || len(lines) == 0 {
		flush()
	}
	return lines
}

// cut appends text in style st to line, which ends at *x, cutting it
// between characters where it reaches width; flush ends a line (and sets
// *x to 0). Each character is measured once: a word of a million
// characters costs a million measures, not a million squared.
func (w *writer) cut(text string, st style, width float64, line *[]frag, x *float64, flush func()) {
	f := st.face()
	start, pw := 0, 0.0 // the piece being built: its start, its width
	for i, r := range text {
		rw := w.m.width(f, string(r), st.size)
		if *x+pw+rw > width && (i > start || len(*line) > 0) {
			if i > start {
				*line = append(*line, frag{text: text[start:i], st: st, x: *x, w: pw})
			}
			flush()
			start, pw = i, 0
		}
		pw += rw
	}
	if start < len(text) {
		*line = append(*line, frag{text: text[start:], st: st, x: *x, w: pw})
		*x += pw
	}
}

// fit is the longest head of word that fits in width, and the rest.
func (w *writer) fit(word string, f font, size, width float64) (head, rest string) {
	x := 0.0
	for i, r := range word {
		x += w.m.width(f, string(r), size)
		if x > width {
			return word[:i], word[i:]
		}
	}
	return word, ""
}

// tokens splits text into words and single spaces standing for each run
// of white space.
func tokens(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexFunc(s, unicode.IsSpace)
		switch {
		case i < 0:
			return append(out, s)
		case i > 0:
			out = append(out, s[:i])
		}
		s = strings.TrimLeftFunc(s[i:], unicode.IsSpace)
		out = append(out, " ")
	}
	return out
}

// merge joins neighbouring fragments of the same style, so that a line is
// drawn in as few pieces as its styles allow.
func merge(frags []frag) []frag {
	var out []frag
	for _, f := range frags {
		if n := len(out); n > 0 && out[n-1].st == f.st {
			out[n-1].text += f.text
			out[n-1].w = f.x + f.w - out[n-1].x
			continue
		}
		f.sp = false
		out = append(out, f)
	}
	return out
}

// paragraph places runs as lines in the text's width, aligned left, or
// centred.
func (w *writer) paragraph(runs []run, centre bool) {
	for _, line := range w.wrap(runs, w.width()) {
		w.placeLine(line, centre)
	}
}

// placeLine places one line of fragments at y, and the waiting list
// marker beside it.
func (w *writer) placeLine(line []frag, centre bool) {
	h := lineHeight(lineSize(line))
	w.ensure(h)
	x0 := w.left
	if centre {
		x0 += (w.width() - lineWidth(line)) / 2
	}
	if m := w.marker; m != nil {
		size := lineSize(line)
		base := w.y + (h-size)/2 + size*0.8
		mw := w.m.width(m.font, m.text, m.size)
		w.add(op{kind: opText, x: m.x - mw, y: base, text: m.text, font: m.font, size: m.size, color: black})
		w.marker = nil
	}
	w.drawLine(line, x0, w.y, h)
	w.y += h
}

// lineSize is the largest text size of a line.
func lineSize(line []frag) float64 {
	if len(line) == 0 {
		return bodySize
	}
	size := 0.0
	for _, f := range line {
		size = max(size, f.st.size)
	}
	return size
}

// lineWidth is the width a line's text takes.
func lineWidth(line []frag) float64 {
	if len(line) == 0 {
		return 0
	}
	last := line[len(line)-1]
	return last.x + last.w
}

// drawLine draws a line of fragments from x0, in the line box at y of
// height h.
func (w *writer) drawLine(line []frag, x0, y, h float64) {
	size := lineSize(line)
	base := y + (h-size)/2 + size*0.8
	for _, f := range line {
		if f.st.hasBg {
			w.add(op{kind: opRect, x: x0 + f.x - 1, y: base - f.st.size*0.85, w: f.w + 2, h: f.st.size * 1.15, color: f.st.bg})
		}
	}
	for _, f := range line {
		x := x0 + f.x
		w.add(op{kind: opText, x: x, y: base, text: f.text, font: f.st.face(), size: f.st.size, color: f.st.color})
		if f.st.strike {
			w.add(op{kind: opLine, x: x, y: base - f.st.size*0.3, w: f.w, color: f.st.color})
		}
		if k := f.st.link; k.ok() {
			w.add(op{kind: opLink, x: x, y: y, w: f.w, h: h, url: k.url, anchor: k.anchor})
		}
	}
}
