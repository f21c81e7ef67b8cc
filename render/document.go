package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Document converts markdown to the JSON document form of the reference
// (schema JSONDocument): {"object":"document","data":{},"nodes":[…]}.
// resolve says what a link or image destination points at; when it is nil,
// or cannot resolve a target, the link is a URL.
//
// The schema limits what each block may hold, so some constructs are
// flattened where they appear: in a blockquote, code is a paragraph of code
// text and a table a paragraph per row; outside the top level, images stay
// inline. Every block, inline and fragment has a "key" (keyNodes).
//
// Every line ending, "\r\n" or a lone "\r" as much as "\n", is read as
// "\n" (CommonMark §2.1), so text holds a "\r" only from a character
// reference ("&#13;").
//
// Markdown past the bounds CheckDocument enforces, stored before it did,
// still converts: blockquotes and lists deeper than MaxNesting, and tables
// of more than MaxTableCells cells, are their text. DocumentJSON also
// refuses more than MaxDocumentNodes nodes.
func Document(markdown string, resolve func(target string) Resolution) map[string]any {
	return document(parse(markdown), resolve)
}

// ErrDocumentTooLarge is DocumentJSON's answer to markdown of more than
// MaxDocumentNodes nodes.
var ErrDocumentTooLarge = fmt.Errorf("document: more than %d elements", MaxDocumentNodes)

// DocumentJSON is Document encoded, or ErrDocumentTooLarge without building
// it when the markdown holds more than MaxDocumentNodes nodes, which
// CheckDocument refuses. The document of any markdown CheckDocument accepts
// is at most some MiB (BenchmarkDocumentBounds measures the worst known),
// and its JSON at most some 400 levels deep.
func DocumentJSON(markdown string, resolve func(target string) Resolution) ([]byte, error) {
	p := parse(markdown)
	if p.nodes > MaxDocumentNodes {
		return nil, ErrDocumentTooLarge
	}
	return json.Marshal(document(p, resolve))
}

func document(p *parsed, resolve func(target string) Resolution) map[string]any {
	c := &converter{src: p.src, resolve: resolve}
	nodes := c.blocks(p.doc, atTop)
	keyNodes(nodes)
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": nodes}
}

// NormalizeLineEndings turns "\r\n" and a lone "\r" into "\n", as
// CommonMark reads them; markdown is stored so (edit.Parse, comments). goldmark
// ends lines only at "\n": a lone "\r" is text to it, and the "\r" of
// "\r\n" stays in some text (code spans, code in a blockquote) but not in
// other, so the same markdown with CRLF line endings gave another document.
func NormalizeLineEndings(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// place is where a block sits; the schema allows different blocks in each.
type place int

const (
	atTop    place = iota // anything
	inItem                // no images block
	inQuote               // only paragraphs, headings, lists, dividers and quotes
	inHint                // only paragraphs, headings, lists, dividers and tables
	inBody                // an expandable's body: anything but another expandable
	inTab                 // a tab: anything but tables, expandables and tabs
	inStep                // a step: no tables, tabs, steppers, columns or updates
	inColumn              // a column: no tabs, columns or updates
	inUpdate              // an update: no tables, steppers, columns or updates
)

// imagesBlock reports whether an images block may be at.
func imagesBlock(at place) bool {
	return at == atTop || at == inBody || at == inTab || at == inStep || at == inColumn || at == inUpdate
}

// tableAsRows reports whether a table at is a paragraph per row: where the
// schema allows none.
func tableAsRows(at place) bool {
	return at == inQuote || at == inTab || at == inStep || at == inUpdate
}

type converter struct {
	src     []byte
	resolve func(string) Resolution
}

func (c *converter) blocks(parent ast.Node, at place) []any {
	nodes := []any{}
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		nodes = append(nodes, c.block(n, at)...)
	}
	return nodes
}

