package content

import (
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
)

// A stored tree remembers its encoding: the hash of each page's object and
// each page's parent. A tree forked from it (Fork) records which pages it
// changes, so that encoding the fork hashes only those pages and their
// ancestors, and reading a fork's parents needs no walk of the whole tree:
// an edit of a 10,000-page space costs what it costs in a 100-page one.

// encodedPage is what the encoding of a tree knows of one page.
type encodedPage struct {
	hash   string // of the page object (its subtree)
	parent string // "" at the top level
}

// encoding is the encoding of one tree; it is never modified once made.
type encoding struct {
	root  string
	pages entries
	files list // the root object's list of files
	cost  int  // treeCost-like estimate of the tree's memory

	// layoutBase is the root of the tree this one was forked from when the
	// fork added, removed, moved, renamed or regrouped no page, so every
	// page sits where it sat there; "" when not known.
	layoutBase string
}

// shards splits the page entries so that a new encoding copies only the
// shards it changes, not one map of every page.
const shards = 256

var shardSeed = maphash.MakeSeed()

type entries struct {
	shard *[shards]map[string]encodedPage
}

func shardOf(id string) int { return int(maphash.String(shardSeed, id) % shards) }

func (e entries) get(id string) (encodedPage, bool) {
	if e.shard == nil {
		return encodedPage{}, false
	}
	v, ok := e.shard[shardOf(id)][id]
	return v, ok
}

// entriesBuilder derives new entries from old ones, copying a shard on its
// first change.
type entriesBuilder struct {
	shard  *[shards]map[string]encodedPage
	copied [shards]bool
}

func newEntriesBuilder(from entries) *entriesBuilder {
	b := &entriesBuilder{shard: new([shards]map[string]encodedPage)}
	if from.shard != nil {
		*b.shard = *from.shard
	}
	return b
}

func (b *entriesBuilder) own(i int) map[string]encodedPage {
	if !b.copied[i] {
		b.shard[i] = maps.Clone(b.shard[i])
		if b.shard[i] == nil {
			b.shard[i] = map[string]encodedPage{}
		}
		b.copied[i] = true
	}
	return b.shard[i]
}

func (b *entriesBuilder) get(id string) (encodedPage, bool) {
	v, ok := b.shard[shardOf(id)][id]
	return v, ok
}

func (b *entriesBuilder) set(id string, v encodedPage) {
	i := shardOf(id)
	if old, ok := b.shard[i][id]; ok && old == v {
		return
	}
	b.own(i)[id] = v
}

func (b *entriesBuilder) delete(id string) {
	i := shardOf(id)
	if _, ok := b.shard[i][id]; ok {
		delete(b.own(i), id)
	}
}

func (b *entriesBuilder) done() entries { return entries{shard: b.shard} }

// PageCost estimates the memory one page holds.
func PageCost(p *Page) int { return pageStructCost(p) + len(p.Markdown) }

// pageStructCost is PageCost without the page's body, which the trees of
// one space's revisions share: a fork shares its base's pages, and Decode
// the bodies it decoded before. 512 bytes: the page, its entries in the
// tree's map and in its encoding's.
func pageStructCost(p *Page) int { return 512 + len(p.Title) + len(p.Description) }

// sharedCost is t's cost without its pages' bodies.
func (t *Tree) sharedCost() int {
	n := 256
	for _, p := range t.Pages {
		n += pageStructCost(p)
	}
	return n + 128*len(t.Files)
}

// Cost estimates the memory t holds, for caches bounded in bytes; for a
// stored tree it is known without a walk.
func (t *Tree) Cost() int {
	if t.enc != nil {
		return t.enc.cost
	}
	n := 256
	for _, p := range t.Pages {
		n += PageCost(p)
	}
	return n + 128*len(t.Files)
}

// forkState is what a fork records of its changes to its base.
type forkState struct {
	base    *Tree
	changed map[string]bool // pages set, edited or removed
	root    bool            // Root was set
	files   bool            // Files changed
}

// Fork returns a new tree with t's content to derive the next tree from. It
// shares t's pages, so it must be changed only through EditPage, PutPage,
// RemovePage, SetRoot and PutFile (or replaced slices of Children that
// EditPage returned); t is never modified. Forking a stored tree makes
// encoding the result cost what changed, not the whole tree.
func (t *Tree) Fork() *Tree {
	return &Tree{Pages: maps.Clone(t.Pages), Root: t.Root, Files: maps.Clone(t.Files),
		fork: &forkState{base: t, changed: map[string]bool{}}}
}

// EditPage returns page id, nil when there is none, for changing it: in a
// fork, a private copy (its Children may be replaced, not changed in place).
func (t *Tree) EditPage(id string) *Page {
	p := t.Pages[id]
	if p == nil || t.fork == nil || t.fork.changed[id] {
		return p
	}
	q := *p
	t.Pages[id] = &q
	t.fork.changed[id] = true
	return &q
}

// PutPage adds p, or replaces the page with its id.
func (t *Tree) PutPage(p *Page) {
	t.Pages[p.ID] = p
	if t.fork != nil {
		t.fork.changed[p.ID] = true
	}
}

