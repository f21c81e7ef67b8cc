package revision

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// changeView is a view of tree in a store-less reader, named by root.
func changeView(r *Reader, root string, t *content.Tree) *View {
	if t.Files == nil {
		t.Files = map[string]*content.File{}
	}
	return &View{Space: &quire.Space{ID: "sp"}, Revision: &store.Revision{ID: "rev-" + root, Root: root}, Tree: t, r: r}
}

func page(id, title, kind string, children ...string) *content.Page {
	return &content.Page{ID: id, Title: title, Slug: id, Kind: kind, Children: children}
}

// changeSummary is a Change with views named by revision.
type changeSummary struct {
	Type       string
	Page       *ChangedPage
	File       string // file id @ revision id
	Moved      *[2]*ChangedPage
	Attributes map[string][2]string
}

func TestChanges(t *testing.T) {
	t.Parallel()
	r := New(nil, "")
	base := changeView(r, "a", &content.Tree{
		Pages: map[string]*content.Page{
			"g":    page("g", "Guides", content.KindGroup, "keep"),
			"keep": page("keep", "Keep", content.KindDocument),
			"gone": page("gone", "Gone", content.KindDocument),
			"mv":   page("mv", "Move", content.KindDocument),
		},
		Root:  []string{"g", "gone", "mv"},
		Files: map[string]*content.File{"f1": {ID: "f1", Name: "a.png", Size: 1}, "f2": {ID: "f2", Name: "b.png", Size: 2}},
	})
	next := changeView(r, "b", &content.Tree{
		Pages: map[string]*content.Page{
			"g":    page("g", "Guides", content.KindGroup, "keep", "mv"),
			"keep": page("keep", "Kept", content.KindDocument),
			"mv":   page("mv", "Move", content.KindDocument),
			"new":  page("new", "New", content.KindDocument),
		},
		Root:  []string{"g", "new"},
		Files: map[string]*content.File{"f1": {ID: "f1", Name: "a.png", Size: 5}, "f3": {ID: "f3", Name: "c.png"}},
	})
	empty := changeView(r, "", &content.Tree{Pages: map[string]*content.Page{}})
	group := &ChangedPage{ID: "g", Group: true, Title: "Guides", Path: "g"}
	all := []changeSummary{
		{Type: content.PageEdited, Page: &ChangedPage{ID: "keep", Title: "Kept", Path: "g/keep"},
			Attributes: map[string][2]string{"title": {"Keep", "Kept"}}},
		{Type: content.PageMoved, Page: &ChangedPage{ID: "mv", Title: "Move", Path: "g/mv"},
			Moved: &[2]*ChangedPage{nil, group}},
		{Type: content.PageCreated, Page: &ChangedPage{ID: "new", Title: "New", Path: "new"}},
		{Type: content.PageDeleted, Page: &ChangedPage{ID: "gone", Title: "Gone", Path: "gone"}},
		{Type: content.FileEdited, File: "f1@rev-b", Attributes: map[string][2]string{"size": {"1", "5"}}},
		{Type: content.FileDeleted, File: "f2@rev-a"},
		{Type: content.FileCreated, File: "f3@rev-b"},
	}
	tests := []struct {
		name          string
		before, after *View
		limit         int
		want          []changeSummary
		more          int
	}{
		{"every kind", base, next, 10, all, 0},
		{"limited", base, next, 3, all[:3], 4},
		{"none", next, next, 10, []changeSummary{}, 0},
		{"from empty", empty, changeView(r, "c", &content.Tree{
			Pages: map[string]*content.Page{"g": page("g", "Guides", content.KindGroup)}, Root: []string{"g"},
		}), 10, []changeSummary{{Type: content.PageCreated, Page: group}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, more := Changes(tt.before, tt.after, tt.limit)
			got := []changeSummary{}
			for _, c := range changes {
				s := changeSummary{Type: c.Type, Page: c.Page, Moved: c.Moved, Attributes: c.Attributes}
				if c.File != nil {
					s.File = c.File.File.ID + "@" + c.File.View.Revision.ID
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || more != tt.more {
				t.Errorf("Changes: more %d, want %d (-want +got):\n%s", more, tt.more, diff)
			}
		})
	}
}

func TestParentOfFirstRevision(t *testing.T) {
	t.Parallel()
	r := New(nil, "")
	v := changeView(r, "a", &content.Tree{Pages: map[string]*content.Page{}})
	p, err := r.Parent(context.Background(), v)
	if err != nil || p.Revision.ID != "rev-a" || p.Revision.Root != "" || len(p.Tree.Pages) != 0 {
		t.Errorf("Parent of a first revision = %+v, %v; want the empty view named as it", p, err)
	}
}
