package content

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var treeOpts = cmpopts.EquateEmpty()

// doc returns a document page; kids are its children's ids.
func doc(id, markdown string, kids ...string) *Page {
	return &Page{ID: id, Title: strings.ToUpper(id), Slug: id, Kind: KindDocument, Markdown: markdown, Children: kids}
}

func mkTree(root []string, pages ...*Page) *Tree {
	t := &Tree{Pages: map[string]*Page{}, Root: root}
	for _, p := range pages {
		t.Pages[p.ID] = p
	}
	return t
}

// edit returns a copy of t changed by f.
func edit(t *Tree, f func(t *Tree)) *Tree {
	c := t.Clone()
	f(c)
	return c
}

const lines5 = "one\ntwo\nthree\nfour\nfive\n"

func baseTree() *Tree {
	t := mkTree([]string{"a", "b", "c"},
		doc("a", lines5),
		doc("b", "intro\n", "b1", "b2"),
		doc("b1", lines5),
		doc("b2", "b2\n"),
		doc("c", "c\n"),
	)
	t.Pages["a"].CreatedAt, t.Pages["a"].UpdatedAt = 100, 200
	t.Files = map[string]*File{
		"f1": {ID: "f1", Name: "logo.png", ContentType: "image/png", Size: 10, Width: 2, Height: 5, Blob: Hash("png")},
		"f2": {ID: "f2", Name: "guide.pdf", ContentType: "application/pdf", Size: 2048, Blob: Hash("pdf")},
	}
	return t
}

