package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/edit"
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

// changeRequestCreateRequest is the body of POST S/change-requests.
type changeRequestCreateRequest struct {
	Subject *string `json:"subject"`
}

func (b *changeRequestCreateRequest) Validate() error {
	if b.Subject == nil {
		return nil
	}
	return quire.CheckChangeRequestSubject(*b.Subject)
}

// createChangeRequest opens a draft forked from the space's current content;
// proposing changes needs the edit role.
func (s *Server) createChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	var body changeRequestCreateRequest
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

// changeRequestUpdateRequest is the body of PATCH S/change-requests/{id}.
type changeRequestUpdateRequest struct {
	Subject     *string         `json:"subject"`
	Description json.RawMessage `json:"description"`
	Status      *string         `json:"status"`

	description *string // the description's markdown, once validated
}

func (b *changeRequestUpdateRequest) Validate() error {
	var err error
	if b.description, err = checkSubjectAndDescription(b.Subject, b.Description); err != nil {
		return err
	}
	if b.Status != nil {
		if st, ok := quire.ParseChangeRequestStatus(*b.Status); !ok || st == quire.StatusMerged {
			return errorf(quire.CodeInvalid, "status: must be draft, open or archived (merging is POST …/merge)")
		}
	}
	return nil
}

// checkSubjectAndDescription checks a change request's subject and
// description as PATCH CR and POST CR/requested-reviewers take them (either
// may be absent), and returns the description's markdown (nil if absent).
func checkSubjectAndDescription(subject *string, description json.RawMessage) (*string, error) {
	if subject != nil {
		if err := quire.CheckChangeRequestSubject(*subject); err != nil {
			return nil, err
		}
	}
	if description == nil {
		return nil, nil
	}
	md, err := descriptionMarkdown(description)
	if err != nil {
		return nil, err
	}
	return &md, nil
}

// descriptionMarkdown converts a PATCH's description, the reference's
// JSONDocument, to the markdown it is kept as, by the path of a page's
// document (edit.DocumentMarkdown): within the same bounds, refused with 400
// naming description. The reference does not allow null; a document with
// no nodes clears the description.
func descriptionMarkdown(raw json.RawMessage) (string, error) {
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) { // null included
		return "", errorf(quire.CodeInvalid, "description: must be a JSON document (one with no nodes clears it)")
	}
	doc, err := jsonDocument("description", raw)
	if err != nil {
		return "", err
	}
	return edit.DocumentMarkdown("description", doc)
}

// edit is what a validated b changes.
func (b *changeRequestUpdateRequest) edit() authoring.ChangeRequestEdit {
	u := authoring.ChangeRequestEdit{Subject: b.Subject, Description: b.description}
	if b.Status != nil {
		st, _ := quire.ParseChangeRequestStatus(*b.Status)
		u.Status = &st
	}
	return u
}

func (s *Server) updateChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	var body changeRequestUpdateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if c, err = s.author.EditChangeRequest(r.Context(), sp, c, caller(r.Context()).ID, body.edit()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.ChangeRequest(sp, c))
}
