package render

import (
	"bytes"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// blockForms are the goldmark parser options for the blocks published
// pages have beyond GitHub-flavoured markdown: GitBook's export syntax
//
//	{% hint style="info" %} … {% endhint %}
//	{% tabs %} {% tab title="A" %} … {% endtab %} … {% endtabs %}
//	{% code title="x.go" lineNumbers="true" %} ```go … ``` {% endcode %}
//	{% stepper %} {% step %} … {% endstep %} … {% endstepper %}
//	{% columns %} {% column width="50%" %} … {% endcolumn %} … {% endcolumns %}
//	{% updates %} {% update date="2026-05-25" %} … {% endupdate %} … {% endupdates %}
//	{% embed url="https://…" %}   (or with a caption and {% endembed %})
//	{% file src="…" %}            (the same, for a file)
//	<details><summary>T</summary> … </details>
//	<figure><img src="…" alt="…"><figcaption>…</figcaption></figure>
//
// and, by an AST transformer, blockquotes that are hints: GitHub alerts
// ("> [!NOTE]") and the hints Quire's own writer made before it wrote
// GitBook's tags ("> **Info**"). Only these forms are recognized; any other raw HTML is dropped
// when rendered. Other GitBook tags on a line of their own
// ({% content-ref %}, {% include %}…) and end tags without their opening
// are dropped, and what they hold is rendered as ordinary markdown; so is
// an integration's block ({% @integration/block … %}).
func blockForms() []gparser.Option {
	return []gparser.Option{
		// Before the HTML block parser (900), which would take the HTML forms.
		gparser.WithBlockParsers(
			util.Prioritized(liquidParser{}, 850),
			util.Prioritized(detailsParser{}, 850),
			util.Prioritized(figureParser{}, 850),
			util.Prioritized(mathBlockParser{}, 850),
		),
		gparser.WithInlineParsers(documentInlineParsers()...), // math
		gparser.WithASTTransformers(util.Prioritized(hintQuotes{}, 100)),
	}
}

// Node kinds of formNode. goldmark numbers kinds in a registry of its own, so
// they are taken once, here.
var (
	kindHint       = ast.NewNodeKind("QuireHint")
	kindTabs       = ast.NewNodeKind("QuireTabs")
	kindTab        = ast.NewNodeKind("QuireTab")
	kindCodeFrame  = ast.NewNodeKind("QuireCodeFrame")
	kindEmbed      = ast.NewNodeKind("QuireEmbed")
	kindDetails    = ast.NewNodeKind("QuireDetails")
	kindSummary    = ast.NewNodeKind("QuireSummary")
	kindFigure     = ast.NewNodeKind("QuireFigure")
	kindFigCaption = ast.NewNodeKind("QuireFigCaption")
	kindDropped    = ast.NewNodeKind("QuireDroppedTag")
	kindStepper    = ast.NewNodeKind("QuireStepper")
	kindStep       = ast.NewNodeKind("QuireStep")
	kindColumns    = ast.NewNodeKind("QuireColumns")
	kindColumn     = ast.NewNodeKind("QuireColumn")
	kindUpdates    = ast.NewNodeKind("QuireUpdates")
	kindUpdate     = ast.NewNodeKind("QuireUpdate")
)

// formNode is one of the blocks above; kind says which. A summary and a
// figure caption hold lines, which goldmark parses as inline markdown; the
// others hold blocks, except a figure, an embed without a caption and a
// dropped tag.
type formNode struct {
	ast.BaseBlock
	kind  ast.NodeKind
	tag   string            // the tag that opened it, whose end tag closes it: "hint", "details"…
	attrs map[string]string // the opening tag's attributes as written, entities decoded
	leaf  bool              // it holds no blocks: the next line closes it
	id    string            // a tab's id, unique in the page (given by HTML)
	line  string            // the opening line as written, for the document to keep as text (docTagParser)
}

// Kind implements ast.Node.
func (b *formNode) Kind() ast.NodeKind { return b.kind }

// Dump implements ast.Node.
func (b *formNode) Dump(source []byte, level int) {
	kv := map[string]string{"tag": b.tag}
	for k, v := range b.attrs {
		kv[k] = v
	}
	ast.DumpHelper(b, source, level, kv, nil)
}

// innerOpen reports whether a block opened inside b with b's tag is still
// open: the end tag then closes that one, not b.
func innerOpen(pc gparser.Context, b *formNode) bool {
	opened := pc.OpenedBlocks()
	for i := len(opened) - 1; i >= 0 && opened[i].Node != b; i-- {
		if o, ok := opened[i].Node.(*formNode); ok && o.tag == b.tag {
			return true
		}
	}
	return false
}

// openInside reports whether a block of kind k opened inside b is still
// open: an item's tag then opens an item of that one.
func openInside(pc gparser.Context, b *formNode, k ast.NodeKind) bool {
	opened := pc.OpenedBlocks()
	for i := len(opened) - 1; i >= 0 && opened[i].Node != b; i-- {
		if opened[i].Node.Kind() == k {
			return true
		}
	}
	return false
}

// lineAt returns the current line from the first non-space character, and
// the offset in the source of that character; ok is false for a line
// indented 4 columns or more (code) or a blank one.
func lineAt(reader text.Reader) (line []byte, off int, ok bool) {
	l, seg := reader.PeekLine()
	w, pos := util.IndentWidth(l, reader.LineOffset())
	if w > 3 || pos >= len(l) || util.IsBlank(l[pos:]) {
		return nil, 0, false
	}
	return l[pos:], seg.Start - seg.Padding + pos, true
}

// liquidContainers are the GitBook tags that hold markdown up to their end
// tag; liquidDropped are those rendered as their content alone.
var (
	liquidContainers = map[string]ast.NodeKind{"hint": kindHint, "tabs": kindTabs, "tab": kindTab, "code": kindCodeFrame,
		"stepper": kindStepper, "step": kindStep, "columns": kindColumns, "column": kindColumn, "updates": kindUpdates, "update": kindUpdate}
	// itemParents are the tags that are items of another, and its kind: an
	// item is one only in it, and the next item's tag ends one whose end
	// tag is left out.
	itemParents   = map[string]ast.NodeKind{"tab": kindTabs, "step": kindStepper, "column": kindColumns, "update": kindUpdates}
	liquidDropped = map[string]bool{
		"content-ref": true,
		"swagger":     true, "swagger-description": true, "swagger-parameter": true, "swagger-response": true,
		"openapi": true, "openapi-operation": true, "openapi-schemas": true, "openapi-webhook": true,
		"include": true, "prompt": true,
	}
)

// liquidParser parses GitBook's "{% tag … %}" blocks.
type liquidParser struct{}

func (liquidParser) Trigger() []byte { return []byte{'{'} }

func (liquidParser) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	line, off, ok := lineAt(reader)
	if !ok {
		return nil, gparser.NoChildren
	}
	if _, _, ok := integrationTag(bytes.TrimSpace(line)); ok { // an integration's block, which only GitBook runs
		reader.AdvanceToEOL()
		return &formNode{kind: kindDropped, tag: "integration", leaf: true}, gparser.NoChildren
	}
	if expr, ok := ifTag(line); ok && tagsOf(pc, reader.Source()).hasEnd("if", off) && !tooDeep(parent) {
		reader.AdvanceToEOL()
		return &formNode{kind: kindIf, tag: "if", attrs: map[string]string{"expression": expr}}, gparser.HasChildren
	}
	name, attrs, ok := liquidTag(line)
	if !ok {
		return nil, gparser.NoChildren
	}
	idx := tagsOf(pc, reader.Source())
	b := &formNode{kind: kindDropped, tag: name, attrs: attrs, leaf: true}
	kind, container := liquidContainers[name]
	switch {
	case container && idx.hasEnd(name, off) && !tooDeep(parent) && inItemParent(parent, name):
		b.kind, b.leaf = kind, false
	case name == "embed" || name == "file":
		b.kind, b.leaf = kindEmbed, !idx.hasBody(name, off) || tooDeep(parent)
	case container || liquidDropped[name] || isEndTag(name):
		// Unclosed, misplaced or not rendered: its content is rendered alone.
	default:
		return nil, gparser.NoChildren // not GitBook's: text
	}
	reader.AdvanceToEOL()
	if b.leaf {
		return b, gparser.NoChildren
	}
	return b, gparser.HasChildren
}

