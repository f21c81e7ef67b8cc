package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
)

func TestMergeHeads(t *testing.T) {
	t.Parallel()
	base := baseTree()
	ours := edit(base, func(t *Tree) { t.Pages["a"].Markdown = "one\n2\nthree\nfour\nfive\n" })
	theirs := edit(base, func(t *Tree) { t.Pages["c"].Markdown = "C\n" })
	clash := edit(base, func(t *Tree) { t.Pages["a"].Markdown = "one\nTWO\nthree\nfour\nfive\n" })
	h := func(id string, t *Tree) Head { return Head{ID: id, Tree: t} }

	// A side that did not move: the other is taken as it is, not merged.
	if got, err := MergeHeads(h("b", base), h("b", base), h("t", theirs), nil); err != nil || got != theirs {
		t.Errorf("ours unmoved: got %p (%v), want theirs %p", got, err, theirs)
	}
	if got, err := MergeHeads(h("b", base), h("o", ours), h("b", base), nil); err != nil || got != ours {
		t.Errorf("theirs unmoved: got %p (%v), want ours %p", got, err, ours)
	}

	got, err := MergeHeads(h("b", base), h("o", ours), h("t", theirs), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := edit(ours, func(t *Tree) { t.Pages["c"].Markdown = "C\n" })
	if d := cmp.Diff(want, got, treeOpts); d != "" {
		t.Errorf("merge (-want +got):\n%s", d)
	}

	_, err = MergeHeads(h("b", base), h("o", ours), h("x", clash), nil)
	ce, ok := errors.AsType[*ConflictError](err)
	if !ok || quire.ErrorCode(err) != quire.CodeConflict || len(ce.Conflicts) != 1 || ce.Conflicts[0].PageID != "a" {
		t.Fatalf("conflicting merge: %v", err)
	}
	if want := `merge conflict: page "A" (a): `; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}

	// Resolved, the same heads merge, keeping what resolve says.
	got, err = MergeHeads(h("b", base), h("o", ours), h("x", clash), map[string]Resolution{"a": {Keep: KeepTheirs}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Pages["a"].Markdown != clash.Pages["a"].Markdown {
		t.Errorf("resolved page a: %q", got.Pages["a"].Markdown)
	}
}

func TestFreeSlugs(t *testing.T) {
	t.Parallel()
	ours := mkTree([]string{"a", "b"}, doc("a", ""), doc("b", "", "b1"), doc("b1", ""))
	merged := mkTree([]string{"n", "a", "b", "m"}, doc("n", ""), doc("a", ""), doc("b", "", "k", "b1"), doc("b1", ""), doc("k", ""), doc("m", ""))
	merged.Pages["n"].Slug = "a"  // added beside ours's "a": ours keeps its slug
	merged.Pages["m"].Slug = "a"  // a second one takes the next free number
	merged.Pages["k"].Slug = "b1" // the same under a page
	FreeSlugs(merged, ours)
	got := map[string]string{}
	for id, p := range merged.Pages {
		got[id] = p.Slug
	}
	want := map[string]string{"a": "a", "b": "b", "b1": "b1", "n": "a-2", "m": "a-3", "k": "b1-2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("slugs (-want +got):\n%s", d)
	}
}