// RemovePage removes page id (not its children, nor its place in its
// parent's list).
func (t *Tree) RemovePage(id string) {
	delete(t.Pages, id)
	if t.fork != nil {
		t.fork.changed[id] = true
	}
}

// SetRoot replaces the top-level list.
func (t *Tree) SetRoot(ids []string) {
	t.Root = ids
	if t.fork != nil {
		t.fork.root = true
	}
}

// PutFile adds f, or replaces the file with its id.
func (t *Tree) PutFile(f *File) {
	t.Files[f.ID] = f
	if t.fork != nil {
		t.fork.files = true
	}
}

// Existed reports whether page id was in the tree t was forked from; ok is
// false when t is no fork.
func (t *Tree) Existed(id string) (existed, ok bool) {
	if t.fork == nil {
		return false, false
	}
	_, existed = t.fork.base.Pages[id]
	return existed, true
}

// LayoutBase is the root of a tree whose pages sit where t's do (same
// ids, slugs, kinds, children and top-level list): the tree t was forked
// from when the fork changed only bodies, titles or other fields, or files.
// Its index serves t (DeriveIndex). It is "" when no such tree is known.
func (t *Tree) LayoutBase() string {
	if t.enc == nil {
		return ""
	}
	return t.enc.layoutBase
}

// sameLayout reports whether fork t keeps every page where its base had it.
func (t *Tree) sameLayout() bool {
	f := t.fork
	if f.root && !slices.Equal(t.Root, f.base.Root) {
		return false
	}
	for id := range f.changed {
		p, q := t.Pages[id], f.base.Pages[id]
		if p == nil || q == nil || p.Slug != q.Slug || p.Kind != q.Kind || !slices.Equal(p.Children, q.Children) {
			return false
		}
	}
	return true
}

// incremental reports whether t is a fork of a tree whose encoding is known.
func (t *Tree) incremental() bool {
	return t.fork != nil && t.fork.base.enc != nil
}

// forkParents maps the children of the pages the fork changed, and the
// top-level pages when it set Root, to their parents.
func (t *Tree) forkParents() map[string]string {
	m := map[string]string{}
	if t.fork.root {
		for _, id := range t.Root {
			m[id] = ""
		}
	}
	for id := range t.fork.changed {
		if p := t.Pages[id]; p != nil {
			for _, c := range p.Children {
				m[c] = id
			}
		}
	}
	return m
}

// forkParent is Parent for a fork of an encoded tree, with placed, the
// result of forkParents: a page keeps its base parent unless a list the fork
// changed says otherwise.
func (t *Tree) forkParent(id string, placed map[string]string) (string, bool) {
	if _, ok := t.Pages[id]; !ok {
		return "", false
	}
	if p, ok := placed[id]; ok {
		return p, true
	}
	e, ok := t.fork.base.enc.pages.get(id)
	if !ok || t.fork.changed[e.parent] || (e.parent == "" && t.fork.root) {
		return "", false // its old list changed and no changed list has it
	}
	return e.parent, true
}

// validateFork is Validate for a fork of a stored (so valid) tree: it checks
// what the fork changed. Only the lists of changed pages (and Root) differ
// from the base, so a page is placed once if the base placed it and those
// lists add it as often as they drop it; a cycle can only go through a page
// those lists placed.
func (t *Tree) validateFork() error {
	f := t.fork
	count := map[string]int{} // placements added less those dropped
	for id := range f.changed {
		count[id] += 0
		if p, ok := t.Pages[id]; ok {
			switch {
			case p == nil:
				return fmt.Errorf("page %q is nil", id)
			case p.ID != id:
				return fmt.Errorf("page %q has id %q", id, p.ID)
			case p.Kind != KindDocument && p.Kind != KindGroup:
				return fmt.Errorf("page %q has kind %q", id, p.Kind)
			}
			for _, c := range p.Children {
				count[c]++
			}
		}
		if old := f.base.Pages[id]; old != nil {
			for _, c := range old.Children {
				count[c]--
			}
		}
	}
	if f.root {
		for _, id := range t.Root {
			count[id]++
		}
		for _, id := range f.base.Root {
			count[id]--
		}
	}
	for id, n := range count {
		if _, ok := f.base.Pages[id]; ok {
			n++
		}
		_, present := t.Pages[id]
		switch {
		case !present && n > 0:
			return fmt.Errorf("a list names missing page %q", id)
		case present && n == 0:
			return fmt.Errorf("page %q is not placed", id)
		case present && n > 1:
			return fmt.Errorf("page %q is placed more than once", id)
		}
	}
	placed := t.forkParents()
	for id := range placed {
		cur := id
		for n := 0; cur != ""; n++ {
			parent, ok := t.forkParent(cur, placed)
			if !ok || n > len(t.Pages) {
				return fmt.Errorf("pages form a cycle or hang under no page, at %q", id)
			}
			cur = parent
		}
	}
	return nil
}

// PageHash is the hash of page id's object in a stored tree, which names
// the page and its whole subtree: equal hashes, equal subtrees. ok is false
// when t is not stored (EncodeShared) or has no such page.
func (t *Tree) PageHash(id string) (hash string, ok bool) {
	if t.enc == nil {
		return "", false
	}
	e, ok := t.enc.pages.get(id)
	return e.hash, ok && e.hash != ""
}