func (liquidParser) Continue(node ast.Node, reader text.Reader, pc gparser.Context) gparser.State {
	b := node.(*formNode)
	if b.leaf {
		return gparser.Close
	}
	if line, _, ok := lineAt(reader); ok {
		// Every open block sees every line: the name alone is read here.
		name, _, ok := tagName(line)
		if ok && string(name) == "end"+b.tag && !innerOpen(pc, b) {
			reader.AdvanceToEOL()
			return gparser.Close
		}
		if k, item := itemParents[b.tag]; ok && item && string(name) == b.tag && !openInside(pc, b, k) {
			return gparser.Close // the next tab (step…), its end tag left out: the tabs open it
		}
	}
	return gparser.Continue | gparser.HasChildren
}

func (liquidParser) Close(ast.Node, text.Reader, gparser.Context) {}
func (liquidParser) CanInterruptParagraph() bool                  { return true }
func (liquidParser) CanAcceptIndentedLine() bool                  { return false }

func isKind(n ast.Node, k ast.NodeKind) bool { return n != nil && n.Kind() == k }

// inItemParent reports whether tag name may open in parent: an item tag
// (itemParents) only in its parent's kind, any other anywhere.
func inItemParent(parent ast.Node, name string) bool {
	k, item := itemParents[name]
	return !item || isKind(parent, k)
}

