package content

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomTree is a valid tree of n pages, up to three levels deep, with
// lists long enough to be chunked.
func randomTree(r *rand.Rand, n int) *Tree {
	t := &Tree{Pages: map[string]*Page{}, Files: map[string]*File{}}
	var placed []string
	for i := range n {
		id := fmt.Sprintf("p%03d", i)
		t.Pages[id] = &Page{ID: id, Title: id, Slug: id, Kind: KindDocument, Markdown: fmt.Sprintf("Body %d.\n", r.IntN(5))}
		if len(placed) == 0 || r.IntN(4) == 0 {
			t.Root = append(t.Root, id)
		} else {
			parent := t.Pages[placed[r.IntN(len(placed))]]
			parent.Children = append(parent.Children, id)
		}
		placed = append(placed, id)
	}
	t.Files["f1"] = &File{ID: "f1", Name: "a.png", Blob: "b1"}
	return t
}

// editFork changes a fork at random through its methods only, keeping it
// valid: edits, moves (never into the page's own subtree), inserts and
// deletions of leaves.
func editFork(r *rand.Rand, t *Tree, step int) {
	ids := slices.Sorted(maps.Keys(t.Pages))
	pick := func() string { return ids[r.IntN(len(ids))] }
	switch r.IntN(5) {
	case 0:
		t.EditPage(pick()).Markdown = fmt.Sprintf("Edited %d.\n", step)
	case 1: // move id under parent (or to the top), at the end
		id, to := pick(), pick()
		for p, ok := to, true; ok && p != ""; p, ok = t.Parent(p) {
			if p == id {
				return
			}
		}
		from, _ := t.Parent(id)
		remove := func(l []string) []string {
			return slices.DeleteFunc(slices.Clone(l), func(s string) bool { return s == id })
		}
		if from == "" {
			t.SetRoot(remove(t.Root))
		} else {
			t.EditPage(from).Children = remove(t.Pages[from].Children)
		}
		if r.IntN(3) == 0 {
			t.SetRoot(append(slices.Clone(t.Root), id))
		} else {
			p := t.EditPage(to)
			p.Children = append(slices.Clone(p.Children), id)
		}
	case 2:
		id := fmt.Sprintf("n%03d", step)
		t.PutPage(&Page{ID: id, Title: id, Kind: KindDocument})
		p := t.EditPage(pick())
		p.Children = append(slices.Clone(p.Children), id)
	case 3:
		id := pick()
		if len(t.Pages[id].Children) > 0 || len(t.Pages) < 3 {
			return
		}
		from, _ := t.Parent(id)
		if from == "" {
			t.SetRoot(slices.DeleteFunc(slices.Clone(t.Root), func(s string) bool { return s == id }))
		} else {
			t.EditPage(from).Children = slices.DeleteFunc(slices.Clone(t.Pages[from].Children), func(s string) bool { return s == id })
		}
		t.RemovePage(id)
	case 4:
		t.PutFile(&File{ID: fmt.Sprintf("f%d", step), Name: "x.png", Blob: "b"})
	}
}

// TestForkEncoding checks that encoding forks incrementally, revision after
// revision, gives what encoding them whole gives, and that a fork's parents
// and validation agree with the whole tree's.
func TestForkEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		tree := randomTree(r, 150+round*20) // from 500 pages, the top-level list is chunked
		all := Objects{}
		root, objs := EncodeShared(tree)
		maps.Copy(all, objs)
		if round%2 == 1 { // the base decoded rather than encoded
			var err error
			calls := 0
			if tree, err = Decode(root, fetchFrom(all, &calls)); err != nil {
				t.Fatal(err)
			}
		}
		for rev := range 8 {
			fork := tree.Fork()
			for step := range 1 + r.IntN(6) {
				editFork(r, fork, rev*100+step)
			}
			whole := fork.Clone()
			for id := range whole.Pages {
				wantParent, wantOK := whole.Parent(id)
				if parent, ok := fork.Parent(id); parent != wantParent || ok != wantOK {
					t.Fatalf("round %d rev %d: parent of %s = %q %v, want %q %v", round, rev, id, parent, ok, wantParent, wantOK)
				}
			}
			if err, want := fork.Validate(), whole.Validate(); (err == nil) != (want == nil) {
				t.Fatalf("round %d rev %d: Validate = %v, want %v", round, rev, err, want)
			}
			wantRoot, wantObjs := Encode(whole)
			gotRoot, gotObjs := EncodeShared(fork)
			if gotRoot != wantRoot {
				t.Fatalf("round %d rev %d: root %s, want %s", round, rev, gotRoot, wantRoot)
			}
			maps.Copy(all, gotObjs)
			for id := range whole.Pages {
				wantParent, wantOK := whole.Parent(id)
				if parent, ok := fork.Parent(id); parent != wantParent || ok != wantOK {
					t.Fatalf("round %d rev %d: stored parent of %s = %q %v, want %q %v", round, rev, id, parent, ok, wantParent, wantOK)
				}
			}
			for h := range wantObjs {
				if _, ok := all[h]; !ok {
					t.Fatalf("round %d rev %d: object %s never given", round, rev, h)
				}
			}
			// A fork counts what it shares with its base once, in the
			// base: at least its own pages without their bodies, at most
			// every body counted again.
			if c := fork.Cost(); c < whole.sharedCost() || c > 2*whole.Cost() {
				t.Fatalf("round %d rev %d: cost %d, want between %d and %d", round, rev, c, whole.sharedCost(), 2*whole.Cost())
			}
			tree = fork
		}
	}
}

