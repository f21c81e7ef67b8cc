package revision

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
)

// tree builds a tree from "id slug parent" triples, in tree order; parent
// "" is the top level.
func tree(pages ...[3]string) *content.Tree {
	t := &content.Tree{Pages: map[string]*content.Page{}}
	for _, p := range pages {
		t.Pages[p[0]] = &content.Page{ID: p[0], Title: p[0], Slug: p[1], Kind: content.KindDocument}
		if p[2] == "" {
			t.Root = append(t.Root, p[0])
		} else {
			t.Pages[p[2]].Children = append(t.Pages[p[2]].Children, p[0])
		}
	}
	return t
}

func TestFormerPaths(t *testing.T) {
	t.Parallel()
	type pg = [3]string
	tests := []struct {
		name    string
		current *content.Tree
		older   []*content.Tree // newest first
		want    map[string]string
	}{
		{"no history", tree(pg{"a", "a", ""}), nil, map[string]string{}},
		{"unchanged", tree(pg{"a", "a", ""}), []*content.Tree{tree(pg{"a", "a", ""})}, map[string]string{}},
		{"renamed", tree(pg{"a", "intro", ""}), []*content.Tree{tree(pg{"a", "start", ""})},
			map[string]string{"start": "a"}},
		{"renamed twice: both old paths lead to it",
			tree(pg{"a", "c", ""}),
			[]*content.Tree{tree(pg{"a", "b", ""}), tree(pg{"a", "a", ""})},
			map[string]string{"a": "a", "b": "a"}},
		{"a renamed parent moves its children's paths too",
			tree(pg{"g", "howto", ""}, pg{"i", "install", "g"}),
			[]*content.Tree{tree(pg{"g", "guides", ""}, pg{"i", "install", "g"})},
			map[string]string{"guides": "g", "guides/install": "i"}},
		{"moved under another parent",
			tree(pg{"g", "guides", ""}, pg{"i", "install", "g"}),
			[]*content.Tree{tree(pg{"g", "guides", ""}, pg{"i", "install", ""})},
			map[string]string{"install": "i"}},
		{"a deleted page's path leads nowhere",
			tree(pg{"a", "a", ""}),
			[]*content.Tree{tree(pg{"a", "a", ""}, pg{"gone", "gone", ""})},
			map[string]string{}},
		{"a current path is never a former one",
			tree(pg{"new", "a", ""}, pg{"old", "b", ""}),
			[]*content.Tree{tree(pg{"old", "a", ""})},
			map[string]string{}},
		{"the newest revision holding a path decides: a deleted page's",
			tree(pg{"x", "moved", ""}),
			[]*content.Tree{tree(pg{"x", "moved", ""}, pg{"y", "p", ""}), tree(pg{"x", "p", ""})},
			map[string]string{}},
		{"the newest revision holding a path decides: a moved page's",
			tree(pg{"x", "x2", ""}, pg{"y", "y2", ""}),
			[]*content.Tree{tree(pg{"x", "x2", ""}, pg{"y", "p", ""}), tree(pg{"x", "p", ""}, pg{"y", "y", ""})},
			map[string]string{"p": "y", "y": "y"}},
		{"of two pages sharing a path, the first in tree order holds it",
			tree(pg{"a", "a2", ""}, pg{"b", "b2", ""}),
			[]*content.Tree{tree(pg{"a", "same", ""}, pg{"b", "same", ""})},
			map[string]string{"same": "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, formerPaths(tt.current, tt.older...)); diff != "" {
				t.Errorf("formerPaths (-want +got):\n%s", diff)
			}
		})
	}
}
