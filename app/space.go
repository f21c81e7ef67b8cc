package app

import (
	"context"
	"html/template"
	"net/http"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
)

// The space page: the page tree, the rendered page, its comments,
// backlinks and the space's history; and the same, read-only, of any past
// revision.

// navItem is a page of the sidebar tree.
type navItem struct {
	Title, Emoji, URL string
	Current, Group    bool
	Hidden            bool
	Children          []navItem
}

type link struct{ Title, URL string }

type spaceData struct {
	Space     *quire.Space
	OrgURL    string
	Role      quire.Role
	Past      *historyEntry // the past revision read; nil for the current content
	Nav       []navItem
	PageTitle string
	PageEmoji string
	Body      template.HTML
	Children  []link // of a group page, which has no body
	Updated   time.Time
	Backlinks []link
	Comments  []commentView
	History   []historyEntry
	APIURL    string
	pageID    string
}

// space loads the live space of the path and the user's role on it: 404
// unless they may read it, as the API answers.
func (s *Server) space(ctx context.Context, id string) (*quire.Space, quire.Role, error) {
	sp, err := s.db.Space(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if !sp.DeletedAt.IsZero() {
		return nil, "", quire.Errorf(quire.CodeNotFound, "space not found")
	}
	v, err := s.db.Viewer(ctx, sp.OrgID, user(ctx).ID, append(append([]string{}, sp.Ancestors...), sp.ID))
	if err != nil {
		return nil, "", err
	}
	role := v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors)
	return sp, role, quire.RequireRole(role, quire.RoleRead, "space")
}

// spacePage shows a page of a space's current content: the first one at
// /s/{spaceId}, the one at the path below it otherwise.
func (s *Server) spacePage(w http.ResponseWriter, r *http.Request) error {
	sp, role, err := s.space(r.Context(), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	v, err := s.cfg.Reader.Open(r.Context(), sp, sp.RevisionID, nil)
	if err != nil {
		return err
	}
	d := &spaceData{Space: sp, Role: role}
	if err := s.fillPage(r, d, v, r.PathValue("path"), currentURLs(sp.ID)); err != nil {
		return err
	}
	if d.History, err = s.history(r.Context(), sp, sp.RevisionID, historyLength); err != nil {
		return err
	}
	if d.Comments, err = s.comments(r.Context(), sp, d.pageID); err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "space", titleOf(d), d)
}

func titleOf(d *spaceData) string {
	if d.PageTitle == "" {
		return d.Space.Title
	}
	return d.PageTitle + " · " + d.Space.Title
}

// pageURLs say where the pages and files of a view are read.
type pageURLs struct {
	page func(path, anchor string) string
	file func(fileID string) string
}

func currentURLs(spaceID string) pageURLs {
	return pageURLs{
		page: func(path, anchor string) string { return quire.AppPageURL("", spaceID, path, anchor) },
		file: func(fileID string) string { return quire.AppPath(filePath, spaceID, "current", fileID) },
	}
}

// fillPage fills d with the page of v at path ("" for the first page):
// the tree, the rendered page, when it changed, and who links to it.
func (s *Server) fillPage(r *http.Request, d *spaceData, v *revision.View, path string, urls pageURLs) error {
	d.OrgURL = quire.AppOrgURL("", d.Space.OrgID)
	d.APIURL = "/v1/spaces/" + d.Space.ID + "/revisions/" + v.Revision.ID
	id := firstDocument(v, v.Tree.Root)
	if path != "" {
		var ok bool
		if id, ok = v.PageAt(path); !ok {
			return quire.Errorf(quire.CodeNotFound, "page not found")
		}
	}
	d.Nav, d.pageID = navOf(v, v.Tree.Root, id, urls), id
	if id == "" {
		return nil // an empty space
	}
	pg := v.Page(id)
	d.PageTitle, d.PageEmoji = revision.PageTitle(pg), pg.Emoji
	if pg.UpdatedAt > 0 {
		d.Updated = time.UnixMicro(pg.UpdatedAt).UTC()
	}
	for _, from := range backlinks(v, id) {
		d.Backlinks = append(d.Backlinks, link{Title: revision.PageTitle(v.Page(from)), URL: urls.page(v.Path(from), "")})
	}
	if pg.Kind == content.KindGroup {
		for _, c := range pg.Children {
			d.Children = append(d.Children, link{Title: revision.PageTitle(v.Page(c)), URL: urls.page(v.Path(c), "")})
		}
		return nil
	}
	out, err := render.HTML(pg.Markdown, render.HTMLOptions{
		PageID: id, Resolver: v.Resolver(), FileURL: urls.file,
		PageURL: func(pageID, anchor string) (string, bool) { return urls.page(v.Path(pageID), anchor), true },
	})
	if err != nil {
		return err
	}
	d.Body = template.HTML(out.Body) // render.HTML's output is safe HTML
	return nil
}

// firstDocument is the first page that is not a group among ids and below.
func firstDocument(v *revision.View, ids []string) string {
	for _, id := range ids {
		p := v.Page(id)
		if p == nil {
			continue
		}
		if p.Kind != content.KindGroup {
			return id
		}
		if first := firstDocument(v, p.Children); first != "" {
			return first
		}
	}
	return ""
}

// navOf is the sidebar tree of pages ids: every page, hidden ones marked,
// for writers see what readers of the published site do not.
func navOf(v *revision.View, ids []string, current string, urls pageURLs) []navItem {
	out := make([]navItem, 0, len(ids))
	for _, id := range ids {
		p := v.Page(id)
		if p == nil {
			continue
		}
		out = append(out, navItem{
			Title: revision.PageTitle(p), Emoji: p.Emoji, URL: urls.page(v.Path(id), ""), Current: id == current,
			Group: p.Kind == content.KindGroup, Hidden: p.Hidden, Children: navOf(v, p.Children, current, urls),
		})
	}
	return out
}

// backlinks are the pages of v that link to page id, in tree order.
func backlinks(v *revision.View, id string) []string {
	var out []string
	seen := map[string]bool{id: true}
	for _, g := range v.Links() {
		if g.Resolution.PageID != id {
			continue
		}
		for _, from := range g.From {
			if !seen[from] {
				seen[from] = true
				out = append(out, from)
			}
		}
	}
	return out
}
