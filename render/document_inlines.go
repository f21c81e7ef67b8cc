package render

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// Inlines beyond links and images, read and written as Git Sync writes
// them:
//
//	<code class="expression">space.vars.name</code>
//	<a href="https://…" class="button primary" data-icon="rocket">Label</a>
//	[guide.md](guide.md "mention")
//	<i class="fa-rocket">:rocket:</i>
//
// An expression's text and a button's label are the text between the tags;
// a mention is a link titled "mention", its text the last part of its
// target (a mention holds no text: GitBook shows the page's title).
//
// A button stays its text in the document: the reference's
// DocumentInlineButton cannot be met (its data is allOf an object requiring
// label and kind and one allowing nothing but ref or action), so no
// document holding one would be valid. Markdown still writes a button a
// client sends as Git Sync does, and published pages show it as a button.

// buttonKinds are a button's kinds, written in its class after "button".
var buttonKinds = []string{"primary", "secondary"}

// buttonSizes are a button's sizes, written data-size (Git Sync's form for
// it is not known; GitBook's editor leaves it out by default).
var buttonSizes = []string{"small", "medium", "large"}

// buttonAttrs reports whether attrs are a button's: href, class "button
// <kind>", and optionally data-icon and data-size, nothing else.
func buttonAttrs(attrs map[string]string) bool {
	class, ok := strings.CutPrefix(attrs["class"], "button ")
	if _, href := attrs["href"]; !ok || !href || !slices.Contains(buttonKinds, class) {
		return false
	}
	if s, ok := attrs["data-size"]; ok && !slices.Contains(buttonSizes, s) {
		return false
	}
	for k := range attrs {
		switch k {
		case "href", "class", "data-icon", "data-size":
		default:
			return false
		}
	}
	return true
}

// expression is the expression inline of the nodes from first up to end,
// between an expression's tags.
func (c *converter) expression(first, end ast.Node) map[string]any {
	var b strings.Builder
	for n := first; n != nil && n != end; n = n.NextSibling() {
		b.WriteString(plainText(n, c.src))
	}
	return map[string]any{"object": "inline", "type": "expression", "isVoid": true, "data": map[string]any{"expression": b.String()}}
}

// validIcon reports whether s is an icon's name the reference allows
// (Icon: at most 50 characters), and one markdown writes back as it is.
func validIcon(s string) bool {
	return s != "" && utf8.RuneCountInString(s) <= 50 && !strings.ContainsAny(s, "\x00\r\n")
}

// icon is the icon inline of an icon's tags, when the text between them
// (first up to end) is its name between colons, as Git Sync writes it;
// else nil.
func (c *converter) icon(tag inlineTag, first, end ast.Node) map[string]any {
	name := tag.attrs["class"][3:]
	var b strings.Builder
	for n := first; n != nil && n != end; n = n.NextSibling() {
		b.WriteString(plainText(n, c.src))
	}
	if b.String() != ":"+name+":" {
		return nil
	}
	return map[string]any{"object": "inline", "type": "icon", "isVoid": true, "data": map[string]any{"icon": name}}
}

// mention is the mention inline of a link titled "mention".
func (c *converter) mention(n *ast.Link) map[string]any {
	return map[string]any{"object": "inline", "type": "mention", "isVoid": true,
		"data": map[string]any{"ref": c.ref(decode(n.Destination), false)}}
}

// mentionText is the text Git Sync gives a mention of target: its last part.
func mentionText(target string) string {
	if t := path.Base(strings.TrimRight(target, "/")); t != "." && t != "/" && t != "" {
		return t
	}
	return target
}

// inlineSpan appends the span of an expression, button or mention node m,
// or an error naming path when markdown cannot write it.
func inlineSpan(out *[]span, m, data map[string]any, path *nodePath) error {
	str := func(k string) string { s, _ := data[k].(string); return s }
	switch m["type"] {
	case "expression":
		e, ok := data["expression"].(string)
		if !ok {
			return fmt.Errorf("%s.data.expression: must be a string", path)
		}
		*out = append(*out, span{kind: spanExpression, text: e})
	case "button":
		if _, ok := data["action"]; ok {
			return fmt.Errorf("%s.data.action: a button's action cannot be written as markdown", path)
		}
		t, ok := refTarget(data["ref"])
		if !ok {
			return fmt.Errorf("%s.data.ref: not a reference markdown can write", path)
		}
		kind := str("kind")
		if !slices.Contains(buttonKinds, kind) {
			return fmt.Errorf("%s.data.kind: must be primary or secondary", path)
		}
		attrs := map[string]string{"kind": kind}
		if icon := str("icon"); icon != "" {
			attrs["icon"] = icon
		}
		if size, ok := data["size"]; ok {
			if s, _ := size.(string); !slices.Contains(buttonSizes, s) {
				return fmt.Errorf("%s.data.size: must be small, medium or large", path)
			}
			attrs["size"] = size.(string)
		}
		*out = append(*out, span{kind: spanButton, target: t, text: str("label"), attrs: attrs})
	case "icon":
		if _, ok := data["color"]; ok {
			return fmt.Errorf("%s.data.color: an icon's color cannot be written as markdown", path)
		}
		icon, _ := data["icon"].(string)
		if !validIcon(icon) {
			return fmt.Errorf("%s.data.icon: must be an icon's name", path)
		}
		*out = append(*out, span{kind: spanIcon, text: icon})
	case "mention":
		t, ok := refTarget(data["ref"])
		if !ok || t == "" {
			return fmt.Errorf("%s.data.ref: not a reference markdown can write", path)
		}
		*out = append(*out, span{kind: spanMention, target: t})
	}
	return nil
}

// tagSpan writes an expression's, a button's or a mention's span.
func (w *iwriter) tagSpan(s span) {
	w.lineStart = false
	inner := &iwriter{ctx: w.ctx, mode: w.mode, plain: true}
	switch s.kind {
	case spanExpression:
		inner.text(s.text, edges{})
		w.b.WriteString(`<code class="expression">` + inner.b.String() + `</code>`)
	case spanButton:
		inner.text(s.text, edges{})
		w.b.WriteString(`<a href="` + htmlAttr(s.target) + `" class="button ` + s.attrs["kind"] + `"`)
		if icon := s.attrs["icon"]; icon != "" {
			w.b.WriteString(` data-icon="` + htmlAttr(icon) + `"`)
		}
		if size := s.attrs["size"]; size != "" {
			w.b.WriteString(` data-size="` + size + `"`)
		}
		w.b.WriteString(">" + inner.b.String() + "</a>")
	case spanIcon:
		inner.text(":"+s.text+":", edges{})
		w.b.WriteString(`<i class="fa-` + htmlAttr(s.text) + `">` + inner.b.String() + "</i>")
	case spanMention:
		inner.text(mentionText(s.target), edges{})
		w.b.WriteString("[" + inner.b.String() + "](" + w.dest(s.target) + ` "mention")`)
	}
}
