package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
)

// The request bodies of comments on a space (Contract §4.2) and on a change
// request (§4.1), named after the reference's PostCommentSchema,
// UpdateCommentSchema and PostCommentReplySchema.

// CommentBody is a comment's body as clients send it: the reference's
// Document, markdown or a JSON document (kept as the markdown it writes).
type CommentBody struct {
	Markdown *string         `json:"markdown"`
	Document json.RawMessage `json:"document"` // decoded by markdownOf within bounds
}

// markdownOf validates a body and returns its markdown.
func markdownOf(b *CommentBody) (string, error) {
	switch {
	case b == nil:
		return "", quire.Errorf(quire.CodeInvalid, "body: is required")
	case b.Markdown == nil && !quire.IsNull(b.Document):
		doc, err := DecodeDocument("body.document", b.Document)
		if err != nil {
			return "", err
		}
		md, err := render.Markdown(doc)
		if err != nil {
			return "", quire.Errorf(quire.CodeInvalid, "body.%s", err.Error())
		}
		return md, quire.CheckCommentBody("body.document", md)
	case b.Markdown == nil:
		return "", quire.Errorf(quire.CodeInvalid, "body.markdown: is required")
	}
	md := render.NormalizeLineEndings(*b.Markdown) // stored with LF line endings, as pages are
	return md, quire.CheckCommentBody("body.markdown", md)
}

// PostComment is the body of POST …/comments, the reference's
// PostCommentSchema. Whether page is in the current content is the
// service's to say.
type PostComment struct {
	Node *string      `json:"node"`
	Page *string      `json:"page"`
	Body *CommentBody `json:"body"`

	markdown string // the body's, set by Validate
}

// Validate checks the body, then the node and the page it needs.
func (b *PostComment) Validate() (err error) {
	if b.markdown, err = markdownOf(b.Body); err != nil {
		return err
	}
	if b.Node != nil {
		if err := quire.CheckLen("node", *b.Node, 1, 128); err != nil {
			return err
		}
		if b.Page == nil {
			return quire.Errorf(quire.CodeInvalid, "node: needs the page it is in (page)")
		}
	}
	return nil
}

// Markdown is a validated b's body, as markdown with LF line endings.
func (b *PostComment) Markdown() string { return b.markdown }

// UpdateComment is the body of PUT on a comment or a reply, the
// reference's UpdateCommentSchema. Unresolvable, set before reading, says
// the comment is a reply to a space comment, which resolved may not touch.
type UpdateComment struct {
	Resolved         quire.Optional[bool] `json:"resolved"`
	Body             *CommentBody         `json:"body"`
	AddedReactions   []string             `json:"addedReactions"`
	RemovedReactions []string             `json:"removedReactions"`

	Unresolvable bool `json:"-"`

	markdown *string // the body's, set by Validate
}

// Validate checks resolved, the body and the reactions, in this order.
func (b *UpdateComment) Validate() error {
	if b.Resolved.Set {
		switch {
		case b.Unresolvable:
			return quire.Errorf(quire.CodeInvalid, "resolved: replies to space comments cannot be resolved; resolve the comment")
		case b.Resolved.Null:
			return quire.Errorf(quire.CodeInvalid, "resolved: must be a boolean")
		}
	}
	if b.Body != nil {
		md, err := markdownOf(b.Body)
		if err != nil {
			return err
		}
		b.markdown = &md
	}
	return quire.FirstError(
		quire.CheckReactions("addedReactions", b.AddedReactions),
		quire.CheckReactions("removedReactions", b.RemovedReactions),
	)
}

// Update is the store's form of a validated b.
func (b *UpdateComment) Update() store.CommentUpdate {
	return store.CommentUpdate{
		Resolved: setValue(b.Resolved), Markdown: b.markdown,
		AddReactions: b.AddedReactions, RemoveReactions: b.RemovedReactions,
	}
}

// PostCommentReply is the body of POST …/comments/{commentId}/replies, the
// reference's PostCommentReplySchema.
type PostCommentReply struct {
	Body *CommentBody `json:"body"`

	markdown string // the body's, set by Validate
}

// Validate checks the body.
func (b *PostCommentReply) Validate() (err error) {
	b.markdown, err = markdownOf(b.Body)
	return err
}

// Markdown is a validated b's body, as markdown with LF line endings.
func (b *PostCommentReply) Markdown() string { return b.markdown }