// isEndTag reports whether name ends a GitBook block: without its opening
// it is dropped.
func isEndTag(name string) bool {
	tag, ok := strings.CutPrefix(name, "end")
	_, container := liquidContainers[tag]
	return ok && (container || liquidDropped[tag] || tag == "embed" || tag == "file")
}

// liquidTag parses a line that is one "{% name key="value" … %}" tag and
// nothing else.
func liquidTag(line []byte) (name string, attrs map[string]string, ok bool) {
	n, rest, ok := tagName(line)
	if !ok {
		return "", nil, false
	}
	attrs, end, ok := tagAttrs(rest, 0)
	return string(n), attrs, ok && end == len(rest)
}

// tagName splits a line that is one "{% … %}" tag into its name and the
// rest, its attributes.
func tagName(line []byte) (name, rest []byte, ok bool) {
	s := bytes.TrimSpace(line)
	inner, ok := bytes.CutPrefix(s, []byte("{%"))
	if !ok {
		return nil, nil, false
	}
	if inner, ok = bytes.CutSuffix(inner, []byte("%}")); !ok {
		return nil, nil, false
	}
	inner = bytes.TrimSpace(inner)
	i := 0
	for i < len(inner) && (inner[i] >= 'a' && inner[i] <= 'z' || inner[i] == '-') {
		i++
	}
	if i == 0 || i < len(inner) && inner[i] != ' ' && inner[i] != '\t' {
		return nil, nil, false
	}
	return inner[:i], inner[i:], true
}

// tagAttrs parses attributes, key="value", key='value', key=value or key
// alone, up to the byte stop (0 for the end of s), and returns them with
// the index of stop. A value's backslash escapes and character references
// are decoded.
func tagAttrs(s []byte, stop byte) (attrs map[string]string, end int, ok bool) {
	return tagAttrsCase(s, stop, false)
}

// tagAttrsCase is tagAttrs, with the keys in the case they are written in
// when keepCase (an integration block's props are named so).
func tagAttrsCase(s []byte, stop byte, keepCase bool) (attrs map[string]string, end int, ok bool) {
	attrs = map[string]string{}
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '/') {
			i++
		}
		if i >= len(s) || s[i] == stop {
			return attrs, i, stop == 0 || i < len(s)
		}
		k := i
		for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' && s[i] != stop && s[i] != '/' {
			i++
		}
		key := string(s[k:i])
		if !keepCase {
			key = strings.ToLower(key)
		}
		if i >= len(s) || s[i] != '=' {
			attrs[key] = ""
			continue
		}
		v, next, ok := attrValue(s, i+1, stop)
		if !ok {
			return nil, 0, false
		}
		attrs[key], i = v, next
	}
}

