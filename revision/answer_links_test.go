package revision_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// TestLinkList: links of a space or of one page, filtered by status, a page
// at a time, with stats over all of them; broken.changeRequest counts the
// broken links of a change request's content only.
func TestLinkList(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // guides links to install and nowhere; install to logo.png and guides
	v := f.open(t)
	cr, err := f.reader.Open(t.Context(), f.space, f.space.RevisionID, &quire.ChangeRequest{ID: "cr"})
	if err != nil {
		t.Fatal(err)
	}
	all := store.Page{Limit: 50}
	type stats struct{ total, broken, changeRequest int }
	tests := []struct {
		name         string
		cr           bool
		page, status string
		p            store.Page
		want         []string // status and href of each item
		count        int
		next         bool
		wantStats    stats
	}{
		{"every link", false, "", "", all, []string{"ok /pages/install", "broken nowhere", "ok logo.png", "ok /pages/guides"}, 4, false, stats{4, 1, 0}},
		{"broken", false, "", "broken", all, []string{"broken nowhere"}, 1, false, stats{4, 1, 0}},
		{"one page", false, "install", "", all, []string{"ok logo.png", "ok /pages/guides"}, 2, false, stats{2, 0, 0}},
		{"a page at a time", false, "", "", store.Page{Limit: 1}, []string{"ok /pages/install"}, 4, true, stats{4, 1, 0}},
		{"in a change request", true, "", "broken", all, []string{"broken nowhere"}, 1, false, stats{4, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			view := v
			if tt.cr {
				view = cr
			}
			got := view.LinkList(tt.page, tt.status, tt.p)
			hrefs := []string{}
			for _, l := range got.Items {
				hrefs = append(hrefs, l.Status+" "+l.Href)
			}
			if diff := cmp.Diff(tt.want, hrefs); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			gotStats := stats{got.Stats.Total, got.Stats.Broken.Total, got.Stats.Broken.ChangeRequest}
			if got.Count != tt.count || (got.Next != nil) != tt.next || gotStats != tt.wantStats {
				t.Errorf("count %d, next %v, stats %+v; want %d, %v, %+v", got.Count, got.Next, gotStats, tt.count, tt.next, tt.wantStats)
			}
		})
	}
	back := v.FileBacklinkList("f1", all)
	want := wire.List[wire.Reference]{Items: []wire.Reference{v.PageRef("install")}, Count: 1}
	if diff := cmp.Diff(want, back); diff != "" {
		t.Errorf("FileBacklinkList (-want +got):\n%s", diff)
	}
	if ref := v.PageRef("install"); ref.Space != f.space.ID || ref.VersionContext.Revision != v.Revision.ID {
		t.Errorf("PageRef = %+v", ref)
	}
}
