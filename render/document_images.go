package render

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Images as Git Sync writes them when markdown's "![alt](src)" cannot say
// all: on one line, a figure per image, its image perhaps in a <picture>
// with a dark-mode source, perhaps its caption; several, or one aligned,
// in a <div>:
//
//	<figure><img src="a.png" alt="" width="375"><figcaption><p>Caption</p></figcaption></figure>
//	<div align="left"><figure><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt=""></picture><figcaption></figcaption></figure> <figure>…</figure></div>
//
// and a drawing: <img src="x.drawing.svg" alt="…" class="gitbook-drawing">.

var (
	kindFigures = ast.NewNodeKind("QuireFigures") // an images block: figures (kindFigure) and its align
	kindDrawing = ast.NewNodeKind("QuireDrawing")
)

// darkMedia is the media of a figure's dark-mode source.
const darkMedia = "(prefers-color-scheme: dark)"

// imgAttrs are the attributes of an <img> the document keeps; an image with
// any other stays the HTML it is.
var imgAttrs = map[string]bool{"src": true, "alt": true, "width": true, "height": true}

// docFigureParser reads figures and drawings for the document.
type docFigureParser struct{ figureParser }

// Open implements parser.BlockParser.
func (docFigureParser) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	line, _, ok := lineAt(reader)
	if !ok {
		return nil, gparser.NoChildren
	}
	line = bytes.TrimRight(line, " \t\r\n")
	if src, alt, ok := parseDrawing(line); ok {
		reader.AdvanceToEOL()
		return &formNode{kind: kindDrawing, tag: "img", attrs: map[string]string{"src": src, "alt": alt}, leaf: true, line: string(line)}, gparser.NoChildren
	}
	figs, div, ok := parseFigures(line)
	if !ok {
		return nil, gparser.NoChildren
	}
	if div == nil {
		div = map[string]string{}
	}
	b := &formNode{kind: kindFigures, tag: "div", attrs: div, leaf: true, line: string(line)}
	for _, f := range figs {
		fn := &formNode{kind: kindFigure, tag: "figure", attrs: f.img, leaf: true}
		if f.capStop != 0 { // the caption's HTML, which goldmark leaves alone (it has no lines)
			fn.AppendChild(fn, &formNode{kind: kindFigCaption, leaf: true, line: string(line[f.capStart:max(f.capStart, f.capStop)])})
		}
		b.AppendChild(b, fn)
	}
	reader.AdvanceToEOL()
	return b, gparser.NoChildren
}

// parseDrawing parses s, a whole line, as a drawing.
func parseDrawing(s []byte) (src, alt string, ok bool) {
	rest, ok := cutPrefixFold(s, "<img ")
	if !ok {
		return "", "", false
	}
	attrs, end, ok := tagAttrs(rest, '>')
	if !ok || end+1 != len(rest) || attrs["class"] != "gitbook-drawing" || attrs["src"] == "" || len(attrs) > 3 {
		return "", "", false
	}
	if _, ok := attrs["alt"]; !ok && len(attrs) == 3 {
		return "", "", false
	}
	return attrs["src"], attrs["alt"], true
}

// parseFigures parses s, a whole line, as figures: one alone, or any in a
// <div>, perhaps aligned. A figure's img holds its <img>'s attributes and,
// as "dark", its dark-mode source.
func parseFigures(s []byte) (figs []figure, div map[string]string, ok bool) {
	i, stop := 0, len(s)
	if hasPrefixFold(s, "<div") {
		attrs, end, ok := tagAttrs(s[len("<div"):], '>')
		if !ok || !hasSuffixFold(s, "</div>") {
			return nil, nil, false
		}
		for k, v := range attrs {
			switch {
			case k == "align" && (v == "left" || v == "center" || v == "right"):
			case k == "data-full-width" && (v == "true" || v == "false"):
			default:
				return nil, nil, false
			}
		}
		div, i, stop = attrs, len("<div")+end+1, len(s)-len("</div>")
	}
	for {
		for i < stop && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == stop {
			return figs, div, len(figs) > 0
		}
		if len(figs) == 1 && div == nil {
			return nil, nil, false
		}
		f, next, ok := parseFigure1(s[:stop], i)
		if !ok {
			return nil, nil, false
		}
		figs, i = append(figs, f), next
	}
}

