package render

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode"

	"github.com/quiredocs/quire/content"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// HTMLOptions says how links resolve when rendering a page.
type HTMLOptions struct {
	PageID   string    // the page rendered (relative links resolve from it)
	Resolver *Resolver // resolves link targets of the revision (may be nil: links stay as written, if safe)
	// PageURL gives the URL a reader follows to page id (anchor "" or
	// "frag"); ok false when the page is not reachable (hidden or not
	// published): the link is then rendered as its text only. When nil,
	// links to pages stay as written.
	PageURL func(pageID, anchor string) (url string, ok bool)
	// FileURL gives the URL of file id (images and file links). When nil,
	// links to files stay as written.
	FileURL func(fileID string) string
	// Sees reports whether the reader sees the adaptive content an
	// expression guards ({% if <expression> %}); nil shows all of it (an
	// author's preview). See AdaptiveExpressions for what a cache keys on.
	Sees func(expression string) bool
}

// Heading is a heading of a rendered page, for an on-page table of contents.
type Heading struct {
	Level int    // 2 or 3
	ID    string // its id in the page, for "#" + ID
	Text  string // its text, plain (not HTML-escaped)
}

// HTMLPage is a page rendered as HTML.
type HTMLPage struct {
	Body     string    // safe HTML
	Headings []Heading // the top-level h2 and h3, in order
}

// htmlParser parses GitHub-flavoured markdown (tables, task lists,
// strikethrough, linkify) within the bounds of NewGFMParser and
// paragraphBound, footnotes and the blocks of blockForms. Raw HTML is
// parsed but never rendered. It is safe for concurrent use.
var htmlParser = NewGFMParser(append(blockForms(),
	gparser.WithBlockParsers(
		util.Prioritized(footnoteDefs{extension.NewFootnoteBlockParser()}, 999),
		util.Prioritized(paragraphBound{gparser.NewParagraphParser()}, 999)),
	gparser.WithInlineParsers(util.Prioritized(footnoteRefs{extension.NewFootnoteParser()}, 101)),
	gparser.WithASTTransformers(util.Prioritized(extension.NewFootnoteASTTransformer(), 999)),
)...)

// HTML renders a page's markdown as HTML safe to publish: raw HTML is
// dropped (but for the forms blockForms reads and "<br>"), links and
// images resolve through opt, and only http, https, mailto and tel links
// and http and https images are kept, so no script can run. Every heading
// gets a unique GitHub-like id and an anchor link; code is highlighted
// with the classes HighlightCSS styles.
//
// The markup the site styles and scripts:
//   - headings: <h2 id="x">…<a class="anchor" href="#x" aria-hidden="true" tabindex="-1"></a></h2>;
//     the empty anchor is for the stylesheet to draw ("#", an icon).
//   - hints: <div class="hint hint-info" role="note" aria-label="Info">…</div>, the
//     style one of info, success, warning, danger (GitHub's NOTE and
//     IMPORTANT are info, TIP success, WARNING warning, CAUTION danger).
//   - tabs: <div class="tabs"><div class="tabs-list" role="tablist" hidden><button
//     type="button" class="tab" role="tab" id="tab-x" aria-controls="tab-x-panel"
//     aria-selected="true" tabindex="0">X</button>…</div><div class="tab-panel"
//     role="tabpanel" id="tab-x-panel" aria-labelledby="tab-x" tabindex="0"><div
//     class="tab-title">X</div>…</div>…</div>. Without script every panel shows,
//     stacked under its title, and the tab list stays hidden. The site's
//     script adds class "tabs-ready" to .tabs, removes hidden from .tabs-list,
//     hides .tab-title under .tabs-ready, sets hidden on every panel but the
//     selected one and keeps aria-selected and tabindex (0 on the selected
//     tab, -1 on the others) in step, with arrow keys moving between tabs.
//   - code: <div class="code-block">[<div class="code-title">x.go</div>]<pre
//     class="chroma" tabindex="0"><code class="language-go">…</code></pre></div>; with
//     line numbers each line starts <span class="ln" aria-hidden="true">N</span>.
//   - embeds: <div class="embed"><a class="embed-card" href="…" rel="noopener"><span
//     class="embed-title">host or file name</span><span class="embed-url">URL</span></a>[<div
//     class="embed-caption">…</div>]</div>; a file is "embed embed-file".
//   - expandables: <details class="expandable"><summary>…</summary>…</details>.
//   - figures: <figure class="figure"><img …><figcaption>…</figcaption></figure>;
//     images have alt, loading="lazy" and, when known, width and height.
//     Several (a gallery) or a drawing are in <div class="figures[ figures-left]">.
//   - math: <div class="math math-block">TeX</div>, inline <span class="math">TeX</span>.
//   - adaptive content ({% if … %}): its blocks, when opt.Sees lets the reader see them.
//   - links: external http(s) links get rel="noopener"; a broken link or
//     image is <span class="broken-link">its text</span>.
//   - steppers: <ol class="stepper"><li class="step">…</li>…</ol>; columns:
//     <div class="columns"><div class="column">…</div>…</div>; updates:
//     <div class="updates"><div class="update"><p class="update-date">date</p>…</div>…</div>.
//   - marks: <kbd>, <sup>, <sub>, <mark class="mark-text-red mark-bg-yellow">
//     (a named or semantic color, "$" left out); expressions: <code
//     class="expression">…</code>; buttons: links of class "button
//     button-primary" (or secondary).
func HTML(markdown string, opt HTMLOptions) (HTMLPage, error) {
	src := []byte(NormalizeLineEndings(markdown))
	doc := htmlParser.Parse(text.NewReader(src))
	headings := assignIDs(doc, src)
	pairMarkTags(doc, src)
	r := &htmlRenderer{opt: opt}
	var b bytes.Buffer
	b.Grow(len(src) + len(src)/2)
	if err := r.renderer().Render(&b, src, doc); err != nil {
		return HTMLPage{}, fmt.Errorf("render html: %w", err)
	}
	return HTMLPage{Body: b.String(), Headings: headings}, nil
}

