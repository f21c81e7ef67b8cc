package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/jsonappend"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
)

// Wire shapes of comments and replies (reference: Comment, CommentReply,
// EmojiReactions), written by hand rather than by encoding/json: a page of
// 100 comments holds some 700 users (authors, reactions, repliers), and
// encoding them by reflection was half the cost of a page. Users are
// encoded once per response, by encoding/json in their shape (wire.User).
// Every comment response goes through these writers, and the tests check
// them against the reference.

// commentOut renders the comments of one place for one caller.
type commentOut struct {
	s     *Server
	p     *commentPlace
	f     format
	me    *quire.User
	views *revision.CommentViews
	users map[string][]byte     // JSON by user id
	known map[string]quire.User // a list's users, whose comments name them by id only
}

// commentWriter prepares to render cs, opening the content they are shown
// against (revision.Reader.CommentViews).
func (s *Server) commentWriter(r *http.Request, p *commentPlace, f format, cs []*quire.Comment) (*commentOut, error) {
	views, err := s.reader.CommentViews(r.Context(), p.sp, p.revisionID(), p.cr, cs, f.document)
	if err != nil {
		return nil, err
	}
	return &commentOut{s: s, p: p, f: f, me: caller(r.Context()), views: views, users: map[string][]byte{}}, nil
}

// listJSON encodes a list of comments (reply false) or replies.
func (o *commentOut) listJSON(list *store.CommentList, reply bool) []byte {
	o.known = list.Users
	b := itemsOf(&list.List).appendJSON(nil, func(b []byte, c *quire.Comment) []byte { return o.append(b, c, reply) })
	return append(b, '\n')
}

// write answers one comment or reply.
func (o *commentOut) write(w http.ResponseWriter, c *quire.Comment) error {
	return writeRaw(w, http.StatusOK, append(o.append(nil, c, c.ParentID != ""), '\n'))
}

// writeRaw writes a JSON body already encoded.
func writeRaw(w http.ResponseWriter, status int, body []byte) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// append appends a comment (Comment) or, with reply, a reply (CommentReply).
func (o *commentOut) append(b []byte, c *quire.Comment, reply bool) []byte {
	if reply {
		b = append(b, `{"object":"comment-reply","id":`...)
	} else {
		b = append(b, `{"object":"comment","id":`...)
	}
	b = jsonappend.String(b, c.ID)
	b = append(b, `,"postedBy":`...)
	b = o.user(b, &c.PostedBy)
	b = append(b, `,"postedAt":`...)
	b = jsonappend.Time(b, c.PostedAt)
	if !c.EditedAt.IsZero() {
		b = append(b, `,"editedAt":`...)
		b = jsonappend.Time(b, c.EditedAt)
	}
	b = append(b, `,"reactions":`...)
	b = o.reactions(b, c)
	b = append(b, `,"body":`...)
	b = o.body(b, c)
	location := o.p.path() + "/" + c.ID
	if reply {
		location = o.p.path() + "/" + c.ParentID + "/replies/" + c.ID
	}
	b = append(b, `,"urls":{"location":`...)
	b = jsonappend.String(b, o.s.url(location))
	b = append(b, `},"permissions":`...)
	b = o.permissions(b, c)
	if reply {
		return append(b, '}')
	}
	b = append(b, `,"replies":`...)
	b = strconv.AppendInt(b, int64(c.Replies), 10)
	b = append(b, `,"repliers":[`...)
	b = jsonappend.Each(b, len(c.Repliers), func(b []byte, i int) []byte {
		rp := &c.Repliers[i]
		b = append(b, `{"updatedAt":`...)
		b = jsonappend.Time(b, rp.UpdatedAt)
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(rp.Count), 10)
		b = append(b, `,"user":`...)
		b = o.user(b, &rp.User)
		return append(b, '}')
	})
	b = append(b, `],"target":{`...)
	if c.NodeID != "" {
		b = append(b, `"node":{"id":`...)
		b = jsonappend.String(b, c.NodeID)
		b = append(b, `},`...)
	}
	if c.ChangeRequestID != "" {
		b = append(b, `"changeRequest":`...)
		b = jsonappend.String(b, c.ChangeRequestID)
		b = append(b, ',')
	}
	if c.PageID != "" {
		b = append(b, `"page":`...)
		b = o.page(b, c)
		b = append(b, ',')
	}
	b = append(b, `"space":`...)
	b = jsonappend.String(b, c.SpaceID)
	b = append(b, `,"revision":`...)
	b = jsonappend.String(b, c.RevisionID)
	b = append(b, `},"status":`...)
	b = jsonappend.String(b, string(c.Status()))
	if c.Status() == quire.CommentResolved {
		b = append(b, `,"resolvedAt":`...)
		b = jsonappend.Time(b, c.ResolvedAt)
		b = append(b, `,"resolvedBy":`...)
		b = o.user(b, &c.ResolvedBy)
	}
	return append(b, '}')
}

