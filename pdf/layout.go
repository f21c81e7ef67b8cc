package pdf

import (
	"context"
	"slices"
)

// Layout places content on pages as a display list (a sheet of operations
// per page) before anything is drawn: the table of contents needs the page
// numbers of what follows it, and a shaded box needs to know where its
// content ends, on each page it spans, before its text is drawn over it.

// A4, in points, and the margins of the text.
const (
	pageWidth    = 595.28
	pageHeight   = 841.89
	marginX      = 56.0
	marginTop    = 56.0
	marginBottom = 64.0
	footerY      = pageHeight - 36
	contentWidth = pageWidth - 2*marginX
)

// rgb is a colour.
type rgb struct{ r, g, b uint8 }

var (
	black     = rgb{0x1f, 0x23, 0x28}
	grey      = rgb{0x59, 0x63, 0x6e}
	lightGrey = rgb{0xd0, 0xd7, 0xde}
	linkBlue  = rgb{0x09, 0x69, 0xda}
	codeFill  = rgb{0xf6, 0xf8, 0xfa}
	spanFill  = rgb{0xef, 0xf1, 0xf3}
)

type opKind uint8

const (
	opText   opKind = iota // text at x, baseline y
	opRect                 // a filled rectangle (fill), or stroked (stroke true)
	opLine                 // a line from (x, y) to (x+w, y+h)
	opImage                // an image in the box x, y, w, h
	opLink                 // a link over the box: to url, or to anchor
	opAnchor               // an anchor at y, the destination of links
)

// op is one drawing operation; the fields used depend on kind.
type op struct {
	kind       opKind
	x, y, w, h float64
	text       string
	font       font
	size       float64
	color      rgb
	stroke     bool   // a rectangle's outline, not its area
	dotted     bool   // a dotted line
	url        string // a link's URL
	anchor     string // a link's or an anchor's name
	img        *image
	title      string // an anchor's bookmark, "" for none
	depth      int    // the bookmark's level
}

// sheet is one page of the display list.
type sheet struct{ ops []op }

// box is a block open on the pages it spans, drawn behind its content.
type box struct {
	fill, bar, border rgb
	hasFill, hasBar   bool
	hasBorder         bool
	x0, x1            float64 // its left and right edges
	dl, dr            float64 // how far in it moved the text's edges
	sheet, at         int     // where its part on the current sheet is drawn: sheet, index of op
	top               float64 // where that part starts
}

// layout is the state of placing content.
type layout struct {
	ctx    context.Context
	m      *metrics
	sheets []*sheet
	y      float64 // top of the next thing placed
	left   float64 // the left edge of text
	right  float64 // the right edge of text
	boxes  []*box  // open, outermost first
	marker *marker // a list item's marker, drawn with the next line
	// maxSheets bounds the pages; past it, layout stops with errTooLarge.
	maxSheets int
	// maxOps bounds the operations drawn; past it, layout stops with
	// errTooMuchDrawing. ops counts them.
	maxOps, ops int
	// flush, when set, takes each sheet as it is finished, which is then
	// dropped: a long document is drawn as it is laid out, holding one
	// sheet. starts notes the sheet each bookmarked anchor is on.
	flush  func(*sheet) error
	starts map[string]int
	err    error
}

// marker is a list item's bullet or number, waiting for its first line.
type marker struct {
	text string
	x    float64 // its right edge
	font font
	size float64
}

func newLayout(ctx context.Context, m *metrics, lim Limits) *layout {
	return &layout{ctx: ctx, m: m, left: marginX, right: pageWidth - marginX, maxSheets: lim.MaxPages, maxOps: lim.MaxDrawn,
		starts: map[string]int{}}
}

// width is the width text may take.
func (l *layout) width() float64 { return l.right - l.left }

// bottom is how low content may go.
func (l *layout) bottom() float64 { return pageHeight - marginBottom }

// cur is the sheet being filled, starting the first one when none is.
func (l *layout) cur() *sheet {
	if len(l.sheets) == 0 {
		l.newSheet()
	}
	return l.sheets[len(l.sheets)-1]
}

// add appends an operation to the current sheet.
func (l *layout) add(o op) {
	s := l.cur()
	s.ops = append(s.ops, o)
	if o.kind == opAnchor && o.title != "" {
		l.starts[o.anchor] = len(l.sheets) - 1
	}
	if l.ops++; l.ops > l.maxOps && l.err == nil {
		l.err = errTooMuchDrawing
	}
}