// TestForkValidateRefuses checks that a fork's validation sees a page
// placed twice, a missing page and a cycle.
func TestForkValidateRefuses(t *testing.T) {
	base := &Tree{Pages: map[string]*Page{
		"a": {ID: "a", Kind: KindDocument, Children: []string{"b"}},
		"b": {ID: "b", Kind: KindDocument},
		"c": {ID: "c", Kind: KindDocument},
	}, Root: []string{"a", "c"}}
	EncodeShared(base)
	for name, change := range map[string]func(f *Tree){
		"twice":   func(f *Tree) { f.EditPage("c").Children = []string{"b"} },
		"missing": func(f *Tree) { f.RemovePage("b") },
		"cycle": func(f *Tree) {
			f.SetRoot([]string{"c"})
			f.EditPage("b").Children = []string{"a"}
		},
		"unplaced": func(f *Tree) { f.SetRoot([]string{"a"}) },
	} {
		f := base.Fork()
		change(f)
		if err := f.Validate(); err == nil {
			t.Errorf("%s: Validate passed", name)
		}
		if err := f.Clone().Validate(); err == nil {
			t.Errorf("%s: whole Validate passed", name)
		}
	}
}

// TestMergeEdits checks that MergeEdits, where it applies, gives what Merge
// gives, and that it applies to edits in place on one side.
func TestMergeEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	applied, added := 0, 0
	for round := range 120 {
		base := randomTree(r, 120)
		EncodeShared(base)
		ours, theirs := base.Fork(), base.Fork()
		for step := range 1 + r.IntN(5) {
			editFork(r, ours, step)
		}
		ids := slices.Sorted(maps.Keys(base.Pages))
		for i := range 1 + r.IntN(4) {
			p := theirs.EditPage(ids[r.IntN(len(ids))])
			p.Markdown, p.UpdatedAt = fmt.Sprintf("Theirs %d.\n", i), int64(1000+i)
			if round%7 == 0 {
				p.Slug += "-renamed"
			}
		}
		if round%5 == 0 { // a structural change on theirs: often not for MergeEdits
			editFork(r, theirs, 99)
		}
		if round%3 == 0 { // pages added on theirs, under a page or at the top
			for i := range 3 {
				id := fmt.Sprintf("t%d", i)
				into := slices.Sorted(maps.Keys(theirs.Pages))
				theirs.PutPage(&Page{ID: id, Title: id, Slug: id, Kind: KindDocument, UpdatedAt: 5})
				if i == 2 {
					theirs.SetRoot(append(slices.Clone(theirs.Root), id))
				} else {
					p := theirs.EditPage(into[r.IntN(len(into))])
					p.Children = append(slices.Clone(p.Children), id)
				}
			}
		}
		EncodeShared(ours)
		EncodeShared(theirs)
		got, ok := MergeEdits(base, ours, theirs)
		want, conflicts := Merge(base, ours, theirs)
		if !ok {
			continue
		}
		applied++
		if _, ok := got.Pages["t0"]; ok {
			added++
		}
		if len(conflicts) > 0 {
			t.Fatalf("round %d: MergeEdits merged where Merge found conflicts %v", round, conflicts)
		}
		if !got.Equal(want) {
			t.Fatalf("round %d: MergeEdits differs from Merge", round)
		}
		if root, _ := EncodeShared(got); root != mustRoot(want) {
			t.Fatalf("round %d: MergeEdits encodes differently", round)
		}
	}
	t.Logf("MergeEdits applied %d times of 120, %d with added pages", applied, added)
	if applied < 20 || added < 5 {
		t.Fatalf("MergeEdits applied %d times of 120, %d with added pages", applied, added)
	}
}

func mustRoot(t *Tree) string {
	root, _ := Encode(t)
	return root
}
