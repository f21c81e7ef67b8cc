package pdf

import (
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/quiredocs/quire/render"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// headingSizes are the sizes of headings by level, 1 to 6.
var headingSizes = [7]float64{0, 18, 15, 12.5, 11.5, 10.5, 10.5}

// hintColours are the fill and bar of each hint style.
var hintColours = map[string][2]rgb{
	"info":    {{0xe8, 0xf1, 0xfd}, {0x2f, 0x6f, 0xde}},
	"success": {{0xe6, 0xf6, 0xec}, {0x1a, 0x7f, 0x37}},
	"warning": {{0xfd, 0xf4, 0xe1}, {0xbf, 0x87, 0x00}},
	"danger":  {{0xfd, 0xeb, 0xec}, {0xcf, 0x22, 0x2e}},
}

// blocks places the blocks that are children of parent.
func (w *writer) blocks(parent ast.Node) {
	for n := parent.FirstChild(); n != nil && w.err == nil; n = n.NextSibling() {
		w.block(n)
	}
}

// block places one block.
func (w *writer) block(n ast.Node) {
	if err := w.ctx.Err(); err != nil && w.err == nil {
		w.err = err
	}
	if w.err != nil {
		return
	}
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if w.imagesOnly(n) {
			return
		}
		w.paragraph(w.inlines(n, body()), false)
		if _, tight := n.(*ast.TextBlock); !tight {
			w.space(6)
		}
	case *ast.Heading:
		w.heading(n)
	case *ast.ThematicBreak:
		w.ensure(12)
		w.space(4)
		w.add(op{kind: opLine, x: w.left, y: w.y + 4, w: w.width(), color: lightGrey})
		w.y += 12
	case *ast.List:
		w.list(n)
	case *ast.Blockquote:
		w.openBox(&box{bar: lightGrey, hasBar: true}, boxIndent, 0)
		w.blocks(n)
		w.y -= 6
		w.closeBox()
		w.space(6)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		w.code(n, "", false)
	case *east.Table:
		w.table(n)
	case *east.FootnoteList:
		w.footnotes(n)
	case *ast.HTMLBlock:
		// Raw HTML is not shown, as on the published pages.
	default:
		if b, ok := render.BlockOf(n); ok {
			w.gitbookBlock(n, b)
			return
		}
		if _, ok := render.MathOf(n, w.md); ok { // a block of math: its TeX, as code
			w.code(n, "", false)
			return
		}
		w.blocks(n)
	}
}

// heading places a heading, with the anchor links to it reach, on the
// sheet of the lines that follow it.
func (w *writer) heading(n *ast.Heading) {
	size := headingSizes[min(max(n.Level, 1), 6)]
	st := style{bold: true, size: size, color: black}
	if n.Level >= 5 {
		st.color = grey
	}
	lines := w.wrap(w.inlines(n, st), w.width())
	w.space(size * 0.6)
	w.ensure(float64(len(lines))*lineHeight(size) + 3*lineHeight(bodySize))
	if id, ok := n.AttributeString("id"); ok {
		if id, ok := id.(string); ok {
			w.add(op{kind: opAnchor, y: w.y, anchor: headingAnchor(w.page, id)})
		}
	}
	for _, l := range lines {
		w.placeLine(l, false)
	}
	w.space(size * 0.3)
}

// list places a list's items, each with its bullet or number.
func (w *writer) list(n *ast.List) {
	num := n.Start
	if num == 0 && n.IsOrdered() {
		num = 1
	}
	indent := w.indent(18)
	for it := n.FirstChild(); it != nil && w.err == nil; it = it.NextSibling() {
		mark := "•"
		if n.IsOrdered() {
			mark = strconv.Itoa(num) + string(n.Marker)
			num++
		}
		w.marker = &marker{text: mark, x: w.left - 5, font: fontRegular, size: bodySize}
		if it.FirstChild() == nil {
			w.placeLine(nil, false)
		}
		w.blocks(it)
		w.marker = nil
	}
	w.left -= indent
	if _, nested := n.Parent().(*ast.ListItem); !nested {
		w.space(6)
	}
}

// indent moves the left edge in by up to dx, keeping at least a narrow
// column, and returns how far it moved.
func (w *writer) indent(dx float64) float64 {
	dx = min(dx, max(0, w.width()-minColumn))
	w.left += dx
	return dx
}

// minColumn is the narrowest text nesting leaves.
const minColumn = 120.0