// attrValue reads the value starting at s[i]: quoted, or up to a space or
// stop.
func attrValue(s []byte, i int, stop byte) (v string, next int, ok bool) {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		q := s[i]
		var b strings.Builder
		for j := i + 1; j < len(s); j++ {
			switch {
			case s[j] == '\\' && j+1 < len(s) && (s[j+1] == q || s[j+1] == '\\'):
				j++
				b.WriteByte(s[j])
			case s[j] == q:
				return html.UnescapeString(b.String()), j + 1, true
			default:
				b.WriteByte(s[j])
			}
		}
		return "", 0, false
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' && (s[j] != stop || stop == 0) {
		j++
	}
	return html.UnescapeString(string(s[i:j])), j, true
}

func isDetailsEnd(line []byte) bool {
	return bytes.EqualFold(bytes.TrimSpace(line), []byte("</details>"))
}

// detailsParser parses an expandable block as GitBook exports it:
// "<details>" (or "<details open>"), a "<summary>…</summary>" line (on
// that line or after blank lines), markdown, then "</details>" on a line
// of its own.
type detailsParser struct{}

func (detailsParser) Trigger() []byte { return []byte{'<'} }

func (detailsParser) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	line, off, ok := lineAt(reader)
	if !ok || !hasPrefixFold(line, "<details") {
		return nil, gparser.NoChildren
	}
	rest := line[len("<details"):]
	open := false
	if r, ok := cutPrefixFold(rest, " open"); ok {
		rest, open = r, true
	}
	rest, ok = bytes.CutPrefix(rest, []byte(">"))
	if !ok || tooDeep(parent) || !tagsOf(pc, reader.Source()).hasEnd("details", off) {
		return nil, gparser.NoChildren
	}
	b := &formNode{kind: kindDetails, tag: "details", attrs: map[string]string{}}
	if open {
		b.attrs["open"] = ""
	}
	restOff := off + len(line) - len(rest)
	if !util.IsBlank(rest) && !addSummary(b, rest, restOff) {
		return nil, gparser.NoChildren
	}
	reader.AdvanceToEOL()
	return b, gparser.HasChildren
}

func (detailsParser) Continue(node ast.Node, reader text.Reader, pc gparser.Context) gparser.State {
	b := node.(*formNode)
	line, off, ok := lineAt(reader)
	switch {
	case !ok:
	case isDetailsEnd(line) && !innerOpen(pc, b):
		reader.AdvanceToEOL()
		return gparser.Close
	case b.FirstChild() == nil && addSummary(b, line, off):
		reader.AdvanceToEOL()
		return gparser.Continue | gparser.NoChildren
	}
	return gparser.Continue | gparser.HasChildren
}

func (detailsParser) Close(ast.Node, text.Reader, gparser.Context) {}
func (detailsParser) CanInterruptParagraph() bool                  { return true }
func (detailsParser) CanAcceptIndentedLine() bool                  { return false }

// addSummary gives b the summary line s, at offset off in the source, when
// it is one: "<summary>title</summary>".
func addSummary(b *formNode, s []byte, off int) bool {
	t := bytes.TrimRight(s, " \t\r\n")
	lead := len(s) - len(bytes.TrimLeft(s, " \t"))
	t = t[lead:]
	inner, ok := cutPrefixFold(t, "<summary>")
	if !ok || !hasSuffixFold(inner, "</summary>") {
		return false
	}
	start := off + lead + len("<summary>")
	stop := start + len(inner) - len("</summary>")
	b.AppendChild(b, inlineBlock(kindSummary, start, stop))
	return true
}

// inlineBlock is a block of the text source[start:stop], which goldmark
// parses as inline markdown.
func inlineBlock(kind ast.NodeKind, start, stop int) *formNode {
	n := &formNode{kind: kind, leaf: true}
	n.Lines().Append(text.NewSegment(start, stop))
	return n
}

// figureParser parses an image with a caption as GitBook exports it, on one
// line: <figure><img src="…" alt="…"><figcaption><p>…</p></figcaption></figure>,
// perhaps in a <div …>, the image perhaps in a <picture> with <source>s.
type figureParser struct{}

func (figureParser) Trigger() []byte { return []byte{'<'} }

