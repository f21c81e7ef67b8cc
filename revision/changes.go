package revision

import (
	"context"

	"github.com/quiredocs/quire/content"
)

// ChangedPage is a page as one side of a change shows it.
type ChangedPage struct {
	ID    string
	Group bool // a group rather than a document
	Title string
	Path  string // its path in that side's view
}

// ChangedFile is a file as one side of a change shows it, with the view it
// is read from (to link to its bytes at that side's revision).
type ChangedFile struct {
	File *content.File
	View *View
}

// Change is one semantic difference between two views, with its pages and
// files resolved on the side that shows them.
type Change struct {
	Type string // content.PageCreated, ...
	// Page is the changed page: on the before side when deleted, else on
	// the after side; nil for file changes (or a page the side lacks).
	Page *ChangedPage
	// File is the changed file: on the before side when deleted, else on
	// the after side; nil for page changes.
	File *ChangedFile
	// Moved is set for content.PageMoved: the parent before and after (nil
	// for the top level).
	Moved *[2]*ChangedPage
	// Attributes holds, for edits, each changed attribute's {before, after}.
	Attributes map[string][2]string
}

// Changes lists at most limit of what changed from before to after (their
// trees), in the order of content.Diff; more is how many were left out.
func Changes(before, after *View, limit int) (changes []Change, more int) {
	all := content.Diff(before.Tree, after.Tree)
	if len(all) > limit {
		more = len(all) - limit
		all = all[:limit]
	}
	changes = make([]Change, 0, len(all))
	for _, c := range all {
		ch := Change{Type: c.Type, Attributes: c.Attributes}
		switch c.Type {
		case content.PageDeleted:
			ch.Page = before.changedPage(c.PageID)
		case content.FileDeleted:
			ch.File = before.changedFile(c.FileID)
		case content.FileCreated, content.FileEdited:
			ch.File = after.changedFile(c.FileID)
		default:
			ch.Page = after.changedPage(c.PageID)
		}
		if c.Type == content.PageMoved {
			ch.Moved = &[2]*ChangedPage{before.changedPage(c.ParentBefore), after.changedPage(c.ParentAfter)}
		}
		changes = append(changes, ch)
	}
	return changes, more
}

func (v *View) changedPage(id string) *ChangedPage {
	p, ok := v.Tree.Pages[id]
	if !ok {
		return nil
	}
	return &ChangedPage{ID: id, Group: p.Kind == content.KindGroup, Title: p.Title, Path: v.Path(id)}
}

func (v *View) changedFile(id string) *ChangedFile {
	return &ChangedFile{File: v.Tree.Files[id], View: v}
}

// Parent opens what revision v changed from: its first parent, or for a
// space's first revision the empty view (root "").
func (r *Reader) Parent(ctx context.Context, v *View) (*View, error) {
	if len(v.Revision.Parents) == 0 {
		return r.Empty(v.Space, v.Revision.ID), nil
	}
	return r.Open(ctx, v.Space, v.Revision.Parents[0], nil)
}
