package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

type linkJSON struct {
	Status             string           `json:"status"`
	Relation           string           `json:"relation"`
	Href               string           `json:"href"` // the target as written, to find a broken link
	TargetReference    wire.Reference   `json:"targetReference"`
	LocationReferences []wire.Reference `json:"locationReferences"`
}

type linkStatsJSON struct {
	Total  int `json:"total"`
	Broken struct {
		Total         int `json:"total"`
		ChangeRequest int `json:"changeRequest"`
	} `json:"broken"`
}

// linkListJSON is the list envelope with the stats of all the links after it.
type linkListJSON struct {
	listJSON[linkJSON]
	Stats linkStatsJSON `json:"stats"`
}

// pageRef refers to a page of v.
func pageRef(v *revision.View, id string) wire.Reference {
	return wire.Reference{Kind: "page", Page: id, Space: v.Space.ID, VersionContext: &wire.VersionContext{Type: "revision", Revision: v.Revision.ID}}
}

func linkJSONOf(v *revision.View, l render.LinkGroup) linkJSON {
	res := l.Resolution
	target := wire.Reference{Kind: res.Kind, Page: res.PageID, File: res.FileID, URL: res.URL}
	if res.PageID != "" || res.FileID != "" {
		target.Space = v.Space.ID
	}
	out := linkJSON{Status: res.Status, Relation: "reference", Href: l.Href, TargetReference: target}
	for _, id := range l.From {
		out.LocationReferences = append(out.LocationReferences, pageRef(v, id))
	}
	return out
}

// listLinks answers S/links (pageID "") and the links of one page, with the
// status filter and stats over all of them. In a change request's content,
// broken.changeRequest counts the broken links.
func (s *Server) listLinks(w http.ResponseWriter, r *http.Request, v *revision.View, pageID string) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	q := query(r)
	status := q.Get("status")
	switch status {
	case render.StatusOK, render.StatusBroken, render.StatusInApp:
	default:
		if status != "" || q.Has("status") { // "status=" is no status either
			return errorf(quire.CodeInvalid, "status: must be ok, broken or in-app")
		}
	}
	all := v.Links()
	if pageID != "" {
		all = v.PageLinks(pageID)
	}
	var stats linkStatsJSON
	var items []linkJSON
	for _, l := range all {
		stats.Total++
		if l.Broken() {
			stats.Broken.Total++
		}
		if status == "" || l.Resolution.Status == status {
			items = append(items, linkJSONOf(v, l))
		}
	}
	if v.ChangeRequest != nil {
		stats.Broken.ChangeRequest = stats.Broken.Total
	}
	list := store.PageByPosition(items, p)
	out := linkListJSON{itemsOf(list), stats}
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) listPageLinks(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	id := r.PathValue("pageId")
	if _, ok := v.Tree.Pages[id]; !ok {
		return errorf(quire.CodeNotFound, "page not found")
	}
	return s.listLinks(w, r, v, id)
}

func (s *Server) listSpaceLinks(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	return s.listLinks(w, r, v, "")
}

// listFileBacklinks lists the pages that link to a file.
func (s *Server) listFileBacklinks(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	id := r.PathValue("fileId")
	if _, ok := v.Tree.Files[id]; !ok {
		return errorf(quire.CodeNotFound, "file not found")
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list := store.PageByPosition(v.FileBacklinks(id), p)
	return writeList(w, list, func(id string) wire.Reference { return pageRef(v, id) })
}