func (c *converter) block(n ast.Node, at place) []any {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if f, ok := mathAlone(n); ok && allowed("math", at) {
			return []any{c.math(f, at)}
		}
		if imagesBlock(at) {
			if imgs := c.images(n); imgs != nil {
				return []any{imgs}
			}
		}
		return []any{block("paragraph", nil, c.inlines(n, nil))}
	case *ast.Heading:
		return c.heading(n)
	case *ast.ThematicBreak:
		return []any{map[string]any{"object": "block", "type": "divider", "isVoid": true, "data": map[string]any{}}}
	case *ast.List:
		items := []any{}
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			nodes := c.blocks(it, inItem)
			if len(nodes) == 0 { // "-" alone: an item still holds a block
				nodes = []any{block("paragraph", nil, []any{textNode(leaf("", nil))})}
			}
			items = append(items, block("list-item", nil, nodes))
		}
		if !n.IsOrdered() {
			if tasks(n) {
				return []any{c.taskList(n, items)}
			}
			return []any{block("list-unordered", nil, items)}
		}
		data := map[string]any{}
		if n.Start != 1 {
			data["start"] = n.Start
		}
		return []any{block("list-ordered", data, items)}
	case *ast.Blockquote:
		if at == inHint { // a hint cannot hold a quote: its content
			return c.blocks(n, inHint)
		}
		nodes := c.blocks(n, inQuote)
		if len(nodes) == 0 {
			nodes = []any{block("paragraph", nil, []any{textNode(leaf("", nil))})}
		}
		return []any{block("blockquote", nil, nodes)}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return []any{c.code(n, at)}
	case *ast.HTMLBlock:
		s := c.lines(n)
		if n.HasClosure() {
			s += string(n.ClosureLine.Value(c.src))
		}
		s = strings.TrimRight(s, "\n")
		s = strings.ReplaceAll(s, "\x00", "\uFFFD") // as in all other text (CommonMark §2.3)
		return []any{block("paragraph", nil, []any{textNode(leaf(s, nil))})}
	case *east.Table:
		if tableAsRows(at) {
			return c.tableRows(n)
		}
		return []any{c.table(n)}
	case *ast.LinkReferenceDefinition:
		return nil
	case *mathBlock:
		return []any{c.math(c.mathFormula(n), at)}
	case *formNode:
		switch n.kind {
		case kindHint:
			return c.hint(n, at)
		case kindDetails:
			return c.expandable(n, at)
		case kindTabs:
			return c.tabs(n, at)
		case kindCodeFrame:
			return c.codeFrame(n, at)
		case kindEmbed:
			return c.embed(n, at)
		case kindRef:
			return c.refBlock(n, at)
		case kindInclude:
			return c.include(n, at)
		case kindIntegration:
			return c.integration(n, at)
		case kindIf:
			return c.ifBlock(n, at)
		case kindPrompt:
			return c.prompt(n, at)
		case kindFigures:
			return c.figures(n, at)
		case kindDrawing:
			return c.drawing(n, at)
		case kindStepper:
			return c.stepper(n, at)
		case kindColumns:
			return c.columns(n, at)
		case kindUpdates:
			return c.updates(n, at)
		}
		return c.blocks(n, at) // docParser reads no other
	default: // no other block is parsed; keep any text rather than lose it
		if s := plainText(n, c.src); s != "" {
			return []any{block("paragraph", nil, []any{textNode(leaf(s, nil))})}
		}
		return nil
	}
}

// block is a non-void block; data defaults to {}.
func block(typ string, data map[string]any, nodes []any) map[string]any {
	if data == nil {
		data = map[string]any{}
	}
	return map[string]any{"object": "block", "type": typ, "isVoid": false, "data": data, "nodes": nodes}
}

// code is a code block, or in a blockquote or a hint (which cannot hold
// one) a paragraph of code text.
func (c *converter) code(n ast.Node, at place) map[string]any {
	lines := strings.Split(strings.TrimSuffix(c.lines(n), "\n"), "\n")
	if at == inQuote || at == inHint {
		return block("paragraph", nil, []any{textNode(leaf(strings.Join(lines, "\n"), []string{"code"}))})
	}
	data := map[string]any{}
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		if lang := f.Language(c.src); len(lang) > 0 {
			data["syntax"] = decode(lang)
		}
	}
	nodes := make([]any, len(lines))
	for i, l := range lines {
		nodes[i] = block("code-line", nil, []any{textNode(leaf(l, nil))})
	}
	return block("code", data, nodes)
}

