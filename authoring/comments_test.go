package authoring_test

import (
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/store"
)

// TestCommentRules: the rules of comment writes the API and the app share:
// a comment's page must be in the place's current content (and a refused
// comment writes nothing); anyone who may comment resolves and reacts, only
// the author edits the body, and the author or an admin deletes.
func TestCommentRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	bea, err := f.db.AddUser(ctx, f.space.OrgID, "bea@example.com", "Bea", quire.RoleComment)
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.author.CreateChangeRequest(ctx, f.space, "Draft", f.userID)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := edit.Parse([]byte(`{"changes":[{"operation":"insert_page","title":"Intro","document":{"markdown":"x"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if c, _, err = f.author.Apply(ctx, f.space, c, f.userID, changes); err != nil {
		t.Fatal(err)
	}
	_, tree, err := f.db.RevisionTree(ctx, f.space.ID, c.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	var page string
	for id := range tree.Pages {
		page = id
	}
	inCR := authoring.CommentPlace{Space: f.space, ChangeRequest: c}
	inSpace := authoring.CommentPlace{Space: f.space}
	str := func(s string) *string { return &s }
	body := str("edited")

	var thread, reply *quire.Comment
	tests := []struct {
		name string
		do   func() error
		code quire.Code // "" when allowed
	}{
		{"a comment on a page of the change request", func() error {
			thread, err = f.author.PostComment(ctx, inCR, bea.User.ID, authoring.NewThread{Markdown: "Why?", Page: &page, NodeID: "n1"})
			if err == nil && (thread.PageID != page || thread.RevisionID != c.RevisionID) {
				t.Errorf("comment %+v, want on %s at %s", thread, page, c.RevisionID)
			}
			return err
		}, ""},
		{"a comment on a page not in the space's content", func() error {
			_, err := f.author.PostComment(ctx, inSpace, bea.User.ID, authoring.NewThread{Markdown: "Why?", Page: &page})
			return err
		}, quire.CodeInvalid},
		{"a comment on no such page", func() error {
			_, err := f.author.PostComment(ctx, inCR, bea.User.ID, authoring.NewThread{Markdown: "Why?", Page: str("nope")})
			return err
		}, quire.CodeInvalid},
		{"a comment on the empty page id", func() error {
			_, err := f.author.PostComment(ctx, inCR, bea.User.ID, authoring.NewThread{Markdown: "Why?", Page: str("")})
			return err
		}, quire.CodeInvalid},
		{"a comment on no page, in the space", func() error {
			_, err := f.author.PostComment(ctx, inSpace, bea.User.ID, authoring.NewThread{Markdown: "Hello"})
			return err
		}, ""},
		{"a reply by another", func() error {
			reply, err = f.author.ReplyToComment(ctx, inCR, thread, f.userID, "Because.")
			if err == nil && reply.ParentID != thread.ID {
				t.Errorf("reply %+v, want to %s", reply, thread.ID)
			}
			return err
		}, ""},
		{"an admin edits another's comment", func() error {
			_, err := f.author.UpdateComment(ctx, inCR, thread, quire.RoleAdmin, f.userID, store.CommentUpdate{Markdown: body})
			return err
		}, quire.CodeForbidden},
		{"the author edits their comment", func() error {
			got, err := f.author.UpdateComment(ctx, inCR, thread, quire.RoleComment, bea.User.ID, store.CommentUpdate{Markdown: body})
			if err == nil && got.Markdown != *body {
				t.Errorf("markdown %q, want %q", got.Markdown, *body)
			}
			return err
		}, ""},
		{"another resolves and reacts", func() error {
			yes := true
			_, err := f.author.UpdateComment(ctx, inCR, reply, quire.RoleComment, bea.User.ID,
				store.CommentUpdate{Resolved: &yes, AddReactions: []string{"👍"}})
			return err
		}, ""},
		{"a commenter deletes another's reply", func() error {
			return f.author.DeleteComment(ctx, inCR, reply, quire.RoleComment, bea.User.ID)
		}, quire.CodeForbidden},
		{"an admin deletes another's comment", func() error {
			return f.author.DeleteComment(ctx, inCR, thread, quire.RoleAdmin, f.userID)
		}, ""},
	}
	for _, tt := range tests {
		if err := tt.do(); quire.ErrorCode(err) != tt.code {
			t.Errorf("%s: %v, want code %q", tt.name, err, tt.code)
		}
	}
	list, err := f.db.ListComments(ctx, inCR.Scope(), store.CommentFilter{}, store.Page{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 0 {
		t.Errorf("change request comments %d after the delete, want none (refused comments write nothing)", len(list.Items))
	}
}
