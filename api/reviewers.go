package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Requested reviewers (change-request-reviewers), contributors and
// commenters of change requests and spaces.

func (s *Server) listRequestedReviewers(w http.ResponseWriter, r *http.Request) error {
	_, c, err := s.changeRequest(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.RequestedReviewer], error) {
		return s.db.ListRequestedReviewers(ctx, c.ID, p)
	}, s.wire.RequestedReviewer)
}

// requestReviewers asks users to review; proposing changes (the edit role)
// includes asking for their review. Each user must be able to read the
// space, and the request's author cannot be asked.
func (s *Server) requestReviewers(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	var body wire.RequestReviewersForChangeRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	out, err := s.author.RequestReviewers(r.Context(), sp, c, caller(r.Context()).ID,
		authoring.ReviewRequest{Users: body.Users, Subject: body.Subject, Description: body.DescriptionMarkdown()})
	if err != nil {
		return err
	}
	items := make([]wire.RequestedReviewer, len(out))
	for i, w := range out {
		items[i] = s.wire.RequestedReviewer(w)
	}
	return writeJSON(w, http.StatusOK, map[string]any{"users": items})
}

// removeRequestedReviewer answers 205 when it withdrew the request and 204
// when there was none, as the reference has it.
func (s *Server) removeRequestedReviewer(w http.ResponseWriter, r *http.Request) error {
	_, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	removed, err := s.db.RemoveRequestedReviewer(r.Context(), c.ID, r.PathValue("userId"))
	if err != nil {
		return err
	}
	if removed {
		w.WriteHeader(http.StatusResetContent)
	} else {
		w.WriteHeader(http.StatusNoContent)
	}
	return nil
}

// listContributors lists who wrote the request's revisions (its creator
// among them); Quire records edits only, so actionType is always edit.
func (s *Server) listContributors(w http.ResponseWriter, r *http.Request) error {
	_, c, err := s.changeRequest(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.Contributor], error) {
		return s.db.ListContributors(ctx, c.ID, p)
	}, func(k *quire.Contributor) wire.Contributor {
		return wire.Contributor{UpdatedAt: wire.Time(k.UpdatedAt), Count: k.Edits, User: s.wire.User(&k.User), ActionType: "edit"}
	})
}

// listCommenters lists the organization's members who posted comments or
// replies in the place of the path: a change request, or the space itself
// (its own comments, not its change requests').
func (s *Server) listCommenters(w http.ResponseWriter, r *http.Request) error {
	p, err := s.commentPlace(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, pg store.Page) (*store.List[*quire.Member], error) {
		return s.db.ListCommenters(ctx, p.sp.OrgID, p.scope, pg)
	}, s.wire.Member)
}
