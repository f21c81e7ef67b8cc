package authoring_test

import (
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

// TestReviewRules: who may review a change request and who may be asked
// to, through the services the API and the app share: the review role or
// a request to review, never the request's author, judged when the review
// is written; a merged request takes no review, and keeps its status.
func TestReviewRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	reader, err := f.db.AddUser(ctx, f.space.OrgID, "rita@example.com", "Rita", quire.RoleRead)
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.author.CreateChangeRequest(ctx, f.space, "Fix", f.userID)
	if err != nil {
		t.Fatal(err)
	}
	approve := authoring.Review{Status: quire.ReviewApproved}

	tests := []struct {
		name string
		do   func() error
		code quire.Code // "" when allowed
	}{
		{"the author reviews", func() error {
			_, err := f.author.SubmitReview(ctx, f.space, c, quire.RoleAdmin, f.userID, approve)
			return err
		}, quire.CodeForbidden},
		{"a reader not asked reviews", func() error {
			_, err := f.author.SubmitReview(ctx, f.space, c, quire.RoleRead, reader.User.ID, approve)
			return err
		}, quire.CodeForbidden},
		{"the author is asked", func() error {
			_, err := f.author.RequestReviewers(ctx, f.space, c, f.userID, authoring.ReviewRequest{Users: []string{f.userID}})
			return err
		}, quire.CodeInvalid},
		{"a stranger is asked", func() error {
			_, err := f.author.RequestReviewers(ctx, f.space, c, f.userID, authoring.ReviewRequest{Users: []string{"nobody"}})
			return err
		}, quire.CodeInvalid},
		{"the reader is asked, twice", func() error {
			asked, err := f.author.RequestReviewers(ctx, f.space, c, f.userID, authoring.ReviewRequest{Users: []string{reader.User.ID, reader.User.ID}})
			if err == nil && len(asked) != 1 {
				t.Errorf("asked %d, want the reader once", len(asked))
			}
			return err
		}, ""},
		{"the reader asked reviews", func() error {
			v, err := f.author.SubmitReview(ctx, f.space, c, quire.RoleRead, reader.User.ID, approve)
			if err == nil && v.Status != quire.ReviewApproved {
				t.Errorf("review %+v", v)
			}
			return err
		}, ""},
		{"the request withdrawn after the check, then the review", func() error {
			if err := f.author.CanReview(ctx, c, quire.RoleRead, reader.User.ID); err != nil {
				t.Fatalf("asked reader: %v", err)
			}
			if _, err := f.db.RemoveRequestedReviewer(ctx, c.ID, reader.User.ID); err != nil {
				t.Fatal(err)
			}
			_, err := f.author.SubmitReview(ctx, f.space, c, quire.RoleRead, reader.User.ID, approve)
			return err
		}, quire.CodeForbidden},
		{"merged, then reviewed", func() error {
			merged, err := f.author.Merge(ctx, f.space, c, authoring.Actor{User: f.user, Role: quire.RoleAdmin})
			if err != nil {
				t.Fatalf("merge: %v", err)
			}
			c = merged
			_, err = f.author.SubmitReview(ctx, f.space, c, quire.RoleReview, reader.User.ID, approve)
			return err
		}, quire.CodeInvalid},
		{"merged, then archived", func() error {
			archived := quire.StatusArchived
			_, err := f.author.EditChangeRequest(ctx, f.space, c, f.userID, authoring.ChangeRequestEdit{Status: &archived})
			return err
		}, quire.CodeInvalid},
	}
	for _, tt := range tests { // in order: each builds on the last
		err := tt.do()
		if tt.code == "" && err != nil || tt.code != "" && quire.ErrorCode(err) != tt.code {
			t.Errorf("%s: %v, want code %q", tt.name, err, tt.code)
		}
	}
}
