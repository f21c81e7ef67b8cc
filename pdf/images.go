package pdf

import (
	"bytes"
	"context"
	goimage "image"
	_ "image/gif" // GIF images are decoded and drawn as their first frame
	_ "image/jpeg"
	_ "image/png"
	"io"

	"github.com/quiredocs/quire/render"
	"github.com/yuin/goldmark/ast"
)

// image is an image file's bytes, as gopdf reads them (PNG or JPEG), or
// decoded (GIF).
type image struct {
	id      string
	data    []byte
	decoded goimage.Image
	w, h    int // pixels
}

// imageLoader reads the images of a document, each once, within its
// limits: images past them, in formats a PDF cannot show (SVG, WebP) or
// from elsewhere than the revision's files are shown as their alt text.
// Images are not fetched from URLs: printing makes no outbound request.
type imageLoader struct {
	ctx   context.Context
	src   Source
	lim   Limits
	used  int64             // bytes read
	drawn int               // pixels of the images read
	cache map[string]*image // by file id; nil for one that cannot be shown
}

func newImageLoader(ctx context.Context, src Source, lim Limits) *imageLoader {
	return &imageLoader{ctx: ctx, src: src, lim: lim, cache: map[string]*image{}}
}

// load returns the image of file id, nil when it cannot be shown.
func (l *imageLoader) load(id string) *image {
	if img, ok := l.cache[id]; ok {
		return img
	}
	img := l.read(id)
	l.cache[id] = img
	return img
}

func (l *imageLoader) read(id string) *image {
	f := l.src.Tree.Files[id]
	if f == nil || l.src.OpenFile == nil || l.used+max(f.Size, 0) > l.lim.MaxImageBytes {
		return nil
	}
	r, err := l.src.OpenFile(l.ctx, f)
	if err != nil {
		return nil
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, l.lim.MaxImageBytes-l.used+1))
	if err != nil || int64(len(data)) > l.lim.MaxImageBytes-l.used {
		return nil
	}
	l.used += int64(len(data))
	cfg, format, err := goimage.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > l.lim.MaxImagePixels ||
		l.drawn+cfg.Width*cfg.Height > l.lim.MaxPixels {
		return nil
	}
	l.drawn += cfg.Width * cfg.Height
	img := &image{id: id, data: data, w: cfg.Width, h: cfg.Height}
	if format == "gif" {
		if img.decoded, _, err = goimage.Decode(bytes.NewReader(data)); err != nil {
			return nil
		}
		img.data = nil
	}
	return img
}

// imagesOnly places a paragraph that holds only images (and white space)
// as images, one under the other, and reports whether it did.
func (w *writer) imagesOnly(n ast.Node) bool {
	var imgs []*ast.Image
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Image:
			imgs = append(imgs, c)
		case *ast.Text:
			if len(bytes.TrimSpace(c.Segment.Value(w.md))) > 0 {
				return false
			}
		default:
			return false
		}
	}
	if len(imgs) == 0 {
		return false
	}
	for _, img := range imgs {
		w.image(render.DecodeText(img.Destination), render.InlineText(img, w.md))
	}
	w.space(6)
	return true
}

// image places the image at dest, scaled to fit the text's width and most
// of a page, centred; or its alt text when it cannot be shown.
func (w *writer) image(dest, alt string) {
	var img *image
	if w.src.Resolver != nil {
		if res := w.src.Resolver.Resolve(w.page, dest); res.Kind == render.KindFile && res.FileID != "" {
			img = w.images.load(res.FileID)
		}
	}
	if img == nil {
		text := "[Image]"
		if alt != "" {
			text = "[Image: " + alt + "]"
		}
		st := style{italic: true, size: smallSize, color: grey}
		if k := urlLink(dest); k.ok() {
			st.link, st.color = k, linkBlue
		}
		w.paragraph([]run{{cleanText(text), st}}, true)
		return
	}
	// 96 pixels an inch, as browsers show images; never wider than the
	// text or taller than most of a page.
	iw, ih := float64(img.w)*0.75, float64(img.h)*0.75
	maxH := (pageHeight - marginTop - marginBottom) * 0.75
	scale := min(1, w.width()/iw, maxH/ih)
	iw, ih = iw*scale, ih*scale
	w.ensure(ih)
	w.add(op{kind: opImage, x: w.left + (w.width()-iw)/2, y: w.y, w: iw, h: ih, img: img, text: alt})
	w.y += ih + 4
}

// figure places a figure: its image and, under it, its caption.
func (w *writer) figure(n ast.Node, b render.Block) {
	w.image(b.Attrs["src"], b.Attrs["alt"])
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if cb, ok := render.BlockOf(c); ok && cb.Kind == render.BlockCaption {
			w.paragraph(w.inlines(c, style{italic: true, size: smallSize, color: grey}), true)
		}
	}
	w.space(8)
}
