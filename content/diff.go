package content

import (
	"cmp"
	"slices"
	"strconv"
)

// Change types, as the reference names them.
const (
	PageCreated = "page_created"
	PageEdited  = "page_edited"
	PageDeleted = "page_deleted"
	PageMoved   = "page_moved"
	FileCreated = "file_created"
	FileEdited  = "file_edited"
	FileDeleted = "file_deleted"
)

// Change is one semantic difference between two revisions, shaped after the
// reference's RevisionSemanticChange.
type Change struct {
	Type   string // PageCreated, PageEdited, ...
	PageID string // for page changes
	FileID string // for file changes
	// Attributes holds, for PageEdited and FileEdited, each changed
	// attribute's {before, after} under the reference's attribute name.
	Attributes map[string][2]string
	// ParentBefore and ParentAfter are, for PageMoved, the parent page ids
	// ("" for the top level).
	ParentBefore, ParentAfter string
}

// Diff lists what changed from a to b, two valid trees (a may be empty or
// nil). Pages come first: created, edited and moved ones in pre-order of b
// (a page both moved and edited gives PageMoved then PageEdited), then the
// deleted ones in pre-order of a. Files follow, sorted by name then id.
//
// Only attributes the reference can name are compared, so a page whose only
// changes are, say, its icon or hidden flag is not reported: an edit must
// carry at least one attribute.
func Diff(a, b *Tree) []Change {
	if a == nil {
		a = &Tree{}
	}
	if b == nil {
		b = &Tree{}
	}
	var out []Change
	pa, pb := a.parents(), b.parents()
	for _, id := range preOrder(b) {
		p := b.Pages[id]
		q, ok := a.Pages[id]
		if !ok {
			out = append(out, Change{Type: PageCreated, PageID: id})
			continue
		}
		if pa[id] != pb[id] {
			out = append(out, Change{Type: PageMoved, PageID: id, ParentBefore: pa[id], ParentAfter: pb[id]})
		}
		if attrs := pageAttributes(q, p); len(attrs) > 0 {
			out = append(out, Change{Type: PageEdited, PageID: id, Attributes: attrs})
		}
	}
	for _, id := range preOrder(a) {
		if _, ok := b.Pages[id]; !ok {
			out = append(out, Change{Type: PageDeleted, PageID: id})
		}
	}

	type fileChange struct {
		name string
		c    Change
	}
	var files []fileChange
	for id, f := range b.Files {
		g, ok := a.Files[id]
		switch {
		case !ok:
			files = append(files, fileChange{f.Name, Change{Type: FileCreated, FileID: id}})
		default:
			if attrs := fileAttributes(g, f); len(attrs) > 0 {
				files = append(files, fileChange{f.Name, Change{Type: FileEdited, FileID: id, Attributes: attrs}})
			}
		}
	}
	for id, g := range a.Files {
		if _, ok := b.Files[id]; !ok {
			files = append(files, fileChange{g.Name, Change{Type: FileDeleted, FileID: id}})
		}
	}
	slices.SortFunc(files, func(x, y fileChange) int {
		return cmp.Or(cmp.Compare(x.name, y.name), cmp.Compare(x.c.FileID, y.c.FileID))
	})
	for _, f := range files {
		out = append(out, f.c)
	}
	return out
}

// preOrder lists t's page ids depth first, each page before its children.
func preOrder(t *Tree) []string {
	var out []string
	seen := map[string]bool{} // guards against a cycle in an invalid tree
	var walk func(ids []string)
	walk = func(ids []string) {
		for _, id := range ids {
			p := t.Pages[id]
			if p == nil || seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, id)
			walk(p.Children)
		}
	}
	walk(t.Root)
	return out
}

type attributes map[string][2]string

func (m attributes) add(name, before, after string) {
	if before != after {
		m[name] = [2]string{before, after}
	}
}

// pageAttributes returns the changed attributes that the reference allows for
// the page's kind after the change (a group has no description or body).
func pageAttributes(before, after *Page) attributes {
	m := attributes{}
	m.add("title", before.Title, after.Title)
	m.add("emoji", before.Emoji, after.Emoji)
	m.add("slug", before.Slug, after.Slug)
	if after.Kind == KindDocument {
		m.add("description", before.Description, after.Description)
		m.add("document", before.Markdown, after.Markdown)
	}
	return m
}

// fileAttributes returns the changed attributes the reference names for a
// file. Its bytes alone (Blob) have no name there, nor do its dimensions here.
func fileAttributes(before, after *File) attributes {
	m := attributes{}
	m.add("name", before.Name, after.Name)
	m.add("contentType", before.ContentType, after.ContentType)
	m.add("size", strconv.FormatInt(before.Size, 10), strconv.FormatInt(after.Size, 10))
	return m
}
