package store_test

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// commentStore opens a fresh store with a space, a change request in it, a
// user, and a raw handle on the database.
func commentStore(t *testing.T) (db *store.DB, raw *sql.DB, sp *quire.Space, c *quire.ChangeRequest, userID string) {
	t.Helper()
	db, raw, _, _ = openRaw(t)
	sp, userID = docsSpace(t, db)
	c, err := db.CreateChangeRequest(t.Context(), sp.ID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	return db, raw, sp, c, userID
}

// checkCommentCounts compares the kept counts of each scope, as spaces and
// change requests read them, with counts of the comment rows.
func checkCommentCounts(t *testing.T, db *store.DB, raw *sql.DB, scopes ...store.CommentScope) {
	t.Helper()
	ctx := t.Context()
	for _, s := range scopes {
		var all, open int
		err := raw.QueryRowContext(ctx, rebind(db, `SELECT COUNT(*), COUNT(*) - COUNT(resolved_at) FROM comments
			WHERE space_id = ? AND change_request_id = ? AND parent_id IS NULL`), s.SpaceID, s.ChangeRequestID).Scan(&all, &open)
		if err != nil {
			t.Fatal(err)
		}
		var kept int
		if s.ChangeRequestID == "" {
			sp, err := db.Space(ctx, s.SpaceID)
			if err != nil {
				t.Fatal(err)
			}
			kept = sp.Comments
		} else {
			c, err := db.ChangeRequest(ctx, s.SpaceID, s.ChangeRequestID)
			if err != nil {
				t.Fatal(err)
			}
			kept = c.Comments
		}
		if kept != open {
			t.Errorf("%+v: %d open comments kept, %d in the table", s, kept, open)
		}
		for status, want := range map[quire.CommentStatus]int{"": all, quire.CommentOpen: open, quire.CommentResolved: all - open} {
			list, err := db.ListComments(ctx, s, store.CommentFilter{Status: status}, store.Page{Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if list.Count != want || len(list.Items) != want {
				t.Errorf("%+v, status %q: count %d for %d items, want %d", s, status, list.Count, len(list.Items), want)
			}
		}
	}
}

func rebind(db *store.DB, q string) string {
	if db.Dialect() != "postgres" {
		return q
	}
	out, n := []byte{}, 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			out = fmt.Appendf(out, "$%d", n)
			continue
		}
		out = append(out, q[i])
	}
	return string(out)
}

// checkCommentSummaries compares each comment's replies, repliers and
// reactions with the rows behind them.
func checkCommentSummaries(t *testing.T, db *store.DB, raw *sql.DB, scopes ...store.CommentScope) {
	t.Helper()
	ctx := t.Context()
	for _, s := range scopes {
		list, err := db.ListComments(ctx, s, store.CommentFilter{}, store.Page{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range list.Items {
			var replies, reactions int
			if err := raw.QueryRowContext(ctx, rebind(db, "SELECT COUNT(*) FROM comments WHERE parent_id = ?"), c.ID).Scan(&replies); err != nil {
				t.Fatal(err)
			}
			if err := raw.QueryRowContext(ctx, rebind(db, "SELECT COUNT(*) FROM comment_reactions WHERE comment_id = ?"), c.ID).Scan(&reactions); err != nil {
				t.Fatal(err)
			}
			byRepliers, byReactions := 0, 0
			for _, rp := range c.Repliers {
				byRepliers += rp.Count
			}
			for _, re := range c.Reactions {
				byReactions += len(re.Users)
			}
			if c.Replies != replies || byRepliers != replies || byReactions != reactions {
				t.Errorf("comment %s: replies %d, by repliers %d, reactions %d; the rows hold %d replies and %d reactions",
					c.ID, c.Replies, byRepliers, byReactions, replies, reactions)
			}
		}
	}
}

// TestCommentCountsStayTrue runs random posts, replies, reactions,
// resolutions and deletions, then concurrent ones on the same comments, and
// checks that the kept counts and summaries match the rows.
func TestCommentCountsStayTrue(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, raw, sp, c, userID := commentStore(t)
	scopes := []store.CommentScope{{SpaceID: sp.ID}, {SpaceID: sp.ID, ChangeRequestID: c.ID}}
	rng := rand.New(rand.NewPCG(1, 2))
	live := map[store.CommentScope][]*quire.Comment{}
	for range 200 {
		s := scopes[rng.IntN(2)]
		cs := live[s]
		switch op := rng.IntN(10); {
		case op < 4 || len(cs) == 0:
			cm, err := db.CreateComment(ctx, store.NewComment{CommentScope: s, UserID: userID, Markdown: "x", RevisionID: sp.RevisionID})
			if err != nil {
				t.Fatal(err)
			}
			live[s] = append(cs, cm)
		case op < 5:
			if _, err := db.CreateComment(ctx, store.NewComment{CommentScope: s, ParentID: cs[rng.IntN(len(cs))].ID, UserID: userID, Markdown: "r"}); err != nil {
				t.Fatal(err)
			}
		case op < 6:
			u := store.CommentUpdate{AddReactions: []string{"👍"}}
			if rng.IntN(2) == 0 {
				u = store.CommentUpdate{RemoveReactions: []string{"👍"}}
			}
			if _, err := db.UpdateComment(ctx, s, cs[rng.IntN(len(cs))], userID, u); err != nil {
				t.Fatal(err)
			}
		case op < 9:
			resolved := rng.IntN(2) == 0
			if _, err := db.UpdateComment(ctx, s, cs[rng.IntN(len(cs))], userID, store.CommentUpdate{Resolved: &resolved}); err != nil {
				t.Fatal(err)
			}
		default:
			i := rng.IntN(len(cs))
			if err := db.DeleteComment(ctx, s, cs[i]); err != nil {
				t.Fatal(err)
			}
			live[s] = slices.Delete(cs, i, i+1)
		}
	}
	checkCommentCounts(t, db, raw, scopes...)
	checkCommentSummaries(t, db, raw, scopes...)

	// Concurrently: each comment is resolved, reopened and resolved again,
	// replied to and reacted to by several writers, and half of them
	// deleted while that goes on.
	var wg sync.WaitGroup
	for _, s := range scopes {
		for i, cm := range live[s] {
			for w := range 3 {
				wg.Go(func() {
					for _, resolved := range []bool{true, false, true} {
						_, err := db.UpdateComment(ctx, s, cm, userID, store.CommentUpdate{Resolved: &resolved})
						if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
							t.Errorf("resolve: %v", err)
						}
						_, err = db.CreateComment(ctx, store.NewComment{CommentScope: s, ParentID: cm.ID, UserID: userID, Markdown: "r"})
						if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
							t.Errorf("reply: %v", err)
						}
						u := store.CommentUpdate{AddReactions: []string{"🎉", "👍"}, RemoveReactions: []string{"👍"}}
						if resolved {
							u = store.CommentUpdate{RemoveReactions: []string{"🎉"}, AddReactions: []string{"👍"}}
						}
						_, err = db.UpdateComment(ctx, s, cm, userID, u)
						if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
							t.Errorf("react: %v", err)
						}
					}
					if i%2 == 0 && w == 0 {
						if err := db.DeleteComment(ctx, s, cm); err != nil {
							t.Errorf("delete: %v", err)
						}
					}
				})
			}
		}
	}
	wg.Wait()
	checkCommentCounts(t, db, raw, scopes...)
	checkCommentSummaries(t, db, raw, scopes...)
}

