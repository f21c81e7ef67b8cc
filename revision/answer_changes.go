package revision

import "github.com/quiredocs/quire/wire"

// ChangesJSON shows what changed from before to after, at most limit
// changes (the rest counted in More).
func ChangesJSON(l wire.Links, before, after *View, limit int) wire.Changes {
	changes, more := Changes(before, after, limit)
	out := wire.Changes{Changes: make([]wire.Change, 0, len(changes)), More: more}
	for _, c := range changes {
		j := wire.Change{Type: c.Type, Page: changedPage(c.Page)}
		if c.File != nil {
			f := l.RevisionFile(c.File.View.Space.ID, c.File.View.Revision.ID, c.File.File)
			j.File = &wire.ChangedFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: f.DownloadURL}
		}
		if c.Moved != nil {
			j.Parent = &wire.ChangedParent{Before: changedPage(c.Moved[0]), After: changedPage(c.Moved[1])}
		}
		if c.Attributes != nil {
			j.Attributes = map[string]any{}
			for name, ba := range c.Attributes {
				j.Attributes[name] = wire.Attribute(name, ba)
			}
		}
		out.Changes = append(out.Changes, j)
	}
	return out
}

// changedPage shows a page one side of a change shows; nil for none.
func changedPage(p *ChangedPage) *wire.ChangedPage {
	if p == nil {
		return nil
	}
	typ := "document"
	if p.Group {
		typ = "group"
	}
	return &wire.ChangedPage{ID: p.ID, Type: typ, Title: p.Title, Path: p.Path}
}