// htmlRenderer renders one page: it holds the options, the bytes of code
// highlighted so far and the ends of the links entered and not yet left.
type htmlRenderer struct {
	opt         HTMLOptions
	highlighted int
	closers     []string
}

// renderer is goldmark's HTML renderer with r's functions for the nodes
// that need the page's options or differ from goldmark's. A renderer is
// cheap; making one per page keeps r's state out of shared values.
func (r *htmlRenderer) renderer() renderer.Renderer {
	return renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(ghtml.NewRenderer(), 1000),
		util.Prioritized(extension.NewTableHTMLRenderer(), 500),
		util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
		util.Prioritized(extension.NewTaskCheckBoxHTMLRenderer(), 500),
		util.Prioritized(extension.NewFootnoteHTMLRenderer(), 500),
		util.Prioritized(r, 100),
	))
}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, r.heading)
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindAutoLink, r.autoLink)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindFencedCodeBlock, r.code)
	reg.Register(ast.KindCodeBlock, r.code)
	reg.Register(ast.KindHTMLBlock, skip)
	reg.Register(ast.KindRawHTML, r.rawHTML)
	r.registerBlocks(reg)
}

func skip(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
	return ast.WalkSkipChildren, nil
}

// rawHTML drops inline raw HTML but "<br>", which GitBook's export puts in
// table cells for a line break, and the tags of marks, expressions and
// buttons (pairMarkTags): an expression is <code class="expression">, a
// button a link of class "button button-primary" (or secondary).
func (r *htmlRenderer) rawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.RawHTML)
	if v, ok := n.Attribute(markTagAttr); ok && entering {
		_, _ = w.WriteString(v.(string))
		return ast.WalkSkipChildren, nil
	}
	if v, ok := n.Attribute(inlineTagAttr); ok && entering {
		switch t := v.(inlineTag); {
		case t.kind == "expression" && t.name == "code":
			_, _ = w.WriteString(`<code class="expression">`)
		case t.kind == "expression":
			_, _ = w.WriteString(`</code>`)
		case t.name == "a":
			kind := strings.TrimPrefix(t.attrs["class"], "button ")
			r.openLink(w, r.target(t.attrs["href"], false), "", "button button-"+kind)
		default:
			r.closeLink(w)
		}
		return ast.WalkSkipChildren, nil
	}
	if entering && n.Segments.Len() == 1 {
		seg := n.Segments.At(0)
		v := bytes.ReplaceAll(seg.Value(src), []byte(" "), nil)
		if bytes.EqualFold(v, []byte("<br>")) || bytes.EqualFold(v, []byte("<br/>")) {
			_, _ = w.WriteString("<br>")
		}
	}
	return ast.WalkSkipChildren, nil
}