// lines is the source text of a block's lines.
func (c *converter) lines(n ast.Node) string {
	var b strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(c.src))
	}
	return b.String()
}

// images returns an images block when paragraph n holds only images (and
// white space between them), else nil.
func (c *converter) images(n ast.Node) map[string]any {
	var imgs []any
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch := ch.(type) {
		case *ast.Image:
			data := c.imageData(ch)
			imgs = append(imgs, map[string]any{"object": "block", "type": "image", "isVoid": true, "data": data, "fragments": []any{}})
		case *ast.Text:
			if strings.TrimSpace(string(ch.Value(c.src))) != "" {
				return nil
			}
		default:
			return nil
		}
	}
	if imgs == nil {
		return nil
	}
	return map[string]any{"object": "block", "type": "images", "isVoid": false, "data": map[string]any{}, "nodes": imgs}
}

func (c *converter) imageData(n *ast.Image) map[string]any {
	data := map[string]any{"ref": c.ref(decode(n.Destination), true)}
	if alt := plainText(n, c.src); alt != "" {
		data["alt"] = alt
	}
	return data
}

// ref is the content reference of a link or image target: a page link with a
// "#fragment" is an anchor in that page, and what resolves to nothing stays
// the URL as written.
func (c *converter) ref(target string, image bool) map[string]any {
	var r Resolution
	if c.resolve != nil {
		r = c.resolve(target)
	}
	_, frag, _ := strings.Cut(target, "#")
	switch {
	case r.Kind == KindFile && r.FileID != "":
		return map[string]any{"kind": "file", "file": r.FileID}
	case image: // the schema lets images point only at files and URLs
	case r.Kind == KindPage && r.PageID != "" && frag != "":
		return map[string]any{"kind": "anchor", "anchor": frag, "page": r.PageID}
	case r.Kind == KindPage && r.PageID != "":
		return map[string]any{"kind": "page", "page": r.PageID}
	case r.Kind == KindAnchor:
		return map[string]any{"kind": "anchor", "anchor": frag}
	case r.Kind == KindURL && r.URL != "":
		return map[string]any{"kind": "url", "url": r.URL}
	}
	return map[string]any{"kind": "url", "url": target}
}

// table is a table block: one text column per header cell, one record per
// row, and each cell's content in a fragment the record names.
func (c *converter) table(t *east.Table) map[string]any {
	var cols []any
	defs := map[string]any{}
	records := map[string]any{}
	var frags []any
	row := 0
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		if _, header := r.(*east.TableHeader); header {
			i := 0
			for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
				id := fmt.Sprintf("c%d", i)
				cols = append(cols, id)
				defs[id] = map[string]any{"id": id, "title": plainText(cell, c.src), "type": "text", "textAlignment": alignment(t, i)}
				i++
			}
			continue
		}
		values := map[string]any{}
		i := 0
		for cell := r.FirstChild(); cell != nil && i < len(cols); cell = cell.NextSibling() {
			frag := fmt.Sprintf("r%d-c%d", row, i)
			values[cols[i].(string)] = frag
			frags = append(frags, map[string]any{"object": "fragment", "fragment": frag, "nodes": []any{block("paragraph", nil, c.inlines(cell, nil))}})
			i++
		}
		records[fmt.Sprintf("r%d", row)] = map[string]any{"orderIndex": fmt.Sprintf("%08d", row), "values": values}
		row++
	}
	if cols == nil {
		cols = []any{}
	}
	if frags == nil {
		frags = []any{}
	}
	return map[string]any{
		"object": "block", "type": "table", "isVoid": true, "fragments": frags,
		"data": map[string]any{
			"view":       map[string]any{"type": "grid", "columns": cols, "hideHeader": false},
			"records":    records,
			"definition": defs,
		},
	}
}

func alignment(t *east.Table, i int) string {
	if i < len(t.Alignments) {
		switch t.Alignments[i] {
		case east.AlignCenter:
			return "center"
		case east.AlignRight:
			return "right"
		}
	}
	return "left"
}

