package app

import (
	"context"
	"html/template"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
)

// Writing: "Edit" on a space opens the user's open change request on it (or
// starts one), and the editor writes that request's pages through authoring
// batches, as POST CR/content does, with the same checks: the edit role on
// the space, a space that is not locked, a request that is not merged.

// editorPath is where the editor's posts go, below a change request.
const editorPath = quire.AppChangeRequestPath + "/editor"

// Bounds of the editor's posts: a save carries a page's markdown (at most
// edit.MaxMarkdownSize) and a title, form-encoded; an upload one file of at
// most edit.MaxInlineFile, multipart.
const (
	maxSaveBytes   = 3 << 20
	maxUploadBytes = 1<<20 + 64<<10
)

// editRoutes registers the editor's pages.
func (s *Server) editRoutes() {
	s.handleSignedIn("POST "+quire.AppSpacePath+"/edit", s.startEdit)
	s.handleSignedIn("GET "+quire.AppEditPath, s.editorPage)
	s.handleSignedInUpTo("POST "+editorPath+"/preview", maxSaveBytes, s.preview)
	s.handleSignedInUpTo("POST "+editorPath+"/save", maxSaveBytes, s.savePage)
	s.handleSignedInUpTo("POST "+editorPath+"/files", maxUploadBytes, s.uploadFile)
	s.handleSignedIn("POST "+editorPath+"/pages", s.addPage)
	s.handleSignedIn("POST "+editorPath+"/pages/{pageId}/rename", s.renamePage)
	s.handleSignedIn("POST "+editorPath+"/pages/{pageId}/move", s.movePage)
	s.handleSignedIn("POST "+editorPath+"/pages/{pageId}/delete", s.deletePage)
}

