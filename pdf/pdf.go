// Package pdf prints a revision's pages as a PDF: a title page, a table
// of contents with page numbers, then every page in tree order, laid out
// from the same markdown syntax tree the HTML renderer reads (render.Parse):
// headings, paragraphs, emphasis, lists, tables, code in a monospace font
// (highlighted as on the site), links (to pages and headings of the
// document inside it, to URLs outside), images from the revision's files,
// and GitBook's blocks (hints as shaded boxes, tabs as titled sections,
// expandables open, embeds as cards). Text is real text in embedded
// DejaVu fonts (fonts/), so it can be selected and searched.
//
// It is built on github.com/signintech/gopdf, a maintained pure-Go PDF
// writer: Quire stays one binary with no runtime dependency, where a
// browser's print-to-PDF would need Chromium on every server.
package pdf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/signintech/gopdf"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Source is what a PDF is printed from: a revision's content, and how to
// reach the files and pages it links to.
type Source struct {
	Title    string    // the title page's title: the space's
	Subtitle string    // under it, e.g. a change request's subject; "" for none
	Revision string    // the revision's id, on the title page
	Date     time.Time // the revision's date, on the title page; zero for none
	Tree     *content.Tree
	// Resolver resolves the links of the tree's pages; nil leaves links to
	// URLs alone working.
	Resolver *render.Resolver
	// OpenFile opens the bytes of one of the tree's files (images); nil
	// shows images as their alt text.
	OpenFile func(ctx context.Context, f *content.File) (io.ReadCloser, error)
	// PageURL is where a link to a page that is not in the PDF goes (a
	// page printed alone links to others); "" or nil: its text alone.
	PageURL func(pageID, anchor string) string
}

// Options say what to print.
type Options struct {
	Page string // the page to print with its subpages; "" for the whole tree
	Only bool   // Page alone: no subpages, title page or contents
}

// Limits bound the work, and so the memory, of one PDF; the context bounds
// its time. What is drawn is held until the PDF is written (gopdf keeps
// each page's content), so MaxDrawn bounds memory whatever the content:
// a table of a hundred narrow columns draws a line per character or two.
type Limits struct {
	MaxPages       int   // PDF pages
	MaxDrawn       int   // operations drawn (runs of text, lines, boxes, links), in all
	MaxPageCells   int   // cells of the tables of one page
	MaxCells       int   // cells of tables, in all
	MaxImageBytes  int64 // bytes of images read, in all
	MaxImagePixels int   // pixels of one image
	MaxPixels      int   // pixels of images, in all: an image is decoded to embed it, and a GIF is kept decoded
}

// DefaultLimits are the limits Quire prints with: within them a PDF takes
// some 150 MB at most while printed (what is drawn is held by gopdf at
// some 300 bytes an operation, and as much again is garbage);
// docs/writing/pdf-export.md has the figures.
var DefaultLimits = Limits{MaxPages: 5000, MaxDrawn: 150_000, MaxPageCells: 5000, MaxCells: 20_000,
	MaxImageBytes: 32 << 20, MaxImagePixels: 8_300_000, MaxPixels: 34_000_000}

// errTooLarge stops a document of more pages than its limit.
var errTooLarge = quire.Errorf(quire.CodeTooLarge, "the PDF would be longer than it may be; print a page and its subpages (page) instead")

// errTooMuchDrawing stops a document that draws more than its limit; the
// writer says on which page (tooMuchOn).
var errTooMuchDrawing = errors.New("too much to draw")

// ErrNoPage is Write's answer to an Options.Page not in the tree.
var ErrNoPage = quire.Errorf(quire.CodeNotFound, "page not found")

// entry is a page to print, with its depth below the first.
type entry struct {
	page  *content.Page
	depth int
}

// writer lays out one document.
type writer struct {
	*layout
	src       Source
	lim       Limits
	anchors   map[string]bool // the anchors the document will have
	included  map[string]bool // the pages it prints
	images    *imageLoader
	page      string // the page being laid out
	md        []byte // its markdown, which its syntax tree points into
	highlight int    // bytes of code the page may still highlight
}

// Write prints src as a PDF to out, within lim and ctx's deadline.
func Write(ctx context.Context, out io.Writer, src Source, opt Options, lim Limits) error {
	doc, err := draw(ctx, src, opt, lim)
	if err != nil {
		return err
	}
	_, err = doc.WriteTo(out)
	return err
}

