package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/wire"
)

// MaxBatchBytes bounds a POST CR/content body: 50 changes, files inline
// as base64 (1 MiB each once decoded).
const MaxBatchBytes = 32 << 20

// editChangeRequestContent applies an authoring batch as one new revision
// of the change request (authoring.Author.Apply).
func (s *Server) editChangeRequestContent(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.editableChangeRequest(r)
	if err != nil {
		return err
	}
	compat, err := boolParam(r, "compat", true)
	if err != nil {
		return err
	}
	body, err := readBody(w, r, MaxBatchBytes)
	if err != nil {
		return err
	}
	if body == nil {
		return errorf(quire.CodeInvalid, "changes: required")
	}
	changes, err := edit.Parse(body)
	if err != nil {
		return err
	}
	c, result, err := s.author.Apply(r.Context(), sp, c, caller(r.Context()).ID, changes)
	if err != nil {
		return retryAfter(w, err)
	}
	if compat {
		return writeJSON(w, http.StatusOK, s.wire.ChangeRequest(sp, c))
	}
	l, err := s.links(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, l.BatchResult(sp, c, result))
}

// editableChangeRequest is changeRequest for edits of its content: the edit
// role, and a space that is not locked.
func (s *Server) editableChangeRequest(r *http.Request) (*quire.Space, *quire.ChangeRequest, error) {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err == nil {
		err = quire.CheckEditable(sp)
	}
	return sp, c, err
}

// mergeChangeRequest merges a request into its space; it needs the review
// role (the reference's merge permission). authoring.Author.Merge finds
// the request (404), checks that the space is not locked, the request not
// merged and the merge rules met, all in the merge's transaction.
func (s *Server) mergeChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, role, err := s.space(r, quire.RoleReview)
	if err != nil {
		return err
	}
	c, err := s.db.ChangeRequest(r.Context(), sp.ID, r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	me := caller(r.Context())
	c, err = s.author.Merge(r.Context(), sp, c, authoring.Actor{User: me, Role: role})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.MergeResult{Revision: c.RevisionMerged, Result: "merge"})
}

// updateChangeRequestFromSpace pulls the space's content into a request.
func (s *Server) updateChangeRequestFromSpace(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.editableChangeRequest(r)
	if err != nil {
		return err
	}
	if c, err = s.author.Update(r.Context(), sp, c, caller(r.Context()).ID); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.MergeResult{Revision: c.RevisionID, Result: "update"})
}
