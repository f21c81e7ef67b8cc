package content

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMergeResolving(t *testing.T) {
	t.Parallel()
	base := baseTree()
	deleteC := func(t *Tree) { delete(t.Pages, "c"); t.Root = []string{"a", "b"} }
	editA := func(first string) func(t *Tree) {
		return func(t *Tree) { t.Pages["a"].Markdown = first + "\ntwo\nthree\nfour\nfive\n" }
	}
	tests := []struct {
		name         string
		ours, theirs func(t *Tree)
		resolve      map[string]Resolution
		want         func(t *Tree) // applied to base; nil when conflicting
		conflicts    []string      // page ids, and "file:" + id for files
	}{
		{
			name: "both edited markdown, keep ours",
			ours: editA("ours"), theirs: editA("theirs"),
			resolve: map[string]Resolution{"a": {Keep: KeepOurs}},
			want:    editA("ours"),
		},
		{
			name: "both edited markdown, keep theirs",
			ours: editA("ours"), theirs: editA("theirs"),
			resolve: map[string]Resolution{"a": {Keep: KeepTheirs}},
			want:    editA("theirs"),
		},
		{
			name: "both edited markdown, edited by hand",
			ours: func(t *Tree) { editA("ours")(t); t.Pages["a"].Emoji = "1f600" },
			theirs: func(t *Tree) {
				editA("theirs")(t)
				t.Pages["a"].Title = "Theirs"
				t.Pages["c"].Markdown = "c2\n"
			},
			resolve: map[string]Resolution{"a": {Keep: KeepEdited, Markdown: "both\n"}},
			want: func(t *Tree) {
				t.Pages["a"].Markdown, t.Pages["a"].Emoji, t.Pages["a"].Title = "both\n", "1f600", "Theirs"
				t.Pages["c"].Markdown = "c2\n"
			},
		},
		{
			name: "renamed on both sides, edited with a title",
			ours: func(t *Tree) { t.Pages["a"].Title = "Ours" }, theirs: func(t *Tree) { t.Pages["a"].Title = "Theirs" },
			resolve: map[string]Resolution{"a": {Keep: KeepEdited, Title: "Both", Markdown: "x\n"}},
			want:    func(t *Tree) { t.Pages["a"].Title, t.Pages["a"].Markdown = "Both", "x\n" },
		},
		{
			name: "renamed on both sides, edited without a title takes theirs",
			ours: func(t *Tree) { t.Pages["a"].Title = "Ours" }, theirs: func(t *Tree) { t.Pages["a"].Title = "Theirs" },
			resolve: map[string]Resolution{"a": {Keep: KeepEdited, Markdown: lines5}},
			want:    func(t *Tree) { t.Pages["a"].Title = "Theirs" },
		},
		{
			name: "moved differently, edited takes theirs' place",
			ours: func(t *Tree) { t.Root = []string{"b", "c"}; t.Pages["b"].Children = append(t.Pages["b"].Children, "a") },
			theirs: func(t *Tree) {
				t.Root = []string{"b", "c"}
				t.Pages["c"].Children = []string{"a"}
			},
			resolve: map[string]Resolution{"a": {Keep: KeepEdited, Markdown: lines5}},
			want: func(t *Tree) {
				t.Root = []string{"b", "c"}
				t.Pages["c"].Children = []string{"a"}
			},
		},
		{
			name: "deleted on ours, edited on theirs, keep ours",
			ours: deleteC, theirs: func(t *Tree) { t.Pages["c"].Markdown = "c2\n" },
			resolve: map[string]Resolution{"c": {Keep: KeepOurs}},
			want:    deleteC,
		},
		{
			name: "deleted on ours, edited on theirs, keep theirs",
			ours: deleteC, theirs: func(t *Tree) { t.Pages["c"].Markdown = "c2\n" },
			resolve: map[string]Resolution{"c": {Keep: KeepTheirs}},
			want:    func(t *Tree) { t.Pages["c"].Markdown = "c2\n" },
		},
		{
			name: "edited on ours, deleted on theirs, keep theirs",
			ours: func(t *Tree) { t.Pages["c"].Markdown = "c2\n" }, theirs: deleteC,
			resolve: map[string]Resolution{"c": {Keep: KeepTheirs}},
			want:    deleteC,
		},
		{
			name: "edited on ours, deleted on theirs, edited by hand",
			ours: func(t *Tree) { t.Pages["c"].Markdown = "c2\n"; t.Pages["c"].Emoji = "1f600" }, theirs: deleteC,
			resolve: map[string]Resolution{"c": {Keep: KeepEdited, Markdown: "c3\n"}},
			want:    func(t *Tree) { t.Pages["c"].Markdown = "c3\n"; t.Pages["c"].Emoji = "1f600" },
		},
		{
			name: "a conflict left unresolved still refuses",
			ours: func(t *Tree) { editA("ours")(t); deleteC(t) },
			theirs: func(t *Tree) {
				editA("theirs")(t)
				t.Pages["c"].Markdown = "c2\n"
			},
			resolve:   map[string]Resolution{"a": {Keep: KeepOurs}},
			conflicts: []string{"c"},
		},
		{
			name: "file deleted and edited, keep ours",
			ours: func(t *Tree) { delete(t.Files, "f1") }, theirs: func(t *Tree) { t.Files["f1"].Size = 99 },
			resolve: map[string]Resolution{"f1": {Keep: KeepOurs}},
			want:    func(t *Tree) { delete(t.Files, "f1") },
		},
		{
			name: "file deleted and edited, keep theirs",
			ours: func(t *Tree) { delete(t.Files, "f1") }, theirs: func(t *Tree) { t.Files["f1"].Size = 99 },
			resolve: map[string]Resolution{"f1": {Keep: KeepTheirs}},
			want:    func(t *Tree) { t.Files["f1"].Size = 99 },
		},
		{
			name: "file changed on both, keep ours",
			ours: func(t *Tree) { t.Files["f2"].Size = 1 }, theirs: func(t *Tree) { t.Files["f2"].Size = 2 },
			resolve: map[string]Resolution{"f2": {Keep: KeepOurs}},
			want:    func(t *Tree) { t.Files["f2"].Size = 1 },
		},
		{
			name: "a file cannot be edited by hand",
			ours: func(t *Tree) { delete(t.Files, "f1") }, theirs: func(t *Tree) { t.Files["f1"].Size = 99 },
			resolve:   map[string]Resolution{"f1": {Keep: KeepEdited, Markdown: "x"}},
			conflicts: []string{"file:f1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ours, theirs := edit(base, tt.ours), edit(base, tt.theirs)
			// Without the resolutions the sides conflict.
			if _, conflicts := Merge(base, ours, theirs); len(conflicts) == 0 {
				t.Fatalf("Merge without resolutions: no conflict")
			}
			got, conflicts := MergeResolving(base, ours, theirs, tt.resolve)
			if tt.want == nil {
				var ids []string
				for _, c := range conflicts {
					if c.FileID != "" {
						ids = append(ids, "file:"+c.FileID)
					} else {
						ids = append(ids, c.PageID)
					}
				}
				slices.Sort(ids)
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
				t.Errorf("MergeResolving (-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("merged tree invalid: %v", err)
			}
		})
	}
}