// code places a code block: its lines in a monospace font on a shaded
// box, highlighted when its language is known, with line numbers when
// asked for.
func (w *writer) code(n ast.Node, title string, numbers bool) {
	var lang string
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(w.md))
	}
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(w.md))
	}
	src := strings.TrimSuffix(b.String(), "\n")
	tokens := render.Highlight(lang, src, &w.highlight)
	if tokens == nil {
		tokens = []chroma.Token{{Type: chroma.Text, Value: src}}
	}
	w.openCodeBox(title)
	// Lines of runs, each token its colour.
	var runs []run
	lineNo := 1
	start := true
	st := style{mono: true, size: codeSize, color: black}
	num := style{mono: true, size: codeSize, color: grey}
	for _, t := range tokens {
		s := st
		if e := codeStyle.Get(t.Type); e.Colour.IsSet() {
			s.color = rgb{e.Colour.Red(), e.Colour.Green(), e.Colour.Blue()}
		}
		for v := t.Value; v != ""; {
			if numbers && start {
				runs = append(runs, run{strconv.Itoa(lineNo) + "  ", num})
				lineNo++
			}
			part := v
			if i := strings.IndexByte(v, '\n'); i >= 0 {
				part = v[:i+1]
			}
			v = v[len(part):]
			start = strings.HasSuffix(part, "\n")
			text := strings.ReplaceAll(strings.TrimSuffix(part, "\n"), "\t", "    ")
			if text != "" {
				runs = append(runs, run{cleanText(text), s})
			}
			if start {
				runs = append(runs, run{"\n", s})
			}
		}
	}
	w.codeLines(runs)
	w.closeBox()
	w.space(8)
}

// codeStyle colours highlighted code.
var codeStyle = styles.Get("github")

// openCodeBox opens the shaded box of code, under a title bar when the
// code has a title.
func (w *writer) openCodeBox(title string) {
	if title != "" {
		w.ensure(lineHeight(smallSize) + 4*lineHeight(codeSize))
		h := lineHeight(smallSize) + 6
		w.add(op{kind: opRect, x: w.left, y: w.y, w: w.width(), h: h, color: lightGrey})
		w.add(op{kind: opText, x: w.left + boxPadding, y: w.y + 3 + smallSize, text: cleanText(title), font: fontBold, size: smallSize, color: black})
		w.y += h
	}
	w.openBox(&box{fill: codeFill, hasFill: true, border: lightGrey, hasBorder: true}, boxPadding, boxPadding)
}

// codeLines places lines of code, keeping spaces as written: code
// breaks only where a line is wider than the box.
func (w *writer) codeLines(runs []run) {
	// Spaces matter in code: each is a character of a fixed width, so a
	// line is cut by width only, never at spaces.
	var line []frag
	x := 0.0
	width := w.width()
	flush := func() { w.placeLine(merge(line), false); line, x = nil, 0 }
	for _, r := range runs {
		if r.text == "\n" {
			flush()
			continue
		}
		if tw := w.m.width(fontMono, r.text, r.st.size); x+tw <= width {
			line = append(line, frag{text: r.text, st: r.st, x: x, w: tw})
			x += tw
		} else {
			w.cut(r.text, r.st, width, &line, &x, flush)
		}
		if w.err != nil {
			return
		}
	}
	if len(line) > 0 || len(runs) == 0 || runs[len(runs)-1].text != "\n" {
		flush()
	}
}

