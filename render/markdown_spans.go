package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// refTarget is where a content reference is written to point: a URL as it
// is, "/pages/<id>" and "/files/<id>" (which Resolver.Resolve reads back),
// "#anchor" in the page itself, "user:<id>" for a user.
func refTarget(v any) (string, bool) {
	ref, _ := v.(map[string]any)
	str := func(k string) string { s, _ := ref[k].(string); return s }
	var t string
	switch str("kind") {
	case "url":
		u, ok := ref["url"].(string)
		return u, ok
	case "page":
		if str("page") == "" {
			return "", false
		}
		t = "/pages/" + str("page")
	case "file":
		if str("file") == "" {
			return "", false
		}
		return "/files/" + str("file"), true
	case "anchor":
		if str("page") != "" {
			t = "/pages/" + str("page")
		}
	case "user":
		if str("user") == "" {
			return "", false
		}
		return "user:" + str("user"), true
	default:
		return "", false
	}
	if a := str("anchor"); a != "" {
		t += "#" + a
	}
	return t, t != ""
}

// A span is inline content in the form markdown can write: text with its
// marks, a link around spans, or an image.
type span struct {
	kind   spanKind
	text   string            // spanText
	marks  []string          // spanText: "bold", "italic", "strikethrough", "keyboard"… (knownMark), outermost first, then "code"
	target string            // spanLink, spanImage: the destination
	alt    string            // spanImage
	kids   []span            // spanLink: text and images
	attrs  map[string]string // spanButton: its kind, icon and size
}

type spanKind int

const (
	spanText spanKind = iota
	spanLink
	spanImage
	spanMath       // text: the formula
	spanExpression // text: the expression
	spanButton     // text: the label; target; attrs
	spanMention    // target
	spanIcon       // text: the icon's name
)

// spansMD appends the spans of inline nodes (texts and inlines) to out.
func spansMD(out *[]span, nodes []any, path *nodePath) error {
	return eachObject(nodes, path, func(m map[string]any, p *nodePath) error { return spanMD(out, m, p) })
}

// spanMD appends the spans of node m: a text's leaves, an inline, or the
// content of a block where inline content belongs.
func spanMD(out *[]span, m map[string]any, path *nodePath) error {
	obj, _ := m["object"].(string)
	kids, err := nodesOf(m, path)
	if err != nil {
		return err
	}
	switch obj {
	case "text":
		leaves, ok := m["leaves"].([]any)
		if !ok {
			return fmt.Errorf("%s.leaves: must be an array", path)
		}
		*out = slices.Grow(*out, len(leaves)) // grown a quarter at a time, 100,000 spans took 50 MB
		return eachObject(leaves, path.field("leaves"), func(lm map[string]any, p *nodePath) error { return leafMD(out, lm, p) })
	case "leaf":
		return leafMD(out, m, path)
	case "mark":
		return fmt.Errorf("%s: a mark is not inline content", path)
	case "block", "document", "fragment":
		if m["type"] == "image" || m["type"] == "drawing" {
			imageSpan(out, m)
			return nil
		}
		return spansMD(out, kids, path.field("nodes"))
	}
	data, _ := m["data"].(map[string]any)
	str := func(k string) string { s, _ := data[k].(string); return s }
	switch m["type"] {
	case "link":
		var inner []span
		if err := spansMD(&inner, kids, path.field("nodes")); err != nil {
			return err
		}
		if t, ok := refTarget(data["ref"]); ok {
			*out = append(*out, span{kind: spanLink, target: t, kids: inner})
		} else {
			*out = append(*out, inner...)
		}
	case "inline-image":
		for _, k := range []string{"refDark", "caption", "size"} { // "![alt](src)" says none of them
			if _, ok := data[k]; ok {
				return fmt.Errorf("%s.data.%s: cannot be written", path, k)
			}
		}
		imageSpan(out, m)
	case "emoji":
		*out = append(*out, span{text: emojiText(str("code"))})
	case "inline-math", "math":
		s, err := mathSpan(data, path)
		if err != nil {
			return err
		}
		*out = append(*out, s)
	case "mention", "button", "expression", "icon":
		return inlineSpan(out, m, data, path)
	default: // annotations and unknown inlines: their content
		return spansMD(out, kids, path.field("nodes"))
	}
	return nil
}