// parseFigure1 parses the figure at s[i:], and returns the offset after it.
func parseFigure1(s []byte, i int) (f figure, next int, ok bool) {
	if !hasPrefixFold(s[i:], "<figure>") {
		return f, 0, false
	}
	picture := false
	for i += len("<figure>"); ; {
		switch {
		case hasPrefixFold(s[i:], "</figure>"):
			return f, i + len("</figure>"), f.img != nil && !picture && (f.img["dark"] == "" || f.img["src"] != "")
		case hasPrefixFold(s[i:], "<img ") && f.img == nil:
			attrs, end, ok := tagAttrs(s[i+len("<img "):], '>')
			if !ok || attrs["src"] == "" {
				return f, 0, false
			}
			for k := range attrs {
				if !imgAttrs[k] {
					return f, 0, false
				}
			}
			f.img, i = attrs, i+len("<img ")+end+1
		case hasPrefixFold(s[i:], "<picture>") && f.img == nil && !picture:
			picture, i = true, i+len("<picture>")
		case hasPrefixFold(s[i:], "<source ") && picture && f.img == nil:
			attrs, end, ok := tagAttrs(s[i+len("<source "):], '>')
			if !ok || len(attrs) != 2 || attrs["media"] != darkMedia || attrs["srcset"] == "" {
				return f, 0, false
			}
			f.img, i = map[string]string{"dark": attrs["srcset"]}, i+len("<source ")+end+1
		case hasPrefixFold(s[i:], "<img ") && picture && f.img != nil && f.img["src"] == "":
			attrs, end, ok := tagAttrs(s[i+len("<img "):], '>')
			if !ok || attrs["src"] == "" {
				return f, 0, false
			}
			for k, v := range attrs {
				if !imgAttrs[k] {
					return f, 0, false
				}
				f.img[k] = v
			}
			i += len("<img ") + end + 1
		case hasPrefixFold(s[i:], "</picture>") && picture && f.img != nil && f.img["src"] != "":
			picture, i = false, i+len("</picture>")
		case hasPrefixFold(s[i:], "<figcaption>") && f.img != nil && !picture && f.capStop == 0:
			if i, ok = f.caption(s, i+len("<figcaption>")); !ok {
				return f, 0, false
			}
		default:
			return f, 0, false
		}
	}
}

// figures converts figures: an images block of an image for each, its
// caption in a "caption" fragment (an empty caption an empty paragraph, so
// that it is written again). Where the schema allows no images block, each
// is an inline image in a paragraph, followed by its caption's paragraph.
func (c *converter) figures(n *formNode, at place) []any {
	if !imagesBlock(at) {
		var imgs, captions []any
		for f := n.FirstChild(); f != nil; f = f.NextSibling() {
			fn := f.(*formNode)
			data := map[string]any{"ref": c.ref(fn.attrs["src"], true)}
			if alt := fn.attrs["alt"]; alt != "" {
				data["alt"] = alt
			}
			imgs = append(imgs, map[string]any{"object": "inline", "type": "inline-image", "isVoid": true, "data": data})
			if cap, ok := fn.FirstChild().(*formNode); ok && cap.line != "" {
				captions = append(captions, block("paragraph", nil, c.captionInlines(cap.line)))
			}
		}
		return append([]any{block("paragraph", nil, imgs)}, captions...)
	}
	data := map[string]any{}
	if a := n.attrs["align"]; a != "" {
		data["align"] = a
	}
	if w, ok := n.attrs["data-full-width"]; ok {
		data["fullWidth"] = w == "true"
	}
	var imgs []any
	for f := n.FirstChild(); f != nil; f = f.NextSibling() {
		fn := f.(*formNode)
		d := map[string]any{"ref": c.ref(fn.attrs["src"], true)}
		if alt := fn.attrs["alt"]; alt != "" {
			d["alt"] = alt
		}
		if dark := fn.attrs["dark"]; dark != "" {
			d["refDark"] = c.ref(dark, true)
		}
		for _, k := range []string{"width", "height"} {
			if v, ok := lengthOf(fn.attrs[k]); ok {
				d[k] = v
			}
		}
		frags := []any{}
		if cap, ok := fn.FirstChild().(*formNode); ok {
			inl := c.captionInlines(cap.line)
			frags = []any{map[string]any{"object": "fragment", "fragment": "caption", "nodes": []any{block("paragraph", nil, inl)}}}
		}
		imgs = append(imgs, map[string]any{"object": "block", "type": "image", "isVoid": true, "data": d, "fragments": frags})
	}
	return []any{map[string]any{"object": "block", "type": "images", "isVoid": false, "data": data, "nodes": imgs}}
}