// tableRows is a table as paragraphs, one per row with " | " between cells,
// for a blockquote or a tab, which cannot hold a table.
func (c *converter) tableRows(t *east.Table) []any {
	var rows []any
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		b := &inlines{}
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			if cell != r.FirstChild() {
				b.leaf(" | ", nil)
			}
			c.walk(b, cell, nil)
		}
		rows = append(rows, block("paragraph", nil, b.nodes()))
	}
	return rows
}

// inlines converts n's inline children, with marks applied to all text.
func (c *converter) inlines(n ast.Node, marks []string) []any {
	b := &inlines{}
	c.walk(b, n, marks)
	return b.nodes()
}

func (c *converter) walk(b *inlines, n ast.Node, marks []string) {
	c.walkRange(b, n.FirstChild(), nil, marks, pairTags(n, c.src))
}

// walkRange converts the inline nodes from first up to stop (nil: all),
// whose mark tags pairs pairs.
func (c *converter) walkRange(b *inlines, first, stop ast.Node, marks []string, pairs tagPairs) {
	for n := first; n != nil && n != stop; n = n.NextSibling() {
		switch ch := n.(type) {
		case *ast.Text:
			b.leaf(textValue(ch, c.src), marks)
			switch {
			case ch.HardLineBreak():
				b.leaf("\n", marks)
			case ch.SoftLineBreak(): // renders as a space; a "\n" would be a hard break
				b.leaf(" ", marks)
			}
		case *ast.String:
			b.leaf(stringValue(ch), marks)
		case *ast.CodeSpan:
			b.leaf(codeSpanText(ch, c.src), withMark(marks, "code"))
		case *ast.Emphasis:
			mark := "italic"
			if ch.Level >= 2 {
				mark = "bold"
			}
			c.walk(b, ch, withMark(marks, mark))
		case *east.Strikethrough:
			c.walk(b, ch, withMark(marks, "strikethrough"))
		case *ast.Link:
			if inLink(ch) {
				c.walk(b, ch, marks)
				continue
			}
			if string(ch.Title) == "mention" {
				b.inline(c.mention(ch))
				continue
			}
			b.inline(map[string]any{
				"object": "inline", "type": "link", "isVoid": false,
				"data":  map[string]any{"ref": c.ref(decode(ch.Destination), false)},
				"nodes": c.inlines(ch, marks),
			})
		case *ast.AutoLink:
			if inLink(ch) {
				b.leaf(string(ch.Label(c.src)), marks)
				continue
			}
			b.inline(map[string]any{
				"object": "inline", "type": "link", "isVoid": false,
				"data":  map[string]any{"ref": c.ref(autoLinkURL(ch, c.src), false)},
				"nodes": []any{textNode(leaf(string(ch.Label(c.src)), marks))},
			})
		case *ast.Image:
			b.inline(map[string]any{"object": "inline", "type": "inline-image", "isVoid": true, "data": c.imageData(ch)})
		case *mathInline:
			if inLink(ch) { // a link holds only text and images
				b.leaf("$$"+ch.formula+"$$", marks)
				continue
			}
			b.inline(inlineMath(ch.formula))
		case *east.TaskCheckBox: // in a list that is not all tasks (see taskList): its text
			b.leaf(map[bool]string{false: "[ ] ", true: "[x] "}[ch.IsChecked], marks)
		case *ast.RawHTML: // a mark's tags (see openMarkTag), else kept as the text it is
			if end, tag, ok := pairs.closes(ch, stop); ok {
				switch {
				case tag.mark != "" && end != ch.NextSibling(): // a mark of nothing is its tags' text
					c.walkRange(b, ch.NextSibling(), end, withMark(marks, tag.mark), pairs)
					n = end
					continue
				case tag.kind == "expression" && !inLink(ch): // a link holds only text and images
					b.inline(c.expression(ch.NextSibling(), end))
					n = end
					continue
				case tag.kind == "icon" && !inLink(ch):
					if icon := c.icon(tag, ch.NextSibling(), end); icon != nil {
						b.inline(icon)
						n = end
						continue
					}
				}
			}
			b.leaf(rawHTML(ch, c.src), marks)
		default:
			c.walk(b, ch, marks)
		}
	}
}

