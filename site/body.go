package site

import (
	"slices"
	"strings"

	"github.com/quiredocs/quire/render"
)

// renderBody renders page id of n as HTML: links to pages the visitor
// finds lead to their published URLs (others become plain text), files to
// ~files; its h2 and h3 make the table of contents.
func (s *Server) renderBody(rq *request, n *spaceNav, id string) (string, []heading, error) {
	out, err := render.HTML(n.v.Page(id).Markdown, render.HTMLOptions{
		PageID:   id,
		Resolver: n.v.Resolver(),
		PageURL: func(pageID, anchor string) (string, bool) {
			if !n.visible(pageID) {
				return "", false
			}
			u := n.url(pageID)
			if anchor != "" {
				u += "#" + anchor
			}
			return u, true
		},
		FileURL: n.fileURL,
		Sees:    func(expr string) bool { return rq.sees(adaptiveCondition(expr)) },
	})
	if err != nil {
		return "", nil, err
	}
	heads := make([]heading, len(out.Headings))
	for i, h := range out.Headings {
		heads[i] = heading{Level: h.Level, ID: h.ID, Text: h.Text}
	}
	return out.Body, heads, nil
}

// adaptiveCondition is the condition of adaptive content's expression:
// Git Sync writes JavaScript's "===" and "!==", which conditions (expr)
// spell "==" and "!=".
func adaptiveCondition(expr string) string {
	return strings.NewReplacer("===", "==", "!==", "!=").Replace(expr)
}

// pageConditions are the conditions page id's HTML depends on: those of
// the space's pages, and those of the page's adaptive content.
func (n *spaceNav) pageConditions(id string) []string {
	conds := slices.Clone(n.conditions())
	for _, e := range render.AdaptiveExpressions(n.v.Page(id).Markdown) {
		conds = append(conds, adaptiveCondition(e))
	}
	return conds
}
