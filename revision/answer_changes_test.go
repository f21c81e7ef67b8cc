package revision

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/wire"
)

// TestChangesJSON: how the API shows changes: pages and groups by type,
// a moved page's parents, files with their download address, sizes as
// numbers, and what is past the limit counted.
func TestChangesJSON(t *testing.T) {
	t.Parallel()
	r := New(nil, "")
	l := wire.Links{PublicURL: "https://quire.example"}
	base := changeView(r, "a", &content.Tree{
		Pages: map[string]*content.Page{"g": page("g", "Guides", content.KindGroup), "mv": page("mv", "Move", content.KindDocument)},
		Root:  []string{"g", "mv"},
		Files: map[string]*content.File{"f1": {ID: "f1", Name: "a.png", ContentType: "image/png", Size: 1}},
	})
	next := changeView(r, "b", &content.Tree{
		Pages: map[string]*content.Page{"g": page("g", "Guides", content.KindGroup, "mv"), "mv": page("mv", "Move", content.KindDocument)},
		Root:  []string{"g"},
		Files: map[string]*content.File{"f1": {ID: "f1", Name: "a.png", ContentType: "image/png", Size: 5}},
	})
	empty := changeView(r, "", &content.Tree{Pages: map[string]*content.Page{}})
	moved := `{"type":"page_moved","page":{"id":"mv","type":"document","title":"Move","path":"g/mv"},"parent":{"after":{"id":"g","type":"group","title":"Guides","path":"g"}}}`
	file := `{"type":"file_edited","file":{"id":"f1","name":"a.png","contentType":"image/png","downloadURL":"https://quire.example/v1/spaces/sp/revisions/rev-b/files/f1/download"},"attributes":{"size":{"after":5,"before":1}}}`
	tests := []struct {
		name          string
		before, after *View
		limit         int
		want          string
	}{
		{"moved and edited", base, next, 10, `{"changes":[` + moved + `,` + file + `]}`},
		{"limited", base, next, 1, `{"changes":[` + moved + `],"more":1}`},
		{"none", next, next, 10, `{"changes":[]}`},
		{"a group created", empty, changeView(r, "c", &content.Tree{
			Pages: map[string]*content.Page{"g": page("g", "Guides", content.KindGroup)}, Root: []string{"g"},
		}), 10, `{"changes":[{"type":"page_created","page":{"id":"g","type":"group","title":"Guides","path":"g"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(ChangesJSON(l, tt.before, tt.after, tt.limit))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(b)); diff != "" {
				t.Errorf("ChangesJSON (-want +got):\n%s", diff)
			}
		})
	}
}