// assignIDs gives every heading an id, and every tab one, unique in the
// page, and returns the top-level h2 and h3. Ids are in document order, so
// the first of two headings alike keeps the plain slug, as on GitHub.
func assignIDs(doc ast.Node, src []byte) []Heading {
	ids := idSet{seen: map[string]bool{}, next: map[string]int{}}
	var headings []Heading
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			t := textOf(n, src)
			id := ids.unique(slug(t))
			n.SetAttributeString("id", id)
			if (n.Level == 2 || n.Level == 3) && n.Parent() == doc {
				headings = append(headings, Heading{Level: n.Level, ID: id, Text: t})
			}
			return ast.WalkSkipChildren, nil
		case *formNode:
			if n.kind == kindTab {
				n.id = ids.unique("tab-" + slug(n.attrs["title"]))
			}
		}
		return ast.WalkContinue, nil
	})
	return headings
}

// idSet hands out unique ids: a taken one gets "-1", "-2"… appended.
type idSet struct {
	seen map[string]bool
	next map[string]int // base → the last suffix tried, so that each is tried once
}

func (s *idSet) unique(base string) string {
	id := base
	for s.seen[id] {
		s.next[base]++
		id = base + "-" + strconv.Itoa(s.next[base])
	}
	s.seen[id] = true
	return id
}

// HeadingID is the id HTML gives the first heading whose text is text, so
// that others (search results) can link to it.
func HeadingID(text string) string { return slug(text) }

// HeadingIDs hands out, heading by heading in document order, the ids HTML
// gives them: a repeated one gets "-1", "-2"…
type HeadingIDs struct{ ids idSet }

// NewHeadingIDs returns HeadingIDs for one page.
func NewHeadingIDs() *HeadingIDs {
	return &HeadingIDs{idSet{seen: map[string]bool{}, next: map[string]int{}}}
}

// Next is the id of the next heading, whose text is text.
func (h *HeadingIDs) Next(text string) string { return h.ids.unique(slug(text)) }

// slug is GitHub's heading slug: lower case, letters, digits, "-" and "_"
// kept, spaces made "-", anything else dropped; "section" when nothing is
// left.
func slug(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(c), unicode.IsNumber(c), unicode.IsMark(c), c == '-', c == '_':
			b.WriteRune(c)
		case unicode.IsSpace(c):
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

// decodeText is decode, without its cost when v holds nothing to decode.
func decodeText(v []byte) string {
	if bytes.IndexAny(v, "\\&\x00") < 0 {
		return string(v)
	}
	return decode(v)
}

// textOf is the text of inline node n and its children, as a reader sees it.
func textOf(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.WriteString(decodeText(c.Segment.Value(src)))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan: // its text is as written: no escapes
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					b.Write(t.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// heading writes a heading with its id and anchor link. The anchor is
// hidden from assistive technology and the tab order: it repeats the
// heading, and the table of contents links the same place.
func (r *htmlRenderer) heading(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	v, _ := n.AttributeString("id")
	id, _ := v.(string)
	if entering {
		fmt.Fprintf(w, `<h%d id="%s">`, n.Level, html.EscapeString(id))
		return ast.WalkContinue, nil
	}
	fmt.Fprintf(w, `<a class="anchor" href="#%s" aria-hidden="true" tabindex="-1"></a></h%d>`+"\n",
		html.EscapeString(id), n.Level)
	return ast.WalkContinue, nil
}

// linkTarget is where a link or image goes.
type linkTarget struct {
	href     string // the URL, escaped for an attribute; "" for none: only the text is shown
	broken   bool   // the target does not resolve
	external bool   // an http(s) URL off the app
	fileID   string // the file, for a link to one
}

// target resolves the destination dest, as written and decoded, of a link
// or (image true) an image.
func (r *htmlRenderer) target(dest string, image bool) linkTarget {
	dest = strings.TrimSpace(dest)
	if r.opt.Resolver == nil {
		return safeURL(dest, image)
	}
	res := r.opt.Resolver.Resolve(r.opt.PageID, dest)
	if res.Status == StatusBroken {
		return linkTarget{broken: true}
	}
	switch res.Kind {
	case KindPage:
		if image {
			return linkTarget{broken: true}
		}
		if r.opt.PageURL == nil {
			return safeURL(dest, false)
		}
		_, frag, _ := strings.Cut(dest, "#")
		u, ok := r.opt.PageURL(res.PageID, frag)
		if !ok {
			return linkTarget{} // not published: its text alone
		}
		return safeURL(u, false)
	case KindFile:
		t := safeURL(dest, image)
		if r.opt.FileURL != nil {
			t = safeURL(r.opt.FileURL(res.FileID), image)
		}
		t.fileID = res.FileID
		return t
	}
	t := safeURL(dest, image)
	t.external = t.external && res.Status != StatusInApp
	return t
}

// safeURL percent-encodes u and keeps it when its scheme is safe: http and
// https, or for a link also mailto and tel; or when it has none (a relative
// URL). javascript:, data:, vbscript: and all else are dropped. Spaces and
// control characters are encoded before the scheme is read, so a browser
// reads the same scheme (it would strip them).
func safeURL(u string, image bool) linkTarget {
	esc := string(util.URLEscape([]byte(u), false))
	if esc == "" {
		return linkTarget{}
	}
	switch scheme := urlScheme(esc); scheme {
	case "":
		return linkTarget{href: esc, external: strings.HasPrefix(esc, "//")}
	case "http", "https":
		return linkTarget{href: esc, external: true}
	case "mailto", "tel":
		if !image {
			return linkTarget{href: esc}
		}
	}
	return linkTarget{}
}

// urlScheme is u's scheme in lower case, "" when it has none.
func urlScheme(u string) string {
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && i > 0:
			return strings.ToLower(u[:i])
		default:
			return ""
		}
	}
	return ""
}

// openLink writes the start of a link to t and remembers how it ends.
func (r *htmlRenderer) openLink(w util.BufWriter, t linkTarget, title, class string) {
	switch {
	case t.broken:
		_, _ = w.WriteString(`<span class="broken-link">`)
		r.closers = append(r.closers, "</span>")
		return
	case t.href == "":
		r.closers = append(r.closers, "")
		return
	}
	_, _ = w.WriteString(`<a`)
	if class != "" {
		fmt.Fprintf(w, ` class="%s"`, class)
	}
	fmt.Fprintf(w, ` href="%s"`, html.EscapeString(t.href))
	if title != "" {
		fmt.Fprintf(w, ` title="%s"`, html.EscapeString(title))
	}
	if t.external {
		_, _ = w.WriteString(` rel="noopener"`)
	}
	_ = w.WriteByte('>')
	r.closers = append(r.closers, "</a>")
}

// closeLink ends the link last opened.
func (r *htmlRenderer) closeLink(w util.BufWriter) {
	n := len(r.closers) - 1
	_, _ = w.WriteString(r.closers[n])
	r.closers = r.closers[:n]
}

func (r *htmlRenderer) link(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if entering {
		r.openLink(w, r.target(decodeText(n.Destination), false), decodeText(n.Title), "")
	} else {
		r.closeLink(w)
	}
	return ast.WalkContinue, nil
}

// autoLink writes an autolink: "<https://…>", "<a@b.example>" or one
// linkify found.
func (r *htmlRenderer) autoLink(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.AutoLink)
	if !entering {
		return ast.WalkContinue, nil
	}
	u := string(n.URL(src))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
		u = "mailto:" + u
	}
	r.openLink(w, r.target(u, false), "", "")
	_, _ = w.WriteString(html.EscapeString(string(n.Label(src))))
	r.closeLink(w)
	return ast.WalkSkipChildren, nil
}

