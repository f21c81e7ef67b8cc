package content

import (
	"fmt"
	"strings"

	"github.com/quiredocs/quire"
)

// Head is a revision's id with its tree: one side of MergeHeads.
type Head struct {
	ID   string
	Tree *Tree
}

// MergeHeads three-way merges the revisions ours and theirs, descended from
// base, with the conflicts resolve decides: where a side did not move from
// base the other is taken as it is; otherwise the trees are merged
// (MergeEdits when it can, else MergeResolving) and the slugs the merge
// made collide are freed (FreeSlugs). A conflict left open answers a
// ConflictError. The trees are not modified; the result may be one of them.
func MergeHeads(base, ours, theirs Head, resolve map[string]Resolution) (*Tree, error) {
	if base.ID == ours.ID { // nothing happened on our side: take theirs as it is
		return theirs.Tree, nil
	}
	if base.ID == theirs.ID { // nothing happened on their side: keep ours
		return ours.Tree, nil
	}
	if resolve == nil { // their pages edited in place, ours not: no walk of the tree
		if merged, ok := MergeEdits(base.Tree, ours.Tree, theirs.Tree); ok {
			return merged, nil
		}
	}
	merged, conflicts := MergeResolving(base.Tree, ours.Tree, theirs.Tree, resolve)
	if len(conflicts) > 0 {
		return nil, &ConflictError{Conflicts: conflicts}
	}
	FreeSlugs(merged, ours.Tree)
	return merged, nil
}

// ConflictError reports a three-way merge that could not be made; it
// answers 409 and names the pages (or files) in conflict.
type ConflictError struct{ Conflicts []Conflict }

func (e *ConflictError) Error() string {
	parts := make([]string, 0, len(e.Conflicts))
	for _, c := range e.Conflicts {
		what := fmt.Sprintf("page %q (%s)", c.Title, c.PageID)
		if c.PageID == "" {
			what = fmt.Sprintf("file %q", c.Title)
		}
		parts = append(parts, what+": "+c.Reason)
	}
	return "merge conflict: " + strings.Join(parts, "; ")
}

// Unwrap makes the error a quire CodeConflict for the HTTP layer.
func (e *ConflictError) Unwrap() error {
	return &quire.Error{Code: quire.CodeConflict, Message: e.Error()}
}

// FreeSlugs gives every page of a merged tree whose slug a sibling already
// has the next free "<slug>-2", "-3"…, as authoring does: pages added or
// moved to the same place on both sides must not share a path. A page that
// ours has at the same place under the same slug keeps it, so the space's
// live paths do not change. t is the merge's own tree: it is modified.
func FreeSlugs(t, ours *Tree) {
	oursParent := map[string]string{}
	for _, id := range ours.Root {
		oursParent[id] = ""
	}
	for pid, p := range ours.Pages {
		for _, c := range p.Children {
			oursParent[c] = pid
		}
	}
	fix := func(parent string, kids []string) {
		taken := map[string]bool{}
		var others []string
		for _, id := range kids {
			p := t.Pages[id]
			op, inOurs := oursParent[id]
			if inOurs && op == parent && ours.Pages[id].Slug == p.Slug && !taken[p.Slug] {
				taken[p.Slug] = true
			} else {
				others = append(others, id)
			}
		}
		for _, id := range others {
			p := t.Pages[id]
			p.Slug = quire.FreeSlug(p.Slug, quire.MaxSlug, func(s string) bool { return taken[s] })
			taken[p.Slug] = true
		}
	}
	fix("", t.Root)
	for id, p := range t.Pages {
		fix(id, p.Children)
	}
}
