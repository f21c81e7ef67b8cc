package api_test

import (
	"net/http"
	"testing"
)

// TestCommentListsAreFresh: pages of comments are kept encoded between
// changes, yet each caller sees their own permissions, and every change
// (a comment, a reaction, a resolve) shows in the very next list, on the
// server that made it and on another over the same database.
func TestCommentListsAreFresh(t *testing.T) {
	t.Parallel()
	a, b := twoServers(t)
	author := a.addUser(t, "comment", "Ann Author")
	other := a.addUser(t, "comment", "Olly Other")
	sp := colCreateSpace(t, a, "Handbook", "")
	base := "/v1/spaces/" + sp.ID + "/comments"

	type item struct {
		ID          string
		Body        struct{ Markdown string }
		Status      string
		Permissions struct{ Edit bool }
		Reactions   []struct{ Reaction string }
	}
	list := func(e *env, who user) []item {
		t.Helper()
		var out struct{ Items []item }
		e.call(t, who.token, "GET", base+"?limit=10", nil).want(t, http.StatusOK).Decode(t, &out)
		return out.Items
	}
	heard := b.db.Commits()
	c := a.postComment(t, author.token, base, map[string]any{"body": md("First")})
	for _, e := range []*env{a, b} {
		if e == b {
			waitHeard(t, b.db, heard)
		}
		if got := list(e, author); len(got) != 1 || !got[0].Permissions.Edit {
			t.Fatalf("the author's list: %+v, want their comment, editable", got)
		}
		if got := list(e, other); len(got) != 1 || got[0].Permissions.Edit {
			t.Fatalf("another's list: %+v, want the comment, not editable", got)
		}
	}

	steps := []struct {
		name   string
		change func()
		check  func(items []item) bool
	}{
		{"a second comment", func() { a.postComment(t, other.token, base, map[string]any{"body": md("Second")}) },
			func(items []item) bool { return len(items) == 2 }},
		{"a reaction", func() {
			a.call(t, other.token, "PUT", base+"/"+c.ID, map[string]any{"addedReactions": []string{"👍"}}).want(t, http.StatusOK)
		}, func(items []item) bool { return len(items) == 2 && len(items[1].Reactions) == 1 }},
		{"an edit", func() {
			a.call(t, author.token, "PUT", base+"/"+c.ID, map[string]any{"body": md("First, edited")}).want(t, http.StatusOK)
		}, func(items []item) bool { return len(items) == 2 && items[1].Body.Markdown == "First, edited" }},
	}
	for _, step := range steps {
		list(a, other) // warm on both servers
		list(b, other)
		heard := b.db.Commits()
		step.change()
		if got := list(a, other); !step.check(got) {
			t.Errorf("%s: the next list on the same server: %+v", step.name, got)
		}
		waitHeard(t, b.db, heard)
		if got := list(b, other); !step.check(got) {
			t.Errorf("%s: the next list on the other server: %+v", step.name, got)
		}
	}
}
