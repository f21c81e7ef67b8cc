package revision

import (
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// PageRef is how the API refers to page id of v.
func (v *View) PageRef(id string) wire.Reference {
	return wire.Reference{Kind: "page", Page: id, Space: v.Space.ID, VersionContext: &wire.VersionContext{Type: "revision", Revision: v.Revision.ID}}
}

// linkJSON shows link group g of v.
func (v *View) linkJSON(g render.LinkGroup) wire.Link {
	res := g.Resolution
	target := wire.Reference{Kind: res.Kind, Page: res.PageID, File: res.FileID, URL: res.URL}
	if res.PageID != "" || res.FileID != "" {
		target.Space = v.Space.ID
	}
	out := wire.Link{Status: res.Status, Relation: "reference", Href: g.Href, TargetReference: target}
	for _, id := range g.From {
		out.LocationReferences = append(out.LocationReferences, v.PageRef(id))
	}
	return out
}

// LinkList shows page p of the links of v (of its page pageID, when not
// ""), of status ("" for any), with the stats of all of them. In a change
// request's content, broken.changeRequest counts the broken links.
func (v *View) LinkList(pageID, status string, p store.Page) wire.LinkList {
	all := v.Links()
	if pageID != "" {
		all = v.PageLinks(pageID)
	}
	var stats wire.LinkStats
	var items []wire.Link
	for _, l := range all {
		stats.Total++
		if l.Broken() {
			stats.Broken.Total++
		}
		if status == "" || l.Resolution.Status == status {
			items = append(items, v.linkJSON(l))
		}
	}
	if v.ChangeRequest != nil {
		stats.Broken.ChangeRequest = stats.Broken.Total
	}
	return wire.LinkList{List: wire.Items(store.PageByPosition(items, p)), Stats: stats}
}

// FileBacklinkList shows page p of the pages of v that link to file id.
func (v *View) FileBacklinkList(id string, p store.Page) wire.List[wire.Reference] {
	return wire.ListOf(store.PageByPosition(v.FileBacklinks(id), p), v.PageRef)
}
