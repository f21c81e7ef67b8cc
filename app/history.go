package app

import (
	"context"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/web"
)

// historyLength is how many revisions the space page lists.
const historyLength = 20

// historyEntry is a revision of a space's history, as the app lists it.
type historyEntry struct {
	ID, Type, By, URL string
	When              time.Time
}

// history walks the space's history back from revision from, by first
// parents (the space's own line, merges included), for up to n revisions.
func (s *Server) history(ctx context.Context, sp *quire.Space, from string, n int) ([]historyEntry, error) {
	names := map[string]string{}
	var out []historyEntry
	for id := from; id != "" && len(out) < n; {
		rev, err := s.db.Revision(ctx, sp.ID, id)
		if err != nil {
			return nil, err
		}
		out = append(out, historyEntry{ID: rev.ID, Type: rev.Type, When: rev.CreatedAt,
			By: s.userName(ctx, names, rev.CreatedBy), URL: quire.AppRevisionURL("", sp.ID, rev.ID)})
		id = ""
		if len(rev.Parents) > 0 {
			id = rev.Parents[0]
		}
	}
	return out, nil
}

// userName is a user's display name, remembered in names; "" for none.
func (s *Server) userName(ctx context.Context, names map[string]string, id string) string {
	if id == "" {
		return ""
	}
	if n, ok := names[id]; ok {
		return n
	}
	u, err := s.db.User(ctx, id)
	if err == nil {
		names[id] = u.DisplayName
	}
	return names[id]
}

// revisionPage shows a page (?page=path, else the first) of a past
// revision of a space, read-only.
func (s *Server) revisionPage(w http.ResponseWriter, r *http.Request) error {
	sp, role, err := s.space(r.Context(), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	v, err := s.cfg.Reader.Open(r.Context(), sp, r.PathValue("revisionId"), nil)
	if err != nil {
		return err
	}
	past, err := s.history(r.Context(), sp, v.Revision.ID, 1)
	if err != nil {
		return err
	}
	d := &spaceData{Space: sp, Role: role, Past: &past[0]}
	revURL := quire.AppRevisionURL("", sp.ID, v.Revision.ID)
	urls := pageURLs{
		page: func(path, anchor string) string {
			u := revURL + "?page=" + url.QueryEscape(path)
			if anchor != "" {
				u += "#" + anchor
			}
			return u
		},
		file: func(fileID string) string { return quire.AppPath(filePath, sp.ID, v.Revision.ID, fileID) },
	}
	if err := s.fillPage(r, d, v, r.URL.Query().Get("page"), urls); err != nil {
		return err
	}
	if d.History, err = s.history(r.Context(), sp, sp.RevisionID, historyLength); err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "space", titleOf(d), d)
}

// filePath is where the app serves a file of a revision of a space
// ("current" for the space's current revision), for its rendered pages.
const filePath = "/s/{spaceId}/revisions/{revisionId}/files/{fileId}"

// serveFile answers a file of a revision of a space the user reads.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r.Context(), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	revID := r.PathValue("revisionId")
	if revID == "current" {
		revID = sp.RevisionID
	}
	v, err := s.cfg.Reader.Open(r.Context(), sp, revID, nil)
	if err != nil {
		return err
	}
	f := v.Tree.Files[r.PathValue("fileId")]
	if f == nil || s.cfg.Blobs == nil {
		return quire.Errorf(quire.CodeNotFound, "file not found")
	}
	body, err := s.cfg.Blobs.Open(r.Context(), f.Blob)
	if errors.Is(err, fs.ErrNotExist) {
		return quire.Errorf(quire.CodeNotFound, "file not found")
	}
	if err != nil {
		return err
	}
	defer body.Close()
	w.Header().Set("Cache-Control", "private, no-cache")
	web.ServeFile(w, r, f, body)
	return nil
}

// maxComments bounds the comments, and the replies of each, a page shows.
const maxComments = 50

// commentView is a comment or a reply as the page shows it, read-only.
type commentView struct {
	ID, Author string
	When       time.Time
	Body       template.HTML
	Resolved   bool
	Replies    []commentView
}

// comments are the open and resolved comments on page id of the space,
// oldest first, with their replies.
func (s *Server) comments(ctx context.Context, sp *quire.Space, pageID string) ([]commentView, error) {
	if pageID == "" {
		return nil, nil
	}
	scope := store.CommentScope{SpaceID: sp.ID}
	list, err := s.db.ListComments(ctx, scope, store.CommentFilter{PageID: pageID, Asc: true}, store.Page{Limit: maxComments})
	if err != nil {
		return nil, err
	}
	out := make([]commentView, 0, len(list.Items))
	for _, c := range list.Items {
		cv := commentOf(c, list.Users)
		if c.Replies > 0 {
			replies, err := s.db.ListCommentReplies(ctx, scope, c.ID, store.Page{Limit: maxComments})
			if err != nil {
				return nil, err
			}
			for _, rp := range replies.Items {
				cv.Replies = append(cv.Replies, commentOf(rp, replies.Users))
			}
		}
		out = append(out, cv)
	}
	return out, nil
}

func commentOf(c *quire.Comment, users map[string]quire.User) commentView {
	author := users[c.PostedBy.ID].DisplayName
	if author == "" {
		author = "A former member"
	}
	body := template.HTML(template.HTMLEscapeString(c.Markdown))
	if out, err := render.HTML(c.Markdown, render.HTMLOptions{}); err == nil {
		body = template.HTML(out.Body) // render.HTML's output is safe HTML
	}
	return commentView{ID: c.ID, Author: author, When: c.PostedAt, Body: body, Resolved: !c.ResolvedAt.IsZero()}
}
