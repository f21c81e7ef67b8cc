package api

import (
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/wire"
)

// Wire shape of RevisionSemanticChanges.

type changedPageJSON struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

type changedFileJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	DownloadURL string `json:"downloadURL"`
}

type changeJSON struct {
	Type       string             `json:"type"`
	Page       *changedPageJSON   `json:"page,omitempty"`
	File       *changedFileJSON   `json:"file,omitempty"`
	Attributes map[string]any     `json:"attributes,omitempty"`
	Parent     *changedParentJSON `json:"parent,omitempty"`
}

type changedParentJSON struct {
	Before *changedPageJSON `json:"before,omitempty"`
	After  *changedPageJSON `json:"after,omitempty"`
}

type changesJSON struct {
	MergedFrom *wire.ChangeRequest `json:"mergedFrom,omitempty"`
	Changes    []changeJSON        `json:"changes"`
	More       int                 `json:"more,omitempty"`
}

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
func (s *Server) changesJSON(before, after *revision.View, limit int) changesJSON {
	changes, more := revision.Changes(before, after, limit)
	out := changesJSON{Changes: make([]changeJSON, 0, len(changes)), More: more}
	for _, c := range changes {
		j := changeJSON{Type: c.Type, Page: changedPage(c.Page)}
		if c.File != nil {
			f := s.revisionFileJSON(c.File.View.Space.ID, c.File.View.Revision.ID, c.File.File)
			j.File = &changedFileJSON{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: f.DownloadURL}
		}
		if c.Moved != nil {
			j.Parent = &changedParentJSON{Before: changedPage(c.Moved[0]), After: changedPage(c.Moved[1])}
		}
		if c.Attributes != nil {
			j.Attributes = map[string]any{}
			for name, ba := range c.Attributes {
				j.Attributes[name] = attributeJSON(name, ba)
			}
		}
		out.Changes = append(out.Changes, j)
	}
	return out
}

// changedPage renders a page one side of a change shows; nil for none.
func changedPage(p *revision.ChangedPage) *changedPageJSON {
	if p == nil {
		return nil
	}
	typ := "document"
	if p.Group {
		typ = "group"
	}
	return &changedPageJSON{ID: p.ID, Type: typ, Title: p.Title, Path: p.Path}
}

// attributeJSON renders one changed attribute; empty sides are left out.
func attributeJSON(name string, ba [2]string) map[string]any {
	out := map[string]any{}
	for i, key := range []string{"before", "after"} {
		if ba[i] == "" {
			continue
		}
		if name == "size" {
			n, _ := strconv.ParseInt(ba[i], 10, 64)
			out[key] = n
		} else {
			out[key] = ba[i]
		}
	}
	return out
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
