package app

import (
	"context"
	"slices"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// What people say on a change request: comment threads and reviews.

// crComment is a thread of a change request: the comment, its replies and
// its reactions.
type crComment struct {
	commentView
	Reactions []reactionView
}

type reactionView struct {
	Emoji string
	Count int
	Mine  bool
}

// reactionChoices are the reactions the page offers.
var reactionChoices = []string{"👍", "🎉", "❤️", "👀"}

// crComments are p's comment threads, oldest first, with their replies.
func (s *Server) crComments(ctx context.Context, p *crPlace) ([]crComment, error) {
	scope := p.scope()
	list, err := s.db.ListComments(ctx, scope, store.CommentFilter{Asc: true}, store.Page{Limit: maxComments})
	if err != nil {
		return nil, err
	}
	out := make([]crComment, 0, len(list.Items))
	for _, c := range list.Items {
		cv := crComment{commentView: commentOf(c, list.Users), Reactions: reactionsOf(c, p.me.ID)}
		if c.Replies > 0 {
			replies, err := s.db.ListCommentReplies(ctx, scope, c.ID, store.Page{Limit: maxComments})
			if err != nil {
				return nil, err
			}
			for _, rp := range replies.Items {
				cv.Replies = append(cv.Replies, commentOf(rp, replies.Users))
			}
		}
		out = append(out, cv)
	}
	return out, nil
}

// reactionsOf counts c's reactions, each of reactionChoices first.
func reactionsOf(c *quire.Comment, me string) []reactionView {
	out := make([]reactionView, 0, len(reactionChoices))
	for _, e := range reactionChoices {
		out = append(out, reactionView{Emoji: e})
	}
	for _, r := range c.Reactions {
		i := slices.IndexFunc(out, func(v reactionView) bool { return v.Emoji == r.Emoji })
		if i < 0 {
			i = len(out)
			out = append(out, reactionView{Emoji: r.Emoji})
		}
		out[i].Count = len(r.Users)
		out[i].Mine = slices.ContainsFunc(r.Users, func(u quire.Reactor) bool { return u.User.ID == me })
	}
	return out
}

// reviewView is a review as the page shows it.
type reviewView struct {
	Reviewer, Status string
	Approved         bool
	Outdated         bool
	When             time.Time
}

// reviewerView is a requested reviewer.
type reviewerView struct {
	ID, Name, By string
	When         time.Time
}

// fillReviews reads p's reviews, its requested reviewers and, for who may
// ask for reviews, the members who could be asked.
func (s *Server) fillReviews(ctx context.Context, p *crPlace, d *crData) error {
	reviews, err := s.db.ListReviews(ctx, p.cr.ID, store.ReviewFilter{}, store.Page{Limit: maxComments})
	if err != nil {
		return err
	}
	for _, v := range reviews.Items {
		d.Reviews = append(d.Reviews, reviewView{Reviewer: v.Reviewer.DisplayName, Status: string(v.Status),
			Approved: v.Status == quire.ReviewApproved, Outdated: v.Outdated, When: v.UpdatedAt})
	}
	asked, err := s.db.ListRequestedReviewers(ctx, p.cr.ID, store.Page{Limit: maxComments})
	if err != nil {
		return err
	}
	for _, a := range asked.Items {
		d.Requested = append(d.Requested, reviewerView{ID: a.User.ID, Name: a.User.DisplayName, By: a.RequestedBy.DisplayName, When: a.CreatedAt})
	}
	if !p.role.AtLeast(quire.RoleEdit) {
		return nil
	}
	members, err := s.db.ListMembers(ctx, p.sp.OrgID, store.MemberFilter{}, store.Page{Limit: maxReviewerChoices})
	if err != nil {
		return err
	}
	for _, m := range members.Items {
		if m.User.ID != p.cr.CreatedBy.ID && !m.Disabled && !isRequested(d.Requested, m.User.ID) {
			d.Choices = append(d.Choices, link{Title: m.User.DisplayName, URL: m.User.ID})
		}
	}
	return nil
}

func isRequested(rs []reviewerView, id string) bool {
	return slices.ContainsFunc(rs, func(r reviewerView) bool { return r.ID == id })
}
