package api

import (
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
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
	MergedFrom *changeRequestJSON `json:"mergedFrom,omitempty"`
	Changes    []changeJSON       `json:"changes"`
	More       int                `json:"more,omitempty"`
}

// changesLimit reads limit (default 10, as the reference says).
func changesLimit(r *http.Request) (int, error) {
	q := r.URL.Query()
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
	all := content.Diff(before.Tree, after.Tree)
	out := changesJSON{Changes: []changeJSON{}}
	if len(all) > limit {
		out.More = len(all) - limit
		all = all[:limit]
	}
	page := func(v *revision.View, id string) *changedPageJSON {
		p, ok := v.Tree.Pages[id]
		if !ok {
			return nil
		}
		typ := "document"
		if p.Kind == content.KindGroup {
			typ = "group"
		}
		return &changedPageJSON{ID: id, Type: typ, Title: p.Title, Path: v.Path(id)}
	}
	file := func(v *revision.View, id string) *changedFileJSON {
		f := v.Tree.Files[id]
		j := s.revisionFileJSON(v.Space.ID, v.Revision.ID, f)
		return &changedFileJSON{ID: j.ID, Name: j.Name, ContentType: j.ContentType, DownloadURL: j.DownloadURL}
	}
	for _, c := range all {
		j := changeJSON{Type: c.Type}
		switch c.Type {
		case content.PageDeleted:
			j.Page = page(before, c.PageID)
		case content.FileDeleted:
			j.File = file(before, c.FileID)
		case content.FileCreated, content.FileEdited:
			j.File = file(after, c.FileID)
		default:
			j.Page = page(after, c.PageID)
		}
		if c.Type == content.PageMoved {
			j.Parent = &changedParentJSON{Before: page(before, c.ParentBefore), After: page(after, c.ParentAfter)}
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
	// A first revision changed everything from the empty tree (root "").
	before := s.reader.Empty(v.Space, v.Revision.ID)
	if len(v.Revision.Parents) > 0 {
		if before, err = s.reader.Open(r.Context(), v.Space, v.Revision.Parents[0], nil); err != nil {
			return err
		}
	}
	out := s.changesJSON(before, v, limit)
	if v.Revision.Type == store.RevisionMerge {
		c, err := s.db.ChangeRequest(r.Context(), v.Space.ID, v.Revision.MergedFrom)
		if err != nil {
			return err
		}
		j := s.changeRequestJSON(v.Space, c)
		out.MergedFrom = &j
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
