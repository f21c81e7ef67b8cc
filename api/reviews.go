package api

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Reviews of change requests (the reference's change-requests-reviews):
// readers list and read them; users with the review role, or asked to
// review, submit them; the request's author may not review their own.

// reviewOut renders the reviews of one change request for one caller, with
// their comments as the request's comment list would show them.
type reviewOut struct {
	s        *Server
	place    *commentPlace
	comments map[string]json.RawMessage // by comment id
}

// reviewWriter prepares to render vs, reading their comments.
func (s *Server) reviewWriter(r *http.Request, sp *quire.Space, c *quire.ChangeRequest, role quire.Role, vs []*quire.Review) (*reviewOut, error) {
	o := &reviewOut{s: s, comments: map[string]json.RawMessage{},
		place: &commentPlace{sp: sp, cr: c, role: role, scope: store.CommentScope{SpaceID: sp.ID, ChangeRequestID: c.ID}}}
	var cs []*quire.Comment
	for _, v := range vs {
		if v.CommentID == "" {
			continue
		}
		k, err := s.db.Comment(r.Context(), o.place.scope, v.CommentID)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			continue // deleted since
		} else if err != nil {
			return nil, err
		}
		cs = append(cs, k)
	}
	if len(cs) == 0 {
		return o, nil
	}
	f, err := formatParams(r)
	if err != nil {
		return nil, err
	}
	out, err := s.commentWriter(r, o.place, f, cs)
	if err != nil {
		return nil, err
	}
	for _, k := range cs {
		o.comments[k.ID] = out.Append(nil, k, false)
	}
	return o, nil
}

func (o *reviewOut) json(v *quire.Review) wire.Review {
	return o.s.wire.Review(o.place.sp.ID, v, o.comments[v.CommentID])
}

// reviewPlace loads the space and change request in the path for a reader,
// with the caller's role on the space.
func (s *Server) reviewPlace(r *http.Request) (*quire.Space, *quire.ChangeRequest, quire.Role, error) {
	sp, role, err := s.space(r, quire.RoleRead)
	if err != nil {
		return nil, nil, "", err
	}
	c, err := s.db.ChangeRequest(r.Context(), sp.ID, r.PathValue("changeRequestId"))
	return sp, c, role, err
}

func (s *Server) listReviews(w http.ResponseWriter, r *http.Request) error {
	sp, c, role, err := s.reviewPlace(r)
	if err != nil {
		return err
	}
	if _, err := formatParams(r); err != nil {
		return err
	}
	outdated, err := optBoolParam(r, "outdated")
	if err != nil {
		return err
	}
	var o *reviewOut
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.Review], error) {
		l, err := s.db.ListReviews(ctx, c.ID, store.ReviewFilter{Outdated: outdated}, p)
		if err == nil {
			o, err = s.reviewWriter(r, sp, c, role, l.Items)
		}
		return l, err
	}, func(v *quire.Review) wire.Review { return o.json(v) })
}

func (s *Server) getReview(w http.ResponseWriter, r *http.Request) error {
	sp, c, role, err := s.reviewPlace(r)
	if err != nil {
		return err
	}
	v, err := s.db.Review(r.Context(), c.ID, r.PathValue("reviewId"))
	if err != nil {
		return err
	}
	o, err := s.reviewWriter(r, sp, c, role, []*quire.Review{v})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, o.json(v))
}

// submitReview records the caller's review. Reference: "Only users who are
// requested reviewers or have space review permissions can submit a
// review." The request's author may not review it: approving one's own
// change would satisfy review rules alone.
func (s *Server) submitReview(w http.ResponseWriter, r *http.Request) error {
	sp, c, role, err := s.reviewPlace(r)
	if err != nil {
		return err
	}
	me := caller(r.Context()).ID
	// Refused before the body is read; SubmitReview asks again.
	if err := s.author.CanReview(r.Context(), c, role, me); err != nil {
		return err
	}
	var body wire.SubmitChangeRequestReview
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	var review authoring.Review
	review.Status, review.Comment = body.Review()
	v, err := s.author.SubmitReview(r.Context(), sp, c, role, me, review)
	if err != nil {
		return err
	}
	o, err := s.reviewWriter(r, sp, c, role, []*quire.Review{v})
	if err != nil {
		return err
	}
	out := o.json(v)
	return writeCreated(w, out.URLs.Location, out)
}
