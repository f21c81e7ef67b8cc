package revision_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
)

// TestCommentJSON: comments and replies written by hand are JSON in the
// reference's shape: the object, the caller's permissions, the page
// targeted (its title, or outdated when gone), the body as markdown or as a
// document, and the list envelope.
func TestCommentJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ada := quire.User{ID: "ada", DisplayName: "Ada"}
	onPage := &quire.Comment{ID: "c1", SpaceID: f.space.ID, PostedBy: ada, PostedAt: at, Markdown: "See [guides](/pages/guides).",
		PageID: "install", RevisionID: f.space.RevisionID, ResolvedAt: at, ResolvedBy: ada,
		Reactions: []quire.Reaction{{Emoji: "👍", Users: []quire.Reactor{{User: ada, ReactedAt: at}}}}, Replies: 1,
		Repliers: []quire.Replier{{User: ada, Count: 1, UpdatedAt: at}}}
	gone := &quire.Comment{ID: "c2", SpaceID: f.space.ID, PostedBy: ada, PostedAt: at, Markdown: "Old.", PageID: "nope", RevisionID: f.space.RevisionID}
	reply := &quire.Comment{ID: "r1", SpaceID: f.space.ID, ParentID: "c1", PostedBy: ada, PostedAt: at, Markdown: "Yes."}
	tests := []struct {
		name     string
		c        *quire.Comment
		role     quire.Role
		me       string
		document bool
		want     map[string]any // fields of the answer
	}{
		{"a resolved comment on a page, by its author", onPage, quire.RoleComment, "ada", false, map[string]any{
			"object": "comment", "status": "resolved", "replies": 1.0,
			"permissions": map[string]any{"view": true, "edit": true, "reply": true, "delete": true},
			"body":        map[string]any{"markdown": "See [guides](/pages/guides)."},
			"urls":        map[string]any{"location": "https://quire.example/v1/spaces/" + f.space.ID + "/comments/c1"},
		}},
		{"read by a reader", onPage, quire.RoleRead, "bob", false, map[string]any{
			"permissions": map[string]any{"view": true, "edit": false, "reply": false, "delete": false},
		}},
		{"deletable by an admin", onPage, quire.RoleAdmin, "bob", false, map[string]any{
			"permissions": map[string]any{"view": true, "edit": false, "reply": true, "delete": true},
		}},
		{"on a page gone", gone, quire.RoleComment, "ada", false, map[string]any{
			"status": "open", "target": map[string]any{"page": map[string]any{"id": "nope", "outdated": true}, "space": f.space.ID, "revision": f.space.RevisionID},
		}},
		{"a reply", reply, quire.RoleComment, "ada", false, map[string]any{
			"object": "comment-reply",
			"urls":   map[string]any{"location": "https://quire.example/v1/spaces/" + f.space.ID + "/comments/c1/replies/r1"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := []*quire.Comment{tt.c}
			views, err := f.reader.CommentViews(t.Context(), f.space, f.space.RevisionID, nil, cs, tt.document)
			if err != nil {
				t.Fatal(err)
			}
			who := revision.CommentReader{Path: "/spaces/" + f.space.ID + "/comments", Role: tt.role, UserID: tt.me}
			var got map[string]any
			if err := json.Unmarshal(revision.NewCommentJSON(links, views, who, tt.document).One(tt.c), &got); err != nil {
				t.Fatal(err)
			}
			for k, want := range tt.want {
				if diff := cmp.Diff(want, got[k]); diff != "" {
					t.Errorf("%s (-want +got):\n%s", k, diff)
				}
			}
		})
	}

	// The page targeted, with its title, and the body as a document; a list
	// in its envelope.
	cs := []*quire.Comment{onPage, gone}
	views, err := f.reader.CommentViews(t.Context(), f.space, f.space.RevisionID, nil, cs, true)
	if err != nil {
		t.Fatal(err)
	}
	out := revision.NewCommentJSON(links, views, revision.CommentReader{Path: "/spaces/x/comments", Role: quire.RoleRead}, true)
	var list struct {
		Items []struct {
			Body   map[string]json.RawMessage `json:"body"`
			Target struct {
				Page map[string]any `json:"page"`
			} `json:"target"`
		} `json:"items"`
		Count int `json:"count"`
	}
	if err := json.Unmarshal(out.List(&store.CommentList{List: store.List[*quire.Comment]{Items: cs, Count: 2}}, false), &list); err != nil {
		t.Fatal(err)
	}
	if list.Count != 2 || len(list.Items) != 2 {
		t.Fatalf("list: %+v", list)
	}
	if p := list.Items[0].Target.Page; p["title"] != "Install" || p["path"] != "guides/install" || p["outdated"] != false {
		t.Errorf("page targeted: %v", p)
	}
	if _, ok := list.Items[0].Body["document"]; !ok {
		t.Errorf("body as a document: %v", list.Items[0].Body)
	}
}
