package api

import (
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/wire"
)

// Wire shape of RevisionSemanticChanges.

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

// changesJSON renders what changed from before to after (the view's tree).
func (s *Server) changesJSON(before, after *revision.View, limit int) wire.Changes {
	changes, more := revision.Changes(before, after, limit)
	out := wire.Changes{Changes: make([]wire.Change, 0, len(changes)), More: more}
	for _, c := range changes {
		j := wire.Change{Type: c.Type, Page: changedPage(c.Page)}
		if c.File != nil {
			f := s.wire.RevisionFile(c.File.View.Space.ID, c.File.View.Revision.ID, c.File.File)
			j.File = &wire.ChangedFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: f.DownloadURL}
		}
		if c.Moved != nil {
			j.Parent = &wire.ChangedParent{Before: changedPage(c.Moved[0]), After: changedPage(c.Moved[1])}
		}
		if c.Attributes != nil {
			j.Attributes = map[string]any{}
			for name, ba := range c.Attributes {
				j.Attributes[name] = wire.Attribute(name, ba)
			}
		}
		out.Changes = append(out.Changes, j)
	}
	return out
}

// changedPage renders a page one side of a change shows; nil for none.
func changedPage(p *revision.ChangedPage) *wire.ChangedPage {
	if p == nil {
		return nil
	}
	typ := "document"
	if p.Group {
		typ = "group"
	}
	return &wire.ChangedPage{ID: p.ID, Type: typ, Title: p.Title, Path: p.Path}
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
	out := s.changesJSON(before, v, limit)
	if out.MergedFrom, err = s.mergedFrom(r, v); err != nil {
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
	return writeJSON(w, http.StatusOK, s.changesJSON(base, v, limit))
}