// TestListCommentsKeyset pages through comments that share their times,
// both ways: each comes once, in (postedAt, id) order.
func TestListCommentsKeyset(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, _, sp, _, userID := commentStore(t)
	s := store.CommentScope{SpaceID: sp.ID}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var want []string
	err := db.Tx(ctx, func(tx *store.Tx) error {
		for i := range 25 {
			tx.Now = base.Add(time.Duration(i/5) * time.Second) // five comments per second
			id, err := tx.CreateComment(ctx, store.NewComment{CommentScope: s, UserID: userID, Markdown: fmt.Sprint(i), RevisionID: sp.RevisionID})
			if err != nil {
				return err
			}
			want = append(want, fmt.Sprintf("%d/%s", i/5, id))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want) // by second, then id
	for _, asc := range []bool{true, false} {
		var got []string
		p := store.Page{Limit: 4}
		for range 10 {
			list, err := db.ListComments(ctx, s, store.CommentFilter{Asc: asc}, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range list.Items {
				got = append(got, fmt.Sprintf("%d/%s", int(c.PostedAt.Sub(base).Seconds()), c.ID))
			}
			if list.Next == nil {
				break
			}
			p.After = list.Next
		}
		w := slices.Clone(want)
		if !asc {
			slices.Reverse(w)
		}
		if !slices.Equal(w, got) {
			t.Errorf("asc=%v: pages gave\n%v\nwant\n%v", asc, got, w)
		}
	}
}

// TestDeleteCommentCascades: deleting a comment takes its replies and every
// reaction with it; purging its space takes all comments and counts.
func TestDeleteCommentCascades(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, raw, sp, c, userID := commentStore(t)
	count := func(table string) int {
		var n int
		if err := raw.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, s := range []store.CommentScope{{SpaceID: sp.ID}, {SpaceID: sp.ID, ChangeRequestID: c.ID}} {
		cm, err := db.CreateComment(ctx, store.NewComment{CommentScope: s, UserID: userID, Markdown: "x", RevisionID: sp.RevisionID})
		if err != nil {
			t.Fatal(err)
		}
		reply, err := db.CreateComment(ctx, store.NewComment{CommentScope: s, ParentID: cm.ID, UserID: userID, Markdown: "r"})
		if err != nil {
			t.Fatal(err)
		}
		// A reply answers a comment, not a reply, and only in its scope.
		_, err = db.CreateComment(ctx, store.NewComment{CommentScope: s, ParentID: reply.ID, UserID: userID, Markdown: "r"})
		wantCode(t, err, quire.CodeNotFound)
		_, err = db.CreateComment(ctx, store.NewComment{CommentScope: store.CommentScope{SpaceID: sp.ID, ChangeRequestID: "other"}, ParentID: cm.ID, UserID: userID, Markdown: "r"})
		wantCode(t, err, quire.CodeNotFound)
		for _, target := range []*quire.Comment{cm, reply} {
			if _, err := db.UpdateComment(ctx, s, target, userID, store.CommentUpdate{AddReactions: []string{"👍"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := count("comment_reactions"); n != 4 {
		t.Fatalf("%d reactions, want 4", n)
	}
	list, err := db.ListComments(ctx, store.CommentScope{SpaceID: sp.ID}, store.CommentFilter{}, store.Page{Limit: 10})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("list: %v, %v", list, err)
	}
	cm := list.Items[0]
	if cm.Replies != 1 || len(cm.Repliers) != 1 || cm.Repliers[0].User.ID != userID || len(cm.Reactions) != 1 {
		t.Errorf("listed comment: replies %d, repliers %+v, reactions %+v", cm.Replies, cm.Repliers, cm.Reactions)
	}
	if err := db.DeleteComment(ctx, store.CommentScope{SpaceID: sp.ID}, cm); err != nil {
		t.Fatal(err)
	}
	if n, r := count("comments"), count("comment_reactions"); n != 2 || r != 2 {
		t.Errorf("after deleting a comment: %d comment rows and %d reactions, want 2 and 2", n, r)
	}
	// Deleting again is nothing.
	if err := db.DeleteComment(ctx, store.CommentScope{SpaceID: sp.ID}, cm); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSpace(ctx, sp.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PurgeDeleted(ctx, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"comments", "comment_reactions", "comment_counts"} {
		if n := count(table); n != 0 {
			t.Errorf("%s has %d rows after the space was purged", table, n)
		}
	}
}

// TestListCommentsAcrossServers lists comments through one store, which
// keeps the rows it read, while another store on the same database edits,
// reacts to, replies to, resolves and deletes them: every list shows every
// change at once.
func TestListCommentsAcrossServers(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, _, url, dir := openRaw(t)
	sp, me := docsSpace(t, db)
	other, err := store.Open(ctx, url, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	s := store.CommentScope{SpaceID: sp.ID}
	cm, err := other.CreateComment(ctx, store.NewComment{CommentScope: s, UserID: me, Markdown: "first"})
	if err != nil {
		t.Fatal(err)
	}
	listed := func() *quire.Comment {
		t.Helper()
		list, err := db.ListComments(ctx, s, store.CommentFilter{}, store.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) == 0 {
			return nil
		}
		c := list.Items[0]
		if u, ok := list.Users[c.PostedBy.ID]; !ok || u.DisplayName != "Ada" {
			t.Errorf("list users: %+v, want the author Ada", list.Users)
		}
		return c
	}
	update := func(u store.CommentUpdate) {
		t.Helper()
		if _, err := other.UpdateComment(ctx, s, cm, me, u); err != nil {
			t.Fatal(err)
		}
	}
	if c := listed(); c == nil || c.Markdown != "first" {
		t.Fatalf("listed %+v, want the first body", c)
	}
	edited := "second"
	update(store.CommentUpdate{Markdown: &edited})
	if c := listed(); c.Markdown != "second" || c.EditedAt.IsZero() {
		t.Errorf("after an edit elsewhere: %q edited %v", c.Markdown, c.EditedAt)
	}
	update(store.CommentUpdate{AddReactions: []string{"👍"}})
	if c := listed(); len(c.Reactions) != 1 || c.Reactions[0].Users[0].User.ID != me {
		t.Errorf("after a reaction elsewhere: %+v", c.Reactions)
	}
	if _, err := other.CreateComment(ctx, store.NewComment{CommentScope: s, ParentID: cm.ID, UserID: me, Markdown: "reply"}); err != nil {
		t.Fatal(err)
	}
	if c := listed(); c.Replies != 1 || len(c.Repliers) != 1 {
		t.Errorf("after a reply elsewhere: %d replies, repliers %+v", c.Replies, c.Repliers)
	}
	resolved := true
	update(store.CommentUpdate{Resolved: &resolved})
	if c := listed(); c.Status() != quire.CommentResolved || c.ResolvedBy.ID != me {
		t.Errorf("after resolving elsewhere: %s by %q", c.Status(), c.ResolvedBy.ID)
	}
	resolved = false
	update(store.CommentUpdate{Resolved: &resolved})
	if c := listed(); c.Status() != quire.CommentOpen {
		t.Errorf("after reopening elsewhere: %s", c.Status())
	}
	if err := other.DeleteComment(ctx, s, cm); err != nil {
		t.Fatal(err)
	}
	if c := listed(); c != nil {
		t.Errorf("after deleting elsewhere, listed %+v", c)
	}
}
