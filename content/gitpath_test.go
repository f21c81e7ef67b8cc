package content

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGitPaths(t *testing.T) {
	t.Parallel()
	group := func(id, slug string, kids ...string) *Page {
		return &Page{ID: id, Slug: slug, Kind: KindGroup, Children: kids}
	}
	leaf := func(id, slug string, kids ...string) *Page {
		return &Page{ID: id, Slug: slug, Kind: KindDocument, Children: kids}
	}
	tests := []struct {
		name string
		tree *Tree
		want map[string]string
	}{
		{"empty", mkTree(nil), map[string]string{}},
		{
			"gitbook layout",
			mkTree([]string{"intro", "guides", "faq"},
				leaf("intro", "introduction"),
				leaf("guides", "guides", "install", "deep"),
				leaf("install", "install"),
				leaf("deep", "deep", "d1"),
				leaf("d1", "one"),
				leaf("faq", "faq"),
			),
			map[string]string{
				"intro":   "README.md",
				"guides":  "guides/README.md",
				"install": "guides/install.md",
				"deep":    "guides/deep/README.md",
				"d1":      "guides/deep/one.md",
				"faq":     "faq.md",
			},
		},
		{
			"groups prefix without a file",
			mkTree([]string{"g", "h"},
				group("g", "getting-started", "a", "b"),
				leaf("a", "a"),
				leaf("b", "b"),
				group("h", "more", "c"),
				leaf("c", "c"),
			),
			map[string]string{
				"a": "getting-started/a.md",
				"b": "getting-started/b.md",
				"c": "more/c.md",
			},
		},
		{
			"first page with children",
			mkTree([]string{"home"},
				leaf("home", "home", "x"),
				leaf("x", "x"),
			),
			map[string]string{"home": "README.md", "x": "home/x.md"},
		},
		{
			"duplicate and reserved slugs",
			mkTree([]string{"r", "a1", "a2", "a3", "readme", "p"},
				leaf("r", "start"),
				leaf("a1", "api"),
				leaf("a2", "api"),
				group("a3", "API", "z"),
				leaf("z", "z"),
				leaf("readme", "README"),
				leaf("p", "", "q"),
				leaf("q", "readme"),
			),
			map[string]string{
				"r":      "README.md",
				"a1":     "api.md",
				"a2":     "api-2.md",
				"z":      "API-3/z.md",
				"readme": "README-2.md",
				"p":      "p/README.md",
				"q":      "p/readme-2.md",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := tt.tree.Validate(); err != nil {
				t.Fatalf("bad test tree: %v", err)
			}
			if diff := cmp.Diff(tt.want, GitPaths(tt.tree)); diff != "" {
				t.Errorf("GitPaths (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGitBlobOID: object ids are Git's (git hash-object).
func TestGitBlobOID(t *testing.T) {
	for data, want := range map[string]string{
		"":        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
		"hello\n": "ce013625030ba8dba906f756967f9e9ca394464a",
	} {
		if got := GitBlobOID(data); got != want {
			t.Errorf("GitBlobOID(%q) = %s, want %s", data, got, want)
		}
	}
}