// leafMD appends a leaf as a text span with its marks' types.
func leafMD(out *[]span, m map[string]any, path *nodePath) error {
	s, ok := m["text"].(string)
	if !ok {
		return fmt.Errorf("%s.text: must be a string", path)
	}
	var marks []string
	if v, ok := m["marks"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s.marks: must be an array", path)
		}
		for i, mk := range list {
			mm, ok := mk.(map[string]any)
			if !ok {
				return fmt.Errorf("%s.marks[%d]: not an object", path, i)
			}
			name, err := markName(mm, fmt.Sprintf("%s.marks[%d]", path, i))
			if err != nil {
				return err
			}
			marks = append(marks, name)
		}
	}
	*out = append(*out, span{text: s, marks: marks})
	return nil
}

// imageSpan is an image, or its alt text when its reference has no target.
func imageSpan(out *[]span, m map[string]any) {
	data, _ := m["data"].(map[string]any)
	alt, _ := data["alt"].(string)
	if t, ok := refTarget(data["ref"]); ok {
		*out = append(*out, span{kind: spanImage, target: t, alt: alt})
	} else if alt != "" {
		*out = append(*out, span{text: alt})
	}
}

// emojiText is an emoji's character from its code: code points in hex
// ("1f600", "1f468-200d-1f469"), the emoji itself, or a name (":name:").
func emojiText(code string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(code, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }) {
		n, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(part), "u+"), 16, 32)
		if err != nil || n > unicode.MaxRune || n < 0x20 || !utf8.ValidRune(rune(n)) {
			b.Reset()
			break
		}
		b.WriteRune(rune(n))
	}
	switch {
	case b.Len() > 0:
		return b.String()
	case code == "" || strings.IndexFunc(code, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0:
		return code
	}
	return ":" + code + ":"
}

// normalize merges neighbouring texts with the same marks and drops empty
// ones; marks are those markdown writes, once each, code innermost; a link
// inside a link gives its content.
func normalize(spans []span) []span {
	var out []span
	var run strings.Builder // the text of out's last span, while texts join it
	flush := func() {
		if run.Len() > 0 {
			out[len(out)-1].text = run.String()
			run.Reset()
		}
	}
	for _, s := range spans {
		switch s.kind {
		case spanText:
			if s.text == "" {
				continue
			}
			s.marks = cleanMarks(s.marks)
			if n := len(out); n > 0 && out[n-1].kind == spanText && slices.Equal(out[n-1].marks, s.marks) {
				if run.Len() == 0 { // joined with a builder: adding to the string each time took the square of the leaves
					run.WriteString(out[n-1].text)
				}
				run.WriteString(s.text)
				continue
			}
		case spanLink:
			s.kids = normalize(unlink(s.kids))
		}
		flush()
		out = append(out, s)
	}
	flush()
	return out
}

// unlink replaces the links in spans with their content: Document never
// puts a link inside a link, not even an autolink.
func unlink(spans []span) []span {
	var out []span
	for _, s := range spans {
		if s.kind == spanLink {
			out = append(out, unlink(s.kids)...)
		} else {
			out = append(out, s)
		}
	}
	return out
}

func cleanMarks(marks []string) []string {
	var out []string
	code := false
	for _, m := range marks {
		switch m {
		case "code":
			code = true
		default:
			if knownMark(m) && !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	if code {
		out = append(out, "code")
	}
	return out
}

// addMark adds mark m, outermost, to every text of spans.
func addMark(spans []span, m string) []span {
	out := make([]span, len(spans))
	for i, s := range spans {
		if s.kind == spanText && !slices.Contains(s.marks, m) {
			s.marks = append([]string{m}, s.marks...)
		}
		s.kids = addMark(s.kids, m)
		out[i] = s
	}
	return out
}

func equalSpans(a, b []span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.kind != y.kind || x.text != y.text || !slices.Equal(x.marks, y.marks) || x.target != y.target || x.alt != y.alt || !equalSpans(x.kids, y.kids) ||
			!maps.Equal(x.attrs, y.attrs) {
			return false
		}
	}
	return true
}

// plain is the text of spans, marks and links dropped.
func plain(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.text)
		b.WriteString(plain(s.kids))
	}
	return b.String()
}

// EmojiText is an emoji's character from the code a space or page keeps:
// code points in hex ("1f4d8"), the emoji itself, or a name (":name:").
func EmojiText(code string) string { return emojiText(code) }
