package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Marks beyond markdown's own (bold, italic, strikethrough, code) are
// written as Git Sync writes them, inline HTML around the text:
//
//	<kbd>Ctrl</kbd>  <sup>2</sup>  <sub>2</sub>
//	<mark style="color:red;">red</mark>
//	<mark style="color:purple;background-color:green;">both</mark>
//	<mark style="background-color:yellow;">highlighted</mark>
//
// Marks nest as the tags do: outermost first in a leaf's marks, code
// innermost. A tag is a mark only with its end tag among the inline nodes
// beside it (so "<sup>x" alone, or a tag crossing emphasis, stays text),
// and a <mark> only when its style holds nothing but GitBook's colors.
//
// In a leaf's marks, as the converter and the writer keep them, a color
// mark is the string "color:<text>:<background>".

// htmlMarks are the marks written as an HTML element, by element name.
var htmlMarks = map[string]string{"kbd": "keyboard", "sup": "superscript", "sub": "subscript"}

// markColors are the colors of a color mark (DocumentTextColor).
var markColors = []string{"default", "green", "blue", "red", "orange", "yellow", "purple", "pink", "violet", "cyan",
	"$primary", "$info", "$success", "$warning", "$danger", "$tint"}

// openMarkTag reads raw inline HTML as the opening tag of a mark: the tag's
// name and the mark.
func openMarkTag(raw string) (tag, mark string, ok bool) {
	inner, ok := strings.CutPrefix(raw, "<")
	if inner, ok = strings.CutSuffix(inner, ">"); !ok {
		return "", "", false
	}
	i := 0
	for i < len(inner) && inner[i] >= 'a' && inner[i] <= 'z' {
		i++
	}
	tag, rest := inner[:i], inner[i:]
	if m, ok := htmlMarks[tag]; ok && rest == "" {
		return tag, m, true
	}
	if tag != "mark" || strings.HasSuffix(rest, "/") || rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	attrs, end, ok := tagAttrs([]byte(rest), 0)
	if !ok || end != len(rest) || len(attrs) > 1 {
		return "", "", false
	}
	style, has := attrs["style"]
	if len(attrs) == 1 && !has {
		return "", "", false
	}
	text, bg := "default", "default"
	for _, decl := range strings.Split(style, ";") {
		prop, val, _ := strings.Cut(decl, ":")
		prop, val = strings.TrimSpace(strings.ToLower(prop)), strings.TrimSpace(val)
		switch {
		case prop == "" && val == "":
		case prop == "color" && slices.Contains(markColors, val):
			text = val
		case prop == "background-color" && slices.Contains(markColors, val):
			bg = val
		default:
			return "", "", false
		}
	}
	return "mark", "color:" + text + ":" + bg, true
}

// inlineTag is an opening tag of inline HTML that Document reads with its
// end tag: a mark's (mark set), an expression's or a button's (kind set).
type inlineTag struct {
	name  string            // the element: "kbd", "mark", "code", "a"…
	mark  string            // a mark, as a leaf's marks keep it
	kind  string            // "expression" or "button"
	attrs map[string]string // a button's attributes
}

// openInlineTag reads raw inline HTML as the opening tag of a mark
// (openMarkTag), an expression (<code class="expression">) or a button
// (<a href="…" class="button primary" data-icon="…">).
func openInlineTag(raw string) (inlineTag, bool) {
	if tag, mark, ok := openMarkTag(raw); ok {
		return inlineTag{name: tag, mark: mark}, true
	}
	inner, ok := strings.CutPrefix(raw, "<")
	if inner, ok = strings.CutSuffix(inner, ">"); !ok {
		return inlineTag{}, false
	}
	name, rest, _ := strings.Cut(inner, " ")
	attrs, end, ok := tagAttrs([]byte(rest), 0)
	if !ok || end != len(rest) || strings.HasSuffix(rest, "/") {
		return inlineTag{}, false
	}
	switch {
	case name == "code" && len(attrs) == 1 && attrs["class"] == "expression":
		return inlineTag{name: name, kind: "expression"}, true
	case name == "i" && len(attrs) == 1 && strings.HasPrefix(attrs["class"], "fa-") && validIcon(attrs["class"][3:]):
		return inlineTag{name: name, kind: "icon", attrs: attrs}, true
	case name == "a" && buttonAttrs(attrs):
		return inlineTag{name: name, kind: "button", attrs: attrs}, true
	}
	return inlineTag{}, false
}

// tagPairs pairs the inline tags among a node's inline children: each
// opening tag with its end tag, the nearest one after it of the same name
// not taken by a tag nested in it. Found in one pass, so a paragraph of many
// unclosed tags takes time in its length.
type tagPairs struct {
	index map[ast.Node]int       // each child's position
	end   map[ast.Node]ast.Node  // an opening tag's end tag
	tag   map[ast.Node]inlineTag // an opening tag's
}

func pairTags(parent ast.Node, src []byte) tagPairs {
	raw := false
	for n := parent.FirstChild(); n != nil && !raw; n = n.NextSibling() {
		_, raw = n.(*ast.RawHTML)
	}
	if !raw { // nothing to pair: no maps for the many paragraphs without HTML
		return tagPairs{}
	}
	p := tagPairs{index: map[ast.Node]int{}, end: map[ast.Node]ast.Node{}, tag: map[ast.Node]inlineTag{}}
	open := map[string][]ast.Node{}
	i := 0
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		p.index[n] = i
		i++
		raw, ok := n.(*ast.RawHTML)
		if !ok {
			continue
		}
		s := rawHTML(raw, src)
		if t, ok := openInlineTag(s); ok {
			open[t.name] = append(open[t.name], n)
			p.tag[n] = t
			continue
		}
		if name, ok := endTag(s); ok && len(open[name]) > 0 {
			o := open[name][len(open[name])-1]
			open[name] = open[name][:len(open[name])-1]
			p.end[o] = n
		}
	}
	return p
}

