package content

import "slices"

// MergeEdits is the three-way merge of ours and theirs, both descended from
// base, in the common case where theirs edited pages in place and added
// pages (none deleted or moved, no file changed), and ours left the pages
// and lists theirs changed as they were: the merge is then ours with
// theirs' changed and added pages, which the trees' encodings find without
// a walk of the whole tree. ok is false when the case does not apply (or a
// tree is not stored): Merge decides then.
//
// The result is what Merge gives, followed by the store's renaming of
// repeated slugs among siblings, for trees that have none, as authoring and
// merges keep them (a list where a slug would repeat is left to Merge). It
// is a fork of ours (do not modify it).
func MergeEdits(base, ours, theirs *Tree) (*Tree, bool) {
	if base.enc == nil || ours.enc == nil || theirs.enc == nil || !sameList(base.enc.files, theirs.enc.files) {
		return nil, false
	}
	rootChanged := !slices.Equal(base.Root, theirs.Root)
	if rootChanged && (!onlyAdded(base, base.Root, theirs.Root) || !slices.Equal(ours.Root, base.Root)) {
		return nil, false
	}
	var changed, added []string // pages theirs changed in place; pages it added
	ok := walkChanged(base, theirs, theirs.Root, func(id string, b, t *Page) bool {
		switch {
		case b == nil:
			added = append(added, id)
			return true
		case !slices.Equal(b.Children, t.Children):
			if !onlyAdded(base, b.Children, t.Children) {
				return false
			}
		case samePageFields(*b, *t):
			return true // only below it
		}
		changed = append(changed, id)
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
	for _, id := range added {
		if _, inOurs := ours.Pages[id]; inOurs {
			return nil, false
		}
		out.PutPage(theirs.Pages[id])
	}
	for _, id := range changed {
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
	if rootChanged {
		out.SetRoot(theirs.Root)
		if !uniqueSlugs(out, out.Root) {
			return nil, false
		}
	}
	for _, id := range slices.Concat(changed, added) {
		if !uniqueSlugs(out, out.Pages[id].Children) {
			return nil, false
		}
	}
	return out, true
}

// onlyAdded reports whether side is the list was with pages added that base
// does not have (none moved there, removed or reordered).
func onlyAdded(base *Tree, was, side []string) bool {
	i := 0
	for _, id := range side {
		if i < len(was) && was[i] == id {
			i++
		} else if _, inBase := base.Pages[id]; inBase {
			return false
		}
	}
	return i == len(was)
}

// uniqueSlugs reports whether the pages ids of t have different slugs.
func uniqueSlugs(t *Tree, ids []string) bool {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		s := t.Pages[id].Slug
		if seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
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