// lengthOf reads an image's width or height: pixels, or a percentage.
func lengthOf(s string) (any, bool) {
	pct := strings.HasSuffix(s, "%")
	n, err := strconv.ParseUint(strings.TrimSuffix(s, "%"), 10, 31)
	switch {
	case err != nil:
		return nil, false
	case pct:
		return map[string]any{"unit": "%", "value": int(n)}, true
	}
	return int(n), true
}

// lengthMD writes a width or height as lengthOf reads it.
func lengthMD(v any, path *nodePath) (string, error) {
	if f, ok := number(v); ok && f >= 0 && f == math.Trunc(f) && f < 1<<31 {
		return strconv.FormatFloat(f, 'f', -1, 64), nil
	}
	m, _ := v.(map[string]any)
	if f, ok := number(m["value"]); ok && m["unit"] == "%" && f >= 0 && f == math.Trunc(f) && f < 1<<31 {
		return strconv.FormatFloat(f, 'f', -1, 64) + "%", nil
	}
	return "", fmt.Errorf("%s: only a whole number of pixels or a percentage can be written", path)
}

// drawing converts a drawing: a drawing block of the file it shows, or
// where the schema allows none, or it shows no file of the space, the HTML
// it is.
func (c *converter) drawing(n *formNode, at place) []any {
	ref := c.fileRef(n.attrs["src"])
	if ref["kind"] != "file" || !allowed("drawing", at) {
		return []any{block("paragraph", nil, []any{textNode(leaf(n.line, nil))})}
	}
	data := map[string]any{"ref": ref}
	if alt := n.attrs["alt"]; alt != "" {
		data["alt"] = alt
	}
	return []any{map[string]any{"object": "block", "type": "drawing", "isVoid": true, "data": data}}
}

// imagesMD writes an images block (or an image or a drawing alone): images
// with nothing markdown cannot say as "![alt](src)" lines, others as Git
// Sync's figures.
func imagesMD(out *[]chunk, m map[string]any, typ string, data map[string]any, kids []any, path *nodePath, at place) error {
	if typ == "drawing" {
		return drawingMD(out, m, data, path, at)
	}
	images, paths := []any{m}, []*nodePath{path}
	if typ == "images" {
		images, paths = kids, itemPaths(path.field("nodes"), len(kids))
		if b, _ := data["withFrame"].(bool); b {
			return fmt.Errorf("%s.data.withFrame: cannot be written", path)
		}
	} else {
		data = nil
	}
	align, _ := data["align"].(string)
	div := ""
	if align != "" {
		div += ` align="` + htmlAttr(align) + `"`
	}
	if w, ok := data["fullWidth"].(bool); ok {
		div += fmt.Sprintf(` data-full-width="%t"`, w)
	}
	figs := make([]string, 0, len(images))
	plain := div == ""
	var lines []string
	for i, img := range images {
		im, _, err := object(img, paths[i])
		if err != nil {
			return err
		}
		fig, simple, err := figureMD(im, paths[i])
		if err != nil {
			return err
		}
		figs = append(figs, fig)
		plain = plain && simple
		var spans []span
		imageSpan(&spans, im)
		for _, s := range spans {
			if s.kind == spanImage {
				lines = append(lines, imageMD(s))
			}
		}
	}
	switch {
	case plain:
	case len(figs) == 1 && div == "":
		lines = figs
	default:
		lines = []string{"<div" + div + ">" + strings.Join(figs, " ") + "</div>"}
	}
	*out = append(*out, chunk{lines: lines})
	return nil
}

