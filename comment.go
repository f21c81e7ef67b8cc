package quire

import (
	"fmt"
	"strings"
	"time"
)

// CommentStatus is where a comment thread stands. Contract §3.
type CommentStatus string

// Comment statuses.
const (
	CommentOpen     CommentStatus = "open"
	CommentResolved CommentStatus = "resolved"
)

// Comment is a comment on a space or a change request, or a reply to one
// (ParentID set): replies form one level under a comment. Contract §2
// Comment, Comment reply.
type Comment struct {
	ID              string
	SpaceID         string
	ChangeRequestID string // "" for a comment on the space itself
	ParentID        string // "" for a comment; the comment a reply answers
	PostedBy        User
	PostedAt        time.Time
	EditedAt        time.Time // zero unless edited
	Markdown        string    // the body, kept as written (mentions included)
	// What the comment targets; replies have none of their own.
	PageID     string    // "" when not on a page
	NodeID     string    // "" when not on a node; kept as given
	RevisionID string    // the revision commented on
	ResolvedAt time.Time // zero while open
	ResolvedBy User      // zero ID while open
	Reactions  []Reaction
	Replies    int       // how many replies a comment has
	Repliers   []Replier // who replied, first to reply first
}

// Status is the comment's status, from whether it was resolved.
func (c *Comment) Status() CommentStatus {
	if c.ResolvedAt.IsZero() {
		return CommentOpen
	}
	return CommentResolved
}

// CommentPermissions are what a user may do with a comment or a reply.
// Contract §4.1, §4.2.
type CommentPermissions struct {
	Edit   bool // its body: its author, who may comment
	Reply  bool // who may comment
	Delete bool // its author or an admin of the space, who may comment
}

// CommentPermissionsOf computes the permissions on c of user userID, whose
// role on the space is role.
func CommentPermissionsOf(role Role, c *Comment, userID string) CommentPermissions {
	comment := role.AtLeast(RoleComment)
	return CommentPermissions{
		Edit:   comment && c.PostedBy.ID == userID,
		Reply:  comment,
		Delete: comment && (c.PostedBy.ID == userID || role == RoleAdmin),
	}
}

// Reaction is one emoji on a comment and who reacted with it, in order.
type Reaction struct {
	Emoji string
	Users []Reactor
}

// Reactor is a user who reacted, and when.
type Reactor struct {
	User      User
	ReactedAt time.Time
}

// Replier is a user who replied to a comment: how many times and when last.
type Replier struct {
	User      User
	Count     int
	UpdatedAt time.Time
}

// MaxCommentChars bounds the markdown body of a comment or reply.
const MaxCommentChars = 20_000

// MaxReactionsPerUpdate bounds addedReactions and removedReactions.
const MaxReactionsPerUpdate = 20

// CheckCommentBody validates a comment's markdown body: not empty (nor only
// white space) and at most MaxCommentChars characters.
func CheckCommentBody(field, markdown string) error {
	if strings.TrimSpace(markdown) == "" {
		return Errorf(CodeInvalid, "%s: must not be empty", field)
	}
	return CheckText(field, markdown, 1, MaxCommentChars)
}

// CheckReactions validates a list of reactions: at most
// MaxReactionsPerUpdate, each a single emoji.
func CheckReactions(field string, emoji []string) error {
	if len(emoji) > MaxReactionsPerUpdate {
		return Errorf(CodeInvalid, "%s: must have at most %d emoji", field, MaxReactionsPerUpdate)
	}
	for i, e := range emoji {
		if err := CheckEmoji(fmt.Sprintf("%s[%d]", field, i), e); err != nil {
			return err
		}
	}
	return nil
}