func TestMerge(t *testing.T) {
	t.Parallel()
	base := baseTree()
	tests := []struct {
		name         string
		ours, theirs func(t *Tree)
		want         func(t *Tree) // applied to base; nil when conflicting
		conflicts    []string      // page ids, and "file:" + id for files
	}{
		{
			name:   "one-sided edit",
			ours:   func(t *Tree) {},
			theirs: func(t *Tree) { t.Pages["a"].Title = "New A"; t.Pages["c"].Markdown = "c2\n" },
			want:   func(t *Tree) { t.Pages["a"].Title = "New A"; t.Pages["c"].Markdown = "c2\n" },
		},
		{
			name:   "both sides same edit",
			ours:   func(t *Tree) { t.Pages["a"].Markdown = "x\n"; t.Pages["b"].Emoji = "1f600" },
			theirs: func(t *Tree) { t.Pages["a"].Markdown = "x\n"; t.Pages["b"].Emoji = "1f600" },
			want:   func(t *Tree) { t.Pages["a"].Markdown = "x\n"; t.Pages["b"].Emoji = "1f600" },
		},
		{
			name:   "disjoint edits of one page",
			ours:   func(t *Tree) { t.Pages["a"].Markdown = "ONE\ntwo\nthree\nfour\nfive\n" },
			theirs: func(t *Tree) { t.Pages["a"].Markdown = "one\ntwo\nthree\nfour\nFIVE\nsix\n" },
			want:   func(t *Tree) { t.Pages["a"].Markdown = "ONE\ntwo\nthree\nfour\nFIVE\nsix\n" },
		},
		{
			name:   "disjoint field edits of one page",
			ours:   func(t *Tree) { t.Pages["a"].Title = "Alpha" },
			theirs: func(t *Tree) { t.Pages["a"].Description = "first"; t.Pages["a"].Slug = "alpha" },
			want: func(t *Tree) {
				t.Pages["a"].Title, t.Pages["a"].Description, t.Pages["a"].Slug = "Alpha", "first", "alpha"
			},
		},
		{
			name:      "overlapping edits",
			ours:      func(t *Tree) { t.Pages["a"].Markdown = "one\ntwo\nTHREE\nfour\nfive\n" },
			theirs:    func(t *Tree) { t.Pages["a"].Markdown = "one\ntwo\n3\nfour\nfive\n" },
			conflicts: []string{"a"},
		},
		{
			name:      "title changed differently",
			ours:      func(t *Tree) { t.Pages["c"].Title = "See" },
			theirs:    func(t *Tree) { t.Pages["c"].Title = "Sea" },
			conflicts: []string{"c"},
		},
		{
			name: "move vs edit",
			ours: func(t *Tree) { // move c under b, last
				t.Root = []string{"a", "b"}
				t.Pages["b"].Children = append(t.Pages["b"].Children, "c")
			},
			theirs: func(t *Tree) { t.Pages["c"].Markdown = "c edited\n" },
			want: func(t *Tree) {
				t.Root = []string{"a", "b"}
				t.Pages["b"].Children = append(t.Pages["b"].Children, "c")
				t.Pages["c"].Markdown = "c edited\n"
			},
		},
		{
			name: "moved to different parents",
			ours: func(t *Tree) { t.Root = []string{"a", "b"}; t.Pages["a"].Children = []string{"c"} },
			theirs: func(t *Tree) {
				t.Root = []string{"a", "b"}
				t.Pages["b"].Children = append(t.Pages["b"].Children, "c")
			},
			conflicts: []string{"c"},
		},
		{
			name: "delete vs edit",
			ours: func(t *Tree) { t.Root = []string{"a", "b"}; delete(t.Pages, "c") },
			theirs: func(t *Tree) {
				t.Pages["c"].Markdown = "c edited\n"
			},
			conflicts: []string{"c"},
		},
		{
			name: "delete with subpages vs edit of a subpage",
			ours: func(t *Tree) {
				t.Root = []string{"a", "c"}
				delete(t.Pages, "b")
				delete(t.Pages, "b1")
				delete(t.Pages, "b2")
			},
			theirs:    func(t *Tree) { t.Pages["b2"].Title = "B two" },
			conflicts: []string{"b2"},
		},
		{
			name: "delete with subpages vs unrelated edit",
			ours: func(t *Tree) {
				t.Root = []string{"a", "c"}
				delete(t.Pages, "b")
				delete(t.Pages, "b1")
				delete(t.Pages, "b2")
			},
			theirs: func(t *Tree) { t.Pages["a"].Title = "Alpha" },
			want: func(t *Tree) {
				t.Root = []string{"a", "c"}
				delete(t.Pages, "b")
				delete(t.Pages, "b1")
				delete(t.Pages, "b2")
				t.Pages["a"].Title = "Alpha"
			},
		},
		{
			name: "add under a page deleted on the other side",
			ours: func(t *Tree) {
				t.Pages["c"].Children = []string{"n"}
				t.Pages["n"] = doc("n", "")
			},
			theirs:    func(t *Tree) { t.Root = []string{"a", "b"}; delete(t.Pages, "c") },
			conflicts: []string{"n"},
		},
		{
			name:   "delete vs delete",
			ours:   func(t *Tree) { t.Root = []string{"b", "c"}; delete(t.Pages, "a") },
			theirs: func(t *Tree) { t.Root = []string{"b", "c"}; delete(t.Pages, "a") },
			want:   func(t *Tree) { t.Root = []string{"b", "c"}; delete(t.Pages, "a") },
		},
		{
			name: "insert at the same position on both sides",
			ours: func(t *Tree) {
				t.Root = []string{"a", "x", "b", "c"}
				t.Pages["x"] = doc("x", "")
			},
			theirs: func(t *Tree) {
				t.Root = []string{"a", "y", "b", "c"}
				t.Pages["y"] = doc("y", "")
			},
			want: func(t *Tree) {
				t.Root = []string{"a", "x", "y", "b", "c"}
				t.Pages["x"] = doc("x", "")
				t.Pages["y"] = doc("y", "")
			},
		},
		{
			name: "inserts at different positions",
			ours: func(t *Tree) {
				t.Pages["b"].Children = []string{"x", "b1", "b2"}
				t.Pages["x"] = doc("x", "")
			},
			theirs: func(t *Tree) {
				t.Pages["b"].Children = []string{"b1", "b2", "y1", "y2"}
				t.Pages["y1"] = doc("y1", "")
				t.Pages["y2"] = doc("y2", "")
			},
			want: func(t *Tree) {
				t.Pages["b"].Children = []string{"x", "b1", "b2", "y1", "y2"}
				t.Pages["x"] = doc("x", "")
				t.Pages["y1"] = doc("y1", "")
				t.Pages["y2"] = doc("y2", "")
			},
		},
		{
			name: "reorder on one side, insert on the other",
			ours: func(t *Tree) {
				t.Root = []string{"a", "b", "y", "c"}
				t.Pages["y"] = doc("y", "")
			},
			theirs: func(t *Tree) { t.Root = []string{"c", "b", "a"} },
			want: func(t *Tree) {
				t.Root = []string{"c", "b", "y", "a"}
				t.Pages["y"] = doc("y", "")
			},
		},
		{
			name:   "rename on one side, edit on the other",
			ours:   func(t *Tree) { t.Pages["b1"].Title = "Install"; t.Pages["b1"].Slug = "install" },
			theirs: func(t *Tree) { t.Pages["b1"].Markdown = "one\ntwo\nthree\n" },
			want: func(t *Tree) {
				t.Pages["b1"].Title, t.Pages["b1"].Slug = "Install", "install"
				t.Pages["b1"].Markdown = "one\ntwo\nthree\n"
			},
		},
		{
			name: "moves into each other",
			ours: func(t *Tree) {
				t.Root = []string{"b", "c"}
				t.Pages["c"].Children = []string{"a"}
			},
			theirs: func(t *Tree) {
				t.Root = []string{"a", "b"}
				t.Pages["a"].Children = []string{"c"}
			},
			conflicts: []string{"a"},
		},
		{
			name: "new page fields on either side",
			ours: func(t *Tree) { t.Pages["a"].Icon = "book"; t.Pages["a"].Hidden = true },
			theirs: func(t *Tree) {
				t.Pages["a"].Condition = "visitor.claims.pro"
				t.Pages["a"].NoIndex, t.Pages["a"].NoRobotsIndex = true, true
			},
			want: func(t *Tree) {
				p := t.Pages["a"]
				p.Icon, p.Hidden, p.Condition, p.NoIndex, p.NoRobotsIndex = "book", true, "visitor.claims.pro", true, true
			},
		},
		{
			name:   "same flag set on both sides",
			ours:   func(t *Tree) { t.Pages["c"].Hidden = true },
			theirs: func(t *Tree) { t.Pages["c"].Hidden = true },
			want:   func(t *Tree) { t.Pages["c"].Hidden = true },
		},
		{
			name:      "icon changed differently",
			ours:      func(t *Tree) { t.Pages["c"].Icon = "book" },
			theirs:    func(t *Tree) { t.Pages["c"].Icon = "gear" },
			conflicts: []string{"c"},
		},
		{
			name:      "condition changed differently",
			ours:      func(t *Tree) { t.Pages["c"].Condition = "a" },
			theirs:    func(t *Tree) { t.Pages["c"].Condition = "b" },
			conflicts: []string{"c"},
		},
		{
			name:   "timestamps keep the base creation and the latest edit",
			ours:   func(t *Tree) { t.Pages["a"].UpdatedAt = 300 },
			theirs: func(t *Tree) { t.Pages["a"].UpdatedAt, t.Pages["a"].CreatedAt = 250, 50 },
			want:   func(t *Tree) { t.Pages["a"].UpdatedAt = 300 },
		},
		{
			name: "page added on both sides takes the earliest creation",
			ours: func(t *Tree) {
				t.Root = append(t.Root, "n")
				t.Pages["n"] = &Page{ID: "n", Title: "N", Kind: KindDocument, CreatedAt: 20, UpdatedAt: 30}
			},
			theirs: func(t *Tree) {
				t.Root = append(t.Root, "n")
				t.Pages["n"] = &Page{ID: "n", Title: "N", Kind: KindDocument, CreatedAt: 10, UpdatedAt: 40}
			},
			want: func(t *Tree) {
				t.Root = append(t.Root, "n")
				t.Pages["n"] = &Page{ID: "n", Title: "N", Kind: KindDocument, CreatedAt: 10, UpdatedAt: 40}
			},
		},
		{
			name:   "delete vs a touch only",
			ours:   func(t *Tree) { t.Root = []string{"b", "c"}; delete(t.Pages, "a") },
			theirs: func(t *Tree) { t.Pages["a"].UpdatedAt = 999 },
			want:   func(t *Tree) { t.Root = []string{"b", "c"}; delete(t.Pages, "a") },
		},
		{
			name:      "delete vs hide",
			ours:      func(t *Tree) { t.Root = []string{"b", "c"}; delete(t.Pages, "a") },
			theirs:    func(t *Tree) { t.Pages["a"].Hidden = true },
			conflicts: []string{"a"},
		},
		{
			name:   "file added on one side",
			ours:   func(t *Tree) {},
			theirs: func(t *Tree) { t.Files["f3"] = &File{ID: "f3", Name: "a.txt", Size: 1} },
			want:   func(t *Tree) { t.Files["f3"] = &File{ID: "f3", Name: "a.txt", Size: 1} },
		},
		{
			name:   "same file added on both sides",
			ours:   func(t *Tree) { t.Files["f3"] = &File{ID: "f3", Name: "a.txt", Size: 1} },
			theirs: func(t *Tree) { t.Files["f3"] = &File{ID: "f3", Name: "a.txt", Size: 1} },
			want:   func(t *Tree) { t.Files["f3"] = &File{ID: "f3", Name: "a.txt", Size: 1} },
		},
		{
			name:      "file added differently on both sides",
			ours:      func(t *Tree) { t.Files["f3"] = &File{ID: "f3", Name: "a.txt", Size: 1} },
			theirs:    func(t *Tree) { t.Files["f3"] = &File{ID: "f3", Name: "a.txt", Size: 2} },
			conflicts: []string{"file:f3"},
		},
		{
			name:   "file deleted, unchanged on the other side",
			ours:   func(t *Tree) { delete(t.Files, "f1") },
			theirs: func(t *Tree) { t.Files["f2"].Name = "manual.pdf" },
			want:   func(t *Tree) { delete(t.Files, "f1"); t.Files["f2"].Name = "manual.pdf" },
		},
		{
			name:   "file deleted on both sides",
			ours:   func(t *Tree) { delete(t.Files, "f1") },
			theirs: func(t *Tree) { delete(t.Files, "f1") },
			want:   func(t *Tree) { delete(t.Files, "f1") },
		},
		{
			name:      "file deleted vs changed",
			ours:      func(t *Tree) { delete(t.Files, "f1") },
			theirs:    func(t *Tree) { t.Files["f1"].Blob = Hash("png2") },
			conflicts: []string{"file:f1"},
		},
		{
			name:   "file changed on one side",
			ours:   func(t *Tree) { t.Files["f1"].Name = "brand.png" },
			theirs: func(t *Tree) {},
			want:   func(t *Tree) { t.Files["f1"].Name = "brand.png" },
		},
		{
			name:   "file changed identically",
			ours:   func(t *Tree) { t.Files["f1"].Size = 11 },
			theirs: func(t *Tree) { t.Files["f1"].Size = 11 },
			want:   func(t *Tree) { t.Files["f1"].Size = 11 },
		},
		{
			name:      "file changed differently",
			ours:      func(t *Tree) { t.Files["f1"].Name = "brand.png" },
			theirs:    func(t *Tree) { t.Files["f1"].Width = 4 },
			conflicts: []string{"file:f1"},
		},
		{
			name:      "page and file conflicts reported together",
			ours:      func(t *Tree) { t.Pages["c"].Title = "See"; delete(t.Files, "f2") },
			theirs:    func(t *Tree) { t.Pages["c"].Title = "Sea"; t.Files["f2"].Size = 1 },
			conflicts: []string{"c", "file:f2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ours, theirs := edit(base, tt.ours), edit(base, tt.theirs)
			for _, tr := range []*Tree{ours, theirs} {
				if err := tr.Validate(); err != nil {
					t.Fatalf("bad test tree: %v", err)
				}
			}
			got, conflicts := Merge(base, ours, theirs)
			if tt.want == nil {
				var ids []string
				for _, c := range conflicts {
					switch {
					case c.PageID != "" && c.FileID == "":
						ids = append(ids, c.PageID)
					case c.FileID != "" && c.PageID == "":
						ids = append(ids, "file:"+c.FileID)
					default:
						t.Errorf("conflict %+v names not exactly one of a page and a file", c)
					}
					if c.Reason == "" || c.Title == "" {
						t.Errorf("conflict %+v lacks a reason or title", c)
					}
				}
				if diff := cmp.Diff(tt.conflicts, ids); diff != "" {
					t.Errorf("conflicts (-want +got):\n%s", diff)
				}
				if got != nil {
					t.Errorf("got a tree despite conflicts")
				}
				return
			}
			if len(conflicts) > 0 {
				t.Fatalf("unexpected conflicts: %+v", conflicts)
			}
			if diff := cmp.Diff(edit(base, tt.want), got, treeOpts); diff != "" {
				t.Errorf("Merge (-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("merged tree invalid: %v", err)
			}
		})
	}
}

func TestMergeFileConflict(t *testing.T) {
	t.Parallel()
	base := baseTree()
	ours := edit(base, func(t *Tree) { delete(t.Files, "f1") })
	theirs := edit(base, func(t *Tree) { t.Files["f1"].Size = 99 })
	_, conflicts := Merge(base, ours, theirs)
	want := []Conflict{{FileID: "f1", Title: "logo.png", Reason: "file deleted on one side, edited on the other"}}
	if diff := cmp.Diff(want, conflicts); diff != "" {
		t.Errorf("conflicts (-want +got):\n%s", diff)
	}
}

func TestMergeFilesNeverNil(t *testing.T) {
	t.Parallel()
	empty := mkTree(nil)
	got, conflicts := Merge(empty, empty, empty)
	if len(conflicts) > 0 || got == nil || got.Files == nil {
		t.Fatalf("Merge of empty trees = %+v, %+v; want a tree with non-nil Files", got, conflicts)
	}
}

func TestMergeDoesNotModifyInputs(t *testing.T) {
	t.Parallel()
	base := baseTree()
	ours := edit(base, func(t *Tree) { t.Root = []string{"c", "a", "b"}; t.Files["f1"].Size = 1 })
	theirs := edit(base, func(t *Tree) { t.Pages["a"].Title = "Alpha"; delete(t.Files, "f2") })
	b, o, th := base.Clone(), ours.Clone(), theirs.Clone()
	Merge(base, ours, theirs)
	for _, c := range []struct{ want, got *Tree }{{b, base}, {o, ours}, {th, theirs}} {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("input changed (-before +after):\n%s", diff)
		}
	}
}