// endTag reads raw inline HTML as an end tag: the element's name.
func endTag(raw string) (string, bool) {
	inner, ok := strings.CutPrefix(raw, "</")
	if inner, ok = strings.CutSuffix(inner, ">"); !ok {
		return "", false
	}
	return strings.TrimRight(inner, " \t\n"), true
}

// closes returns the end tag of opening tag n and the tag when it comes
// before stop (nil: the last child).
func (p tagPairs) closes(n, stop ast.Node) (ast.Node, inlineTag, bool) {
	end, ok := p.end[n]
	if !ok || stop != nil && p.index[end] >= p.index[stop] {
		return nil, inlineTag{}, false
	}
	return end, p.tag[n], true
}

// markNode is a mark's node in a leaf's marks.
func markNode(m string) map[string]any {
	if rest, ok := strings.CutPrefix(m, "color:"); ok {
		text, bg, _ := strings.Cut(rest, ":")
		return map[string]any{"object": "mark", "type": "color", "data": map[string]any{"text": text, "background": bg}}
	}
	return map[string]any{"object": "mark", "type": m}
}

// markName is a mark node as a leaf's marks keep it, or an error naming
// path when markdown cannot write it.
func markName(mm map[string]any, path string) (string, error) {
	typ, _ := mm["type"].(string)
	switch typ {
	case "bold", "italic", "strikethrough", "code", "keyboard", "superscript", "subscript":
		return typ, nil
	case "color":
		data, _ := mm["data"].(map[string]any)
		text, _ := data["text"].(string)
		bg, _ := data["background"].(string)
		for k, v := range map[string]string{"text": text, "background": bg} {
			if !slices.Contains(markColors, v) {
				return "", fmt.Errorf("%s.data.%s: not a color of the reference (DocumentTextColor)", path, k)
			}
		}
		return "color:" + text + ":" + bg, nil
	}
	return "", fmt.Errorf("%s.type: unknown mark %q", path, typ)
}

// markDelims are the opening and closing delimiters of a mark the writer
// writes around text: emphasis, or a mark's HTML tags.
func markDelims(m string) (open, close string) {
	switch m {
	case "bold":
		return "**", "**"
	case "italic":
		return "*", "*"
	case "strikethrough":
		return "~~", "~~"
	}
	if rest, ok := strings.CutPrefix(m, "color:"); ok {
		text, bg, _ := strings.Cut(rest, ":")
		style := ""
		if text != "default" {
			style += "color:" + text + ";"
		}
		if bg != "default" {
			style += "background-color:" + bg + ";"
		}
		if style == "" {
			return "<mark>", "</mark>"
		}
		return `<mark style="` + style + `">`, "</mark>"
	}
	for tag, name := range htmlMarks {
		if name == m {
			return "<" + tag + ">", "</" + tag + ">"
		}
	}
	return "", ""
}

// knownMark reports whether markdown writes mark m.
func knownMark(m string) bool {
	open, _ := markDelims(m)
	return open != "" || m == "code"
}

// markTagAttr is the attribute pairMarkTags gives a mark's tags: the HTML
// written in their place; inlineTagAttr that it gives an expression's or a
// button's tags: their inlineTag, the end tag's name "/" and the element's.
var (
	markTagAttr   = []byte("quire-mark-tag")
	inlineTagAttr = []byte("quire-inline-tag")
)

// pairMarkTags gives each mark tag of doc paired with its end tag, as
// Document reads them, the HTML the page writes for it: <kbd>, <sup>,
// <sub>, or <mark class="mark-text-red mark-bg-green"> for a color, whose
// classes the site styles. Unpaired tags stay raw HTML, which is dropped.
func pairMarkTags(doc ast.Node, src []byte) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() != ast.TypeBlock && n.Type() != ast.TypeInline {
			return ast.WalkContinue, nil
		}
		pairs := pairTags(n, src)
		for open, end := range pairs.end {
			t := pairs.tag[open]
			if t.kind == "button" && inLink(open) || t.kind == "icon" {
				continue // a link in a link: its label alone; an icon: its text (":rocket:"), the site having no icon font
			}
			if t.kind != "" {
				open.SetAttribute(inlineTagAttr, t)
				end.SetAttribute(inlineTagAttr, inlineTag{name: "/" + t.name, kind: t.kind})
				continue
			}
			mark := t.mark
			tag, close := markDelims(mark)
			if rest, ok := strings.CutPrefix(mark, "color:"); ok {
				text, bg, _ := strings.Cut(rest, ":")
				var classes []string
				if text != "default" {
					classes = append(classes, "mark-text-"+strings.TrimPrefix(text, "$"))
				}
				if bg != "default" {
					classes = append(classes, "mark-bg-"+strings.TrimPrefix(bg, "$"))
				}
				tag = "<mark>"
				if classes != nil {
					tag = `<mark class="` + strings.Join(classes, " ") + `">`
				}
			}
			open.SetAttribute(markTagAttr, tag)
			end.SetAttribute(markTagAttr, close)
		}
		return ast.WalkContinue, nil
	})
}