// gitbookBlock places a GitBook block: a hint as a shaded box with its
// label, tabs as titled sections, a code block under its title, an
// expandable open, an embed as a card with its link, a figure as its image
// and caption.
func (w *writer) gitbookBlock(n ast.Node, b render.Block) {
	switch b.Kind {
	case render.BlockHint:
		style, label := render.HintStyle(b.Attrs)
		c := hintColours[style]
		w.openBox(&box{fill: c[0], hasFill: true, bar: c[1], hasBar: true}, boxIndent, boxPadding)
		w.paragraph([]run{{cleanText(label), style2(c[1])}}, false)
		w.space(2)
		w.blocks(n)
		w.y -= 6 // the last paragraph's space after
		w.closeBox()
		w.space(8)
	case render.BlockTabs:
		for t := n.FirstChild(); t != nil && w.err == nil; t = t.NextSibling() {
			tb, ok := render.BlockOf(t)
			if !ok || tb.Kind != render.BlockTab {
				w.block(t)
				continue
			}
			w.ensure(lineHeight(bodySize) * 4)
			w.openBox(&box{border: lightGrey, hasBorder: true}, boxPadding, boxPadding)
			w.paragraph([]run{{cleanText(tb.Attrs["title"]), style{bold: true, size: bodySize, color: black}}}, false)
			w.add(op{kind: opLine, x: w.left - boxPadding, y: w.y + 2, w: w.width() + 2*boxPadding, color: lightGrey})
			w.y += 8
			w.blocks(t)
			w.y -= 6
			w.closeBox()
			w.space(6)
		}
	case render.BlockCode:
		numbers := strings.EqualFold(b.Attrs["linenumbers"], "true")
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c.(type) {
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				w.code(c, b.Attrs["title"], numbers)
			default:
				w.block(c)
			}
		}
	case render.BlockDetails:
		w.openBox(&box{border: lightGrey, hasBorder: true}, boxPadding, boxPadding)
		for c := n.FirstChild(); c != nil && w.err == nil; c = c.NextSibling() {
			if cb, ok := render.BlockOf(c); ok && cb.Kind == render.BlockSummary {
				w.paragraph(append([]run{{"▾ ", body()}}, w.inlines(c, style{bold: true, size: bodySize, color: black})...), false)
				w.space(4)
				continue
			}
			w.block(c)
		}
		w.y -= 6
		w.closeBox()
		w.space(8)
	case render.BlockEmbed:
		w.embed(n, b)
	case render.BlockFigure:
		w.figure(n, b)
	case render.BlockSummary, render.BlockCaption:
		w.paragraph(w.inlines(n, body()), false)
	case render.BlockTab, render.BlockFigures:
		w.blocks(n)
	case render.BlockIf: // a reader of the space sees all adaptive content, as a member does
		w.blocks(n)
	}
}

// style2 is the bold label of a hint, in its colour.
func style2(c rgb) style { return style{bold: true, size: bodySize, color: c} }

// embed places an embedded URL or file as a card: its name, and the URL
// as a link.
func (w *writer) embed(n ast.Node, b render.Block) {
	dest := b.Attrs["url"]
	if b.Tag == "file" {
		dest = b.Attrs["src"]
	}
	k := w.linkTo(dest)
	name := embedName(dest)
	if w.src.Resolver != nil {
		if res := w.src.Resolver.Resolve(w.page, dest); res.Kind == render.KindFile && res.FileID != "" {
			if f := w.src.Tree.Files[res.FileID]; f != nil {
				name = f.Name
			}
		}
	}
	w.openBox(&box{border: lightGrey, hasBorder: true}, boxPadding, boxPadding)
	w.paragraph([]run{{cleanText(name), style{bold: true, size: bodySize, color: black, link: k}}}, false)
	w.paragraph([]run{{cleanText(dest), style{size: smallSize, color: grey, link: k}}}, false)
	if n.HasChildren() {
		w.space(4)
		w.blocks(n)
		w.y -= 6
	}
	w.closeBox()
	w.space(8)
}

// embedName is what an embed card is called: the URL's host, or the last
// segment of a path.
func embedName(dest string) string {
	rest, _, _ := strings.Cut(dest, "#")
	rest, _, _ = strings.Cut(rest, "?")
	if i := strings.Index(rest, "//"); i >= 0 {
		host, _, _ := strings.Cut(rest[i+2:], "/")
		return host
	}
	return rest[strings.LastIndex(rest, "/")+1:]
}

// footnotes places a page's footnotes, numbered, each an anchor for its
// references.
func (w *writer) footnotes(n ast.Node) {
	w.space(8)
	w.ensure(12 + 2*lineHeight(smallSize))
	w.add(op{kind: opLine, x: w.left, y: w.y, w: w.width() / 3, color: lightGrey})
	w.y += 6
	for c := n.FirstChild(); c != nil && w.err == nil; c = c.NextSibling() {
		fn, ok := c.(*east.Footnote)
		if !ok {
			continue
		}
		w.add(op{kind: opAnchor, y: w.y, anchor: footnoteAnchor(w.page, fn.Index)})
		indent := w.indent(18)
		w.marker = &marker{text: strconv.Itoa(fn.Index) + ".", x: w.left - 5, font: fontRegular, size: bodySize}
		w.blocks(fn)
		w.marker = nil
		w.left -= indent
	}
}