// user appends a user, encoded once per response: lists repeat the same
// few people.
func (o *commentOut) user(b []byte, u *quire.User) []byte {
	j, ok := o.users[u.ID]
	if !ok {
		if k, ok := o.known[u.ID]; ok {
			u = &k
		}
		var err error
		if j, err = json.Marshal(o.s.wire.User(u)); err != nil {
			panic(err) // strings only
		}
		o.users[u.ID] = j
	}
	return append(b, j...)
}

// permissions are what the caller may do with a comment or reply.
func (o *commentOut) permissions(b []byte, c *quire.Comment) []byte {
	p := quire.CommentPermissionsOf(o.p.role, c, o.me.ID)
	b = append(b, `{"view":true,"edit":`...)
	b = strconv.AppendBool(b, p.Edit)
	b = append(b, `,"reply":`...)
	b = strconv.AppendBool(b, p.Reply)
	b = append(b, `,"delete":`...)
	b = strconv.AppendBool(b, p.Delete)
	return append(b, '}')
}

func (o *commentOut) reactions(b []byte, c *quire.Comment) []byte {
	b = append(b, '[')
	b = jsonappend.Each(b, len(c.Reactions), func(b []byte, i int) []byte {
		re := &c.Reactions[i]
		b = append(b, `{"emoji":`...)
		b = jsonappend.String(b, re.Emoji)
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(len(re.Users)), 10)
		b = append(b, `,"users":[`...)
		b = jsonappend.Each(b, len(re.Users), func(b []byte, k int) []byte {
			b = append(b, `{"user":`...)
			b = o.user(b, &re.Users[k].User)
			b = append(b, `,"reactedAt":`...)
			b = jsonappend.Time(b, re.Users[k].ReactedAt)
			return append(b, '}')
		})
		return append(b, `]}`...)
	})
	return append(b, ']')
}

// body is the markdown as written, or with format=document its JSON
// document, links resolved against the current content and mentions of
// users as mention nodes.
func (o *commentOut) body(b []byte, c *quire.Comment) []byte {
	if !o.f.document {
		b = append(b, `{"markdown":`...)
		b = jsonappend.String(b, c.Markdown)
		return append(b, '}')
	}
	b = append(b, `{"document":`...)
	b = append(b, o.views.Document(c)...)
	return append(b, '}')
}

// page describes the page a comment targets (revision.CommentViews.Page).
func (o *commentOut) page(b []byte, c *quire.Comment) []byte {
	b = append(b, `{"id":`...)
	b = jsonappend.String(b, c.PageID)
	v, pg, outdated := o.views.Page(c)
	if pg != nil {
		b = append(b, `,"title":`...)
		b = jsonappend.String(b, pageTitle(pg))
		for _, f := range []struct{ key, v string }{{`,"emoji":`, pg.Emoji}, {`,"icon":`, pg.Icon}, {`,"path":`, v.Path(c.PageID)}} {
			if f.v != "" {
				b = append(b, f.key...)
				b = jsonappend.String(b, f.v)
			}
		}
		if pg.CreatedAt != 0 {
			b = append(b, `,"createdAt":`...)
			b = jsonappend.Time(b, fromMicros(pg.CreatedAt))
			b = append(b, `,"updatedAt":`...)
			b = jsonappend.Time(b, fromMicros(pg.UpdatedAt))
		}
	}
	b = append(b, `,"outdated":`...)
	b = strconv.AppendBool(b, outdated)
	return append(b, '}')
}
