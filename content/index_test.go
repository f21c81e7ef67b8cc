package content

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// indexTree is a small tree: a first page, a page with children, a group,
// and two sibling pages that share a slug.
func indexTree() *Tree {
	pages := []*Page{
		{ID: "home", Slug: "home", Kind: KindDocument},
		{ID: "guides", Slug: "guides", Kind: KindDocument, Children: []string{"install", "dup1", "dup2"}},
		{ID: "install", Slug: "install", Kind: KindDocument},
		{ID: "dup1", Slug: "same", Kind: KindDocument},
		{ID: "dup2", Slug: "same", Kind: KindDocument},
		{ID: "group", Slug: "more", Kind: KindGroup, Children: []string{"faq"}},
		{ID: "faq", Slug: "faq", Kind: KindDocument},
	}
	t := &Tree{Pages: map[string]*Page{}, Root: []string{"home", "guides", "group"}, Files: map[string]*File{
		"f2": {ID: "f2", Name: "b.png"}, "f1": {ID: "f1", Name: "a.png"}, "f0": {ID: "f0", Name: "b.png"},
	}}
	for _, p := range pages {
		t.Pages[p.ID] = p
	}
	return t
}

func TestNewIndex(t *testing.T) {
	x := NewIndex(indexTree())
	wantPath := map[string]string{"home": "home", "guides": "guides", "install": "guides/install", "dup1": "guides/same",
		"dup2": "guides/same", "group": "more", "faq": "more/faq"}
	if diff := cmp.Diff(wantPath, x.Path); diff != "" {
		t.Errorf("Path (-want +got):\n%s", diff)
	}
	wantParent := map[string]string{"install": "guides", "dup1": "guides", "dup2": "guides", "faq": "group"}
	if diff := cmp.Diff(wantParent, x.Parent); diff != "" {
		t.Errorf("Parent (-want +got):\n%s", diff)
	}
	if got := x.ByPath["guides/same"]; got != "dup1" {
		t.Errorf("ByPath[guides/same] = %q, want the first sibling, dup1", got)
	}
	var files []string
	for _, f := range x.Files {
		files = append(files, f.ID)
	}
	if diff := cmp.Diff([]string{"f1", "f0", "f2"}, files); diff != "" {
		t.Errorf("Files by name, then id (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(GitPaths(indexTree()), x.Git); diff != "" {
		t.Errorf("Git (-want +got):\n%s", diff)
	}
}

func TestIndexPageAt(t *testing.T) {
	x := NewIndex(indexTree())
	tests := []struct {
		path   string
		want   string
		wantOK bool
	}{
		{"guides/install", "install", true},
		{"/guides/install/", "install", true},
		{"guides/install.md", "install", true},
		{"guides/README.md", "guides", true},
		{"guides/README", "guides", true},
		{"guides/same", "dup1", true},
		{"more/faq", "faq", true},
		{"more", "group", true},
		{"README.md", "home", true}, // the first page's Git path, which is no slug path
		{"guides/same-2.md", "dup2", true},
		{"guides/same-2", "", false}, // Git paths are found only as .md
		{"nowhere", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, ok := x.PageAt(tt.path)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("PageAt(%q) = %q, %v; want %q, %v", tt.path, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestSlugPath(t *testing.T) {
	for raw, want := range map[string]string{
		"a/b": "a/b", "/a/b/": "a/b", "a/b.md": "a/b", "a/README.md": "a", "README.md": "README", "a/README": "a", "": "",
	} {
		if got := SlugPath(raw); got != want {
			t.Errorf("SlugPath(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestIndexAncestors(t *testing.T) {
	x := NewIndex(&Tree{Root: []string{"a"}, Pages: map[string]*Page{
		"a": {ID: "a", Slug: "a", Children: []string{"b"}},
		"b": {ID: "b", Slug: "b", Children: []string{"c"}},
		"c": {ID: "c", Slug: "c"},
	}})
	for id, want := range map[string][]string{"a": nil, "b": {"a"}, "c": {"a", "b"}, "missing": nil} {
		if diff := cmp.Diff(want, x.Ancestors(id)); diff != "" {
			t.Errorf("Ancestors(%q) (-want +got):\n%s", id, diff)
		}
	}
}

// TestDeriveIndex checks that a fork that moved no page names its base as
// its layout, and that the index derived from the base's is the one built
// anew; any change of where pages sit names none.
func TestDeriveIndex(t *testing.T) {
	stored := func() *Tree {
		s := indexTree()
		EncodeShared(s)
		return s
	}
	edits := map[string]struct {
		edit func(f *Tree)
		same bool
	}{
		"body":      {func(f *Tree) { f.EditPage("install").Markdown = "new" }, true},
		"title":     {func(f *Tree) { f.EditPage("faq").Title = "FAQ" }, true},
		"file":      {func(f *Tree) { f.PutFile(&File{ID: "f3", Name: "0.png"}) }, true},
		"same root": {func(f *Tree) { f.SetRoot([]string{"home", "guides", "group"}) }, true},
		"slug":      {func(f *Tree) { f.EditPage("install").Slug = "setup" }, false},
		"kind":      {func(f *Tree) { f.EditPage("guides").Kind = KindGroup }, false},
		"order":     {func(f *Tree) { f.EditPage("guides").Children = []string{"dup2", "dup1", "install"} }, false},
		"root":      {func(f *Tree) { f.SetRoot([]string{"guides", "home", "group"}) }, false},
		"add": {func(f *Tree) {
			f.PutPage(&Page{ID: "new", Slug: "new", Kind: KindDocument})
			f.EditPage("group").Children = []string{"faq", "new"}
		}, false},
	}
	for name, c := range edits {
		base := stored()
		f := base.Fork()
		c.edit(f)
		EncodeShared(f)
		got := f.LayoutBase()
		if (got == mustRoot(base)) != c.same || (!c.same && got != "") {
			t.Errorf("%s: LayoutBase = %q, base %q, want same %v", name, got, mustRoot(base), c.same)
			continue
		}
		if c.same {
			if diff := cmp.Diff(NewIndex(f), DeriveIndex(f, NewIndex(base))); diff != "" {
				t.Errorf("%s: derived index (-built +derived):\n%s", name, diff)
			}
		}
	}
	if got := indexTree().LayoutBase(); got != "" {
		t.Errorf("a tree never stored: LayoutBase = %q, want none", got)
	}
}
