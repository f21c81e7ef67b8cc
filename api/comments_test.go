package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Tests of §4.1 change request comments and §4.2 space comments.

type cmtUser struct {
	ID string `json:"id"`
}

type cmtReaction struct {
	Emoji string `json:"emoji"`
	Count int    `json:"count"`
	Users []struct {
		User      cmtUser `json:"user"`
		ReactedAt string  `json:"reactedAt"`
	} `json:"users"`
}

type cmtBody struct {
	Markdown *string        `json:"markdown"`
	Document map[string]any `json:"document"`
}

type cmtPerms struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	Delete bool `json:"delete"`
}

type cmtPage struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Path     string `json:"path"`
	Outdated bool   `json:"outdated"`
}

type cmtOut struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	PostedBy  cmtUser       `json:"postedBy"`
	PostedAt  string        `json:"postedAt"`
	EditedAt  string        `json:"editedAt"`
	Reactions []cmtReaction `json:"reactions"`
	Replies   int           `json:"replies"`
	Repliers  []struct {
		Count int     `json:"count"`
		User  cmtUser `json:"user"`
	} `json:"repliers"`
	Body   cmtBody `json:"body"`
	Target struct {
		Node          *struct{ ID string } `json:"node"`
		ChangeRequest string               `json:"changeRequest"`
		Page          *cmtPage             `json:"page"`
		Space         string               `json:"space"`
		Revision      string               `json:"revision"`
	} `json:"target"`
	URLs struct {
		Location string `json:"location"`
	} `json:"urls"`
	Permissions cmtPerms `json:"permissions"`
	Status      string   `json:"status"`
	ResolvedAt  string   `json:"resolvedAt"`
	ResolvedBy  *cmtUser `json:"resolvedBy"`
}

