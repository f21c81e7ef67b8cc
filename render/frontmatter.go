package render

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"gopkg.in/yaml.v3"
)

// PageMeta is page metadata read from a markdown document.
type PageMeta struct {
	Title, Description, Emoji, Icon string // "" when not given
	Hidden, NoIndex, NoRobotsIndex  *bool  // nil when not given
}

// ParsePage splits a markdown page into its metadata and body, as Git Sync
// does: an optional YAML front matter block ("---\n…\n---\n" at the very
// start) gives title, description, emoji, icon, hidden, noIndex and
// noRobotsIndex (other keys are ignored); then a leading level-1 ATX or
// setext heading (the first block of the body, after blank lines) gives the
// title when the front matter has none, and is removed from the body. When
// the front matter has a title, a leading heading stays in the body.
//
// body is the rest without leading blank lines or trailing white space,
// ending in exactly one newline ("" when empty). Invalid YAML, or a value of
// the wrong type, is an error naming the key. A string key takes any scalar
// as its text ("title: 404"); a boolean key takes only a YAML boolean.
func ParsePage(markdown string) (meta PageMeta, body string, err error) {
	body = markdown
	if yml, rest, ok := splitFrontMatter(markdown); ok {
		if meta, err = parseFrontMatter(yml); err != nil {
			return PageMeta{}, "", err
		}
		body = rest
	}
	if meta.Title == "" {
		if title, rest, ok := leadingTitle(body); ok {
			meta.Title, body = title, rest
		}
	}
	return meta, normalizeBody(body), nil
}

// PageMarkdown is the inverse of ParsePage used for reads: front matter with
// the description when it is not empty, then "# <title>" and the body. The
// title is escaped so that it reads back as the same text.
func PageMarkdown(title, description, body string) string {
	var b strings.Builder
	if description != "" {
		b.WriteString("---\n")
		b.WriteString(yamlString("description", description))
		b.WriteString("---\n")
	}
	b.WriteString("#")
	if title != "" {
		b.WriteString(" ")
		b.WriteString(escapeTitle(title))
	}
	b.WriteString("\n")
	if body = normalizeBody(body); body != "" {
		b.WriteString("\n")
		b.WriteString(body)
	}
	return b.String()
}

// splitFrontMatter cuts a "---" … "---" block from the start of markdown.
// Without a closing line there is no front matter: the opening "---" is then
// a thematic break of the body.
func splitFrontMatter(markdown string) (yml, rest string, ok bool) {
	first, after, found := cutLine(strings.TrimPrefix(markdown, "\uFEFF"))
	if !found || first != "---" {
		return "", "", false
	}
	for s := after; ; {
		line, next, more := cutLine(s)
		if line == "---" {
			return after[:len(after)-len(s)], next, true
		}
		if !more {
			return "", "", false
		}
		s = next
	}
}

// cutLine splits s after its first line; line has no line ending. more is
// false when s had no newline.
func cutLine(s string) (line, rest string, more bool) {
	line, rest, more = strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r"), rest, more
}

func parseFrontMatter(yml string) (PageMeta, error) {
	var meta PageMeta
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(yml), &doc); err != nil {
		return meta, fmt.Errorf("front matter: %w", err)
	}
	if len(doc.Content) == 0 { // empty, or only comments
		return meta, nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return meta, errors.New("front matter: must be a mapping of keys to values")
	}
	strs := map[string]*string{"title": &meta.Title, "description": &meta.Description, "emoji": &meta.Emoji, "icon": &meta.Icon}
	bools := map[string]**bool{"hidden": &meta.Hidden, "noIndex": &meta.NoIndex, "noRobotsIndex": &meta.NoRobotsIndex}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i].Value, m.Content[i+1]
		if seen[key] {
			return meta, fmt.Errorf("front matter: %q is given twice", key)
		}
		seen[key] = true
		if s, ok := strs[key]; ok {
			// Any scalar is taken as its text: "title: 404" means the text.
			if err := val.Decode(s); err != nil {
				return meta, fmt.Errorf("front matter: %q must be a string", key)
			}
		} else if b, ok := bools[key]; ok {
			if err := val.Decode(b); err != nil {
				return meta, fmt.Errorf("front matter: %q must be true or false", key)
			}
		}
	}
	return meta, nil
}

// yamlString is "key: value\n" with the value double-quoted, so that no
// description can end the front matter or change its type.
func yamlString(key, value string) string {
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: key},
		{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: strings.ToValidUTF8(value, "\uFFFD")},
	}})
	if err != nil { // cannot happen with valid UTF-8; keep the page readable anyway
		return key + ": \"\"\n"
	}
	return string(out)
}

// leadingTitle returns the text of body's first block when that is a
// level-1 heading, and body without it.
func leadingTitle(body string) (title, rest string, ok bool) {
	src := []byte(body)
	h, isHeading := parser.Parse(text.NewReader(src)).FirstChild().(*ast.Heading)
	if !isHeading || h.Level != 1 || h.Pos() < 0 {
		return "", "", false
	}
	start := strings.LastIndexByte(body[:h.Pos()], '\n') + 1
	end := lineEnd(body, start)
	if !isATXHeading(body[start:end]) {
		// A setext heading ends with the underline after its last line.
		last := h.Lines().At(h.Lines().Len() - 1)
		end = lineEnd(body, lineEnd(body, last.Start))
	}
	return plainText(h, src), body[end:], true
}

// lineEnd returns the offset just after the line ending of the line holding
// offset i (len(s) on the last line).
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// isATXHeading reports whether line alone is a level-1 heading. A setext
// heading's first line alone is a paragraph, so this tells the two apart.
func isATXHeading(line string) bool {
	h, ok := parser.Parse(text.NewReader([]byte(line))).FirstChild().(*ast.Heading)
	return ok && h.Level == 1
}

// normalizeBody drops leading and trailing blank lines (lines of only spaces
// and tabs, as CommonMark has it) and ends a non-empty body with exactly one
// newline.
func normalizeBody(s string) string {
	for s != "" {
		line, rest, _ := cutLine(s)
		if strings.Trim(line, " \t") != "" {
			break
		}
		s = rest
	}
	s = strings.TrimRight(s, " \t\r\n")
	if s == "" {
		return ""
	}
	return s + "\n"
}

// escapeTitle backslash-escapes what inline markdown would otherwise read as
// markup. Newlines would end the heading, so they become spaces.
func escapeTitle(title string) string {
	title = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(title)
	var b strings.Builder
	for i := 0; i < len(title); i++ {
		c := title[i]
		switch {
		case strings.IndexByte("\\`*_[]<~", c) >= 0,
			c == '&' && isEntity(title[i:]),
			c == '#' && i == len(title)-1: // else a closing sequence, when after a space
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isEntity reports whether s starts like a character reference: "&", a name
// or "#" and digits, then ";".
func isEntity(s string) bool {
	i := 1
	for i < len(s) && (s[i] == '#' || 'a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z' || '0' <= s[i] && s[i] <= '9') {
		i++
	}
	return i > 1 && i < len(s) && s[i] == ';'
}
