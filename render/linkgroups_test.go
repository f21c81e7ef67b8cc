package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
)

func linkResolver(bodies map[string]string, order ...string) *Resolver {
	t := &content.Tree{Pages: map[string]*content.Page{}, Root: order, Files: map[string]*content.File{"f1": {ID: "f1", Name: "logo.png"}}}
	for _, id := range order {
		t.Pages[id] = &content.Page{ID: id, Slug: id, Kind: content.KindDocument, Markdown: bodies[id]}
	}
	return &Resolver{Tree: t, Paths: content.GitPaths(t), Files: map[string]string{"f1": "logo.png"}, AppHost: "app.example"}
}

func TestGroupLinks(t *testing.T) {
	okPage := func(id string) Resolution { return Resolution{Kind: KindPage, PageID: id, Status: StatusOK} }
	tests := []struct {
		name   string
		bodies map[string]string
		ids    []string
		want   []LinkGroup
	}{
		{"no links", map[string]string{"a": "text"}, []string{"a"}, nil},
		{"anchors are left out", map[string]string{"a": "[x](#top)"}, []string{"a"}, nil},
		{
			"one page however written, first href kept",
			map[string]string{"a": "[x](b) [y](/pages/b) [z](b.md)", "b": ""}, []string{"a", "b"},
			[]LinkGroup{{Key: "page:b", Href: "b", Resolution: okPage("b"), From: []string{"a"}}},
		},
		{
			"linking pages each once, in the order given",
			map[string]string{"a": "[x](c) [x](c)", "b": "[y](/pages/c)", "c": "[self](c)"}, []string{"b", "a", "c"},
			[]LinkGroup{{Key: "page:c", Href: "/pages/c", Resolution: okPage("c"), From: []string{"b", "a", "c"}}},
		},
		{
			"broken links group by kind and target as written",
			map[string]string{"a": "[x](gone) [y](gone) [z](/pages/gone)"}, []string{"a"},
			[]LinkGroup{
				{Key: "page:gone", Href: "gone", Resolution: Resolution{Kind: KindPage, Status: StatusBroken}, From: []string{"a"}},
				{Key: "page:/pages/gone", Href: "/pages/gone", Resolution: Resolution{Kind: KindPage, Status: StatusBroken}, From: []string{"a"}},
			},
		},
		{
			"files and urls",
			map[string]string{"a": "![l](logo.png) [f](/files/f1) <https://example.com> [in](https://app.example/x)"}, []string{"a"},
			[]LinkGroup{
				{Key: "file:f1", Href: "logo.png", Resolution: Resolution{Kind: KindFile, FileID: "f1", Status: StatusOK}, From: []string{"a"}},
				{Key: "url:https://example.com", Href: "https://example.com", Resolution: Resolution{Kind: KindURL, URL: "https://example.com", Status: StatusOK}, From: []string{"a"}},
				{Key: "url:https://app.example/x", Href: "https://app.example/x", Resolution: Resolution{Kind: KindURL, URL: "https://app.example/x", Status: StatusInApp}, From: []string{"a"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := linkResolver(tt.bodies, tt.ids...)
			if diff := cmp.Diff(tt.want, r.GroupLinks(tt.ids)); diff != "" {
				t.Errorf("GroupLinks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLinkGroupBroken(t *testing.T) {
	for status, want := range map[string]bool{StatusOK: false, StatusInApp: false, StatusBroken: true} {
		g := LinkGroup{Resolution: Resolution{Status: status}}
		if g.Broken() != want {
			t.Errorf("Broken() with status %s = %v", status, !want)
		}
	}
}

func TestFileBacklinks(t *testing.T) {
	file := func(id string, from ...string) LinkGroup {
		return LinkGroup{Resolution: Resolution{Kind: KindFile, FileID: id, Status: StatusOK}, From: from}
	}
	groups := []LinkGroup{
		file("f1", "b", "a"),
		{Resolution: Resolution{Kind: KindPage, PageID: "f1"}, From: []string{"c"}}, // a page, not the file
		file("f2", "d"),
		file("f1", "a", "e"), // the same file written differently, broken or not
	}
	tests := []struct {
		id   string
		want []string
	}{
		{"f1", []string{"b", "a", "e"}},
		{"f2", []string{"d"}},
		{"f3", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, FileBacklinks(groups, tt.id)); diff != "" {
			t.Errorf("FileBacklinks(%q) (-want +got):\n%s", tt.id, diff)
		}
	}
}