func (r *htmlRenderer) image(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	r.writeImage(w, r.target(decodeText(n.Destination), true), textOf(n, src), decodeText(n.Title), nil)
	return ast.WalkSkipChildren, nil
}

// writeImage writes an image of t with its alt text as written (empty for
// a decorative image). Its width and height are the file's when known,
// else those of attrs (a figure's) when numbers. An image that cannot be
// shown is its alt text, as a broken link when it does not resolve.
func (r *htmlRenderer) writeImage(w util.BufWriter, t linkTarget, alt, title string, attrs map[string]string) {
	switch {
	case t.broken:
		fmt.Fprintf(w, `<span class="broken-link">%s</span>`, html.EscapeString(alt))
		return
	case t.href == "":
		_, _ = w.WriteString(html.EscapeString(alt))
		return
	}
	fmt.Fprintf(w, `<img src="%s" alt="%s" loading="lazy"`, html.EscapeString(t.href), html.EscapeString(alt))
	width, height := attrs["width"], attrs["height"]
	if f := r.file(t.fileID); f != nil && f.Width > 0 && f.Height > 0 {
		width, height = strconv.Itoa(f.Width), strconv.Itoa(f.Height)
	}
	for _, a := range [][2]string{{"width", width}, {"height", height}} {
		if _, err := strconv.ParseUint(a[1], 10, 31); err == nil {
			fmt.Fprintf(w, ` %s="%s"`, a[0], a[1])
		}
	}
	if title != "" {
		fmt.Fprintf(w, ` title="%s"`, html.EscapeString(title))
	}
	_ = w.WriteByte('>')
}

// file is the file id of the revision, nil when unknown.
func (r *htmlRenderer) file(id string) *content.File {
	if id == "" || r.opt.Resolver == nil || r.opt.Resolver.Tree == nil {
		return nil
	}
	return r.opt.Resolver.Tree.Files[id]
}
