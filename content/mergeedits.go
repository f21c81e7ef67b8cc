package content

import "slices"

// MergeEdits is the three-way merge of ours and theirs, both descended from
// base, in the common case where theirs only edited pages in place (no page
// added, deleted or moved, no file changed) and ours left those pages as
// they were: the merge is then ours with theirs' edited pages, which the
// trees' encodings find without a walk of the whole tree. ok is false when
// the case does not apply (or a tree is not stored): Merge decides then.
//
// The result is what Merge gives, followed by the store's renaming of
// repeated slugs among siblings, for trees that have none, as authoring and
// merges keep them. It is a fork of ours (do not modify it).
func MergeEdits(base, ours, theirs *Tree) (*Tree, bool) {
	if base.enc == nil || ours.enc == nil || theirs.enc == nil || !sameList(base.enc.files, theirs.enc.files) ||
		!slices.Equal(base.Root, theirs.Root) {
		return nil, false
	}
	var edited []string
	ok := walkChanged(base, theirs, theirs.Root, func(id string, b, t *Page) bool {
		if b == nil || !slices.Equal(b.Children, t.Children) {
			return false // added or its children changed: not an edit in place
		}
		if !samePageFields(*b, *t) {
			edited = append(edited, id)
		}
		return true
	})
	if !ok {
		return nil, false
	}
	// Merge keeps the base's creation time and the later update of a page
	// only ours edited: ours must have them already.
	ok = walkChanged(base, ours, ours.Root, func(id string, b, o *Page) bool {
		return b == nil || ((b.CreatedAt == 0 || o.CreatedAt == b.CreatedAt) && o.UpdatedAt >= b.UpdatedAt)
	})
	if !ok {
		return nil, false
	}
	out := ours.Fork()
	for _, id := range edited {
		b, o, t := base.Pages[id], ours.Pages[id], theirs.Pages[id]
		be, _ := base.enc.pages.get(id)
		oe, inOurs := ours.enc.pages.get(id)
		if !inOurs || oe.parent != be.parent || !slices.Equal(o.Children, b.Children) || !samePageFields(*o, *b) ||
			t.Slug != b.Slug || t.CreatedAt != b.CreatedAt {
			return nil, false // ours changed it too, or theirs' slug may need renaming
		}
		if t.UpdatedAt < o.UpdatedAt {
			q := *t
			q.UpdatedAt = o.UpdatedAt
			t = &q
		}
		out.PutPage(t)
	}
	return out, true
}

// walkChanged calls f for every page of side, below the pages ids, whose
// subtree differs from base's page of the same id (b nil when base has
// none), descending only into such subtrees; it stops when f returns false.
func walkChanged(base, side *Tree, ids []string, f func(id string, b, s *Page) bool) bool {
	for _, id := range ids {
		se, _ := side.enc.pages.get(id)
		be, inBase := base.enc.pages.get(id)
		if inBase && be.hash == se.hash {
			continue
		}
		s := side.Pages[id]
		if s == nil || !f(id, base.Pages[id], s) || !walkChanged(base, side, s.Children, f) {
			return false
		}
	}
	return true
}

func sameList(a, b list) bool {
	return slices.Equal(a.Items, b.Items) && slices.Equal(a.Chunks, b.Chunks)
}
