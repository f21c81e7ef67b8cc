package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Comments on a space (§4.2) and on a change request (§4.1) are served by
// the same handlers: the path says which, by naming a change request or not.

// commentPlace is where the comments of a request live, as its caller sees
// them: a space, or one of its change requests.
type commentPlace struct {
	sp    *quire.Space
	cr    *quire.ChangeRequest // nil for the space's own comments
	role  quire.Role           // the caller's role on the space
	scope store.CommentScope
}

// commentPlace loads the space and the change request (if any) named in the
// path, requiring need on the space: 404 to who cannot read it, 403 below need.
func (s *Server) commentPlace(r *http.Request, need quire.Role) (*commentPlace, error) {
	sp, role, err := s.space(r, need)
	if err != nil {
		return nil, err
	}
	p := &commentPlace{sp: sp, role: role, scope: store.CommentScope{SpaceID: sp.ID}}
	if ref := r.PathValue("changeRequestId"); ref != "" {
		if p.cr, err = s.db.ChangeRequest(r.Context(), sp.ID, ref); err != nil {
			return nil, err
		}
		p.scope.ChangeRequestID = p.cr.ID
	}
	return p, nil
}

// place is the services' form of p.
func (p *commentPlace) place() authoring.CommentPlace {
	return authoring.CommentPlace{Space: p.sp, ChangeRequest: p.cr}
}

// path is the API path of the place's comments.
func (p *commentPlace) path() string {
	if p.cr != nil {
		return "/spaces/" + p.sp.ID + "/change-requests/" + p.cr.ID + "/comments"
	}
	return "/spaces/" + p.sp.ID + "/comments"
}

// comment loads the place and the comment named in the path.
func (s *Server) comment(r *http.Request, need quire.Role) (*commentPlace, *quire.Comment, error) {
	p, err := s.commentPlace(r, need)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.db.Comment(r.Context(), p.scope, r.PathValue("commentId"))
	return p, c, err
}

// commentReply loads the place and the reply named in the path.
func (s *Server) commentReply(r *http.Request, need quire.Role) (*commentPlace, *quire.Comment, error) {
	p, err := s.commentPlace(r, need)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.db.CommentReply(r.Context(), p.scope, r.PathValue("commentId"), r.PathValue("commentReplyId"))
	return p, c, err
}

// commentFilter reads the list parameters status (default all), order
// (default desc), targetPage and authors (repeated or comma-separated).
func commentFilter(r *http.Request) (store.CommentFilter, error) {
	q := query(r)
	var f store.CommentFilter
	switch q.Get("status") {
	case "", "all":
	case "open":
		f.Status = quire.CommentOpen
	case "resolved":
		f.Status = quire.CommentResolved
	default:
		return f, errorf(quire.CodeInvalid, "status: must be open, resolved or all")
	}
	switch q.Get("order") {
	case "", "desc":
	case "asc":
		f.Asc = true
	default:
		return f, errorf(quire.CodeInvalid, "order: must be asc or desc")
	}
	f.PageID = q.Get("targetPage")
	for _, v := range q["authors"] {
		for a := range strings.SplitSeq(v, ",") {
			if a = strings.TrimSpace(a); a != "" {
				f.Authors = append(f.Authors, a)
			}
		}
	}
	if len(f.Authors) > MaxLimit {
		return f, errorf(quire.CodeInvalid, "authors: must list at most %d users", MaxLimit)
	}
	return f, nil
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) error {
	p, err := s.commentPlace(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return s.writeComments(w, r, p, false, func(ctx context.Context, pg store.Page) (*store.CommentList, error) {
		filter, err := commentFilter(r)
		if err != nil {
			return nil, err
		}
		return s.db.ListComments(ctx, p.scope, filter, pg)
	})
}

// writeComments answers the page that r asks for of the comments (or the
// replies) that list finds in p, their bodies in the format r asks for. The
// page and format parameters are checked first, then list may check its own.
// A page of comments is costly to build and read over and over, so its bytes
// are kept until the change count moves (revision.Reader.UntilChanged), by
// path, query, caller and role (comments' permissions are the caller's).
func (s *Server) writeComments(w http.ResponseWriter, r *http.Request, p *commentPlace, replies bool,
	list func(ctx context.Context, pg store.Page) (*store.CommentList, error)) error {
	pg, err := pageParams(r)
	if err != nil {
		return err
	}
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	key := "comments\x00" + r.URL.Path + "\x00" + r.URL.RawQuery + "\x00" + caller(r.Context()).ID + "\x00" + string(p.role)
	a, kept, err := s.reader.UntilChanged(r.Context(), key, func() ([]byte, error) {
		l, err := list(r.Context(), pg)
		if err != nil {
			return nil, err
		}
		out, err := s.commentWriter(r, p, f, l.Items)
		if err != nil {
			return nil, err
		}
		return out.List(l, replies), nil
	})
	if err != nil {
		return err
	}
	if !kept {
		return writeRaw(w, http.StatusOK, a.Body[0])
	}
	return writeAnswer(w, r, a)
}

// postComment starts a thread; the comment role and up may comment
// (authoring.Author.PostComment checks the page it names).
func (s *Server) postComment(w http.ResponseWriter, r *http.Request) error {
	p, err := s.commentPlace(r, quire.RoleComment)
	if err != nil {
		return err
	}
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	var body wire.PostComment
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	thread := authoring.NewThread{Markdown: body.Markdown(), Page: body.Page}
	if body.Node != nil {
		thread.NodeID = *body.Node
	}
	c, err := s.author.PostComment(r.Context(), p.place(), caller(r.Context()).ID, thread)
	if err != nil {
		return err
	}
	return s.writeComment(w, r, p, f, c)
}

// onComment adapts an action on one comment or reply, which load finds in
// the path for a caller with at least need on the space.
func (s *Server) onComment(load func(*http.Request, quire.Role) (*commentPlace, *quire.Comment, error), need quire.Role,
	act func(http.ResponseWriter, *http.Request, *commentPlace, *quire.Comment) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, c, err := load(r, need)
		if err != nil {
			return err
		}
		return act(w, r, p, c)
	}
}