// inLink reports whether n is inside a link. CommonMark lets an autolink be
// in a link's text ("[see <https://a.test>](https://b.test)"), but the schema
// lets a link hold only text and images (DocumentInlineLink), so the inner
// link is its text.
func inLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.Link); ok {
			return true
		}
	}
	return false
}

// inlines collects a block's inline nodes, grouping consecutive leaves into
// one text node. A leaf's text is built as it grows, so a paragraph of many
// lines takes time in its length, not its square.
type inlines struct {
	out    []any
	leaves []*pendingLeaf
}

type pendingLeaf struct {
	text  strings.Builder
	marks []string
}

func (b *inlines) leaf(s string, marks []string) {
	if s == "" {
		return
	}
	if n := len(b.leaves); n > 0 && slices.Equal(b.leaves[n-1].marks, marks) {
		b.leaves[n-1].text.WriteString(s)
		return
	}
	l := &pendingLeaf{marks: marks}
	l.text.WriteString(s)
	b.leaves = append(b.leaves, l)
}

func (b *inlines) inline(n map[string]any) {
	b.flush()
	b.out = append(b.out, n)
}

func (b *inlines) flush() {
	if len(b.leaves) > 0 {
		leaves := make([]any, len(b.leaves))
		for i, l := range b.leaves {
			leaves[i] = leaf(l.text.String(), l.marks)
		}
		b.out = append(b.out, textNode(leaves...))
		b.leaves = nil
	}
}

// nodes returns the collected nodes; an empty block still holds one text.
func (b *inlines) nodes() []any {
	b.flush()
	if len(b.out) == 0 {
		return []any{textNode(leaf("", nil))}
	}
	return b.out
}

func textNode(leaves ...any) map[string]any {
	return map[string]any{"object": "text", "leaves": leaves}
}

func leaf(s string, marks []string) map[string]any {
	ms := make([]any, len(marks))
	for i, m := range marks {
		ms[i] = markNode(m)
	}
	return map[string]any{"object": "leaf", "text": s, "marks": ms}
}

// withMark returns marks plus m, without repeating it (as in "*_x_*").
func withMark(marks []string, m string) []string {
	for _, have := range marks {
		if have == m {
			return marks
		}
	}
	return append(marks[:len(marks):len(marks)], m)
}

// plainText is n's inline content as text: markup is dropped, code spans
// and raw HTML are kept as written, images give their alt text, and line
// breaks become spaces.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.WriteString(textValue(n, src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.WriteString(stringValue(n))
		case *ast.CodeSpan:
			b.WriteString(codeSpanText(n, src))
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			b.Write(n.Label(src))
		case *ast.RawHTML:
			b.WriteString(rawHTML(n, src))
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// textValue is a text node's content with backslash escapes and character
// references decoded.
func textValue(n *ast.Text, src []byte) string {
	if n.IsRaw() {
		return string(n.Value(src))
	}
	return decode(n.Value(src))
}

func stringValue(n *ast.String) string {
	if n.IsRaw() || n.IsCode() {
		return string(n.Value)
	}
	return decode(n.Value)
}

// codeSpanText is a code span's content; a line ending inside it is a space.
func codeSpanText(n *ast.CodeSpan, src []byte) string {
	var b strings.Builder
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if t, ok := ch.(*ast.Text); ok {
			v := t.Value(src)
			if bytes.HasSuffix(v, []byte("\n")) {
				v = append(v[:len(v)-1:len(v)-1], ' ')
			}
			b.Write(v)
		}
	}
	return b.String()
}

func rawHTML(n *ast.RawHTML, src []byte) string {
	var b strings.Builder
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		b.Write(seg.Value(src))
	}
	return strings.ReplaceAll(b.String(), "\x00", "\uFFFD") // as in all other text (CommonMark §2.3)
}

// autoLinkURL is an autolink's target; an email address gets "mailto:".
func autoLinkURL(n *ast.AutoLink, src []byte) string {
	u := string(n.URL(src))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
		u = "mailto:" + u
	}
	return u
}
