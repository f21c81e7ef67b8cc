package content

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	base := baseTree()
	tests := []struct {
		name string
		edit func(t *Tree)
		want []Change
	}{
		{"identical", func(t *Tree) {}, nil},
		{
			name: "pages created, in pre-order",
			edit: func(t *Tree) {
				t.Root = append(t.Root, "z")
				t.Pages["z"] = doc("z", "", "z1")
				t.Pages["z1"] = doc("z1", "")
				t.Pages["b"].Children = []string{"b1", "n", "b2"}
				t.Pages["n"] = doc("n", "")
			},
			want: []Change{
				{Type: PageCreated, PageID: "n"},
				{Type: PageCreated, PageID: "z"},
				{Type: PageCreated, PageID: "z1"},
			},
		},
		{
			name: "document edited",
			edit: func(t *Tree) {
				p := t.Pages["a"]
				p.Title, p.Slug, p.Emoji, p.Description, p.Markdown = "Alpha", "alpha", "1f600", "first", "one\n"
			},
			want: []Change{{Type: PageEdited, PageID: "a", Attributes: map[string][2]string{
				"title":       {"A", "Alpha"},
				"slug":        {"a", "alpha"},
				"emoji":       {"", "1f600"},
				"description": {"", "first"},
				"document":    {lines5, "one\n"},
			}}},
		},
		{
			name: "group edited: only its attributes",
			edit: func(t *Tree) {
				p := t.Pages["c"]
				p.Kind, p.Title, p.Description, p.Markdown = KindGroup, "See", "ignored", "ignored\n"
			},
			want: []Change{{Type: PageEdited, PageID: "c", Attributes: map[string][2]string{"title": {"C", "See"}}}},
		},
		{
			name: "fields without an attribute name are not an edit",
			edit: func(t *Tree) {
				p := t.Pages["a"]
				p.Icon, p.Condition, p.Hidden, p.NoIndex, p.NoRobotsIndex = "book", "x", true, true, true
				p.CreatedAt, p.UpdatedAt = 1, 2
			},
		},
		{
			name: "pages deleted, in pre-order of the old tree",
			edit: func(t *Tree) {
				t.Root = []string{"a", "c"}
				delete(t.Pages, "b")
				delete(t.Pages, "b1")
				delete(t.Pages, "b2")
			},
			want: []Change{
				{Type: PageDeleted, PageID: "b"},
				{Type: PageDeleted, PageID: "b1"},
				{Type: PageDeleted, PageID: "b2"},
			},
		},
		{
			name: "pages moved",
			edit: func(t *Tree) {
				t.Root = []string{"b1", "a", "b"}
				t.Pages["b"].Children = []string{"b2", "c"}
			},
			want: []Change{
				{Type: PageMoved, PageID: "b1", ParentBefore: "b", ParentAfter: ""},
				{Type: PageMoved, PageID: "c", ParentBefore: "", ParentAfter: "b"},
			},
		},
		{
			name: "reordered under the same parent is no move",
			edit: func(t *Tree) {
				t.Root = []string{"c", "b", "a"}
				t.Pages["b"].Children = []string{"b2", "b1"}
			},
		},
		{
			name: "moved and edited",
			edit: func(t *Tree) {
				t.Root = []string{"a", "b"}
				t.Pages["a"].Children = []string{"c"}
				t.Pages["c"].Markdown = "c2\n"
			},
			want: []Change{
				{Type: PageMoved, PageID: "c", ParentBefore: "", ParentAfter: "a"},
				{Type: PageEdited, PageID: "c", Attributes: map[string][2]string{"document": {"c\n", "c2\n"}}},
			},
		},
		{
			name: "files, by name then id",
			edit: func(t *Tree) {
				delete(t.Files, "f2")
				t.Files["f1"].Name, t.Files["f1"].Size = "brand.png", 12
				t.Files["f3"] = &File{ID: "f3", Name: "brand.png", ContentType: "image/png"}
				t.Files["f0"] = &File{ID: "f0", Name: "zebra.svg", ContentType: "image/svg+xml"}
			},
			want: []Change{
				{Type: FileEdited, FileID: "f1", Attributes: map[string][2]string{
					"name": {"logo.png", "brand.png"},
					"size": {"10", "12"},
				}},
				{Type: FileCreated, FileID: "f3"},
				{Type: FileDeleted, FileID: "f2"},
				{Type: FileCreated, FileID: "f0"},
			},
		},
		{
			name: "file content type edited",
			edit: func(t *Tree) { t.Files["f2"].ContentType = "application/x-pdf" },
			want: []Change{{Type: FileEdited, FileID: "f2", Attributes: map[string][2]string{
				"contentType": {"application/pdf", "application/x-pdf"},
			}}},
		},
		{
			name: "file fields without an attribute name are not an edit",
			edit: func(t *Tree) { t.Files["f1"].Blob, t.Files["f1"].Width = Hash("other"), 3 },
		},
		{
			name: "pages before files",
			edit: func(t *Tree) {
				delete(t.Files, "f1")
				t.Pages["c"].Title = "See"
			},
			want: []Change{
				{Type: PageEdited, PageID: "c", Attributes: map[string][2]string{"title": {"C", "See"}}},
				{Type: FileDeleted, FileID: "f1"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			after := edit(base, tt.edit)
			if err := after.Validate(); err != nil {
				t.Fatalf("bad test tree: %v", err)
			}
			if diff := cmp.Diff(tt.want, Diff(base, after)); diff != "" {
				t.Errorf("Diff (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiffFromEmpty(t *testing.T) {
	t.Parallel()
	want := []Change{
		{Type: PageCreated, PageID: "a"},
		{Type: PageCreated, PageID: "b"},
		{Type: PageCreated, PageID: "b1"},
		{Type: PageCreated, PageID: "b2"},
		{Type: PageCreated, PageID: "c"},
		{Type: FileCreated, FileID: "f2"}, // guide.pdf
		{Type: FileCreated, FileID: "f1"}, // logo.png
	}
	for _, empty := range []*Tree{nil, mkTree(nil)} {
		if diff := cmp.Diff(want, Diff(empty, baseTree())); diff != "" {
			t.Errorf("Diff(%v, base) (-want +got):\n%s", empty, diff)
		}
	}
}

// allowed lists the attribute names the reference allows per page kind.
var allowed = map[string]map[string]bool{
	KindDocument: {"title": true, "description": true, "slug": true, "document": true, "emoji": true},
	KindGroup:    {"title": true, "emoji": true, "slug": true},
	"file":       {"name": true, "contentType": true, "size": true},
}

func TestDiffProperties(t *testing.T) {
	t.Parallel()
	for seed := range uint64(300) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(seed, 4))
			a := randTree(r, 12)
			if got := Diff(a, a); len(got) > 0 {
				t.Fatalf("Diff(a, a) = %+v", got)
			}
			if got := Diff(a, a.Clone()); len(got) > 0 {
				t.Fatalf("Diff(a, clone) = %+v", got)
			}
			count := func(cs []Change, typ string) int {
				n := 0
				for _, c := range cs {
					if c.Type == typ {
						n++
					}
				}
				return n
			}
			created, deleted := Diff(nil, a), Diff(a, nil)
			if count(created, PageCreated) != len(a.Pages) || count(created, FileCreated) != len(a.Files) ||
				len(created) != len(a.Pages)+len(a.Files) {
				t.Fatalf("Diff(nil, a) = %+v; want every page and file created", created)
			}
			if count(deleted, PageDeleted) != len(a.Pages) || count(deleted, FileDeleted) != len(a.Files) ||
				len(deleted) != len(a.Pages)+len(a.Files) {
				t.Fatalf("Diff(a, nil) = %+v; want every page and file deleted", deleted)
			}
			b := randEdits(r, a, 6, "e")
			for _, c := range Diff(a, b) {
				if c.Type != PageEdited && c.Type != FileEdited {
					continue
				}
				kind := "file"
				if c.Type == PageEdited {
					kind = b.Pages[c.PageID].Kind
				}
				if len(c.Attributes) == 0 {
					t.Errorf("%+v has no attributes", c)
				}
				for name, v := range c.Attributes {
					if !allowed[kind][name] || v[0] == v[1] {
						t.Errorf("%+v: attribute %q not allowed for %s or unchanged", c, name, kind)
					}
				}
			}
		})
	}
}
