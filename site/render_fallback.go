package site

import (
	"html/template"
	"strings"
)

// TEMPORARY until render.HTML lands (branch i14-html): the page's markdown
// escaped, and its ## and ### headings for the table of contents.
func (s *Server) renderBody(rq *request, n *spaceNav, id string) (string, []heading, error) {
	md := n.v.Page(id).Markdown
	var heads []heading
	for _, line := range strings.Split(md, "\n") {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if (level == 2 || level == 3) && strings.HasPrefix(line[level:], " ") {
			text := strings.TrimSpace(line[level:])
			heads = append(heads, heading{Level: level, ID: strings.ToLower(strings.ReplaceAll(text, " ", "-")), Text: text})
		}
	}
	return "<pre>" + template.HTMLEscapeString(md) + "</pre>", heads, nil
}

// highlightCSS is render.HighlightCSS once i14-html is merged.
func highlightCSS() string { return "" }
