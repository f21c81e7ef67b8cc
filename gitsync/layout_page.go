package gitsync

import (
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"gopkg.in/yaml.v3"
)

// A page file is YAML front matter, only with what differs from the
// defaults, then "# <title>" and the body:
//
//	---
//	description: What this page is about
//	icon: book
//	emoji: 1f680
//	slug: getting-started   (only when the file's name does not give it)
//	hidden: true
//	noIndex: true
//	noRobotsIndex: true
//	condition: visitor.claims.beta
//	---
//
//	# Title
//
//	Body.
//
// GitBook's other keys (cover, layout…) have nothing in Quire to hold them
// and are ignored on import.

// pageFile writes page p, whose file is at path p with the derived slug
// derived, as the bytes of its file; body is its markdown translated to the
// layout.
func pageFile(p *content.Page, derived, body string) []byte {
	var keys []*yaml.Node
	str := func(k, v string) {
		if v != "" {
			keys = append(keys, scalar(k, "!!str"), scalar(strings.ToValidUTF8(v, "\uFFFD"), "!!str"))
		}
	}
	flag := func(k string, v bool) {
		if v {
			keys = append(keys, scalar(k, "!!str"), scalar("true", "!!bool"))
		}
	}
	str("description", p.Description)
	str("icon", p.Icon)
	str("emoji", p.Emoji)
	if p.Slug != derived {
		keys = append(keys, scalar("slug", "!!str"), scalar(p.Slug, "!!str"))
	}
	flag("hidden", p.Hidden)
	flag("noIndex", p.NoIndex)
	flag("noRobotsIndex", p.NoRobotsIndex)
	str("condition", p.Condition)
	var b strings.Builder
	if len(keys) > 0 {
		out, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: keys})
		if err == nil {
			b.WriteString("---\n")
			b.Write(out)
			b.WriteString("---\n\n")
		}
	}
	b.WriteString(render.PageMarkdown(p.Title, "", body))
	return []byte(b.String())
}

func scalar(v, tag string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: tag}
	if tag == "!!str" && strings.ContainsAny(v, "\n\r") {
		n.Style = yaml.DoubleQuotedStyle // block scalars lose trailing white space
	}
	return n
}

// pageRead is what a page file holds.
type pageRead struct {
	meta      render.PageMeta
	body      string
	slug      *string // nil when the front matter has none
	condition string
}

// readPage reads the page file at path p.
func readPage(p string, data []byte) (*pageRead, error) {
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	meta, body, err := render.ParsePage(text)
	if err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "%s: %s", p, err)
	}
	r := &pageRead{meta: meta, body: body}
	if yml, ok := frontMatter(text); ok {
		var extra struct {
			Slug      *string `yaml:"slug"`
			Condition *string `yaml:"condition"`
		}
		// ParsePage has checked that it is a mapping; a wrong type here is
		// an error of its own.
		if err := yaml.Unmarshal([]byte(yml), &extra); err != nil {
			return nil, quire.Errorf(quire.CodeInvalid, "%s: front matter: slug and condition must be strings", p)
		}
		if extra.Slug != nil {
			if err := quire.CheckSlug(*extra.Slug); err != nil {
				return nil, quire.Errorf(quire.CodeInvalid, "%s: front matter: slug: %s", p, err)
			}
			r.slug = extra.Slug
		}
		if extra.Condition != nil {
			r.condition = *extra.Condition
		}
	}
	return r, nil
}

// frontMatter is the YAML between a leading "---" line and the next one,
// as render.ParsePage reads it.
func frontMatter(text string) (string, bool) {
	text = strings.TrimPrefix(text, "\uFEFF")
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || strings.TrimSuffix(first, "\r") != "---" {
		return "", false
	}
	var b strings.Builder
	for rest != "" {
		line, next, _ := strings.Cut(rest, "\n")
		if strings.TrimSuffix(line, "\r") == "---" {
			return b.String(), true
		}
		b.WriteString(line)
		b.WriteByte('\n')
		rest = next
	}
	return "", false
}

// summaryTitle writes a title as link text, escaped as a heading's.
func summaryTitle(title string) string {
	h := strings.TrimSuffix(render.PageMarkdown(title, "", ""), "\n")
	return strings.TrimPrefix(strings.TrimPrefix(h, "#"), " ")
}
