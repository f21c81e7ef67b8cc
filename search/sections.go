// Package search turns a revision's pages into what the full-text index
// holds and a reader's query into the terms it matches. It does no I/O: the
// store keeps the index (SQLite FTS5, PostgreSQL tsvector).
package search

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/render"
)

// Section is a part of a page that search finds: the text before the first
// heading, then each heading with the text up to the next one.
type Section struct {
	ID    string // the heading's anchor; "" for the text before any heading
	Title string // the heading's text; "" for the text before any heading
	Body  string // plain text, blocks separated by new lines
}

// Page is what the index holds of one page.
type Page struct {
	ID, Title, Description string
	Sections               []Section
}

// markdown parses pages within render's bounds: pages written before those
// bounds were checked may still hold tables or nesting that would take a
// plain GFM parser gigabytes.
var markdown = render.NewGFMParser()

// Indexed returns the pages of t that search finds, in id order:
// documents listed (published.Pages: not hidden, nor under a page that
// is) and not kept out of indexing (noIndex), nor under a page that is.
// Conditions are judged when a visitor searches, not here. Groups have no
// text of their own; their children are searched.
func Indexed(t *content.Tree) []*content.Page {
	listed := published.Pages{Tree: t, Sees: published.IgnoreConditions}
	var out []*content.Page
	var walk func(ids []string)
	walk = func(ids []string) {
		for _, id := range ids {
			p := t.Pages[id]
			if !listed.Shows(p) || p.NoIndex {
				continue
			}
			if p.Kind != content.KindGroup {
				out = append(out, p)
			}
			walk(p.Children)
		}
	}
	walk(t.Root)
	slices.SortFunc(out, func(a, b *content.Page) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// PageChange is a page whose search rows differ between two sets of
// indexed pages: Old is nil for a page added, New for one removed.
type PageChange struct {
	ID       string
	Old, New *content.Page
}

// ChangedPages lists, in id order, the pages whose search rows differ
// between two sets of indexed pages (Indexed): those added, removed, or
// whose text changed. The rows of the others stay as they are.
func ChangedPages(before, now []*content.Page) []PageChange {
	var out []PageChange
	for len(before) > 0 || len(now) > 0 {
		switch {
		case len(now) == 0 || len(before) > 0 && before[0].ID < now[0].ID:
			out = append(out, PageChange{ID: before[0].ID, Old: before[0]})
			before = before[1:]
		case len(before) == 0 || now[0].ID < before[0].ID:
			out = append(out, PageChange{ID: now[0].ID, New: now[0]})
			now = now[1:]
		default:
			if !sameText(before[0], now[0]) {
				out = append(out, PageChange{ID: now[0].ID, Old: before[0], New: now[0]})
			}
			before, now = before[1:], now[1:]
		}
	}
	return out
}

// sameText reports whether two versions of a page index the same.
func sameText(a, b *content.Page) bool {
	return a == b || a.Title == b.Title && a.Description == b.Description && a.Markdown == b.Markdown
}

// PageOf splits a page into its sections. Sections without text, such as
// an empty introduction, are left out, but a page keeps at least one.
func PageOf(p *content.Page) Page {
	src := []byte(p.Markdown)
	doc := markdown.Parse(text.NewReader(src))
	out := Page{ID: p.ID, Title: p.Title, Description: p.Description}
	cur := Section{}
	ids := render.NewHeadingIDs() // as the page's HTML names its headings, for links to them
	var body strings.Builder
	flush := func() {
		cur.Body = compactLines(body.String())
		if cur.Body != "" || cur.Title != "" {
			out.Sections = append(out.Sections, cur)
		}
		body.Reset()
	}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			flush()
			cur = Section{Title: plainText(h, src)}
			cur.ID = ids.Next(cur.Title)
			continue
		}
		if body.Len() > 0 {
			body.WriteByte('\n')
		}
		writeText(&body, n, src)
	}
	flush()
	if len(out.Sections) == 0 { // the page is still found by its title
		out.Sections = []Section{{}}
	}
	return out
}

// compactLines trims each line and drops the blank ones.
func compactLines(s string) string {
	var lines []string
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// plainText is the text of a node and its children.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	writeText(&b, n, src)
	return strings.TrimSpace(b.String())
}

// writeText writes the readable text under n: inline text, code, alt text
// of images and the lines of code blocks; raw HTML is left out.
func writeText(b *strings.Builder, n ast.Node, src []byte) {
	switch n := n.(type) {
	case *ast.Text:
		b.Write(n.Segment.Value(src))
		if n.SoftLineBreak() || n.HardLineBreak() {
			b.WriteByte(' ')
		}
		return
	case *ast.String:
		b.Write(n.Value)
		return
	case *ast.AutoLink:
		b.Write(n.URL(src))
		return
	case *ast.RawHTML, *ast.HTMLBlock:
		return
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() == ast.TypeBlock && b.Len() > 0 {
			b.WriteByte('\n')
		}
		writeText(b, c, src)
	}
}