// draw lays out and draws the document; what is left is to write it.
// The pages are laid out twice, holding one sheet at a time: once to
// count the sheets and learn where each page starts, which the contents
// before them list, then to draw each sheet as it is finished.
func draw(ctx context.Context, src Source, opt Options, lim Limits) (*gopdf.GoPdf, error) {
	entries, err := selectPages(src.Tree, opt)
	if err != nil {
		return nil, err
	}
	doc := &gopdf.GoPdf{}
	doc.Start(gopdf.Config{PageSize: gopdf.Rect{W: pageWidth, H: pageHeight}})
	doc.SetInfo(gopdf.PdfInfo{Title: src.Title, Subject: src.Subtitle, Creator: "Quire", Producer: "Quire (gopdf)"})
	if err := addFonts(doc); err != nil {
		return nil, err
	}
	m := &metrics{doc: doc, widths: map[measureKey]float64{}}
	w := &writer{
		src: src, lim: lim, anchors: map[string]bool{}, included: map[string]bool{},
		images: newImageLoader(ctx, src, lim),
	}
	cells := 0
	for i := range entries {
		e := &entries[i]
		w.included[e.page.ID] = true
		w.anchors[pageAnchor(e.page.ID)] = true
		n, err := w.collectAnchors(e, lim, cells)
		if err != nil {
			return nil, err
		}
		cells += n
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	w.layout = newLayout(ctx, m, lim)
	w.flush = func(*sheet) error { return nil }
	w.pages(entries, opt.Only)
	if w.err != nil {
		return nil, w.err
	}
	count := len(w.sheets)
	var front []*sheet
	if !opt.Only {
		front = w.frontMatter(entries, w.starts)
		if w.err != nil {
			return nil, w.err
		}
	}
	if len(front)+count > lim.MaxPages {
		return nil, errTooLarge
	}
	e := &emitter{doc: doc, w: w, holders: map[string]gopdf.ImageHolder{}, hasTitle: !opt.Only}
	for _, s := range front {
		if err := e.page(s); err != nil {
			return nil, err
		}
	}
	w.layout = newLayout(ctx, m, lim)
	w.flush = e.page
	w.pages(entries, opt.Only)
	w.finish()
	if w.err != nil {
		return nil, w.err
	}
	return doc, ctx.Err()
}

// selectPages lists the pages to print in tree order.
func selectPages(t *content.Tree, opt Options) ([]entry, error) {
	var out []entry
	var walk func(ids []string, depth int)
	walk = func(ids []string, depth int) {
		for _, id := range ids {
			p := t.Pages[id]
			if p == nil {
				continue
			}
			out = append(out, entry{page: p, depth: depth})
			walk(p.Children, depth+1)
		}
	}
	if opt.Page == "" {
		walk(t.Root, 0)
		return out, nil
	}
	p := t.Pages[opt.Page]
	if p == nil {
		return nil, ErrNoPage
	}
	if _, placed := t.Parent(opt.Page); !placed {
		return nil, ErrNoPage
	}
	out = append(out, entry{page: p})
	if !opt.Only {
		walk(p.Children, 1)
	}
	return out, nil
}

// collectAnchors records the anchors of a page's headings and footnotes,
// so that links to them, wherever they are, can be made, and counts the
// cells of its tables: a page over the bounds is refused before any
// layout, naming it. cells are those of the pages before.
func (w *writer) collectAnchors(e *entry, lim Limits, before int) (cells int, err error) {
	doc, _ := render.Parse(e.page.Markdown)
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch nd := n.(type) {
		case *ast.Heading:
			if id, ok := nd.AttributeString("id"); ok {
				if id, ok := id.(string); ok {
					w.anchors[headingAnchor(e.page.ID, id)] = true
				}
			}
			return ast.WalkSkipChildren, nil
		case *east.Footnote:
			w.anchors[footnoteAnchor(e.page.ID, nd.Index)] = true
		case *east.TableCell:
			cells++
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	switch {
	case cells > lim.MaxPageCells:
		return cells, quire.Errorf(quire.CodeTooLarge, "page %q: its tables hold %d cells; a PDF prints at most %d of one page", titleOf(e.page.Title), cells, lim.MaxPageCells)
	case before+cells > lim.MaxCells:
		return cells, quire.Errorf(quire.CodeTooLarge, "page %q: with it the tables printed hold %d cells; a PDF prints at most %d; print fewer pages (page)",
			titleOf(e.page.Title), before+cells, lim.MaxCells)
	}
	return cells, nil
}

// Anchor names: a page's start, a heading in it, a footnote of it.
func pageAnchor(id string) string              { return "p/" + id }
func headingAnchor(page, id string) string     { return "h/" + page + "#" + id }
func footnoteAnchor(page string, n int) string { return fmt.Sprintf("f/%s#%d", page, n) }

// pages lays out the pages: each starts a sheet, but a group (a title
// without content) shares its sheet with its first subpage.
func (w *writer) pages(entries []entry, only bool) {
	afterGroup := false
	for i := range entries {
		e := &entries[i]
		if !afterGroup {
			w.pageBreak()
		}
		doc, md := render.Parse(e.page.Markdown)
		w.page, w.md, w.highlight = e.page.ID, md, render.HighlightBudget
		w.pageTitle(e)
		if e.page.Kind != content.KindGroup {
			w.blocks(doc)
		}
		afterGroup = e.page.Kind == content.KindGroup
		if errors.Is(w.err, errTooMuchDrawing) {
			w.err = quire.Errorf(quire.CodeTooLarge, "page %q: the PDF would draw more than %d lines and shapes by the end of it; a PDF draws at most that: print fewer pages (page), or split the page's tables",
				titleOf(e.page.Title), w.lim.MaxDrawn)
		}
		if w.err != nil {
			return
		}
	}
}

// pageTitle places a page's title, the anchor and bookmark of the page,
// and its description.
func (w *writer) pageTitle(e *entry) {
	title := e.page.Title
	if title == "" {
		title = "Untitled"
	}
	size := titleSize
	if e.page.Kind == content.KindGroup {
		size = titleSize + 4
	}
	st := style{bold: true, size: size, color: black}
	lines := w.wrap([]run{{cleanText(title), st}}, w.width())
	w.ensure(float64(len(lines)+3) * lineHeight(size))
	w.add(op{kind: opAnchor, y: w.y, anchor: pageAnchor(e.page.ID), title: title, depth: e.depth})
	for _, l := range lines {
		w.placeLine(l, false)
	}
	if d := e.page.Description; d != "" {
		w.space(2)
		w.paragraph([]run{{cleanText(d), style{size: 12, color: grey}}}, false)
	}
	w.space(4)
	if e.page.Kind == content.KindGroup {
		w.add(op{kind: opLine, x: w.left, y: w.y, w: w.width(), color: black})
	} else {
		w.add(op{kind: opLine, x: w.left, y: w.y, w: w.width(), color: lightGrey})
	}
	w.y += 14
}