func (figureParser) Open(parent ast.Node, reader text.Reader, pc gparser.Context) (ast.Node, gparser.State) {
	line, off, ok := lineAt(reader)
	if !ok {
		return nil, gparser.NoChildren
	}
	line = bytes.TrimRight(line, " \t\r\n")
	// As the document reads them (with a dark-mode source), else more loosely.
	figs, div, ok := parseFigures(line)
	if f, one := parseFigure(line); !ok && one || ok && len(figs) == 1 {
		if ok {
			f = figs[0]
		}
		reader.AdvanceToEOL()
		return figureNode(f, off), gparser.NoChildren
	}
	// Several figures in a <div> (a gallery), or a drawing: figures in a <div>.
	if src, alt, drawing := parseDrawing(line); drawing {
		figs, div, ok = []figure{{img: map[string]string{"src": src, "alt": alt}}}, nil, true
	}
	if !ok {
		return nil, gparser.NoChildren
	}
	b := &formNode{kind: kindFigures, tag: "div", attrs: div, leaf: true}
	for _, f := range figs {
		b.AppendChild(b, figureNode(f, off))
	}
	reader.AdvanceToEOL()
	return b, gparser.NoChildren
}

// figureNode is the node of figure f, on the line at offset off.
func figureNode(f figure, off int) *formNode {
	b := &formNode{kind: kindFigure, tag: "figure", attrs: f.img, leaf: true}
	if f.capStart < f.capStop {
		b.AppendChild(b, inlineBlock(kindFigCaption, off+f.capStart, off+f.capStop))
	}
	return b
}

func (figureParser) Continue(ast.Node, text.Reader, gparser.Context) gparser.State {
	return gparser.Close
}

func (figureParser) Close(ast.Node, text.Reader, gparser.Context) {}
func (figureParser) CanInterruptParagraph() bool                  { return true }
func (figureParser) CanAcceptIndentedLine() bool                  { return false }

// figure is a parsed <figure>: its image's attributes, and where its
// caption's text is in the line.
type figure struct {
	img               map[string]string
	capStart, capStop int
}

// parseFigure parses s, a whole line, as a figure.
func parseFigure(s []byte) (f figure, ok bool) {
	i := 0
	if hasPrefixFold(s, "<div") {
		if s, ok = cutSuffixFold(s, "</div>"); !ok {
			return f, false
		}
		if i = bytes.IndexByte(s, '>') + 1; i == 0 {
			return f, false
		}
	}
	if !hasPrefixFold(s[i:], "<figure>") {
		return f, false
	}
	for i += len("<figure>"); ; {
		i += len(s[i:]) - len(bytes.TrimLeft(s[i:], " \t"))
		switch {
		case hasPrefixFold(s[i:], "</figure>"):
			i += len("</figure>")
			return f, f.img != nil && f.img["src"] != "" && util.IsBlank(s[i:])
		case hasPrefixFold(s[i:], "<img ") && f.img == nil:
			attrs, end, ok := tagAttrs(s[i+len("<img "):], '>')
			if !ok {
				return f, false
			}
			f.img, i = attrs, i+len("<img ")+end+1
		case hasPrefixFold(s[i:], "<picture>"), hasPrefixFold(s[i:], "</picture>"), hasPrefixFold(s[i:], "<source"):
			end := bytes.IndexByte(s[i:], '>')
			if end < 0 {
				return f, false
			}
			i += end + 1
		case hasPrefixFold(s[i:], "<figcaption>") && f.capStop == 0:
			if i, ok = f.caption(s, i+len("<figcaption>")); !ok {
				return f, false
			}
		default:
			return f, false
		}
	}
}

// caption finds the caption's text from s[i] to "</figcaption>", without
// the <p></p> GitBook puts around it, and returns the offset after it.
func (f *figure) caption(s []byte, i int) (int, bool) {
	end := indexFold(s[i:], "</figcaption>")
	if end < 0 {
		return 0, false
	}
	start, stop := i, i+end
	trim := func() {
		for start < stop && (s[start] == ' ' || s[start] == '\t') {
			start++
		}
		for stop > start && (s[stop-1] == ' ' || s[stop-1] == '\t') {
			stop--
		}
	}
	trim()
	if hasPrefixFold(s[start:stop], "<p>") && hasSuffixFold(s[start:stop], "</p>") {
		start, stop = start+len("<p>"), stop-len("</p>")
		trim()
	}
	f.capStart, f.capStop = start, stop
	if f.capStart == f.capStop {
		f.capStop = -1 // seen, empty
	}
	return i + end + len("</figcaption>"), true
}

