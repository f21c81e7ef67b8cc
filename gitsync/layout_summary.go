package gitsync

import (
	"html"
	"regexp"
	"strings"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// SUMMARY.md is GitBook's table of contents:
//
//	# Table of contents
//
//	* [Introduction](README.md)
//	* [Guide](guide/README.md)
//	  * [Install](guide/install.md)
//
//	## Reference <a href="#reference" id="reference"></a>
//
//	* [API](reference/api.md)
//
// A list item links a page; nesting is the tree. A level-2 heading is a
// group of the top level holding the pages listed under it; GitBook can
// only have groups last, so a group elsewhere (between top-level pages or
// below a page) is a list item without a link. A group's anchor keeps its
// slug.

// summaryEntry is one page or group of a table of contents.
type summaryEntry struct {
	title    string
	path     string  // the page's file, relative to the root; "" for a group
	slug     *string // a group's slug, from its anchor; nil when none
	group    bool
	children []*summaryEntry
}

// writeSummary writes t's table of contents, to be put in folder dir;
// paths are the pages' files.
func writeSummary(t *content.Tree, paths map[string]string, dir string) []byte {
	var b strings.Builder
	b.WriteString("# Table of contents\n\n")
	var item func(id string, depth int)
	item = func(id string, depth int) {
		p := t.Pages[id]
		if p == nil {
			return
		}
		b.WriteString(strings.Repeat("  ", depth))
		if p.Kind == content.KindGroup {
			b.WriteString("* " + label(p) + "\n")
		} else {
			b.WriteString("* [" + summaryTitle(p.Title) + "](" + escapePath(relPath(dir, paths[id])) + ")\n")
		}
		for _, c := range p.Children {
			item(c, depth+1)
		}
	}
	// Groups that come last, after every top-level page, are headings.
	headings := len(t.Root)
	for headings > 0 && t.Pages[t.Root[headings-1]] != nil && t.Pages[t.Root[headings-1]].Kind == content.KindGroup {
		headings--
	}
	for _, id := range t.Root[:headings] {
		item(id, 0)
	}
	for _, id := range t.Root[headings:] {
		g := t.Pages[id]
		b.WriteString("\n## " + label(g) + "\n")
		if len(g.Children) > 0 {
			b.WriteString("\n")
		}
		for _, c := range g.Children {
			item(c, 0)
		}
	}
	return []byte(b.String())
}

// label is a group's title and its anchor, one space apart (more would
// move the content of a list item, and with it where its children start).
func label(g *content.Page) string {
	if t := blockSafe(summaryTitle(g.Title)); t != "" {
		return t + " " + anchor(g.Slug)
	}
	return anchor(g.Slug)
}

// leadingNumber is an ordered list's marker.
var leadingNumber = regexp.MustCompile(`^[0-9]{1,9}[.)]`)

// blockSafe escapes what would make a line of text another block: a
// leading ">", "#", "-", "+", "=", "~", "` + "`" + `" or "|", or "1." / "1)".
func blockSafe(t string) string {
	if t != "" && strings.IndexByte(">#-+=~`|*_", t[0]) >= 0 {
		return "\\" + t
	}
	if m := leadingNumber.FindString(t); m != "" {
		return m[:len(m)-1] + "\\" + t[len(m)-1:]
	}
	return t
}

// anchor is the HTML anchor that keeps a group's slug.
func anchor(slug string) string {
	s := html.EscapeString(slug)
	return `<a href="#` + s + `" id="` + s + `"></a>`
}

var anchorID = regexp.MustCompile(`\bid="([^"]*)"`)

// readSummary reads a table of contents; dir is the folder of the file,
// relative to the root, which its links are relative to.
func readSummary(data []byte, dir string) []*summaryEntry {
	src := []byte(strings.ToValidUTF8(string(data), "\uFFFD"))
	doc := mdParser.Parse(text.NewReader(src))
	var root []*summaryEntry
	var group *summaryEntry
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 {
				continue
			}
			title, slug := labelOf(n, src)
			group = &summaryEntry{title: title, slug: slug, group: true}
			root = append(root, group)
		case *ast.List:
			items := listEntries(n, src, dir)
			if group != nil {
				group.children = append(group.children, items...)
			} else {
				root = append(root, items...)
			}
		}
	}
	return root
}

// listEntries reads the items of a list of the table of contents.
func listEntries(l *ast.List, src []byte, dir string) []*summaryEntry {
	var out []*summaryEntry
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		var e *summaryEntry
		var nested []*summaryEntry
		for c := it.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.List:
				nested = append(nested, listEntries(c, src, dir)...)
			case *ast.TextBlock, *ast.Paragraph:
				if e != nil {
					continue
				}
				if link := firstLink(c); link != nil {
					e = &summaryEntry{title: plainText(link, src), path: linkPath(dir, render.DecodeText(link.Destination))}
				} else {
					title, slug := labelOf(c, src)
					e = &summaryEntry{title: title, slug: slug, group: true}
				}
			}
		}
		if e == nil {
			e = &summaryEntry{group: true}
		}
		e.children = nested
		out = append(out, e)
	}
	return out
}

// linkPath is the file a table of contents' link names, relative to the
// root; "" when it is not a file of the folder (a URL, or outside it).
func linkPath(dir, dest string) string {
	p, _ := splitTarget(dest)
	if p == "" || strings.Contains(p, "://") || strings.HasPrefix(p, "//") {
		return ""
	}
	if u, err := unescapePath(p); err == nil {
		p = u
	}
	if strings.HasSuffix(p, "/") {
		p += DefaultReadme
	}
	full, ok := joinPath(dir, p)
	if !ok {
		return ""
	}
	return full
}

func firstLink(n ast.Node) *ast.Link {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if l, ok := c.(*ast.Link); ok {
			return l
		}
	}
	return nil
}

// labelOf is a heading's or a paragraph's text, and the id of an anchor in
// it (nil when none).
func labelOf(n ast.Node, src []byte) (string, *string) {
	var slug *string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		raw, ok := c.(*ast.RawHTML)
		if !ok || slug != nil {
			continue
		}
		var b strings.Builder
		for i := 0; i < raw.Segments.Len(); i++ {
			s := raw.Segments.At(i)
			b.Write(s.Value(src))
		}
		if m := anchorID.FindStringSubmatch(b.String()); m != nil {
			id := html.UnescapeString(m[1])
			slug = &id
		}
	}
	return strings.TrimSpace(plainText(n, src)), slug
}

// plainText is the text of inline markdown, escapes and references
// decoded, without raw HTML. It is render.InlineText but for autolinks,
// whose text it drops: using that would change the titles Import reads.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.WriteString(render.DecodeText(n.Segment.Value(src)))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.CodeSpan:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.Write(t.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
