package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
)

// listLinks answers S/links (pageID "") and the links of one page, with the
// status filter and stats over all of them (revision.View.LinkList).
func (s *Server) listLinks(w http.ResponseWriter, r *http.Request, v *revision.View, pageID string) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	q := query(r)
	status := q.Get("status")
	switch status {
	case render.StatusOK, render.StatusBroken, render.StatusInApp:
	default:
		if status != "" || q.Has("status") { // "status=" is no status either
			return errorf(quire.CodeInvalid, "status: must be ok, broken or in-app")
		}
	}
	return writeJSON(w, http.StatusOK, v.LinkList(pageID, status, p))
}

func (s *Server) listPageLinks(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	id := r.PathValue("pageId")
	if _, ok := v.Tree.Pages[id]; !ok {
		return errorf(quire.CodeNotFound, "page not found")
	}
	return s.listLinks(w, r, v, id)
}

func (s *Server) listSpaceLinks(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	return s.listLinks(w, r, v, "")
}

// listFileBacklinks lists the pages that link to a file.
func (s *Server) listFileBacklinks(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	id := r.PathValue("fileId")
	if _, ok := v.Tree.Files[id]; !ok {
		return errorf(quire.CodeNotFound, "file not found")
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, v.FileBacklinkList(id, p))
}