type cmtList struct {
	Items []cmtOut `json:"items"`
	Count int      `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

func md(s string) map[string]any { return map[string]any{"markdown": s} }

// cmtPlace is where a test's comments live: a space with two pages in its
// current content, and either the space's own comments or a change
// request's.
type cmtPlace struct {
	name    string
	spaceID string
	cr      string // the change request's id; "" for the space's comments
	base    string // …/comments
	pages   map[string]string
}

// cmtPlaces creates a space with pages "Guide" and "Intro", and a change
// request in it, and returns both places to comment on.
func (e *env) cmtPlaces(t *testing.T) []cmtPlace {
	t.Helper()
	spaceID := e.crSpace(t)
	pages := e.cmSeed(t, spaceID, insertPage("", "# Guide\n\nRead me.\n"), insertPage("", "# Intro\n\nHello.\n"))
	var c crOut
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Talk"}).want(t, http.StatusCreated).Decode(t, &c)
	return []cmtPlace{
		{name: "space", spaceID: spaceID, base: "/v1/spaces/" + spaceID + "/comments", pages: pages},
		{name: "change request", spaceID: spaceID, cr: c.ID, base: "/v1/spaces/" + spaceID + "/change-requests/" + c.ID + "/comments", pages: pages},
	}
}

func (e *env) postComment(t *testing.T, token, base string, body map[string]any) cmtOut {
	t.Helper()
	var c cmtOut
	e.call(t, token, "POST", base, body).want(t, http.StatusOK).Decode(t, &c)
	return c
}

func (e *env) getComment(t *testing.T, token, path string) cmtOut {
	t.Helper()
	var c cmtOut
	e.call(t, token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &c)
	return c
}

func (e *env) putComment(t *testing.T, token, path string, body map[string]any) cmtOut {
	t.Helper()
	var c cmtOut
	e.call(t, token, "PUT", path, body).want(t, http.StatusOK).Decode(t, &c)
	return c
}

func (e *env) listComments(t *testing.T, token, path string) cmtList {
	t.Helper()
	var l cmtList
	e.call(t, token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &l)
	return l
}

func cmtIDs(items []cmtOut) []string {
	ids := []string{}
	for _, c := range items {
		ids = append(ids, c.ID)
	}
	return ids
}

// openComments reads the comments count of the space, or of the change request.
func (e *env) openComments(t *testing.T, p cmtPlace) int {
	t.Helper()
	var out struct{ Comments int }
	path := "/v1/spaces/" + p.spaceID
	if p.cr != "" {
		path += "/change-requests/" + p.cr
	}
	e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &out)
	return out.Comments
}

// cmtClock fixes the store's clock and returns a function that moves it one
// second on, so that comments have distinct, ordered times.
func cmtClock(e *env) func() {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	e.db.Now = func() time.Time { return now }
	return func() { now = now.Add(time.Second) }
}

func TestCommentLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	commenter := e.addUser(t, "comment", "Cora Commenter")
	for _, p := range e.cmtPlaces(t) {
		t.Run(p.name, func(t *testing.T) {
			var sp struct{ Revision string }
			e.call(t, e.admin.token, "GET", "/v1/spaces/"+p.spaceID, nil).want(t, http.StatusOK).Decode(t, &sp)
			revision := sp.Revision
			if p.cr != "" {
				var c crOut
				e.call(t, e.admin.token, "GET", "/v1/spaces/"+p.spaceID+"/change-requests/"+p.cr, nil).want(t, http.StatusOK).Decode(t, &c)
				revision = c.Revision
			}

			mention := "Hi @[Ada Admin](user:" + e.admin.id + "), see the install step."
			c := e.postComment(t, commenter.token, p.base, map[string]any{"page": p.pages["Guide"], "node": "n1", "body": md(mention)})
			if c.Object != "comment" || c.PostedBy.ID != commenter.id || c.Status != "open" || c.Replies != 0 ||
				c.Body.Markdown == nil || *c.Body.Markdown != mention || c.EditedAt != "" || c.ResolvedBy != nil {
				t.Errorf("posted comment %+v", c)
			}
			if c.Target.Space != p.spaceID || c.Target.ChangeRequest != p.cr || c.Target.Revision != revision ||
				c.Target.Node == nil || c.Target.Node.ID != "n1" {
				t.Errorf("target %+v, want space %s, change request %q, revision %s, node n1", c.Target, p.spaceID, p.cr, revision)
			}
			if diff := cmp.Diff(&cmtPage{ID: p.pages["Guide"], Title: "Guide", Path: "guide"}, c.Target.Page); diff != "" {
				t.Errorf("target page (-want +got):\n%s", diff)
			}
			if want := testPublicURL + p.base + "/" + c.ID; c.URLs.Location != want {
				t.Errorf("location %q, want %q", c.URLs.Location, want)
			}
			if want := (cmtPerms{View: true, Edit: true, Reply: true, Delete: true}); c.Permissions != want {
				t.Errorf("author's permissions %+v, want %+v", c.Permissions, want)
			}
			if got := e.openComments(t, p); got != 1 {
				t.Errorf("open comments %d, want 1", got)
			}

			// The admin sees what they may do, and replies.
			path := p.base + "/" + c.ID
			if got := e.getComment(t, e.admin.token, path); got.Permissions != (cmtPerms{View: true, Reply: true, Delete: true}) {
				t.Errorf("admin's permissions %+v", got.Permissions)
			}
			var r1, r2 cmtOut
			e.call(t, e.admin.token, "POST", path+"/replies", map[string]any{"body": md("Thanks!")}).want(t, http.StatusOK).Decode(t, &r1)
			e.call(t, commenter.token, "POST", path+"/replies", map[string]any{"body": md("Welcome.")}).want(t, http.StatusOK).Decode(t, &r2)
			e.call(t, e.admin.token, "POST", path+"/replies", map[string]any{"body": md("One more.")}).want(t, http.StatusOK)
			if r1.Object != "comment-reply" || r1.PostedBy.ID != e.admin.id || *r1.Body.Markdown != "Thanks!" ||
				r1.URLs.Location != testPublicURL+path+"/replies/"+r1.ID {
				t.Errorf("reply %+v", r1)
			}
			got := e.getComment(t, commenter.token, path)
			if got.Replies != 3 || len(got.Repliers) != 2 || got.Repliers[0].User.ID != e.admin.id || got.Repliers[0].Count != 2 ||
				got.Repliers[1].User.ID != commenter.id || got.Repliers[1].Count != 1 {
				t.Errorf("replies %d, repliers %+v; want 3, the admin twice then the commenter once", got.Replies, got.Repliers)
			}
			replies := e.listComments(t, commenter.token, path+"/replies")
			if replies.Count != 3 || len(replies.Items) != 3 || replies.Items[0].ID != r1.ID || replies.Items[1].ID != r2.ID {
				t.Errorf("replies %v (count %d), want oldest first starting %s, %s", cmtIDs(replies.Items), replies.Count, r1.ID, r2.ID)
			}
			if got := e.getComment(t, commenter.token, path+"/replies/"+r2.ID); got.ID != r2.ID || got.Permissions != (cmtPerms{View: true, Edit: true, Reply: true, Delete: true}) {
				t.Errorf("GET reply: %+v", got)
			}

			// The author edits; others react and resolve.
			edited := e.putComment(t, commenter.token, path, map[string]any{"body": md("Edited.")})
			if *edited.Body.Markdown != "Edited." || edited.EditedAt == "" {
				t.Errorf("edited comment: body %q, editedAt %q", *edited.Body.Markdown, edited.EditedAt)
			}
			e.putComment(t, e.admin.token, path, map[string]any{"addedReactions": []string{"👍"}})
			resolved := e.putComment(t, e.admin.token, path, map[string]any{"resolved": true})
			if resolved.Status != "resolved" || resolved.ResolvedAt == "" || resolved.ResolvedBy == nil || resolved.ResolvedBy.ID != e.admin.id ||
				len(resolved.Reactions) != 1 || *resolved.Body.Markdown != "Edited." {
				t.Errorf("resolved comment %+v", resolved)
			}
			if got := e.openComments(t, p); got != 0 {
				t.Errorf("open comments %d after resolving, want 0", got)
			}
			reply := e.putComment(t, commenter.token, path+"/replies/"+r2.ID, map[string]any{"body": md("Welcome!"), "addedReactions": []string{"🎉"}})
			if *reply.Body.Markdown != "Welcome!" || reply.EditedAt == "" || len(reply.Reactions) != 1 || reply.Reactions[0].Emoji != "🎉" {
				t.Errorf("edited reply %+v", reply)
			}

			// Deleting a reply, then the comment with its replies.
			e.call(t, commenter.token, "DELETE", path+"/replies/"+r2.ID, nil).want(t, http.StatusNoContent)
			e.call(t, commenter.token, "GET", path+"/replies/"+r2.ID, nil).wantError(t, http.StatusNotFound, "reply")
			if got := e.getComment(t, commenter.token, path); got.Replies != 2 || len(got.Repliers) != 1 {
				t.Errorf("after deleting a reply: replies %d, repliers %+v", got.Replies, got.Repliers)
			}
			e.call(t, commenter.token, "DELETE", path, nil).want(t, http.StatusNoContent)
			e.call(t, commenter.token, "GET", path, nil).wantError(t, http.StatusNotFound, "comment")
			e.call(t, commenter.token, "GET", path+"/replies/"+r1.ID, nil).wantError(t, http.StatusNotFound)
			e.call(t, commenter.token, "DELETE", path, nil).wantError(t, http.StatusNotFound)
			if l := e.listComments(t, commenter.token, p.base); l.Count != 0 || len(l.Items) != 0 {
				t.Errorf("list after delete: %d items, count %d", len(l.Items), l.Count)
			}
		})
	}
}

// TestCommentPlacesAreApart: a space's comments and a change request's are
// separate lists; a comment is not reachable through the other place, nor
// through another space.
func TestCommentPlacesAreApart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	places := e.cmtPlaces(t)
	onSpace := e.postComment(t, e.admin.token, places[0].base, map[string]any{"body": md("On the space.")})
	onCR := e.postComment(t, e.admin.token, places[1].base, map[string]any{"body": md("On the request.")})
	resolved := e.postComment(t, e.admin.token, places[1].base, map[string]any{"body": md("Resolved one.")})
	other, crs := e.crSpace(t), "/v1/spaces/"+places[1].spaceID+"/change-requests/"
	run(t, e, []scenario{
		{path: places[0].base, want: []check{field("items.#.id", []string{onSpace.ID}), field("count", 1)}},
		{path: places[1].base, want: []check{field("items.#.id", []string{resolved.ID, onCR.ID}), field("count", 2)}},
		{path: places[0].base + "/" + onCR.ID, status: http.StatusNotFound},
		{path: places[1].base + "/" + onSpace.ID, status: http.StatusNotFound},
		{path: "/v1/spaces/" + other + "/comments/" + onSpace.ID, status: http.StatusNotFound},
		{method: "DELETE", path: "/v1/spaces/" + other + "/comments/" + onSpace.ID, status: http.StatusNotFound},
		{path: places[0].base + "/" + onSpace.ID + "/replies/" + onCR.ID, status: http.StatusNotFound},
		// A change request by number works as by id (number 1 seeded the pages).
		{path: crs + "2/comments/" + onCR.ID},
		{path: crs + "1/comments/" + onCR.ID, status: http.StatusNotFound},
		{path: crs + "9/comments", status: http.StatusNotFound},
	})
}

func TestCommentValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	places := e.cmtPlaces(t)
	space, cr := places[0], places[1]
	c := e.postComment(t, e.admin.token, space.base, map[string]any{"body": md("Hello")})
	reply := e.postComment(t, e.admin.token, space.base+"/"+c.ID+"/replies", map[string]any{"body": md("Hi")})
	path, replyPath := space.base+"/"+c.ID, space.base+"/"+c.ID+"/replies/"+reply.ID
	e.postComment(t, e.admin.token, space.base, map[string]any{"body": md(strings.Repeat("é", 20000))})

	bad := func(method, path string, body any, part string) scenario {
		return scenario{name: fmt.Sprintf("%s %s %v", method, path, body), method: method, path: path, body: body, status: http.StatusBadRequest, errs: []string{part}}
	}
	run(t, e, []scenario{
		bad("POST", space.base, map[string]any{}, "body"),
		bad("POST", space.base, nil, "body"),
		bad("POST", space.base, map[string]any{"body": nil}, "body"),
		bad("POST", space.base, map[string]any{"body": map[string]any{}}, "body.markdown"),
		bad("POST", space.base, map[string]any{"body": md("")}, "body.markdown"),
		bad("POST", space.base, map[string]any{"body": md(" \n\t")}, "body.markdown"),
		bad("POST", space.base, map[string]any{"body": md(strings.Repeat("x", 20001))}, "body.markdown"),
		bad("POST", space.base, map[string]any{"body": map[string]any{"document": map[string]any{"object": "document"}}}, "body"),
		bad("POST", space.base, map[string]any{"body": "text"}, "body"),
		bad("POST", space.base, map[string]any{"body": md("x"), "page": "nope"}, "page"),
		bad("POST", cr.base, map[string]any{"body": md("x"), "page": "nope"}, "page"),
		bad("POST", space.base, map[string]any{"body": md("x"), "node": "n1"}, "node"),
		bad("POST", space.base, map[string]any{"body": md("x"), "page": space.pages["Guide"], "node": ""}, "node"),
		bad("POST", space.base+"/"+c.ID+"/replies", map[string]any{"body": md("")}, "body.markdown"),
		bad("PUT", path, map[string]any{"body": md("")}, "body.markdown"),
		bad("PUT", path, map[string]any{"resolved": nil}, "resolved"),
		bad("PUT", path, map[string]any{"resolved": "yes"}, "resolved"),
		bad("PUT", path, map[string]any{"addedReactions": []string{"a"}}, "addedReactions[0]"),
		bad("PUT", path, map[string]any{"addedReactions": []string{"👍", "👍👍"}}, "addedReactions[1]"),
		bad("PUT", path, map[string]any{"addedReactions": []string{":+1:"}}, "addedReactions[0]"),
		bad("PUT", path, map[string]any{"addedReactions": []string{""}}, "addedReactions[0]"),
		bad("PUT", path, map[string]any{"removedReactions": []string{"1"}}, "removedReactions[0]"),
		bad("PUT", path, map[string]any{"addedReactions": slices.Repeat([]string{"👍"}, 21)}, "addedReactions"),
		bad("PUT", path, map[string]any{"addedReactions": "👍"}, "addedReactions"),
		bad("PUT", replyPath, map[string]any{"resolved": true}, "resolved"),
		bad("PUT", replyPath, map[string]any{"resolved": false, "body": md("x")}, "resolved"),
		bad("GET", space.base+"?status=closed", nil, "status"),
		bad("GET", space.base+"?order=up", nil, "order"),
		bad("GET", space.base+"?limit=0", nil, "limit"),
		bad("GET", space.base+"?limit=1001", nil, "limit"),
		bad("GET", space.base+"?page=%25%25", nil, "page"),
		bad("GET", space.base+"?format=html", nil, "format"),
		bad("GET", path+"?format=html", nil, "format"),
		bad("GET", path+"/replies?limit=x", nil, "limit"),
		// A bad format is refused before anything is written.
		bad("POST", space.base+"?format=html", map[string]any{"body": md("x")}, "format"),
		bad("PUT", path+"?format=html", map[string]any{"resolved": true}, "format"),
		bad("POST", path+"/replies?format=html", map[string]any{"body": md("x")}, "format"),
		{name: "refused updates changed nothing", path: path, want: []check{
			field("body.markdown", "Hello"), field("status", "open"), zero("reactions", "editedAt"), field("replies", 1)}},
		{name: "refused posts added nothing", path: space.base, want: []check{field("count", 2)}},
		// Not JSON, and too large.
		{method: "POST", path: space.base, body: "body=x", status: http.StatusBadRequest},
		{name: "too large", method: "POST", path: space.base, body: map[string]any{"body": md(strings.Repeat("x", 1<<20))}, status: http.StatusRequestEntityTooLarge},
	})
}

func TestCommentReactions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	next := cmtClock(e)
	p := e.cmtPlaces(t)[1]
	bob := e.addUser(t, "comment", "Bob Commenter")
	c := e.postComment(t, e.admin.token, p.base, map[string]any{"body": md("React to me")})
	path := p.base + "/" + c.ID

	type reaction struct {
		Emoji string
		Users []string
	}
	reactions := func(c cmtOut) []reaction {
		out := []reaction{}
		for _, r := range c.Reactions {
			re := reaction{Emoji: r.Emoji}
			for _, u := range r.Users {
				re.Users = append(re.Users, u.User.ID)
				if u.ReactedAt == "" {
					t.Errorf("%s: no reactedAt", r.Emoji)
				}
			}
			if r.Count != len(r.Users) {
				t.Errorf("%s: count %d for %d users", r.Emoji, r.Count, len(r.Users))
			}
			out = append(out, re)
		}
		return out
	}
	check := func(got cmtOut, want ...reaction) {
		t.Helper()
		if want == nil {
			want = []reaction{}
		}
		if diff := cmp.Diff(want, reactions(got)); diff != "" {
			t.Errorf("reactions (-want +got):\n%s", diff)
		}
	}
	next()
	check(e.putComment(t, e.admin.token, path, map[string]any{"addedReactions": []string{"👍", "👍"}}), reaction{"👍", []string{e.admin.id}})
	next()
	check(e.putComment(t, e.admin.token, path, map[string]any{"addedReactions": []string{"👍"}}), reaction{"👍", []string{e.admin.id}})
	next()
	check(e.putComment(t, bob.token, path, map[string]any{"addedReactions": []string{"🎉", "👍"}}),
		reaction{"👍", []string{e.admin.id, bob.id}}, reaction{"🎉", []string{bob.id}})
	// Removing what one never added changes nothing; removing the last
	// reaction of an emoji drops it.
	next()
	check(e.putComment(t, e.admin.token, path, map[string]any{"removedReactions": []string{"🎉"}}),
		reaction{"👍", []string{e.admin.id, bob.id}}, reaction{"🎉", []string{bob.id}})
	next()
	check(e.putComment(t, bob.token, path, map[string]any{"removedReactions": []string{"🎉", "👍"}}), reaction{"👍", []string{e.admin.id}})
	// Added and removed at once: removed.
	next()
	check(e.putComment(t, bob.token, path, map[string]any{"addedReactions": []string{"🚀"}, "removedReactions": []string{"🚀"}}), reaction{"👍", []string{e.admin.id}})
	next()
	check(e.putComment(t, e.admin.token, path, map[string]any{"removedReactions": []string{"👍"}}))

	// Every kind of single emoji.
	kinds := []string{"❤️", "👋🏽", "👩🏽‍💻", "🏳️‍🌈", "🇫🇷", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👨‍👩‍👧‍👦", "©", "🫠"}
	got := e.putComment(t, bob.token, path, map[string]any{"addedReactions": kinds})
	var emoji []string
	for _, r := range got.Reactions {
		emoji = append(emoji, r.Emoji)
	}
	if len(emoji) != len(kinds) {
		t.Errorf("reactions %q, want %q", emoji, kinds)
	}
	// Replies take reactions too, and list them.
	reply := e.postComment(t, e.admin.token, path+"/replies", map[string]any{"body": md("Reply")})
	check(e.putComment(t, bob.token, path+"/replies/"+reply.ID, map[string]any{"addedReactions": []string{"👀"}}), reaction{"👀", []string{bob.id}})
	if l := e.listComments(t, bob.token, path+"/replies"); len(l.Items) != 1 || len(l.Items[0].Reactions) != 1 {
		t.Errorf("replies list lacks the reaction: %+v", l.Items)
	}
}

func TestCommentResolve(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	commenter := e.addUser(t, "comment", "Cora Commenter")
	other := e.addUser(t, "comment", "Otto Other")
	for _, p := range e.cmtPlaces(t) {
		t.Run(p.name, func(t *testing.T) {
			c := e.postComment(t, commenter.token, p.base, map[string]any{"body": md("Please fix")})
			path := p.base + "/" + c.ID
			before := e.openComments(t, p)

			// Anyone who may comment resolves; resolving again keeps the first resolution.
			first := e.putComment(t, other.token, path, map[string]any{"resolved": true})
			if first.Status != "resolved" || first.ResolvedBy == nil || first.ResolvedBy.ID != other.id || first.ResolvedAt == "" {
				t.Fatalf("resolved %+v", first)
			}
			again := e.putComment(t, e.admin.token, path, map[string]any{"resolved": true})
			if again.ResolvedBy.ID != other.id || again.ResolvedAt != first.ResolvedAt {
				t.Errorf("resolving again changed resolvedBy/At: %+v", again)
			}
			if got := e.openComments(t, p); got != before-1 {
				t.Errorf("open comments %d, want %d", got, before-1)
			}
			reopened := e.putComment(t, commenter.token, path, map[string]any{"resolved": false})
			if reopened.Status != "open" || reopened.ResolvedAt != "" || reopened.ResolvedBy != nil {
				t.Errorf("reopened %+v", reopened)
			}
			e.putComment(t, commenter.token, path, map[string]any{"resolved": false})
			if got := e.openComments(t, p); got != before {
				t.Errorf("open comments %d, want %d", got, before)
			}

			// A change request's replies resolve their thread; a space's may not.
			reply := e.postComment(t, other.token, path+"/replies", map[string]any{"body": md("Done")})
			res := e.call(t, other.token, "PUT", path+"/replies/"+reply.ID, map[string]any{"resolved": true})
			if p.cr == "" {
				res.wantError(t, http.StatusBadRequest, "resolved")
				return
			}
			res.want(t, http.StatusOK)
			if got := e.getComment(t, other.token, path); got.Status != "resolved" || got.ResolvedBy.ID != other.id {
				t.Errorf("thread after resolving from a reply: %+v", got)
			}
			e.putComment(t, other.token, path+"/replies/"+reply.ID, map[string]any{"resolved": false})
			if got := e.getComment(t, other.token, path); got.Status != "open" {
				t.Errorf("thread after reopening from a reply: %s", got.Status)
			}
		})
	}
}

// TestCommentAuthorship: only the author edits; the author and space
// admins delete.
func TestCommentAuthorship(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	author := e.addUser(t, "comment", "Ann Author")
	other := e.addUser(t, "create", "Cy Creator")
	spaceAdmin := e.addUser(t, "read", "Sam Spaceadmin")
	for _, p := range e.cmtPlaces(t) {
		t.Run(p.name, func(t *testing.T) {
			e.call(t, e.admin.token, "POST", "/v1/spaces/"+p.spaceID+"/permissions",
				map[string]any{"role": "admin", "users": []string{spaceAdmin.id}}).want(t, http.StatusNoContent)
			c := e.postComment(t, author.token, p.base, map[string]any{"body": md("Mine")})
			path := p.base + "/" + c.ID
			reply := e.postComment(t, author.token, path+"/replies", map[string]any{"body": md("Also mine")})
			replyPath := path + "/replies/" + reply.ID

			var scenarios []scenario
			for _, target := range []string{path, replyPath} {
				scenarios = append(scenarios,
					scenario{as: other, method: "PUT", path: target, body: map[string]any{"body": md("Theirs")}, status: http.StatusForbidden, errs: []string{"author"}},
					scenario{as: e.admin, method: "PUT", path: target, body: map[string]any{"body": md("Theirs")}, status: http.StatusForbidden, errs: []string{"author"}},
					scenario{as: other, path: target, want: []check{field("permissions.view", true), field("permissions.reply", true), zero("permissions.edit", "permissions.delete")}},
					scenario{as: other, method: "DELETE", path: target, status: http.StatusForbidden, errs: []string{"author"}},
					scenario{as: other, method: "PUT", path: target, body: map[string]any{"addedReactions": []string{"👍"}}},
				)
			}
			run(t, e, append(scenarios,
				scenario{name: "refused edits changed nothing", as: author, path: path, want: []check{field("body.markdown", "Mine"), zero("editedAt")}},
				// A space admin deletes the reply, then the comment.
				scenario{as: spaceAdmin, path: path, want: []check{field("permissions.delete", true), zero("permissions.edit")}},
				scenario{as: spaceAdmin, method: "DELETE", path: replyPath, status: http.StatusNoContent},
				scenario{as: spaceAdmin, method: "DELETE", path: path, status: http.StatusNoContent},
				scenario{as: author, path: path, status: http.StatusNotFound},
			))
		})
	}
}

func TestCommentFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	next := cmtClock(e)
	bob := e.addUser(t, "comment", "Bob Commenter")
	for _, p := range e.cmtPlaces(t) {
		t.Run(p.name, func(t *testing.T) {
			// c0 … c5, oldest first: on Guide (0, 3), Intro (1), none (2, 4, 5);
			// c1 and c4 resolved; bob wrote c2 and c3.
			var ids []string
			for i := range 6 {
				next()
				body := map[string]any{"body": md(fmt.Sprintf("Comment %d", i))}
				switch i {
				case 0, 3:
					body["page"] = p.pages["Guide"]
				case 1:
					body["page"] = p.pages["Intro"]
				}
				token := e.admin.token
				if i == 2 || i == 3 {
					token = bob.token
				}
				ids = append(ids, e.postComment(t, token, p.base, body).ID)
			}
			for _, i := range []int{1, 4} {
				e.putComment(t, e.admin.token, p.base+"/"+ids[i], map[string]any{"resolved": true})
			}
			e.postComment(t, bob.token, p.base+"/"+ids[0]+"/replies", map[string]any{"body": md("A reply is no comment")})
			pick := func(is ...int) []string {
				out := []string{}
				for _, i := range is {
					out = append(out, ids[i])
				}
				return out
			}
			list := func(query string, want []string) scenario {
				return scenario{path: p.base + query, want: []check{field("items.#.id", want), field("count", len(want)), absent("next")}}
			}
			run(t, e, []scenario{
				list("", pick(5, 4, 3, 2, 1, 0)),
				list("?status=all&order=desc", pick(5, 4, 3, 2, 1, 0)),
				list("?order=asc", pick(0, 1, 2, 3, 4, 5)),
				list("?status=open", pick(5, 3, 2, 0)),
				list("?status=resolved&order=asc", pick(1, 4)),
				list("?targetPage="+p.pages["Guide"], pick(3, 0)),
				list("?targetPage="+p.pages["Guide"]+"&status=resolved", pick()),
				list("?targetPage="+p.pages["Intro"]+"&status=resolved", pick(1)),
				list("?targetPage=nope", pick()),
				list("?authors="+bob.id, pick(3, 2)),
				list("?authors="+bob.id+"&authors="+e.admin.id+"&status=open", pick(5, 3, 2, 0)),
				list("?authors="+bob.id+","+e.admin.id+"&order=asc&status=resolved", pick(1, 4)),
			})
			// Pages of two, both ways, with the filters kept.
			for _, tt := range []struct {
				query string
				want  []string
			}{{"?limit=2", pick(5, 4, 3, 2, 1, 0)}, {"?limit=2&order=asc&status=open", pick(0, 2, 3, 5)}, {"?limit=5", pick(5, 4, 3, 2, 1, 0)}} {
				var got []string
				query := tt.query
				for n := 0; ; n++ {
					l := e.listComments(t, e.admin.token, p.base+query)
					if l.Count != len(tt.want) {
						t.Errorf("%s: count %d, want %d", query, l.Count, len(tt.want))
					}
					got = append(got, cmtIDs(l.Items)...)
					if l.Next == nil || n > 10 {
						break
					}
					query = tt.query + "&page=" + l.Next.Page
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s, page by page (-want +got):\n%s", tt.query, diff)
				}
			}
			if got := e.openComments(t, p); got != 4 {
				t.Errorf("open comments %d, want 4", got)
			}
		})
	}
}

// TestCommentCounts: the space counts the open comments on itself, a change
// request those on it; replies and resolved comments do not count.
func TestCommentCounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	places := e.cmtPlaces(t)
	space, cr := places[0], places[1]
	a := e.postComment(t, e.admin.token, space.base, map[string]any{"body": md("a")})
	b := e.postComment(t, e.admin.token, space.base, map[string]any{"body": md("b")})
	e.postComment(t, e.admin.token, space.base+"/"+a.ID+"/replies", map[string]any{"body": md("reply")})
	for range 3 {
		e.postComment(t, e.admin.token, cr.base, map[string]any{"body": md("c")})
	}
	if s, c := e.openComments(t, space), e.openComments(t, cr); s != 2 || c != 3 {
		t.Errorf("open comments: space %d, change request %d; want 2 and 3", s, c)
	}
	e.putComment(t, e.admin.token, space.base+"/"+b.ID, map[string]any{"resolved": true})
	e.call(t, e.admin.token, "DELETE", space.base+"/"+b.ID, nil).want(t, http.StatusNoContent)
	if s := e.openComments(t, space); s != 1 {
		t.Errorf("open comments after resolving and deleting b: %d, want 1", s)
	}
	e.call(t, e.admin.token, "DELETE", space.base+"/"+a.ID, nil).want(t, http.StatusNoContent)
	if s := e.openComments(t, space); s != 0 {
		t.Errorf("open comments after deleting a: %d, want 0", s)
	}
	var crs struct {
		Items []struct{ Comments int } `json:"items"`
	}
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+space.spaceID+"/change-requests?status=draft", nil).want(t, http.StatusOK).Decode(t, &crs)
	if len(crs.Items) != 1 || crs.Items[0].Comments != 3 {
		t.Errorf("change request list counts %+v, want 3 comments", crs.Items)
	}
	var spaces struct {
		Items []struct {
			ID       string
			Comments int
		} `json:"items"`
	}
	e.postComment(t, e.admin.token, space.base, map[string]any{"body": md("again")})
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/spaces", nil).want(t, http.StatusOK).Decode(t, &spaces)
	for _, s := range spaces.Items {
		if s.ID == space.spaceID && s.Comments != 1 {
			t.Errorf("space list: comments %d, want 1", s.Comments)
		}
	}
}

// TestCommentTargetPage: target.page follows the current content, and a
// page deleted since is outdated, described from the revision commented on.
func TestCommentTargetPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	places := e.cmtPlaces(t)
	space, cr := places[0], places[1]
	guide, intro := space.pages["Guide"], space.pages["Intro"]
	onGuide := e.postComment(t, e.admin.token, space.base, map[string]any{"page": guide, "body": md("On the guide")})
	onIntro := e.postComment(t, e.admin.token, space.base, map[string]any{"page": intro, "node": "n9", "body": md("On the intro")})
	crOnIntro := e.postComment(t, e.admin.token, cr.base, map[string]any{"page": intro, "body": md("On the intro, in the request")})

	// A page only in a change request is for its comments, not the space's.
	crPath := "/v1/spaces/" + space.spaceID + "/change-requests/" + cr.cr
	var batch cmBatchOut
	e.call(t, e.admin.token, "POST", crPath+"/content?compat=false", map[string]any{"changes": []map[string]any{
		insertPage("", "# Draft\n\nNew.\n"), cmUpdatePage(guide, "title", "Handbook"),
	}}).want(t, http.StatusOK).Decode(t, &batch)
	draft := batch.pageID(0)
	e.postComment(t, e.admin.token, cr.base, map[string]any{"page": draft, "body": md("On the draft")})
	e.call(t, e.admin.token, "POST", space.base, map[string]any{"page": draft, "body": md("x")}).wantError(t, http.StatusBadRequest, "page")

	// Delete Intro from the space's content and rename Guide.
	e.cmSeed(t, space.spaceID, cmDeletePage(intro), cmUpdatePage(guide, "title", "Manual", "slug", "manual"))
	got := e.getComment(t, e.admin.token, space.base+"/"+onGuide.ID)
	if diff := cmp.Diff(&cmtPage{ID: guide, Title: "Manual", Path: "manual"}, got.Target.Page); diff != "" {
		t.Errorf("renamed page (-want +got):\n%s", diff)
	}
	if got.Target.Revision != onGuide.Target.Revision {
		t.Errorf("revision commented on moved: %s, was %s", got.Target.Revision, onGuide.Target.Revision)
	}
	got = e.getComment(t, e.admin.token, space.base+"/"+onIntro.ID)
	if diff := cmp.Diff(&cmtPage{ID: intro, Title: "Intro", Path: "intro", Outdated: true}, got.Target.Page); diff != "" {
		t.Errorf("deleted page (-want +got):\n%s", diff)
	}
	if got.Target.Node == nil || got.Target.Node.ID != "n9" {
		t.Errorf("node %+v, want n9 kept", got.Target.Node)
	}
	l := e.listComments(t, e.admin.token, space.base+"?targetPage="+intro)
	if len(l.Items) != 1 || l.Items[0].Target.Page == nil || !l.Items[0].Target.Page.Outdated {
		t.Errorf("list on the deleted page: %+v", l.Items)
	}
	// The request's own content still holds Intro, and its Guide renamed.
	got = e.getComment(t, e.admin.token, cr.base+"/"+crOnIntro.ID)
	if got.Target.Page == nil || got.Target.Page.Outdated || got.Target.Page.Title != "Intro" {
		t.Errorf("change request comment's page %+v", got.Target.Page)
	}
	for _, c := range e.listComments(t, e.admin.token, cr.base).Items {
		if c.Target.Page == nil || c.Target.Page.Outdated || c.Target.Page.Title == "" {
			t.Errorf("change request comment's page %+v", c.Target.Page)
		}
	}
	// No page: no target.page.
	if got := e.postComment(t, e.admin.token, space.base, map[string]any{"body": md("General")}); got.Target.Page != nil || got.Target.Node != nil {
		t.Errorf("comment without a page has target %+v", got.Target)
	}
}

// TestCommentDocumentFormat: format=document answers bodies in the JSON
// document form, links resolved and mentions as mention nodes; markdown
// keeps the body as written.
func TestCommentDocumentFormat(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.cmtPlaces(t)[0]
	body := "See [the guide](/pages/" + p.pages["Guide"] + ") and ask @[Ada](user:" + e.admin.id + ").\n\n**Thanks**"
	c := e.postComment(t, e.admin.token, p.base, map[string]any{"body": md(body)})
	path := p.base + "/" + c.ID
	reply := e.postComment(t, e.admin.token, path+"/replies", map[string]any{"body": md("@[Ada](user:" + e.admin.id + ")")})

	for _, got := range []cmtOut{
		e.getComment(t, e.admin.token, path+"?format=document"),
		e.listComments(t, e.admin.token, p.base+"?format=document").Items[0],
	} {
		if got.Body.Markdown != nil || got.Body.Document == nil || got.Body.Document["object"] != "document" {
			t.Fatalf("document body %+v", got.Body)
		}
		if refs := refsIn(got.Body.Document, "link"); len(refs) != 1 || refs[0]["kind"] != "page" || refs[0]["page"] != p.pages["Guide"] {
			t.Errorf("links %v, want one to the guide page", refs)
		}
		if refs := refsIn(got.Body.Document, "mention"); len(refs) != 1 || refs[0]["kind"] != "user" || refs[0]["user"] != e.admin.id {
			t.Errorf("mentions %v, want one of the admin", refs)
		}
		texts := findNodes(got.Body.Document, func(n map[string]any) bool { return n["object"] == "leaf" })
		var all []string
		for _, n := range texts {
			all = append(all, n["text"].(string))
		}
		if joined := strings.Join(all, ""); strings.Contains(joined, "@") || !strings.Contains(joined, "and ask ") {
			t.Errorf("text %q: want the @ before a mention taken out", joined)
		}
	}
	for _, got := range []cmtOut{
		e.getComment(t, e.admin.token, path+"/replies/"+reply.ID+"?format=document"),
		e.listComments(t, e.admin.token, path+"/replies?format=document").Items[0],
	} {
		if refs := refsIn(got.Body.Document, "mention"); len(refs) != 1 {
			t.Errorf("reply mentions %v", refs)
		}
	}
	var posted cmtOut
	e.call(t, e.admin.token, "POST", path+"/replies?format=document", map[string]any{"body": md("Plain")}).want(t, http.StatusOK).Decode(t, &posted)
	if posted.Body.Document == nil {
		t.Errorf("POST replies?format=document: body %+v", posted.Body)
	}
	if got := e.getComment(t, e.admin.token, path+"?format=markdown"); got.Body.Markdown == nil || *got.Body.Markdown != body {
		t.Errorf("markdown body %+v, want it as written", got.Body)
	}
}

// TestCommentAccess is the 403/404 matrix of every operation: readers read
// and nothing more, people without access to the space (guests, outsiders)
// get 404, commenters do everything their own.
func TestCommentAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rita Reader")
	commenter := e.addUser(t, "comment", "Cora Commenter")
	guest := e.addUser(t, "guest", "Gil Guest")
	outsider := e.outsider(t)
	for _, p := range e.cmtPlaces(t) {
		t.Run(p.name, func(t *testing.T) {
			c := e.postComment(t, e.admin.token, p.base, map[string]any{"body": md("Hello")})
			reply := e.postComment(t, e.admin.token, p.base+"/"+c.ID+"/replies", map[string]any{"body": md("Hi")})
			path, replyPath := p.base+"/"+c.ID, p.base+"/"+c.ID+"/replies/"+reply.ID
			var scenarios []scenario
			for _, op := range []struct {
				method, path string
				body         any
				reader       int // what a reader gets
			}{
				{"GET", p.base, nil, http.StatusOK},
				{"POST", p.base, map[string]any{"body": md("x")}, http.StatusForbidden},
				{"GET", path, nil, http.StatusOK},
				{"PUT", path, map[string]any{"addedReactions": []string{"👍"}}, http.StatusForbidden},
				{"PUT", path, map[string]any{"resolved": true}, http.StatusForbidden},
				{"GET", path + "/replies", nil, http.StatusOK},
				{"POST", path + "/replies", map[string]any{"body": md("x")}, http.StatusForbidden},
				{"GET", replyPath, nil, http.StatusOK},
				{"PUT", replyPath, map[string]any{"addedReactions": []string{"👍"}}, http.StatusForbidden},
				{"DELETE", replyPath, nil, http.StatusForbidden},
				{"DELETE", path, nil, http.StatusForbidden},
			} {
				scenarios = append(scenarios, scenario{as: reader, method: op.method, path: op.path, body: op.body, status: op.reader})
				for _, u := range []user{guest, outsider} {
					scenarios = append(scenarios, scenario{as: u, method: op.method, path: op.path, body: op.body, status: http.StatusNotFound, errs: []string{"not found"}})
				}
			}
			var mine cmtOut
			run(t, e, append(scenarios,
				scenario{name: "reader's permissions", as: reader, path: path,
					want: []check{field("permissions.view", true), zero("permissions.edit", "permissions.reply", "permissions.delete")}},
				// The comment role is enough to post, reply, react and resolve.
				scenario{as: commenter, method: "POST", path: p.base, body: map[string]any{"body": md("Mine")}, want: []check{into(&mine)}},
				scenario{as: commenter, method: "POST", path: path + "/replies", body: map[string]any{"body": md("Reply")}},
				scenario{as: commenter, method: "PUT", path: path, body: map[string]any{"addedReactions": []string{"👍"}, "resolved": true}},
			))
			grant := func(role any) scenario {
				return scenario{method: "POST", path: "/v1/spaces/" + p.spaceID + "/permissions", body: map[string]any{"role": role, "users": []string{guest.id}}, status: http.StatusNoContent}
			}
			run(t, e, []scenario{
				{as: commenter, method: "DELETE", path: p.base + "/" + mine.ID, status: http.StatusNoContent},
				// A guest granted read on the space reads, and is refused the rest with 403.
				grant("read"),
				{as: guest, path: path},
				{as: guest, method: "POST", path: p.base, body: map[string]any{"body": md("x")}, status: http.StatusForbidden},
				grant(nil),
			})
		})
	}
	// A missing comment or reply is 404 for those who can see the space.
	p := e.cmtPlaces(t)[0]
	run(t, e, []scenario{
		{as: reader, path: p.base + "/nope", status: http.StatusNotFound},
		{as: reader, path: p.base + "/nope/replies", status: http.StatusNotFound},
		{as: reader, path: p.base + "/nope/replies/nope", status: http.StatusNotFound},
		{as: commenter, method: "POST", path: p.base + "/nope/replies", body: map[string]any{"body": md("x")}, status: http.StatusNotFound},
		{as: commenter, method: "PUT", path: p.base + "/nope", body: map[string]any{"resolved": true}, status: http.StatusNotFound},
	})
}

// TestCommentReactionsConcurrently: 20 goroutines adding and removing
// reactions on one comment leave one entry per emoji, each user once.
func TestCommentReactionsConcurrently(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.cmtPlaces(t)[1]
	c := e.postComment(t, e.admin.token, p.base, map[string]any{"body": md("Popular")})
	path := p.base + "/" + c.ID
	const n = 20
	users := make([]user, n)
	for i := range users {
		users[i] = e.addUser(t, "comment", fmt.Sprintf("Fan %02d", i))
	}
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Go(func() {
			for range 3 {
				for _, body := range []map[string]any{
					{"addedReactions": []string{"👍", "🎉"}},
					{"addedReactions": []string{"👍"}, "removedReactions": []string{"🎉"}},
				} {
					if res := e.call(t, u.token, "PUT", path, body); res.Status != http.StatusOK {
						t.Errorf("PUT: %d %s", res.Status, res.Body)
					}
				}
			}
			if i%2 == 0 { // the even ones end with no reaction
				if res := e.call(t, u.token, "PUT", path, map[string]any{"removedReactions": []string{"👍"}}); res.Status != http.StatusOK {
					t.Errorf("PUT: %d %s", res.Status, res.Body)
				}
			}
		})
	}
	wg.Wait()
	got := e.getComment(t, e.admin.token, path)
	if len(got.Reactions) != 1 || got.Reactions[0].Emoji != "👍" {
		t.Fatalf("reactions %+v, want 👍 alone", got.Reactions)
	}
	var who []string
	for _, u := range got.Reactions[0].Users {
		who = append(who, u.User.ID)
	}
	var want []string
	for i, u := range users {
		if i%2 == 1 {
			want = append(want, u.id)
		}
	}
	slices.Sort(who)
	slices.Sort(want)
	if diff := cmp.Diff(want, who); diff != "" || got.Reactions[0].Count != n/2 {
		t.Errorf("👍 count %d (-want +got users):\n%s", got.Reactions[0].Count, diff)
	}
}

// TestCommentLineEndings: a body written with CRLF line endings is kept
// with LF ones, as pages are.
func TestCommentLineEndings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.cmtPlaces(t)[0]
	c := e.postComment(t, e.admin.token, p.base, map[string]any{"body": map[string]any{"markdown": "One\r\nTwo\rThree"}})
	if got := e.getComment(t, e.admin.token, p.base+"/"+c.ID).Body.Markdown; got == nil || *got != "One\nTwo\nThree" {
		t.Errorf("body %v", got)
	}
}