func (s *Server) getCommentOrReply(w http.ResponseWriter, r *http.Request, p *commentPlace, c *quire.Comment) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	return s.writeComment(w, r, p, f, c)
}

// writeComment answers one comment or reply, its body in format f.
func (s *Server) writeComment(w http.ResponseWriter, r *http.Request, p *commentPlace, f revision.Format, c *quire.Comment) error {
	out, err := s.commentWriter(r, p, f, []*quire.Comment{c})
	if err != nil {
		return err
	}
	return writeRaw(w, http.StatusOK, out.One(c))
}

// commentWriter prepares to encode cs (revision.CommentJSON), opening the
// content they are shown against (revision.Reader.CommentViews).
func (s *Server) commentWriter(r *http.Request, p *commentPlace, f revision.Format, cs []*quire.Comment) (*revision.CommentJSON, error) {
	views, err := s.reader.CommentViews(r.Context(), p.sp, p.place().RevisionID(), p.cr, cs, f.Document)
	if err != nil {
		return nil, err
	}
	who := revision.CommentReader{Path: p.path(), Role: p.role, UserID: caller(r.Context()).ID}
	return revision.NewCommentJSON(s.wire, views, who, f.Document), nil
}

// writeRaw writes a JSON body already encoded.
func writeRaw(w http.ResponseWriter, status int, body []byte) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// updateCommentOrReply applies PUT to a comment or a reply: anyone who may
// comment resolves, reopens and reacts; only the author edits the body
// (authoring.Author.UpdateComment).
// Contract §4.1/§4.2: a change request's replies take resolved (it resolves
// their thread), a space's do not.
func (s *Server) updateCommentOrReply(w http.ResponseWriter, r *http.Request, p *commentPlace, c *quire.Comment) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	body := wire.UpdateComment{Unresolvable: c.ParentID != "" && p.cr == nil}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if c, err = s.author.UpdateComment(r.Context(), p.place(), c, p.role, caller(r.Context()).ID, body.Update()); err != nil {
		return err
	}
	return s.writeComment(w, r, p, f, c)
}

// deleteCommentOrReply deletes a comment (with its replies) or a reply: its
// author may, and so may the space's admins (authoring.Author.DeleteComment).
func (s *Server) deleteCommentOrReply(w http.ResponseWriter, r *http.Request, p *commentPlace, c *quire.Comment) error {
	if err := s.author.DeleteComment(r.Context(), p.place(), c, p.role, caller(r.Context()).ID); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listCommentReplies(w http.ResponseWriter, r *http.Request, p *commentPlace, c *quire.Comment) error {
	return s.writeComments(w, r, p, true, func(ctx context.Context, pg store.Page) (*store.CommentList, error) {
		return s.db.ListCommentReplies(ctx, p.scope, c.ID, pg)
	})
}

// postCommentReply answers a comment; the comment role and up may reply.
func (s *Server) postCommentReply(w http.ResponseWriter, r *http.Request, p *commentPlace, c *quire.Comment) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	var body wire.PostCommentReply
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	reply, err := s.author.ReplyToComment(r.Context(), p.place(), c, caller(r.Context()).ID, body.Markdown())
	if err != nil {
		return err
	}
	return s.writeComment(w, r, p, f, reply)
}
