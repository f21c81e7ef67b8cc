package site

import (
	"html"
	"html/template"
	"strings"
)

// sidebarHTML writes the sidebar's page tree. It is written by hand, not
// by html/template, because a site of a thousand pages lists a thousand
// entries on every page, and reflection over each made rendering a page
// ten times slower. Every text and URL is escaped; URLs are paths this
// package builds from slugs.
func sidebarHTML(items []navItem) template.HTML {
	var b strings.Builder
	b.Grow(96 * len(items))
	writeTree(&b, items)
	return template.HTML(b.String())
}

func writeTree(b *strings.Builder, items []navItem) {
	b.WriteString("<ul>")
	for _, it := range items {
		if it.Group {
			b.WriteString(`<li class="nav-group"><span class="nav-group-title">`)
			writeLabel(b, it)
			b.WriteString("</span>")
		} else {
			b.WriteString(`<li><a href="`)
			b.WriteString(html.EscapeString(it.URL))
			b.WriteByte('"')
			if it.Current {
				b.WriteString(` aria-current="page"`)
			}
			if it.Expandable {
				b.WriteString(` class="expandable"`)
			} else if it.Open && len(it.Children) > 0 {
				b.WriteString(` class="expandable open"`)
			}
			b.WriteByte('>')
			writeLabel(b, it)
			b.WriteString("</a>")
		}
		if len(it.Children) > 0 {
			writeTree(b, it.Children)
		}
		b.WriteString("</li>")
	}
	b.WriteString("</ul>")
}

func writeLabel(b *strings.Builder, it navItem) {
	if it.Emoji != "" {
		b.WriteString(`<span aria-hidden="true">`)
		b.WriteString(html.EscapeString(it.Emoji))
		b.WriteString("</span> ")
	}
	b.WriteString(html.EscapeString(it.Title))
}
