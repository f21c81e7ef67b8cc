package render

import "slices"

// LinkGroup is one link target of some pages and the pages that link to it.
type LinkGroup struct {
	Key        string // what groups links: the resolved page or file, else the kind and target as written
	Href       string // the target as first written
	Resolution Resolution
	From       []string // linking pages, in the order given, each once
}

// Broken reports whether the target resolves to nothing.
func (g *LinkGroup) Broken() bool { return g.Resolution.Status == StatusBroken }

// GroupLinks groups the links of the given pages of r.Tree by target, in
// the order met. Links to one page or one file group together however they
// are written; other targets group by kind and target as written, and so
// does every broken link. Anchors within a page are not links to report.
func (r *Resolver) GroupLinks(ids []string) []LinkGroup {
	var groups []LinkGroup
	index := map[string]int{}
	for _, id := range ids {
		for _, l := range Links(r.Tree.Pages[id].Markdown) {
			res := r.Resolve(id, l.Target)
			if res.Kind == KindAnchor {
				continue
			}
			key := res.Kind + ":" + l.Target
			switch {
			case res.Status == StatusBroken:
			case res.PageID != "":
				key = "page:" + res.PageID
			case res.FileID != "":
				key = "file:" + res.FileID
			}
			i, ok := index[key]
			if !ok {
				i = len(groups)
				index[key] = i
				groups = append(groups, LinkGroup{Key: key, Href: l.Target, Resolution: res})
			}
			if from := groups[i].From; len(from) == 0 || from[len(from)-1] != id {
				groups[i].From = append(from, id)
			}
		}
	}
	return groups
}

// FileBacklinks are the pages that link to file id, each once, in the order
// of groups.
func FileBacklinks(groups []LinkGroup, id string) []string {
	var pages []string
	for _, g := range groups {
		if g.Resolution.FileID == id {
			for _, from := range g.From {
				if !slices.Contains(pages, from) {
					pages = append(pages, from)
				}
			}
		}
	}
	return pages
}
