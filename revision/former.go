package revision

import (
	"context"

	"github.com/quiredocs/quire/content"
)

// FormerPaths maps the page paths that earlier revisions of v's space had,
// and v has not, to the ids of the pages they named, for pages v still
// holds: where a moved or renamed page used to be. It walks back from v
// through first parents (the space's own history, not the change requests
// merged into it), newest first, reading at most limit revisions; a path
// belongs to the newest revision that had it, so a path a deleted page
// last held maps to nothing even if an older page held it before.
//
// The walk stops when ctx is done: it then answers what it found with
// ctx.Err(), so a deadline on ctx bounds its time. On any other error it
// answers what it found with that error.
func (r *Reader) FormerPaths(ctx context.Context, v *View, limit int) (map[string]string, error) {
	f := newFormer(v.Tree)
	cur := v
	for range limit {
		if err := ctx.Err(); err != nil {
			return f.paths, err
		}
		if len(cur.Revision.Parents) == 0 {
			break
		}
		prev, err := r.Open(ctx, v.Space, cur.Revision.Parents[0], nil)
		if err != nil {
			if ctx.Err() != nil {
				return f.paths, ctx.Err()
			}
			return f.paths, err
		}
		if prev.Revision.Root != cur.Revision.Root { // a revision that changed nothing adds nothing
			f.add(prev.Tree)
		}
		cur = prev
	}
	return f.paths, nil
}

// former gathers the former paths of a tree's pages from older trees,
// newest first.
type former struct {
	current *content.Tree
	decided map[string]bool   // paths a newer tree (or the current one) had
	paths   map[string]string // former path → id of a page of current
}

func newFormer(current *content.Tree) *former {
	f := &former{current: current, decided: map[string]bool{}, paths: map[string]string{}}
	for path := range slugPaths(current) {
		f.decided[path] = true
	}
	return f
}

// add takes the paths of t, a tree older than every one added before.
func (f *former) add(t *content.Tree) {
	for path, id := range slugPaths(t) {
		if f.decided[path] {
			continue
		}
		f.decided[path] = true
		if _, ok := f.current.Pages[id]; ok {
			f.paths[path] = id
		}
	}
}

// formerPaths is FormerPaths over trees in memory: current, then older
// trees, newest first.
func formerPaths(current *content.Tree, older ...*content.Tree) map[string]string {
	f := newFormer(current)
	for _, t := range older {
		f.add(t)
	}
	return f.paths
}

// slugPaths maps t's slug paths to the pages at them, the first in tree
// order holding a path two share, as content.Index.ByPath does. It is
// computed apart from the index, which also finds Git paths, and without
// caching: the trees of a walk back through history are read once.
func slugPaths(t *content.Tree) map[string]string {
	out := make(map[string]string, len(t.Pages))
	var walk func(dir string, ids []string)
	walk = func(dir string, ids []string) {
		for _, id := range ids {
			p, ok := t.Pages[id]
			if !ok {
				continue
			}
			path := dir + p.Slug
			if _, taken := out[path]; !taken {
				out[path] = id
			}
			walk(path+"/", p.Children)
		}
	}
	walk("", t.Root)
	return out
}
