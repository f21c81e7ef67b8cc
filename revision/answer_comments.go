package revision

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/jsonappend"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// The API's shapes of comments and replies (reference: Comment,
// CommentReply, EmojiReactions), written by hand rather than by
// encoding/json: a page of 100 comments holds some 700 users (authors,
// reactions, repliers), and encoding them by reflection was half the cost
// of a page. Users are encoded once per answer, by encoding/json in their
// shape (wire.User). Every comment answer of the API goes through
// CommentJSON, and its tests check it against the reference.

// CommentReader is who reads the comments of one place, and where: the API
// path of the place's comments and the caller's role on its space.
type CommentReader struct {
	Path   string // "/spaces/{id}/comments", or a change request's
	Role   quire.Role
	UserID string
}

// CommentJSON encodes the comments of one place for one reader.
type CommentJSON struct {
	links    wire.Links
	who      CommentReader
	document bool // bodies as JSON documents rather than markdown
	views    *CommentViews
	users    map[string][]byte     // JSON by user id
	known    map[string]quire.User // a list's users, whose comments name them by id only
}

// NewCommentJSON encodes comments shown against views (Reader.CommentViews)
// for who, their bodies as JSON documents with document.
func NewCommentJSON(l wire.Links, views *CommentViews, who CommentReader, document bool) *CommentJSON {
	return &CommentJSON{links: l, who: who, document: document, views: views, users: map[string][]byte{}}
}

// List encodes a list of comments (reply false) or replies, as an answer.
func (o *CommentJSON) List(list *store.CommentList, reply bool) []byte {
	o.known = list.Users
	b := wire.Items(&list.List).AppendJSON(nil, func(b []byte, c *quire.Comment) []byte { return o.Append(b, c, reply) })
	return append(b, '\n')
}

// One encodes one comment or reply, as an answer.
func (o *CommentJSON) One(c *quire.Comment) []byte {
	return append(o.Append(nil, c, c.ParentID != ""), '\n')
}

// Append appends a comment (Comment) or, with reply, a reply (CommentReply).
func (o *CommentJSON) Append(b []byte, c *quire.Comment, reply bool) []byte {
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
	location := o.who.Path + "/" + c.ID
	if reply {
		location = o.who.Path + "/" + c.ParentID + "/replies/" + c.ID
	}
	b = append(b, `,"urls":{"location":`...)
	b = jsonappend.String(b, o.links.API(location))
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
func (o *CommentJSON) user(b []byte, u *quire.User) []byte {
	j, ok := o.users[u.ID]
	if !ok {
		if k, ok := o.known[u.ID]; ok {
			u = &k
		}
		var err error
		if j, err = json.Marshal(o.links.User(u)); err != nil {
			panic(err) // strings only
		}
		o.users[u.ID] = j
	}
	return append(b, j...)
}

// permissions are what the caller may do with a comment or reply.
func (o *CommentJSON) permissions(b []byte, c *quire.Comment) []byte {
	p := quire.CommentPermissionsOf(o.who.Role, c, o.who.UserID)
	b = append(b, `{"view":true,"edit":`...)
	b = strconv.AppendBool(b, p.Edit)
	b = append(b, `,"reply":`...)
	b = strconv.AppendBool(b, p.Reply)
	b = append(b, `,"delete":`...)
	b = strconv.AppendBool(b, p.Delete)
	return append(b, '}')
}

func (o *CommentJSON) reactions(b []byte, c *quire.Comment) []byte {
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
func (o *CommentJSON) body(b []byte, c *quire.Comment) []byte {
	if !o.document {
		b = append(b, `{"markdown":`...)
		b = jsonappend.String(b, c.Markdown)
		return append(b, '}')
	}
	b = append(b, `{"document":`...)
	b = append(b, o.views.Document(c)...)
	return append(b, '}')
}

// page describes the page a comment targets (CommentViews.Page).
func (o *CommentJSON) page(b []byte, c *quire.Comment) []byte {
	b = append(b, `{"id":`...)
	b = jsonappend.String(b, c.PageID)
	v, pg, outdated := o.views.Page(c)
	if pg != nil {
		b = append(b, `,"title":`...)
		b = jsonappend.String(b, PageTitle(pg))
		for _, f := range []struct{ key, v string }{{`,"emoji":`, pg.Emoji}, {`,"icon":`, pg.Icon}, {`,"path":`, v.Path(c.PageID)}} {
			if f.v != "" {
				b = append(b, f.key...)
				b = jsonappend.String(b, f.v)
			}
		}
		if pg.CreatedAt != 0 {
			b = append(b, `,"createdAt":`...)
			b = jsonappend.Time(b, time.UnixMicro(pg.CreatedAt).UTC())
			b = append(b, `,"updatedAt":`...)
			b = jsonappend.Time(b, time.UnixMicro(pg.UpdatedAt).UTC())
		}
	}
	b = append(b, `,"outdated":`...)
	b = strconv.AppendBool(b, outdated)
	return append(b, '}')
}