func TestMergeText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, base, ours, theirs, want string
		ok                             bool
	}{
		{"unchanged", "a\n", "a\n", "a\n", "a\n", true},
		{"ours only", "a\nb\n", "a\nB\n", "a\nb\n", "a\nB\n", true},
		{"theirs only", "a\nb\n", "a\nb\n", "a\nb\nc\n", "a\nb\nc\n", true},
		{"disjoint", "1\n2\n3\n4\n", "0\n1\n2\n3\n4\n", "1\n2\n3\n", "0\n1\n2\n3\n", true},
		{"same insertion both", "1\n2\n", "1\nx\n2\n", "1\nx\n2\nz\n", "1\nx\n2\nz\n", true},
		{"no final newline", "a\nb\nc", "A\nb\nc", "a\nb\nC", "A\nb\nC", true},
		{"final newline added vs edit before", "a\nb", "A\nb", "a\nb\nc", "A\nb", false},
		{"overlap", "1\n2\n3\n", "1\nx\n3\n", "1\ny\n3\n", "1\nx\n3\n", false},
		{"adjacent edits conflict", "1\n2\n", "x\n2\n", "1\ny\n", "x\n2\n", false},
		{"from empty", "", "a\n", "b\n", "a\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := MergeText(tt.base, tt.ours, tt.theirs)
			if got != tt.want || ok != tt.ok {
				t.Errorf("MergeText = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tree *Tree
		ok   bool
	}{
		{"base", baseTree(), true},
		{"empty", mkTree(nil), true},
		{"missing page", mkTree([]string{"a", "z"}, doc("a", "")), false},
		{"placed twice", mkTree([]string{"a", "b"}, doc("a", "", "b"), doc("b", "")), false},
		{"not placed", mkTree([]string{"a"}, doc("a", ""), doc("b", "")), false},
		{"cycle", mkTree([]string{"a"}, doc("a", ""), doc("b", "", "c"), doc("c", "", "b")), false},
		{"self cycle", mkTree(nil, doc("a", "", "a")), false},
		{"wrong key", &Tree{Pages: map[string]*Page{"a": doc("b", "")}, Root: []string{"a"}}, false},
		{"bad kind", mkTree([]string{"a"}, &Page{ID: "a", Kind: "x"}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := tt.tree.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestParentAndHash(t *testing.T) {
	t.Parallel()
	tr := baseTree()
	for id, want := range map[string]string{"a": "", "b1": "b", "b2": "b"} {
		if got, ok := tr.Parent(id); !ok || got != want {
			t.Errorf("Parent(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
	if _, ok := tr.Parent("zz"); ok {
		t.Errorf("Parent of a missing page is ok")
	}
	if got, want := Hash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; got != want {
		t.Errorf("Hash(\"\") = %s, want %s", got, want)
	}
}

// Random trees and edits for the property tests and the fuzz target.

var words = []string{"alpha", "beta", "gamma", "delta", "# Title", "", "- item", "```", "see [x](/pages/a)"}

func randMarkdown(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(8) {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte('\n')
	}
	return b.String()
}

// randTree builds a valid tree of up to n pages and a few files.
func randTree(r *rand.Rand, n int) *Tree {
	t := &Tree{Pages: map[string]*Page{}}
	next := 0
	for range r.IntN(n + 1) {
		addPage(r, t, &next, "p")
	}
	for range r.IntN(4) {
		putFile(r, t)
	}
	return t
}

// putFile adds or replaces a file. Its id is drawn from a few, so both sides
// of a merge sometimes add the same file, identically or not.
func putFile(r *rand.Rand, t *Tree) {
	if t.Files == nil {
		t.Files = map[string]*File{}
	}
	id := fmt.Sprint("f", r.IntN(6))
	t.Files[id] = &File{ID: id, Name: words[r.IntN(3)] + ".png", ContentType: "image/png", Size: r.Int64N(3), Blob: Hash(id)}
}

func fileIDs(t *Tree) []string {
	out := slices.Collect(maps.Keys(t.Files))
	slices.Sort(out)
	return out
}

func ids(t *Tree) []string {
	var out []string
	for id := range t.Pages {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func addPage(r *rand.Rand, t *Tree, next *int, prefix string) {
	id := fmt.Sprintf("%s%d", prefix, *next)
	*next++
	kind := KindDocument
	if r.IntN(5) == 0 {
		kind = KindGroup
	}
	at := r.Int64N(3) // 0: timestamps unknown
	p := &Page{ID: id, Title: "T" + id, Slug: id, Kind: kind, Markdown: randMarkdown(r), CreatedAt: at, UpdatedAt: at}
	all := ids(t)
	t.Pages[id] = p
	parent := ""
	if len(all) > 0 && r.IntN(3) > 0 {
		parent = all[r.IntN(len(all))]
	}
	insertChild(r, t, parent, id)
}

func insertChild(r *rand.Rand, t *Tree, parent, id string) {
	if parent == "" {
		t.Root = slices.Insert(t.Root, r.IntN(len(t.Root)+1), id)
		return
	}
	p := t.Pages[parent]
	p.Children = slices.Insert(p.Children, r.IntN(len(p.Children)+1), id)
}

func removeChild(t *Tree, id string) {
	parent, _ := t.Parent(id)
	if parent == "" {
		t.Root = slices.DeleteFunc(t.Root, func(s string) bool { return s == id })
		return
	}
	p := t.Pages[parent]
	p.Children = slices.DeleteFunc(slices.Clone(p.Children), func(s string) bool { return s == id })
}

func subtree(t *Tree, id string) []string {
	out := []string{id}
	for _, c := range t.Pages[id].Children {
		out = append(out, subtree(t, c)...)
	}
	return out
}

// randEdits returns a copy of base changed by up to n random edits; new page
// ids start with prefix so the two sides of a merge add different pages.
func randEdits(r *rand.Rand, base *Tree, n int, prefix string) *Tree {
	t := base.Clone()
	next := 0
	for range r.IntN(n + 1) {
		all := ids(t)
		if len(all) == 0 {
			addPage(r, t, &next, prefix)
			continue
		}
		id := all[r.IntN(len(all))]
		p := t.Pages[id]
		switch r.IntN(13) {
		case 0:
			p.Title = words[r.IntN(len(words))]
		case 1:
			p.Slug = words[r.IntN(len(words))]
		case 2:
			lines := splitLines(p.Markdown)
			at := r.IntN(len(lines) + 1)
			lines = slices.Insert(lines, at, words[r.IntN(len(words))]+"\n")
			if r.IntN(2) == 0 && at < len(lines)-1 {
				lines = slices.Delete(lines, at+1, at+2)
			}
			p.Markdown = strings.Join(lines, "")
		case 3:
			addPage(r, t, &next, prefix)
		case 4: // delete with subpages
			removeChild(t, id)
			for _, d := range subtree(t, id) {
				delete(t.Pages, d)
			}
		case 5, 6: // move (or reorder) under a page outside its subtree
			parents := []string{""}
			inSub := subtree(t, id)
			for _, q := range all {
				if !slices.Contains(inSub, q) {
					parents = append(parents, q)
				}
			}
			removeChild(t, id)
			insertChild(r, t, parents[r.IntN(len(parents))], id)
		case 7:
			p.Emoji = fmt.Sprint(r.IntN(3))
		case 8:
			p.Icon = words[r.IntN(3)]
		case 9:
			p.Hidden = !p.Hidden
			p.Condition = words[r.IntN(3)]
		case 10: // a touch; edits only move time forward
			p.UpdatedAt += 1 + r.Int64N(3)
		case 11:
			putFile(r, t)
		case 12:
			if fs := fileIDs(t); len(fs) > 0 {
				delete(t.Files, fs[r.IntN(len(fs))])
			}
		}
	}
	return t
}

func checkOneSided(t *testing.T, base, ours, theirs *Tree) {
	t.Helper()
	for _, c := range []struct {
		name       string
		o, th, res *Tree
	}{
		{"Merge(base, base, theirs)", base, theirs, theirs},
		{"Merge(base, ours, base)", ours, base, ours},
		{"Merge(base, ours, ours)", ours, ours, ours},
		{"Merge(ours, ours, ours)", ours, ours, ours},
	} {
		b := base
		if c.name == "Merge(ours, ours, ours)" {
			b = ours
		}
		got, conflicts := Merge(b, c.o, c.th)
		if len(conflicts) > 0 {
			t.Fatalf("%s: conflicts %+v", c.name, conflicts)
		}
		if diff := cmp.Diff(c.res, got, treeOpts); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	got, conflicts := Merge(base, ours, theirs)
	if len(conflicts) == 0 {
		if err := got.Validate(); err != nil {
			t.Fatalf("Merge(base, ours, theirs) is invalid: %v", err)
		}
	} else if got != nil {
		t.Fatalf("Merge returned a tree with conflicts")
	}
}

func TestMergeProperties(t *testing.T) {
	t.Parallel()
	for seed := range uint64(500) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(seed, 1))
			base := randTree(r, 12)
			if err := base.Validate(); err != nil {
				t.Fatalf("random base invalid: %v", err)
			}
			ours := randEdits(r, base, 6, "o")
			theirs := randEdits(r, base, 6, "t")
			for _, tr := range []*Tree{ours, theirs} {
				if err := tr.Validate(); err != nil {
					t.Fatalf("random edit invalid: %v", err)
				}
			}
			checkOneSided(t, base, ours, theirs)
		})
	}
}

// TestMergeDisjoint: edits on disjoint pages merge cleanly and keep both.
func TestMergeDisjoint(t *testing.T) {
	t.Parallel()
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 2))
		base := randTree(r, 10)
		all := ids(base)
		if len(all) < 2 {
			continue
		}
		a, b := all[0], all[len(all)-1]
		ours := edit(base, func(t *Tree) { t.Pages[a].Title = "ours"; t.Pages[a].Markdown += "ours\n" })
		theirs := edit(base, func(t *Tree) { t.Pages[b].Title = "theirs"; t.Pages[b].Markdown = "theirs\n" + t.Pages[b].Markdown })
		got, conflicts := Merge(base, ours, theirs)
		if len(conflicts) > 0 {
			t.Fatalf("seed %d: conflicts %+v", seed, conflicts)
		}
		want := edit(ours, func(t *Tree) { *t.Pages[b] = *theirs.Pages[b] })
		if diff := cmp.Diff(want, got, treeOpts); diff != "" {
			t.Fatalf("seed %d (-want +got):\n%s", seed, diff)
		}
	}
}

func FuzzMerge(f *testing.F) {
	for _, s := range [][3]uint64{{0, 0, 0}, {1, 5, 5}, {42, 3, 9}, {7, 12, 1}} {
		f.Add(s[0], uint8(s[1]), uint8(s[2]))
	}
	f.Fuzz(func(t *testing.T, seed uint64, nOurs, nTheirs uint8) {
		r := rand.New(rand.NewPCG(seed, 3))
		base := randTree(r, 15)
		ours := randEdits(r, base, int(nOurs%16), "o")
		theirs := randEdits(r, base, int(nTheirs%16), "t")
		checkOneSided(t, base, ours, theirs)
	})
}
