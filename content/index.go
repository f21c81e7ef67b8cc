package content

import (
	"cmp"
	"slices"
	"strings"
)

// Index is what reading derives from a page tree: where each page sits, by
// its path of slugs and by Git path, and the files by name. Trees never
// change, so an index is built once per tree and shared; it is never
// modified after NewIndex.
type Index struct {
	Path   map[string]string // page id → slug path ("guides/install")
	Parent map[string]string // page id → its parent's id, for pages below the top
	Git    map[string]string // page id → Git path, as GitPaths returns
	ByPath map[string]string // slug path → page id; the first page in tree order holds a path two share
	Files  []*File           // by name, then id
}

// NewIndex indexes t.
func NewIndex(t *Tree) *Index {
	x := &Index{Path: map[string]string{}, Parent: map[string]string{}, ByPath: map[string]string{}, Git: GitPaths(t)}
	var walk func(parent, dir string, ids []string)
	walk = func(parent, dir string, ids []string) {
		for _, id := range ids {
			p := dir + t.Pages[id].Slug
			x.Path[id] = p
			if parent != "" {
				x.Parent[id] = parent
			}
			if _, taken := x.ByPath[p]; !taken {
				x.ByPath[p] = id
			}
			walk(id, p+"/", t.Pages[id].Children)
		}
	}
	walk("", "", t.Root)
	x.Files = sortedFiles(t)
	return x
}

// DeriveIndex is NewIndex(t) made from base, the index of the tree that
// t.LayoutBase() names: the pages sit where they sat, so only the files are
// listed anew, and a write costs no walk of the whole tree.
func DeriveIndex(t *Tree, base *Index) *Index {
	x := *base
	x.Files = sortedFiles(t)
	return &x
}

// sortedFiles are t's files by name, then id.
func sortedFiles(t *Tree) []*File {
	var out []*File
	for _, f := range t.Files {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b *File) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) })
	return out
}

// SlugPath is the slug path a page path asks for: without slashes around
// it, a ".md" ending or a "/README" last part.
func SlugPath(raw string) string {
	raw = strings.Trim(raw, "/")
	return strings.TrimSuffix(strings.TrimSuffix(raw, ".md"), "/README")
}

// PageAt finds the page at a path: a slug path ("guides/install"), the same
// ending in ".md" or "/README.md", or a Git path that is no slug path (the
// first page's README.md).
func (x *Index) PageAt(raw string) (id string, ok bool) {
	raw = strings.Trim(raw, "/")
	if id, ok = x.ByPath[SlugPath(raw)]; ok || !strings.HasSuffix(raw, ".md") {
		return id, ok
	}
	for pid, gp := range x.Git {
		if gp == raw {
			return pid, true
		}
	}
	return "", false
}

// Ancestors are the ids of the pages above id, from the top.
func (x *Index) Ancestors(id string) []string {
	var out []string
	for p := x.Parent[id]; p != ""; p = x.Parent[p] {
		out = append(out, p)
	}
	slices.Reverse(out)
	return out
}