func hasPrefixFold(s []byte, p string) bool {
	return len(s) >= len(p) && bytes.EqualFold(s[:len(p)], []byte(p))
}

func hasSuffixFold(s []byte, p string) bool {
	return len(s) >= len(p) && bytes.EqualFold(s[len(s)-len(p):], []byte(p))
}

func cutPrefixFold(s []byte, p string) ([]byte, bool) {
	if !hasPrefixFold(s, p) {
		return s, false
	}
	return s[len(p):], true
}

func cutSuffixFold(s []byte, p string) ([]byte, bool) {
	if !hasSuffixFold(s, p) {
		return s, false
	}
	return s[:len(s)-len(p)], true
}

// indexFold is the index of the first p, ASCII letters in any case, in s.
func indexFold(s []byte, p string) int {
	for i := 0; i+len(p) <= len(s); i++ {
		if s[i] == p[0] && hasPrefixFold(s[i:], p) {
			return i
		}
	}
	return -1
}

// hintQuotes turns blockquotes that are hints into hints: a GitHub alert,
// whose first line is "[!NOTE]", "[!TIP]", "[!IMPORTANT]", "[!WARNING]"
// or "[!CAUTION]", and a hint as Quire's own writer makes it, whose first
// paragraph is only its style in bold: "**Info**", "**Success**",
// "**Warning**" or "**Danger**". The marker is dropped.
type hintQuotes struct{}

// alerts maps a GitHub alert to a hint style and the name it is read by.
var alerts = map[string][2]string{
	"[!note]": {"info", "Note"}, "[!tip]": {"success", "Tip"}, "[!important]": {"info", "Important"},
	"[!warning]": {"warning", "Warning"}, "[!caution]": {"danger", "Caution"},
}

// Transform implements parser.ASTTransformer.
func (hintQuotes) Transform(doc *ast.Document, reader text.Reader, _ gparser.Context) {
	var quotes []*ast.Blockquote
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if q, ok := n.(*ast.Blockquote); ok && entering {
			quotes = append(quotes, q)
		}
		return ast.WalkContinue, nil
	})
	src := reader.Source()
	for _, q := range quotes {
		p, ok := q.FirstChild().(*ast.Paragraph)
		if !ok {
			continue
		}
		style, label, ok := quireHint(p, src)
		if ok {
			q.RemoveChild(q, p)
		} else if style, label, ok = alert(p, src); !ok {
			continue
		}
		h := &formNode{kind: kindHint, tag: "hint", attrs: map[string]string{"style": style, "label": label}}
		for c := q.FirstChild(); c != nil; c = q.FirstChild() {
			h.AppendChild(h, c)
		}
		q.Parent().ReplaceChild(q.Parent(), q, h)
	}
}

// quireHint reports whether paragraph p is a hint's bold style alone.
func quireHint(p *ast.Paragraph, src []byte) (style, label string, ok bool) {
	e, ok := p.FirstChild().(*ast.Emphasis)
	if !ok || e.Level != 2 || p.ChildCount() != 1 || e.ChildCount() != 1 {
		return "", "", false
	}
	t, ok := e.FirstChild().(*ast.Text)
	if !ok {
		return "", "", false
	}
	switch label := string(t.Segment.Value(src)); label {
	case "Info", "Success", "Warning", "Danger":
		return strings.ToLower(label), label, true
	}
	return "", "", false
}

// alert reports whether paragraph p starts with a GitHub alert's line, and
// drops that line from it (and p itself when nothing else is left).
func alert(p *ast.Paragraph, src []byte) (style, label string, ok bool) {
	if p.Lines().Len() == 0 {
		return "", "", false
	}
	first := p.Lines().At(0)
	a, ok := alerts[strings.ToLower(string(bytes.TrimSpace(first.Value(src))))]
	if !ok {
		return "", "", false
	}
	for c := p.FirstChild(); c != nil; c = p.FirstChild() {
		t, ok := c.(*ast.Text)
		if !ok || t.Segment.Start >= first.Stop {
			break
		}
		p.RemoveChild(p, c)
	}
	if p.ChildCount() == 0 {
		p.Parent().RemoveChild(p.Parent(), p)
	}
	return a[0], a[1], true
}
