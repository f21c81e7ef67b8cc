package pdf

import (
	"bytes"
	goimage "image"
	"strconv"

	"github.com/signintech/gopdf"
)

// page draws a sheet into the document as its next page, with a footer
// (the document's title and the page's number) but on the title page.
func (e *emitter) page(s *sheet) error {
	if err := e.w.ctx.Err(); err != nil {
		return err
	}
	e.doc.AddPage()
	e.n++
	e.reset()
	for _, o := range s.ops {
		if err := e.op(o); err != nil {
			return err
		}
	}
	if e.n > 1 || !e.hasTitle {
		e.footer(e.n)
	}
	return nil
}

// emitter draws operations, setting fonts and colours only as they change.
type emitter struct {
	doc      *gopdf.GoPdf
	w        *writer
	font     font
	size     float64
	color    rgb
	set      bool // font, size and colour are set on the page
	holders  map[string]gopdf.ImageHolder
	n        int  // pages drawn
	hasTitle bool // the first is a title page
}

func (e *emitter) reset() { e.set = false }

// text draws text at x, y; the runes face f lacks in the fallback face.
func (e *emitter) text(x, y float64, text string, f font, size float64, c rgb) error {
	if !isASCII(text) {
		if segs := segments(f, text); len(segs) > 1 || segs[0].fallback {
			for _, s := range segs {
				var err error
				if s.fallback {
					err = e.fallbackText(x, y, s.text, size, c)
					x += e.w.m.fallbackWidth(s.text, size)
				} else {
					err = e.faceText(x, y, s.text, f, size, c)
					x += e.w.m.faceWidth(f, s.text, size)
				}
				if err != nil {
					return err
				}
			}
			return nil
		}
	}
	return e.faceText(x, y, text, f, size, c)
}

// fallbackText draws text in the fallback face; the next text sets its
// face again.
func (e *emitter) fallbackText(x, y float64, text string, size float64, c rgb) error {
	if err := e.w.m.useFallback(); err != nil {
		return err
	}
	if err := e.doc.SetFont(fallbackFamily, "", size); err != nil {
		return err
	}
	e.set = false
	e.doc.SetTextColor(c.r, c.g, c.b)
	e.doc.SetXY(x, y)
	return e.doc.Text(text)
}

// faceText draws text in face f.
func (e *emitter) faceText(x, y float64, text string, f font, size float64, c rgb) error {
	if !e.set || f != e.font || size != e.size || e.w.m.fontChanged {
		e.w.m.fontChanged = false
		if err := e.doc.SetFont(family[f], "", size); err != nil {
			return err
		}
		e.font, e.size = f, size
	}
	if !e.set || c != e.color {
		e.doc.SetTextColor(c.r, c.g, c.b)
		e.color = c
	}
	e.set = true
	e.doc.SetXY(x, y)
	return e.doc.Text(text)
}

func (e *emitter) op(o op) error {
	d := e.doc
	switch o.kind {
	case opText:
		if o.text == "" {
			return nil
		}
		return e.text(o.x, o.y, o.text, o.font, o.size, o.color)
	case opRect:
		if o.stroke {
			d.SetLineType("solid")
			d.SetLineWidth(0.6)
			d.SetStrokeColor(o.color.r, o.color.g, o.color.b)
			d.RectFromUpperLeftWithStyle(o.x, o.y, o.w, o.h, "D")
			return nil
		}
		d.SetFillColor(o.color.r, o.color.g, o.color.b)
		d.RectFromUpperLeftWithStyle(o.x, o.y, o.w, o.h, "F")
	case opLine:
		d.SetLineWidth(0.7)
		if o.dotted {
			d.SetLineType("dotted")
		} else {
			d.SetLineType("solid")
		}
		d.SetStrokeColor(o.color.r, o.color.g, o.color.b)
		d.Line(o.x, o.y, o.x+o.w, o.y+o.h)
	case opImage:
		if err := e.image(o); err != nil {
			// Bytes gopdf cannot read after all: the alt text instead.
			return e.text(o.x, o.y+o.h/2, "[Image: "+o.text+"]", fontItalic, smallSize, grey)
		}
	case opLink:
		if o.url != "" {
			d.AddExternalLink(o.url, o.x, o.y, o.w, o.h)
		} else {
			d.AddInternalLink(o.anchor, o.x, o.y, o.w, o.h)
		}
	case opAnchor:
		d.SetY(o.y)
		d.SetAnchor(o.anchor)
		if o.title != "" {
			d.AddOutline(o.title)
		}
	}
	return nil
}

// image draws an image, each file's bytes embedded once however often it
// is shown. A PNG gopdf does not read (16-bit, interlaced) is decoded and
// drawn as pixels.
func (e *emitter) image(o op) error {
	rect := &gopdf.Rect{W: o.w, H: o.h}
	img := o.img
	if img.decoded != nil {
		return e.doc.ImageFrom(img.decoded, o.x, o.y, rect)
	}
	h, ok := e.holders[img.id]
	if !ok {
		var err error
		if h, err = gopdf.ImageHolderByBytes(img.data); err != nil {
			return err
		}
		e.holders[img.id] = h
	}
	if err := e.doc.ImageByHolder(h, o.x, o.y, rect); err == nil {
		return nil
	}
	decoded, _, err := goimage.Decode(bytes.NewReader(img.data))
	if err != nil {
		return err
	}
	img.decoded, img.data = decoded, nil
	return e.doc.ImageFrom(decoded, o.x, o.y, rect)
}

// footer writes the document's title and the page's number at the foot of
// the page.
func (e *emitter) footer(n int) {
	num := strconv.Itoa(n)
	nw := e.w.m.width(fontRegular, num, smallSize)
	_ = e.text(pageWidth-marginX-nw, footerY, num, fontRegular, smallSize, grey)
	title := truncate(e.w, cleanText(titleOf(e.w.src.Title)), style{size: smallSize}, contentWidth-60)
	_ = e.text(marginX, footerY, title, fontRegular, smallSize, grey)
}
