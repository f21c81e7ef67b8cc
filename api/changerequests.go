package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// changeRequest loads the space and the change request named in the path
// (by id or number), requiring need on the space.
func (s *Server) changeRequest(r *http.Request, need quire.Role) (*quire.Space, *quire.ChangeRequest, error) {
	sp, _, err := s.space(r, need)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.db.ChangeRequest(r.Context(), sp.ID, r.PathValue("changeRequestId"))
	return sp, c, err
}

func (s *Server) listChangeRequests(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.ChangeRequest], error) {
		f := store.ChangeRequestFilter{Status: quire.StatusOpen, Contributor: query(r).Get("contributor")}
		if q := query(r); q.Has("status") {
			st, ok := quire.ParseChangeRequestStatus(q.Get("status"))
			if !ok {
				return nil, errorf(quire.CodeInvalid, "status: must be draft, open, archived or merged")
			}
			f.Status = st
		}
		return s.db.ListChangeRequests(ctx, sp.ID, f, p)
	}, func(c *quire.ChangeRequest) wire.ChangeRequest { return s.wire.ChangeRequest(sp, c) })
}

// createChangeRequest opens a draft forked from the space's current content;
// proposing changes needs the edit role.
func (s *Server) createChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	var body wire.CreateChangeRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	subject := ""
	if body.Subject != nil {
		subject = *body.Subject
	}
	c, err := s.author.CreateChangeRequest(r.Context(), sp, subject, caller(r.Context()).ID)
	if err != nil {
		return err
	}
	out := s.wire.ChangeRequest(sp, c)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.ChangeRequest(sp, c))
}

func (s *Server) updateChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	var body wire.UpdateChangeRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if c, err = s.author.EditChangeRequest(r.Context(), sp, c, caller(r.Context()).ID,
		authoring.ChangeRequestEdit{Subject: body.Subject, Description: body.DescriptionMarkdown(), Status: body.NewStatus()}); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.ChangeRequest(sp, c))
}
