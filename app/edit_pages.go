package app

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
)

// The editor's page forms: add, rename, move and delete a page of the
// change request, each one authoring batch; each answers with the editor
// of the page it leaves the writer on.

// addPage adds an empty page titled as the form says, at the end of the
// form's parent ("" for the top level), and opens it.
func (s *Server) addPage(w http.ResponseWriter, r *http.Request) error {
	c, err := s.editableCR(r)
	if err != nil {
		return err
	}
	f := r.PostForm
	change := map[string]any{"operation": "insert_page", "title": strings.TrimSpace(f.Get("title")),
		"document": map[string]any{"markdown": ""}}
	if parent := f.Get("parent"); parent != "" {
		change["into"] = parent
	}
	res, err := s.batch(r, c, "", change)
	if err != nil {
		return err
	}
	return s.toEditor(w, r, c, res, res.Result.Changes[0].PageID)
}

// renamePage sets a page's title and, when the form gives one, its slug.
func (s *Server) renamePage(w http.ResponseWriter, r *http.Request) error {
	c, err := s.editableCR(r)
	if err != nil {
		return err
	}
	id := r.PathValue("pageId")
	change := map[string]any{"operation": "update_page", "page": id, "title": strings.TrimSpace(r.PostForm.Get("title"))}
	if slug := strings.TrimSpace(r.PostForm.Get("slug")); slug != "" {
		change["slug"] = slug
	}
	res, err := s.batch(r, c, "", change)
	if err != nil {
		return err
	}
	return s.toEditor(w, r, c, res, id)
}

// movePage moves a page into the form's parent ("" for the top level) at
// the form's position among its siblings (1 for first; empty for last).
func (s *Server) movePage(w http.ResponseWriter, r *http.Request) error {
	c, err := s.editableCR(r)
	if err != nil {
		return err
	}
	id, f := r.PathValue("pageId"), r.PostForm
	change := map[string]any{"operation": "update_page", "page": id, "into": nil}
	if parent := f.Get("parent"); parent != "" {
		change["into"] = parent
	}
	if at := strings.TrimSpace(f.Get("position")); at != "" {
		n, err := strconv.Atoi(at)
		if err != nil || n < 1 {
			return quire.Errorf(quire.CodeInvalid, "position: must be a number, 1 for first")
		}
		change["at"] = n - 1
	}
	res, err := s.batch(r, c, "", change)
	if err != nil {
		return err
	}
	return s.toEditor(w, r, c, res, id)
}

// deletePage deletes a page, and its subpages, from the change request.
func (s *Server) deletePage(w http.ResponseWriter, r *http.Request) error {
	c, err := s.editableCR(r)
	if err != nil {
		return err
	}
	res, err := s.batch(r, c, "", map[string]any{"operation": "delete_page", "page": r.PathValue("pageId")})
	if err != nil {
		return err
	}
	return s.toEditor(w, r, c, res, "")
}

// toEditor sends the writer to the editor of page id ("" for the first).
func (s *Server) toEditor(w http.ResponseWriter, r *http.Request, c *editTarget, res *applied, id string) error {
	to, err := s.editURLOf(r, c, res, id)
	if err != nil {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}