// figureMD writes an image as a figure, and reports whether "![alt](src)"
// says as much.
func figureMD(m map[string]any, path *nodePath) (fig string, simple bool, err error) {
	data, _ := m["data"].(map[string]any)
	src, ok := refTarget(data["ref"])
	if !ok {
		return "", false, fmt.Errorf("%s.data.ref: must refer to a file or a URL", path)
	}
	alt, _ := data["alt"].(string)
	img := `<img src="` + htmlAttr(src) + `" alt="` + htmlAttr(alt) + `"`
	simple = true
	for _, k := range []string{"width", "height"} {
		if v, ok := data[k]; ok {
			s, err := lengthMD(v, path.field("data").field(k))
			if err != nil {
				return "", false, err
			}
			img += " " + k + `="` + s + `"`
			simple = false
		}
	}
	img += ">"
	if v, ok := data["refDark"]; ok {
		dark, ok := refTarget(v)
		if !ok {
			return "", false, fmt.Errorf("%s.data.refDark: must refer to a file or a URL", path)
		}
		img = `<picture><source srcset="` + htmlAttr(dark) + `" media="` + darkMedia + `">` + img + "</picture>"
		simple = false
	}
	frags, err := fragmentsOf(m, path)
	if err != nil {
		return "", false, err
	}
	caption := ""
	for _, f := range frags {
		if f.name != "caption" {
			return "", false, fmt.Errorf("%s: only a caption fragment can be written", f.path)
		}
		var spans []span
		if err := eachObject(f.nodes, f.path.field("nodes"), func(pm map[string]any, p *nodePath) error {
			if pm["type"] != "paragraph" {
				return fmt.Errorf("%s: a caption holds only a paragraph", p)
			}
			return spanMD(&spans, pm, p)
		}); err != nil {
			return "", false, err
		}
		if len(f.nodes) > 1 {
			return "", false, fmt.Errorf("%s: a caption holds only a paragraph", f.path)
		}
		simple = false
		s, err := captionHTML(normalize(spans), f.path)
		if err != nil {
			return "", false, err
		}
		caption = "<figcaption></figcaption>"
		if s != "" {
			caption = "<figcaption><p>" + s + "</p></figcaption>"
		}
	}
	return "<figure>" + img + caption + "</figure>", simple, nil
}

// drawingMD writes a drawing as Git Sync does.
func drawingMD(out *[]chunk, m, data map[string]any, path *nodePath, at place) error {
	ref, _ := data["ref"].(map[string]any)
	src, ok := refTarget(ref)
	if !ok || ref["kind"] != "file" {
		return fmt.Errorf("%s.data.ref: must refer to a file", path)
	}
	if !allowed("drawing", at) {
		return fmt.Errorf("%s: the schema allows no drawing block here", path)
	}
	if frags, _ := m["fragments"].([]any); len(frags) > 0 {
		return fmt.Errorf("%s.fragments: a drawing's caption cannot be written", path)
	}
	alt, _ := data["alt"].(string)
	*out = append(*out, chunk{lines: []string{`<img src="` + htmlAttr(src) + `" alt="` + htmlAttr(alt) + `" class="gitbook-drawing">`}})
	return nil
}

// htmlAttr escapes s for a quoted attribute of HTML on one line, as
// tagAttrs reads it back; "&" is "&#x26;" as Git Sync writes it.
func htmlAttr(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, "&#x22;", "&", "&#x26;", "<", "&#x3C;", ">", "&#x3E;", "\n", "&#10;", "\r", "&#13;").Replace(s)
}

// captionMarks are the HTML elements of a caption as Git Sync writes it,
// and the marks they are.
var captionMarks = map[string]string{"strong": "bold", "b": "bold", "em": "italic", "i": "italic", "code": "code", "s": "strikethrough", "del": "strikethrough"}

// markTags are the elements captionHTML writes for marks.
var markTags = map[string]string{"bold": "strong", "italic": "em", "code": "code", "strikethrough": "s"}