// finish flushes the last sheet.
func (l *layout) finish() {
	if l.flush != nil && len(l.sheets) > 0 && l.err == nil {
		last := len(l.sheets) - 1
		l.err = l.flush(l.sheets[last])
		l.sheets[last] = nil
	}
}

// newSheet ends the current sheet and starts another; the open boxes go on.
func (l *layout) newSheet() {
	if len(l.sheets) > 0 {
		for i := len(l.boxes) - 1; i >= 0; i-- {
			l.drawBox(l.boxes[i], l.bottom())
		}
	}
	if err := l.ctx.Err(); err != nil && l.err == nil {
		l.err = err
	}
	if len(l.sheets) >= l.maxSheets {
		if l.err == nil {
			l.err = errTooLarge
		}
		// Keep laying out over the last sheet: the caller stops at the
		// next check of err.
		l.sheets[len(l.sheets)-1].ops = l.sheets[len(l.sheets)-1].ops[:0]
	} else {
		if last := len(l.sheets) - 1; l.flush != nil && last >= 0 {
			if err := l.flush(l.sheets[last]); err != nil && l.err == nil {
				l.err = err
			}
			l.sheets[last] = nil
		}
		l.sheets = append(l.sheets, &sheet{})
	}
	l.y = marginTop
	for _, b := range l.boxes {
		b.sheet, b.at, b.top = len(l.sheets)-1, 0, l.y
	}
}

// pageBreak starts a new sheet unless the current one is empty.
func (l *layout) pageBreak() {
	if len(l.sheets) == 0 || len(l.cur().ops) > 0 {
		l.newSheet()
	}
}

// ensure starts a new sheet when h does not fit below y, unless nothing
// is on this one yet below its top.
func (l *layout) ensure(h float64) {
	if len(l.sheets) == 0 {
		l.newSheet()
	}
	if l.y+h > l.bottom() && l.y > marginTop+boxPadding*float64(len(l.boxes))+1 {
		l.newSheet()
	}
}

// space adds vertical space, none at the top of a sheet.
func (l *layout) space(h float64) {
	if l.y > marginTop+1 {
		l.y = min(l.y+h, l.bottom())
	}
}

// boxPadding is the padding inside a box.
const boxPadding = 8.0

// openBox starts a box: its content is indented by indent on the left and
// pad on the right, unless that would leave less than a narrow column.
func (l *layout) openBox(b *box, indent, pad float64) {
	l.ensure(3 * lineHeight(bodySize))
	l.cur()
	b.x0, b.x1 = l.left, l.right
	b.sheet, b.at, b.top = len(l.sheets)-1, len(l.cur().ops), l.y
	if l.width()-indent-pad >= minColumn {
		b.dl, b.dr = indent, pad
	}
	l.boxes = append(l.boxes, b)
	l.left += b.dl
	l.right -= b.dr
	l.y += boxPadding
}

// closeBox ends the innermost box, undoing its indents.
func (l *layout) closeBox() {
	b := l.boxes[len(l.boxes)-1]
	l.y += boxPadding
	l.drawBox(b, min(l.y, l.bottom()))
	l.boxes = l.boxes[:len(l.boxes)-1]
	l.left -= b.dl
	l.right += b.dr
}

// drawBox draws the part of b on its sheet, from its top to y, under what
// was placed since. Boxes are drawn innermost first, so an outer box,
// inserted at the same place or before, comes under an inner one.
func (l *layout) drawBox(b *box, y float64) {
	if y <= b.top {
		return
	}
	x, w := b.x0, b.x1-b.x0
	var ops []op
	if b.hasFill {
		ops = append(ops, op{kind: opRect, x: x, y: b.top, w: w, h: y - b.top, color: b.fill})
	}
	if b.hasBar {
		ops = append(ops, op{kind: opRect, x: x, y: b.top, w: 3, h: y - b.top, color: b.bar})
	}
	if b.hasBorder {
		ops = append(ops, op{kind: opRect, x: x, y: b.top, w: w, h: y - b.top, color: b.border, stroke: true})
	}
	s := l.sheets[b.sheet]
	s.ops = slices.Insert(s.ops, min(b.at, len(s.ops)), ops...)
}

// boxIndent is the indent of content in a box with a bar.
const boxIndent = 12.0
