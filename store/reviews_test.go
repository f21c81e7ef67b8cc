package store_test

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// reviewStore is commentStore with two more members, vic and val, of the
// review role.
func reviewStore(t *testing.T) (db *store.DB, sp *quire.Space, c *quire.ChangeRequest, author, vic, val string) {
	t.Helper()
	db, _, sp, c, author = commentStore(t)
	add := func(email string) string {
		b, err := db.AddUser(t.Context(), sp.OrgID, email, email, quire.RoleReview)
		if err != nil {
			t.Fatal(err)
		}
		return b.User.ID
	}
	return db, sp, c, author, add("vic@example.com"), add("val@example.com")
}

func TestReviewsStore(t *testing.T) {
	t.Parallel()
	db, sp, c, author, vic, val := reviewStore(t)
	ctx := t.Context()

	// A review with a comment posts it in the request's comments.
	first, err := db.SubmitReview(ctx, store.NewReview{SpaceID: sp.ID, ChangeRequest: c.ID, ReviewerID: vic, Status: quire.ReviewApproved, Comment: "Fine."})
	if err != nil {
		t.Fatal(err)
	}
	if first.CommentID == "" || first.RequestedBy != nil || first.Outdated || first.RevisionID != c.RevisionID {
		t.Errorf("first review %+v", first)
	}
	if k, err := db.Comment(ctx, store.CommentScope{SpaceID: sp.ID, ChangeRequestID: c.ID}, first.CommentID); err != nil || k.Markdown != "Fine." {
		t.Errorf("review comment %+v, %v", k, err)
	}

	// Asking vic again outdates the review; their next review names who asked.
	asked, err := db.RequestReviewers(ctx, sp.ID, c.ID, author, []string{vic, val}, nil, nil)
	if err != nil || len(asked) != 2 || asked[0].User.ID != vic || asked[1].RequestedBy.ID != author {
		t.Fatalf("RequestReviewers = %+v, %v", asked, err)
	}
	if ok, err := db.RequestedReviewer(ctx, c.ID, val); err != nil || !ok {
		t.Errorf("val asked: %v, %v", ok, err)
	}
	second, err := db.SubmitReview(ctx, store.NewReview{SpaceID: sp.ID, ChangeRequest: "1", ReviewerID: vic, Status: quire.ReviewChangesRequested})
	if err != nil {
		t.Fatal(err)
	}
	if second.RequestedBy == nil || second.RequestedBy.ID != author || second.CommentID != "" {
		t.Errorf("second review %+v", second)
	}
	if v, err := db.Review(ctx, c.ID, first.ID); err != nil || !v.Outdated {
		t.Errorf("first review after asking again: %+v, %v", v, err)
	}
	current, err := db.CurrentReviews(ctx, c.ID)
	if err != nil || len(current) != 1 || current[0].ID != second.ID {
		t.Errorf("CurrentReviews = %+v, %v", current, err)
	}
	no := false
	list, err := db.ListReviews(ctx, c.ID, store.ReviewFilter{Outdated: &no}, store.Page{Limit: 10})
	if err != nil || list.Count != 1 || list.Items[0].ID != second.ID {
		t.Errorf("ListReviews(outdated=false) = %+v, %v", list, err)
	}
	all, err := db.ListReviews(ctx, c.ID, store.ReviewFilter{}, store.Page{Limit: 1})
	if err != nil || all.Count != 2 || len(all.Items) != 1 || all.Next == nil {
		t.Errorf("ListReviews page 1 = %+v, %v", all, err)
	}

	// Withdrawing a request.
	for _, want := range []bool{true, false} {
		if removed, err := db.RemoveRequestedReviewer(ctx, c.ID, val); err != nil || removed != want {
			t.Errorf("RemoveRequestedReviewer = %v, %v; want %v", removed, err, want)
		}
	}
	reviewers, err := db.ListRequestedReviewers(ctx, c.ID, store.Page{Limit: 10})
	if err != nil || reviewers.Count != 1 || reviewers.Items[0].User.ID != vic {
		t.Errorf("ListRequestedReviewers = %+v, %v", reviewers, err)
	}

	// Merged requests take no reviews.
	if _, err := db.MergeChangeRequest(ctx, sp.ID, c.ID, author); err != nil {
		t.Fatal(err)
	}
	_, err = db.SubmitReview(ctx, store.NewReview{SpaceID: sp.ID, ChangeRequest: c.ID, ReviewerID: val, Status: quire.ReviewApproved})
	wantCode(t, err, quire.CodeInvalid)
	_, err = db.RequestReviewers(ctx, sp.ID, c.ID, author, []string{val}, nil, nil)
	wantCode(t, err, quire.CodeInvalid)
}

// TestContributorsAndCommenters: contributors count the revisions each
// wrote; commenters are the members who posted in a scope.
func TestContributorsAndCommenters(t *testing.T) {
	t.Parallel()
	db, sp, c, author, vic, val := reviewStore(t)
	ctx := t.Context()
	if _, err := db.SubmitReview(ctx, store.NewReview{SpaceID: sp.ID, ChangeRequest: c.ID, ReviewerID: vic, Status: quire.ReviewApproved, Comment: "Fine."}); err != nil {
		t.Fatal(err)
	}
	edit := func(now time.Time, head *content.Tree) (*content.Tree, error) { return head, nil }
	for _, u := range []string{val, val, author} {
		if _, err := db.EditChangeRequest(ctx, sp.ID, c.ID, u, edit); err != nil {
			t.Fatal(err)
		}
	}
	ks, err := db.ListContributors(ctx, c.ID, store.Page{Limit: 10})
	if err != nil || ks.Count != 2 {
		t.Fatalf("ListContributors = %+v, %v", ks, err)
	}
	counts := map[string]int{}
	for _, k := range ks.Items {
		counts[k.User.ID] = k.Edits
	}
	if counts[val] != 2 || counts[author] != 1 {
		t.Errorf("contributions %v", counts)
	}

	// Commenters: the request's (vic, by the review's comment), not the space's.
	for _, tc := range []struct {
		scope store.CommentScope
		want  []string
	}{{store.CommentScope{SpaceID: sp.ID, ChangeRequestID: c.ID}, []string{vic}}, {store.CommentScope{SpaceID: sp.ID}, nil}} {
		l, err := db.ListCommenters(ctx, sp.OrgID, tc.scope, store.Page{Limit: 10})
		if err != nil || l.Count != len(tc.want) || (len(tc.want) > 0 && l.Items[0].User.ID != tc.want[0]) {
			t.Errorf("ListCommenters(%+v) = %+v, %v", tc.scope, l, err)
		}
	}

}

// TestSpaceMergeRules: a space's merge rules are kept and read back.
func TestSpaceMergeRules(t *testing.T) {
	t.Parallel()
	db, _, sp, _, _ := commentStore(t)
	if string(sp.MergeRules) != `{"type":"inherit"}` {
		t.Errorf("new space's merge rules %s", sp.MergeRules)
	}
	rules := `{"type":"rules","rules":[{"rule":"require_at_least_one_review"}]}`
	got, err := db.UpdateSpace(t.Context(), sp.ID, store.SpaceUpdate{MergeRules: []byte(rules)})
	if err != nil || string(got.MergeRules) != rules {
		t.Errorf("UpdateSpace = %s, %v", got.MergeRules, err)
	}
	// A duplicate keeps them, as it keeps the space's other settings.
	if dup, err := db.DuplicateSpace(t.Context(), sp.ID); err != nil || string(dup.MergeRules) != rules {
		t.Errorf("DuplicateSpace = %+v, %v", dup, err)
	}
}