// editableSpace is the space of id if the user may edit its content: 404
// unless they read it, 403 unless they have the edit role and it is not
// locked, as the API answers.
func (s *Server) editableSpace(ctx context.Context, id string) (*quire.Space, error) {
	sp, role, err := s.space(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := quire.RequireRole(role, quire.RoleEdit, "space"); err != nil {
		return nil, err
	}
	return sp, quire.CheckEditable(sp)
}

// editable is the space and change request of the request's path, if the
// user may edit them; a merged request is read-only.
func (s *Server) editable(r *http.Request) (*quire.Space, *quire.ChangeRequest, error) {
	sp, err := s.editableSpace(r.Context(), r.PathValue("spaceId"))
	if err != nil {
		return nil, nil, err
	}
	c, err := s.db.ChangeRequest(r.Context(), sp.ID, r.PathValue("changeRequestId"))
	if err != nil {
		return nil, nil, err
	}
	if c.Status == quire.StatusMerged {
		return nil, nil, quire.Errorf(quire.CodeInvalid, "change request #%d is already merged: edit the space to start a new one", c.Number)
	}
	return sp, c, nil
}

// editTarget is a change request being edited, and its space.
type editTarget struct {
	sp *quire.Space
	cr *quire.ChangeRequest
}

// applied is what a batch made: the change request after it, and what
// happened to each page and file.
type applied struct {
	CR     *quire.ChangeRequest
	Result *edit.Result
}

func (s *Server) editableCR(r *http.Request) (*editTarget, error) {
	sp, c, err := s.editable(r)
	if err != nil {
		return nil, err
	}
	return &editTarget{sp: sp, cr: c}, nil
}

// editURLOf is the editor of page id in the change request as res left it;
// of its first page when id is no more.
func (s *Server) editURLOf(r *http.Request, c *editTarget, res *applied, id string) (string, error) {
	v, err := s.cfg.Reader.Open(r.Context(), c.sp, res.CR.RevisionID, nil)
	if err != nil {
		return "", err
	}
	return quire.AppEditURL("", c.sp.ID, c.cr.ID, v.Path(id)), nil
}

// startEdit opens the editor of the page at the form's path on the user's
// draft or open change request of the space, or on a new one.
func (s *Server) startEdit(w http.ResponseWriter, r *http.Request) error {
	sp, err := s.editableSpace(r.Context(), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	c, err := s.ownChangeRequest(r.Context(), sp, user(r.Context()).ID)
	if err != nil {
		return err
	}
	path := strings.Trim(r.PostForm.Get("path"), "/")
	http.Redirect(w, r, quire.AppEditURL("", sp.ID, c.ID, path), http.StatusSeeOther)
	return nil
}

// ownChangeRequest is the user's newest draft or open change request of the
// space, or a new one (as POST S/change-requests makes it).
func (s *Server) ownChangeRequest(ctx context.Context, sp *quire.Space, userID string) (*quire.ChangeRequest, error) {
	for _, st := range []quire.ChangeRequestStatus{quire.StatusDraft, quire.StatusOpen} {
		l, err := s.db.ListChangeRequests(ctx, sp.ID, store.ChangeRequestFilter{Status: st, Contributor: userID}, store.Page{Limit: 100})
		if err != nil {
			return nil, err
		}
		for _, c := range l.Items {
			if c.CreatedBy.ID == userID {
				return c, nil
			}
		}
	}
	return s.cfg.Author.CreateChangeRequest(ctx, sp, "", userID)
}

// editorData is what the editor shows.
type editorData struct {
	Space   *quire.Space
	CR      *quire.ChangeRequest
	CRURL   string
	Post    string // where its forms post: the editor's path of the request
	Nav     []navItem
	Page    *editedPage // nil when the request has no pages
	Parents []parentOption
	Preview template.HTML
	Script  string
	Styles  string
	// Conflict is the editor shown again, with the writer's text, after a
	// save without the script found the request saved by someone else.
	Conflict  bool
	ReloadURL string // the editor of the page as saved now
}

// editedPage is the page being edited.
type editedPage struct {
	ID, Title, Slug, Markdown, Parent string
	Place                             int  // its position among its siblings, 1 for first
	Group                             bool // a group of pages has no body
}

// parentOption is a page a page may be moved into or added below.
type parentOption struct{ ID, Label string }

// editorPage shows the editor of the page at the path of a change request.
func (s *Server) editorPage(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.editable(r)
	if err != nil {
		return err
	}
	v, err := s.cfg.Reader.Open(r.Context(), sp, c.RevisionID, nil)
	if err != nil {
		return err
	}
	id := firstDocument(v, v.Tree.Root)
	if path := r.PathValue("path"); path != "" {
		var ok bool
		if id, ok = v.PageAt(path); !ok {
			return quire.Errorf(quire.CodeNotFound, "page not found")
		}
	}
	d, err := s.editorDataOf(v, c, id)
	if err != nil {
		return err
	}
	return s.renderEditor(w, r, http.StatusOK, d)
}

// editorDataOf is the editor of page id (or of none, "") of v, the
// content of change request c.
func (s *Server) editorDataOf(v *revision.View, c *quire.ChangeRequest, id string) (*editorData, error) {
	sp := v.Space
	d := &editorData{
		Space: sp, CR: c, CRURL: quire.AppChangeRequestURL("", sp.ID, c.ID),
		Post: quire.AppPath(editorPath, sp.ID, c.ID), Parents: parentsOf(v, v.Tree.Root, "", nil),
		Nav:    navOf(v, v.Tree.Root, id, editURLs(sp.ID, c)),
		Script: s.assets.URL("/~app", "editor.js"), Styles: s.assets.URL("/~app", "editor.css"),
	}
	if id != "" {
		d.Page = editedPageOf(v, id)
		var err error
		if d.Preview, err = previewOf(v, sp.ID, c, id, d.Page.Markdown); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (s *Server) renderEditor(w http.ResponseWriter, r *http.Request, status int, d *editorData) error {
	title := "Edit · " + d.Space.Title
	if d.Page != nil {
		title = "Edit " + d.Page.Title + " · " + d.Space.Title
	}
	return s.render(w, r, status, "edit", title, d)
}

func editURLs(spaceID string, c *quire.ChangeRequest) pageURLs {
	return pageURLs{
		page: func(path, anchor string) string { return quire.AppEditURL("", spaceID, c.ID, path) },
		file: func(fileID string) string { return quire.AppPath(filePath, spaceID, c.RevisionID, fileID) },
	}
}

func editedPageOf(v *revision.View, id string) *editedPage {
	pg := v.Page(id)
	p := &editedPage{ID: id, Title: pg.Title, Slug: pg.Slug, Markdown: pg.Markdown, Parent: v.Index().Parent[id], Group: pg.Kind == content.KindGroup}
	siblings := v.Tree.Root
	if p.Parent != "" {
		siblings = v.Page(p.Parent).Children
	}
	for i, sib := range siblings {
		if sib == id {
			p.Place = i + 1
		}
	}
	return p
}

// parentsOf lists the pages of ids and below, in tree order, indented by
// depth, for the add and move forms' choice of parent.
func parentsOf(v *revision.View, ids []string, indent string, out []parentOption) []parentOption {
	for _, id := range ids {
		p := v.Page(id)
		if p == nil {
			continue
		}
		out = append(out, parentOption{ID: id, Label: indent + revision.PageTitle(p)})
		out = parentsOf(v, p.Children, indent+"\u00a0\u00a0\u00a0", out)
	}
	return out
}

// previewOf renders markdown as page id of the change request's content,
// with the renderer of published pages: its links resolve in that content.
func previewOf(v *revision.View, spaceID string, c *quire.ChangeRequest, id, markdown string) (template.HTML, error) {
	urls := editURLs(spaceID, c)
	out, err := render.HTML(markdown, render.HTMLOptions{
		PageID: id, Resolver: v.Resolver(), FileURL: urls.file,
		PageURL: func(pageID, anchor string) (string, bool) { return urls.page(v.Path(pageID), anchor), true },
	})
	if err != nil {
		return "", err
	}
	return template.HTML(out.Body), nil // render.HTML's output is safe HTML
}

// CanEdit reports whether the space page offers "Edit": to those with the
// edit role on a space that is not locked, on its current content.
func (d *spaceData) CanEdit() bool {
	return d.Past == nil && d.Role.AtLeast(quire.RoleEdit) && quire.CheckEditable(d.Space) == nil
}

// EditPath is the path of the page shown, which "Edit" opens the editor of.
func (d *spaceData) EditPath() string {
	return strings.TrimPrefix(currentURL(d.Nav), quire.AppSpaceURL("", d.Space.ID)+"/")
}

func currentURL(items []navItem) string {
	for _, it := range items {
		if it.Current {
			return it.URL
		}
		if u := currentURL(it.Children); u != "" {
			return u
		}
	}
	return ""
}
