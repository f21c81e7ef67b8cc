package api

import (
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
)

// What a revision or a change request changed (RevisionSemanticChanges),
// shown by revision.ChangesJSON.

// changesLimit reads limit (default 10, as the reference says).
func changesLimit(r *http.Request) (int, error) {
	q := query(r)
	if !q.Has("limit") {
		return 10, nil
	}
	n, err := strconv.Atoi(q.Get("limit"))
	if err != nil || n < 1 || n > MaxLimit {
		return 0, errorf(quire.CodeInvalid, "limit: must be a whole number from 1 to %d", MaxLimit)
	}
	return n, nil
}

// getRevisionChanges answers what a revision changed against its first parent.
func (s *Server) getRevisionChanges(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	if _, err := formatParams(r); err != nil {
		return err
	}
	limit, err := changesLimit(r)
	if err != nil {
		return err
	}
	before, err := s.reader.Parent(r.Context(), v)
	if err != nil {
		return err
	}
	l, err := s.links(r.Context())
	if err != nil {
		return err
	}
	out := revision.ChangesJSON(l, before, v, limit)
	if out.MergedFrom, err = s.reader.MergedFrom(r.Context(), s.wire, v); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// getChangeRequestChanges answers what a change request changes against its base.
func (s *Server) getChangeRequestChanges(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	limit, err := changesLimit(r)
	if err != nil {
		return err
	}
	base, err := s.reader.Open(r.Context(), v.Space, v.ChangeRequest.Base(), nil)
	if err != nil {
		return err
	}
	l, err := s.links(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, revision.ChangesJSON(l, base, v, limit))
}
