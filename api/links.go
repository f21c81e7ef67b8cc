package api

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
)

// linkItem is one link target of a revision and the pages that link to it.
type linkItem struct {
	key    string // what groups links: the resolved page or file, else the target as written
	href   string // the target as first written
	res    render.Resolution
	from   []string // linking pages, in tree order, each once
	broken bool
}

// links returns every link of the revision grouped by target, in the order
// first met walking the tree; computed once per tree.
func (v *view) links() []linkItem {
	info := v.info()
	info.linksOnce.Do(func() {
		var ids []string
		var walk func(level []string)
		walk = func(level []string) {
			for _, id := range level {
				ids = append(ids, id)
				walk(v.tree.Pages[id].Children)
			}
		}
		walk(v.tree.Root)
		info.links = v.collectLinks(ids)
	})
	return info.links
}

// collectLinks groups the links of the given pages by target, in the order
// met; anchors within a page are not links to report.
func (v *view) collectLinks(ids []string) []linkItem {
	resolver := v.info().resolver
	var items []linkItem
	index := map[string]int{}
	for _, id := range ids {
		for _, l := range render.Links(v.tree.Pages[id].Markdown) {
			res := resolver.Resolve(id, l.Target)
			if res.Kind == render.KindAnchor {
				continue
			}
			key := res.Kind + ":" + l.Target
			switch {
			case res.Status == render.StatusBroken:
			case res.PageID != "":
				key = "page:" + res.PageID
			case res.FileID != "":
				key = "file:" + res.FileID
			}
			i, ok := index[key]
			if !ok {
				i = len(items)
				index[key] = i
				items = append(items, linkItem{key: key, href: l.Target, res: res, broken: res.Status == render.StatusBroken})
			}
			if from := items[i].from; len(from) == 0 || from[len(from)-1] != id {
				items[i].from = append(from, id)
			}
		}
	}
	return items
}

type referenceJSON struct {
	Kind           string              `json:"kind"`
	Page           string              `json:"page,omitempty"`
	File           string              `json:"file,omitempty"`
	URL            string              `json:"url,omitempty"`
	Space          string              `json:"space,omitempty"`
	VersionContext *versionContextJSON `json:"versionContext,omitempty"`
}

type versionContextJSON struct {
	Type     string `json:"type"`
	Revision string `json:"revision"`
}

type linkJSON struct {
	Status             string          `json:"status"`
	Relation           string          `json:"relation"`
	Href               string          `json:"href"` // the target as written, to find a broken link
	TargetReference    referenceJSON   `json:"targetReference"`
	LocationReferences []referenceJSON `json:"locationReferences"`
}

type linkStatsJSON struct {
	Total  int `json:"total"`
	Broken struct {
		Total         int `json:"total"`
		ChangeRequest int `json:"changeRequest"`
	} `json:"broken"`
}

type linkListJSON struct {
	Items []linkJSON    `json:"items"`
	Count int           `json:"count"`
	Next  *nextJSON     `json:"next,omitempty"`
	Stats linkStatsJSON `json:"stats"`
}

func (v *view) pageRef(id string) referenceJSON {
	return referenceJSON{Kind: "page", Page: id, Space: v.sp.ID, VersionContext: &versionContextJSON{Type: "revision", Revision: v.rev.ID}}
}

func (v *view) linkJSON(l linkItem, from []string) linkJSON {
	target := referenceJSON{Kind: l.res.Kind, Page: l.res.PageID, File: l.res.FileID, URL: l.res.URL}
	if l.res.PageID != "" || l.res.FileID != "" {
		target.Space = v.sp.ID
	}
	out := linkJSON{Status: l.res.Status, Relation: "reference", Href: l.href, TargetReference: target}
	for _, id := range from {
		out.LocationReferences = append(out.LocationReferences, v.pageRef(id))
	}
	return out
}

// listLinks answers S/links (pageID "") and the links of one page, with the
// status filter and stats over all of them. In a change request's content,
// broken.changeRequest counts the broken links.
func (s *Server) listLinks(w http.ResponseWriter, r *http.Request, v *view, pageID string) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	status := q.Get("status")
	switch status {
	case render.StatusOK, render.StatusBroken, render.StatusInApp:
	default:
		if status != "" || q.Has("status") { // "status=" is no status either
			return errorf(quire.CodeInvalid, "status: must be ok, broken or in-app")
		}
	}
	all := v.links()
	if pageID != "" {
		all = v.collectLinks([]string{pageID})
	}
	var stats linkStatsJSON
	var items []linkJSON
	for _, l := range all {
		stats.Total++
		if l.broken {
			stats.Broken.Total++
		}
		if status == "" || l.res.Status == status {
			items = append(items, v.linkJSON(l, l.from))
		}
	}
	if v.cr != nil {
		stats.Broken.ChangeRequest = stats.Broken.Total
	}
	list := pageByPosition(items, p)
	out := linkListJSON{Items: list.Items, Count: list.Count, Stats: stats}
	if out.Items == nil {
		out.Items = []linkJSON{}
	}
	if list.Next != nil {
		out.Next = &nextJSON{Page: list.Next.Encode()}
	}
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) listPageLinks(w http.ResponseWriter, r *http.Request, v *view) error {
	id := r.PathValue("pageId")
	if _, ok := v.tree.Pages[id]; !ok {
		return errorf(quire.CodeNotFound, "page not found")
	}
	return s.listLinks(w, r, v, id)
}

func (s *Server) listSpaceLinks(w http.ResponseWriter, r *http.Request, v *view) error {
	return s.listLinks(w, r, v, "")
}

// listFileBacklinks lists the pages that link to a file.
func (s *Server) listFileBacklinks(w http.ResponseWriter, r *http.Request, v *view) error {
	id := r.PathValue("fileId")
	if _, ok := v.tree.Files[id]; !ok {
		return errorf(quire.CodeNotFound, "file not found")
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	var pages []string
	for _, l := range v.links() {
		if l.res.FileID == id {
			for _, from := range l.from {
				if !slices.Contains(pages, from) {
					pages = append(pages, from)
				}
			}
		}
	}
	list := pageByPosition(pages, p)
	return writeList(w, list, v.pageRef)
}

// pageByPosition pages items that have no sortable key by their position;
// the cursor holds the index of the next item.
func pageByPosition[T any](items []T, p store.Page) *store.List[T] {
	start := 0
	if p.After != nil {
		start, _ = strconv.Atoi(p.After.ID)
	}
	start = min(max(start, 0), len(items))
	end := min(start+p.Limit, len(items))
	list := &store.List[T]{Items: items[start:end], Count: len(items)}
	if end < len(items) {
		list.Next = &store.Cursor{ID: strconv.Itoa(end)}
	}
	return list
}