// captionInlines reads a figure's caption, which Git Sync writes as HTML:
// text and character references, <strong>, <em>, <code>, <s>, <a href>
// and <br>. Any other tag is text.
func (c *converter) captionInlines(s string) []any {
	out, cur := &inlines{}, (*inlines)(nil)
	b := out
	var marks []string
	href := ""
	for i := 0; i < len(s); {
		if s[i] == '<' {
			if name, attrs, closing, n, ok := htmlTagAt(s[i:]); ok {
				mark, isMark := captionMarks[name]
				switch {
				case isMark && !closing:
					marks = withMark(marks, mark)
				case isMark:
					if j := slices.Index(marks, mark); j >= 0 {
						marks = append(marks[:j:j], marks[j+1:]...)
					}
				case name == "br" && !closing:
					b.leaf("\n", marks)
				case name == "a" && !closing && cur == nil && attrs["href"] != "":
					cur, href = &inlines{}, attrs["href"]
					b = cur
				case name == "a" && closing && cur != nil:
					out.inline(map[string]any{"object": "inline", "type": "link", "isVoid": false,
						"data": map[string]any{"ref": c.ref(href, false)}, "nodes": cur.nodes()})
					b, cur = out, nil
				default:
					ok = false
				}
				if ok {
					i += n
					continue
				}
			}
		}
		j := i + 1
		for j < len(s) && s[j] != '<' && s[j] != '&' {
			j++
		}
		if s[i] == '&' {
			if k := strings.IndexByte(s[i:min(len(s), i+40)], ';'); k > 0 {
				j = i + k + 1
			}
		}
		b.leaf(html.UnescapeString(s[i:j]), marks)
		i = j
	}
	if cur != nil { // a link left open: its text
		for _, n := range cur.nodes() {
			if t, ok := n.(map[string]any); ok && t["object"] == "text" {
				for _, l := range t["leaves"].([]any) {
					lm := l.(map[string]any)
					out.leaf(lm["text"].(string), leafMarks(lm))
				}
			} else {
				out.inline(t)
			}
		}
	}
	return out.nodes()
}

// leafMarks are the types of a leaf's marks, as the converter made them.
func leafMarks(l map[string]any) []string {
	var marks []string
	for _, m := range l["marks"].([]any) {
		marks = append(marks, m.(map[string]any)["type"].(string))
	}
	return marks
}

// htmlTagAt reads the HTML tag s starts with: its name in lower case, its
// attributes, whether it closes an element, and its length.
func htmlTagAt(s string) (name string, attrs map[string]string, closing bool, n int, ok bool) {
	i := 1
	if i < len(s) && s[i] == '/' {
		closing, i = true, 2
	}
	j := i
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		j++
	}
	if j == i || j >= len(s) {
		return "", nil, false, 0, false
	}
	name = strings.ToLower(s[i:j])
	attrs, end, ok := tagAttrs([]byte(s[j:]), '>')
	if !ok || closing && len(attrs) > 0 {
		return "", nil, false, 0, false
	}
	return name, attrs, closing, j + end + 1, true
}

// captionHTML writes a caption's spans as captionInlines reads them.
func captionHTML(spans []span, path *nodePath) (string, error) {
	var b strings.Builder
	for i, s := range spans {
		switch s.kind {
		case spanText:
			for _, m := range s.marks {
				t, ok := markTags[m]
				if !ok {
					return "", fmt.Errorf("%s: a caption's %s mark cannot be written", path, m)
				}
				b.WriteString("<" + t + ">")
			}
			b.WriteString(captionText(s.text, i == 0, i == len(spans)-1))
			for j := len(s.marks) - 1; j >= 0; j-- {
				b.WriteString("</" + markTags[s.marks[j]] + ">")
			}
		case spanLink:
			inner, err := captionHTML(s.kids, path)
			if err != nil {
				return "", err
			}
			b.WriteString(`<a href="` + htmlAttr(s.target) + `">` + inner + "</a>")
		default:
			return "", fmt.Errorf("%s: a caption's image cannot be written", path)
		}
	}
	return b.String(), nil
}

// captionText escapes a caption's text: white space at either end of the
// caption, which its reading trims, is a character reference, as Git Sync
// writes it.
func captionText(s string, first, last bool) string {
	t := strings.NewReplacer("&", "&#x26;", "<", "&#x3C;", ">", "&#x3E;", "\n", "<br>", "\r", "&#13;").Replace(s)
	if first && t != "" && (t[0] == ' ' || t[0] == '\t') {
		t = fmt.Sprintf("&#x%x;", t[0]) + t[1:]
	}
	if last && t != "" && (t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		t = t[:len(t)-1] + fmt.Sprintf("&#x%x;", t[len(t)-1])
	}
	return t
}
