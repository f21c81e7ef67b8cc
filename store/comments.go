package store

import (
	"context"
	"database/sql"
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
)

// Comments and replies share the table comments; each row carries a summary
// of its replies and reactions, which every write of those rewrites (see
// 0005_comments.sql), so that reads take one query and one for the users
// (lists one more, see comments_cache.go).

// CommentScope is where comments live: a space's own comments, or those of
// one of its change requests.
type CommentScope struct {
	SpaceID         string
	ChangeRequestID string // "" for the space's own comments
}

// scopeWhere restricts comments k to a scope.
func scopeWhere(s CommentScope) (string, []any) {
	return " WHERE k.space_id = ? AND k.change_request_id = ?", []any{s.SpaceID, s.ChangeRequestID}
}

// commentColumns leave out the scope, which every read knows.
const commentColumns = `k.id, k.parent_id, k.posted_by, k.posted_at, k.edited_at, k.markdown,
	k.page_id, k.node_id, k.revision_id, k.resolved_at, k.resolved_by, k.replies, k.repliers, k.reactions`

// scanComment reads a comment row of scope s, and then the columns of more;
// its users have only their ids until fillUsers.
func scanComment(s CommentScope, row interface{ Scan(...any) error }, more ...any) (*quire.Comment, error) {
	c := quire.Comment{SpaceID: s.SpaceID, ChangeRequestID: s.ChangeRequestID}
	var parent, resolvedBy sql.NullString
	var posted int64
	var edited, resolved *int64
	var repliers, reactions string
	if err := row.Scan(append([]any{&c.ID, &parent, &c.PostedBy.ID, &posted, &edited, &c.Markdown,
		&c.PageID, &c.NodeID, &c.RevisionID, &resolved, &resolvedBy, &c.Replies, &repliers, &reactions}, more...)...); err != nil {
		return nil, err
	}
	c.ParentID = parent.String
	c.PostedAt, c.EditedAt, c.ResolvedAt = fromMicros(posted), nullMicros(edited), nullMicros(resolved)
	if resolved != nil {
		c.ResolvedBy.ID = resolvedBy.String
	}
	c.Repliers, c.Reactions = parseRepliers(repliers), parseReactions(reactions)
	return &c, nil
}

// Comment returns a comment (not a reply) of a scope, with its reactions,
// replies count and repliers.
func (r reader) Comment(ctx context.Context, s CommentScope, id string) (*quire.Comment, error) {
	where, args := scopeWhere(s)
	return r.oneComment(ctx, s, "SELECT "+commentColumns+" FROM comments k"+where+" AND k.id = ? AND k.parent_id IS NULL",
		append(args, id), "comment not found")
}

// CommentReply returns a reply to a comment of a scope, with its reactions.
func (r reader) CommentReply(ctx context.Context, s CommentScope, commentID, id string) (*quire.Comment, error) {
	where, args := scopeWhere(s)
	return r.oneComment(ctx, s, "SELECT "+commentColumns+" FROM comments k"+where+" AND k.id = ? AND k.parent_id = ?",
		append(args, id, commentID), "comment reply not found")
}

func (r reader) oneComment(ctx context.Context, s CommentScope, query string, args []any, notFound string) (*quire.Comment, error) {
	c, err := scanComment(s, r.q.queryRow(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "%s", notFound)
	}
	if err != nil {
		return nil, err
	}
	return c, r.fillUsers(ctx, c)
}

// CommentFilter narrows a comment list.
type CommentFilter struct {
	Status  quire.CommentStatus // "" for all
	PageID  string              // "" for comments on any page or none
	Authors []string            // user ids; none for all
	Asc     bool                // oldest first; newest first by default
}

// CommentList is a page of comments or replies and the users they name.
// Its comments are shared with the cache and must not be changed; their
// users have only their ids, whom Users holds (unless since deleted).
type CommentList struct {
	List[*quire.Comment]
	Users map[string]quire.User
}

// ListComments lists the comments of a scope (replies aside) by the time
// they were posted, each with its reactions, replies count and repliers.
func (r reader) ListComments(ctx context.Context, s CommentScope, f CommentFilter, p Page) (*CommentList, error) {
	where, args := scopeWhere(s)
	where += " AND k.parent_id IS NULL"
	switch f.Status {
	case quire.CommentOpen:
		where += " AND k.resolved_at IS NULL"
	case quire.CommentResolved:
		where += " AND k.resolved_at IS NOT NULL"
	}
	if f.PageID != "" {
		where += " AND k.page_id = ?"
		args = append(args, f.PageID)
	}
	if len(f.Authors) > 0 {
		in, inArgs := inList(f.Authors)
		where += " AND k.posted_by IN (" + in + ")"
		args = append(args, inArgs...)
	}
	list := &CommentList{}
	var err error
	if f.PageID == "" && len(f.Authors) == 0 {
		list.Count, err = r.countComments(ctx, s, f.Status)
	} else {
		err = r.q.queryRow(ctx, "SELECT COUNT(*) FROM comments k"+where, args...).Scan(&list.Count)
	}
	if err != nil {
		return nil, err
	}
	return list, r.listComments(ctx, s, list, where, args, !f.Asc, p)
}

// ListCommentReplies lists the replies to a comment, oldest first, each with
// its reactions.
func (r reader) ListCommentReplies(ctx context.Context, s CommentScope, commentID string, p Page) (*CommentList, error) {
	where, args := scopeWhere(s)
	where += " AND k.parent_id = ?"
	args = append(args, commentID)
	list := &CommentList{}
	if err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM comments k"+where, args...).Scan(&list.Count); err != nil {
		return nil, err
	}
	return list, r.listComments(ctx, s, list, where, args, false, p)
}

// listComments reads one keyset page of comments by (posted_at, id) into
// list: their ids and versions, then the rows not already cached.
func (r reader) listComments(ctx context.Context, s CommentScope, list *CommentList, where string, args []any, desc bool, p Page) error {
	after, afterArgs, order := keyset("k.posted_at", "k.id", desc, p.After, true)
	rows, err := r.q.query(ctx, "SELECT k.id, k.version, k.posted_at FROM comments k"+where+after+order+" LIMIT ?",
		append(append(args, afterArgs...), p.Limit+1)...)
	if err != nil {
		return err
	}
	listed, next, err := collectPage(rows, p.Limit, scanListed)
	if err != nil {
		return err
	}
	if list.Items, err = r.commentsByVersion(ctx, s, listed); err != nil {
		return err
	}
	list.Next = next
	var ids []string
	for _, c := range list.Items {
		ids = commentUsers(ids, c, func(u *quire.User) string { return u.ID })
	}
	list.Users, err = r.users(ctx, ids)
	return err
}

// countComments reads a scope's kept counts: all comments, the open ones, or
// the resolved ones (the difference).
func (r reader) countComments(ctx context.Context, s CommentScope, status quire.CommentStatus) (int, error) {
	var all, open int
	err := r.q.queryRow(ctx, "SELECT all_comments, open_comments FROM comment_counts WHERE space_id = ? AND change_request_id = ?",
		s.SpaceID, s.ChangeRequestID).Scan(&all, &open)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	switch status {
	case quire.CommentOpen:
		return open, err
	case quire.CommentResolved:
		return all - open, err
	}
	return all, err
}

// commentUsers appends to out what pick returns of every user a comment
// names: its author, resolver, repliers and those who reacted.
func commentUsers[T any](out []T, c *quire.Comment, pick func(*quire.User) T) []T {
	out = append(out, pick(&c.PostedBy))
	if c.ResolvedBy.ID != "" {
		out = append(out, pick(&c.ResolvedBy))
	}
	for i := range c.Repliers {
		out = append(out, pick(&c.Repliers[i].User))
	}
	for i := range c.Reactions {
		for k := range c.Reactions[i].Users {
			out = append(out, pick(&c.Reactions[i].Users[k].User))
		}
	}
	return out
}

// fillUsers fills in a comment's users, which scanComment leaves with only
// their ids.
func (r reader) fillUsers(ctx context.Context, c *quire.Comment) error {
	refs := commentUsers(nil, c, func(u *quire.User) *quire.User { return u })
	ids := make([]string, len(refs))
	for i, u := range refs {
		ids[i] = u.ID
	}
	users, err := r.users(ctx, ids)
	for _, ref := range refs {
		if u, ok := users[ref.ID]; ok {
			*ref = u
		}
	}
	return err
}

// users reads, in one query, the users of ids (which may repeat).
func (r reader) users(ctx context.Context, ids []string) (map[string]quire.User, error) {
	users := map[string]quire.User{}
	if len(ids) == 0 {
		return users, nil
	}
	slices.Sort(ids)
	in, args := inList(slices.Compact(ids))
	rows, err := r.q.query(ctx, "SELECT "+userColumns+" FROM users u WHERE u.id IN ("+in+")", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var u quire.User
		var created int64
		if err := rows.Scan(scanUser(&u, &created)...); err != nil {
			return nil, err
		}
		u.CreatedAt = fromMicros(created)
		users[u.ID] = u
	}
	return users, rows.Err()
}

// inList returns the placeholders and arguments of an IN (…) list of ids,
// padded to a power of two by repeating the last id: SQL texts then come in
// a few lengths, which the statement caches keep.
func inList(ids []string) (string, []any) {
	n := 1 << bits.Len(uint(len(ids)-1))
	args := make([]any, n)
	for i := range args {
		args[i] = ids[min(i, len(ids)-1)]
	}
	return placeholders(n), args
}

// NewComment is what posting a comment or a reply takes.
type NewComment struct {
	CommentScope
	ParentID string // for a reply, the comment it answers
	UserID   string
	Markdown string
	// A comment's target; replies have none of their own.
	PageID, NodeID, RevisionID string
}

// CreateComment posts a comment or a reply and returns it.
func (db *DB) CreateComment(ctx context.Context, n NewComment) (c *quire.Comment, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		id, err := tx.CreateComment(ctx, n)
		if err != nil {
			return err
		}
		if n.ParentID != "" {
			c, err = tx.CommentReply(ctx, n.CommentScope, n.ParentID, id)
		} else {
			c, err = tx.Comment(ctx, n.CommentScope, id)
		}
		return err
	})
	return c, err
}

// CreateComment posts a comment or a reply in tx and returns its id. A
// reply's comment must be a comment of the same scope (not a reply).
func (tx *Tx) CreateComment(ctx context.Context, n NewComment) (string, error) {
	var parent any
	if n.ParentID != "" {
		where, args := scopeWhere(n.CommentScope)
		if err := tx.lockComment(ctx, where+" AND k.parent_id IS NULL", append(args, n.ParentID)); err != nil {
			return "", err
		}
		parent = n.ParentID
	}
	id := newID()
	if _, err := tx.q.exec(ctx, `INSERT INTO comments (id, space_id, change_request_id, parent_id, posted_by, posted_at, markdown,
		page_id, node_id, revision_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, n.SpaceID, n.ChangeRequestID, parent, n.UserID, micros(tx.Now), n.Markdown, n.PageID, n.NodeID, n.RevisionID); err != nil {
		return "", err
	}
	e := commentEvent(quire.EventCommentPosted, n.CommentScope, id, n.ParentID, n.UserID)
	e.Resource.Page, e.RevisionID = n.PageID, n.RevisionID
	if n.ParentID != "" {
		e.Name = quire.EventCommentReplied
		if err := tx.summarizeReplies(ctx, n.ParentID); err != nil {
			return "", err
		}
	} else if err := tx.countComment(ctx, n.CommentScope, 1, 1); err != nil {
		return "", err
	}
	return id, tx.emit(ctx, e)
}

// lockComment locks the comment row that where (on alias k) and the id
// last in args select, or answers not found. Writes of a row's body,
// replies or reactions lock it first, so that on PostgreSQL they take turns
// and each summary is rebuilt from what the one before committed.
func (tx *Tx) lockComment(ctx context.Context, where string, args []any) error {
	n, err := tx.q.affected(ctx, "UPDATE comments SET replies = replies WHERE id IN (SELECT k.id FROM comments k"+where+" AND k.id = ?)", args...)
	if err == nil && n == 0 {
		err = quire.Errorf(quire.CodeNotFound, "comment not found")
	}
	return err
}

// summarizeReplies rewrites a comment's replies count and repliers.
func (tx *Tx) summarizeReplies(ctx context.Context, id string) error {
	rows, err := tx.q.query(ctx, `SELECT posted_by, COUNT(*), MIN(posted_at), MAX(posted_at) FROM comments
		WHERE parent_id = ? GROUP BY posted_by ORDER BY 3, 1`, id)
	if err != nil {
		return err
	}
	var b strings.Builder
	total := 0
	for rows.Next() {
		var user string
		var n int
		var first, last int64
		if err := rows.Scan(&user, &n, &first, &last); err != nil {
			rows.Close()
			return err
		}
		total += n
		b.WriteString(user + "\t" + strconv.Itoa(n) + "\t" + strconv.FormatInt(last, 10) + "\n")
	}
	if err := rows.Err(); err != nil { // Next closed the rows
		return err
	}
	_, err = tx.q.exec(ctx, "UPDATE comments SET replies = ?, repliers = ?, version = ? WHERE id = ?", total, b.String(), newVersion(), id)
	return err
}

// summarizeReactions rewrites a comment's or reply's reactions.
func (tx *Tx) summarizeReactions(ctx context.Context, id string) error {
	rows, err := tx.q.query(ctx, "SELECT emoji, user_id, reacted_at FROM comment_reactions WHERE comment_id = ? ORDER BY reacted_at, emoji, user_id", id)
	if err != nil {
		return err
	}
	var b strings.Builder
	for rows.Next() {
		var emoji, user string
		var at int64
		if err := rows.Scan(&emoji, &user, &at); err != nil {
			rows.Close()
			return err
		}
		b.WriteString(emoji + "\t" + user + "\t" + strconv.FormatInt(at, 10) + "\n")
	}
	if err := rows.Err(); err != nil { // Next closed the rows
		return err
	}
	_, err = tx.q.exec(ctx, "UPDATE comments SET reactions = ?, version = ? WHERE id = ?", b.String(), newVersion(), id)
	return err
}

// parseRepliers reads a repliers summary: users with their ids only.
func parseRepliers(s string) []quire.Replier {
	if s == "" {
		return nil
	}
	out := make([]quire.Replier, 0, strings.Count(s, "\n"))
	for line := ""; s != ""; {
		line, s = nextLine(s)
		user, rest, _ := strings.Cut(line, "\t")
		n, last, _ := strings.Cut(rest, "\t")
		count, err1 := strconv.Atoi(n)
		at, err2 := strconv.ParseInt(last, 10, 64)
		if err1 == nil && err2 == nil {
			out = append(out, quire.Replier{User: quire.User{ID: user}, Count: count, UpdatedAt: fromMicros(at)})
		}
	}
	return out
}

// parseReactions reads a reactions summary into one entry per emoji, in
// the order each was first used, its users in the order they reacted. A
// first pass counts each emoji's users, so that all share one array.
func parseReactions(s string) []quire.Reaction {
	if s == "" {
		return nil
	}
	var out []quire.Reaction
	var counts []int
	for line, rest := "", s; rest != ""; {
		line, rest = nextLine(rest)
		emoji, _, _ := strings.Cut(line, "\t")
		i := reactionIndex(out, emoji)
		if i == len(out) {
			out, counts = append(out, quire.Reaction{Emoji: emoji}), append(counts, 0)
		}
		counts[i]++
	}
	all, off := make([]quire.Reactor, strings.Count(s, "\n")+1), 0
	for i, n := range counts {
		out[i].Users = all[off : off : off+n]
		off += n
	}
	for line := ""; s != ""; {
		line, s = nextLine(s)
		emoji, rest, _ := strings.Cut(line, "\t")
		user, at, _ := strings.Cut(rest, "\t")
		us, err := strconv.ParseInt(at, 10, 64)
		if err != nil {
			continue
		}
		i := reactionIndex(out, emoji)
		out[i].Users = append(out[i].Users, quire.Reactor{User: quire.User{ID: user}, ReactedAt: fromMicros(us)})
	}
	return out
}

func reactionIndex(rs []quire.Reaction, emoji string) int {
	i := 0
	for i < len(rs) && rs[i].Emoji != emoji {
		i++
	}
	return i
}

// nextLine splits the first line of s, without its newline, from the rest.
func nextLine(s string) (line, rest string) {
	line, rest, _ = strings.Cut(s, "\n")
	return line, rest
}

// countComment adds to a scope's kept counts of all and open comments.
func (tx *Tx) countComment(ctx context.Context, s CommentScope, all, open int) error {
	_, err := tx.q.exec(ctx, `INSERT INTO comment_counts (space_id, change_request_id, all_comments, open_comments) VALUES (?, ?, ?, ?)
		ON CONFLICT (space_id, change_request_id) DO UPDATE SET all_comments = comment_counts.all_comments + excluded.all_comments,
		open_comments = comment_counts.open_comments + excluded.open_comments`, s.SpaceID, s.ChangeRequestID, all, open)
	return err
}

// CommentUpdate changes a comment or a reply; zero fields change nothing.
type CommentUpdate struct {
	Markdown *string // a new body; sets editedAt
	// Resolved resolves (true) or reopens (false) the thread: the comment,
	// or for a reply the comment it answers.
	Resolved *bool
	// Reactions of the acting user to add, then to remove: an emoji in both
	// ends removed.
	AddReactions, RemoveReactions []string
}

// UpdateComment applies u to c, a comment or reply of s, on behalf of
// userID (who resolves or reacts), and returns it updated. Whether userID
// may do so is for the caller to decide.
func (db *DB) UpdateComment(ctx context.Context, s CommentScope, c *quire.Comment, userID string, u CommentUpdate) (out *quire.Comment, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.UpdateComment(ctx, s, c, userID, u); err != nil {
			return err
		}
		if c.ParentID != "" {
			out, err = tx.CommentReply(ctx, s, c.ParentID, c.ID)
		} else {
			out, err = tx.Comment(ctx, s, c.ID)
		}
		return err
	})
	return out, err
}

// UpdateComment applies u to c, a comment or reply of s, in tx; of c it
// uses only the ids.
func (tx *Tx) UpdateComment(ctx context.Context, s CommentScope, c *quire.Comment, userID string, u CommentUpdate) error {
	if u.Markdown != nil || len(u.AddReactions)+len(u.RemoveReactions) > 0 {
		where, args := scopeWhere(s)
		if err := tx.lockComment(ctx, where, append(args, c.ID)); err != nil {
			return err
		}
	}
	if u.Markdown != nil {
		if _, err := tx.q.exec(ctx, "UPDATE comments SET markdown = ?, edited_at = ?, version = ? WHERE id = ?",
			*u.Markdown, micros(tx.Now), newVersion(), c.ID); err != nil {
			return err
		}
	}
	if u.Resolved != nil {
		thread := c.ID
		if c.ParentID != "" {
			thread = c.ParentID
		}
		if err := tx.resolveComment(ctx, s, thread, userID, *u.Resolved); err != nil {
			return err
		}
	}
	if len(u.AddReactions)+len(u.RemoveReactions) == 0 {
		return nil
	}
	for _, emoji := range u.AddReactions {
		if _, err := tx.q.exec(ctx, `INSERT INTO comment_reactions (comment_id, emoji, user_id, reacted_at) VALUES (?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, c.ID, emoji, userID, micros(tx.Now)); err != nil {
			return err
		}
	}
	for _, emoji := range u.RemoveReactions {
		if _, err := tx.q.exec(ctx, "DELETE FROM comment_reactions WHERE comment_id = ? AND emoji = ? AND user_id = ?",
			c.ID, emoji, userID); err != nil {
			return err
		}
	}
	return tx.summarizeReactions(ctx, c.ID)
}

// resolveComment resolves or reopens a comment, keeping the open count:
// the conditional update changes the row once however many try at once.
func (tx *Tx) resolveComment(ctx context.Context, s CommentScope, id, userID string, resolved bool) error {
	query, args, open := "UPDATE comments SET resolved_at = NULL, resolved_by = NULL, version = ? WHERE id = ? AND resolved_at IS NOT NULL",
		[]any{newVersion(), id}, 1
	if resolved {
		query, args, open = "UPDATE comments SET resolved_at = ?, resolved_by = ?, version = ? WHERE id = ? AND resolved_at IS NULL",
			[]any{micros(tx.Now), userID, newVersion(), id}, -1
	}
	if n, err := tx.q.affected(ctx, query, args...); err != nil || n == 0 {
		return err
	}
	if err := tx.countComment(ctx, s, 0, open); err != nil || !resolved {
		return err
	}
	return tx.emit(ctx, commentEvent(quire.EventCommentResolved, s, id, "", userID))
}

// DeleteComment deletes a comment with its replies, or a reply. Deleting
// one already gone does nothing.
func (db *DB) DeleteComment(ctx context.Context, s CommentScope, c *quire.Comment) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if c.ParentID != "" {
			where, args := scopeWhere(s)
			err := tx.lockComment(ctx, where, append(args, c.ParentID))
			if quire.ErrorCode(err) == quire.CodeNotFound {
				return nil // deleted with its comment
			}
			if err != nil {
				return err
			}
			if _, err := tx.q.exec(ctx, "DELETE FROM comments WHERE id = ? AND parent_id = ?", c.ID, c.ParentID); err != nil {
				return err
			}
			return tx.summarizeReplies(ctx, c.ParentID)
		}
		// RETURNING reads the row as deleted, so a comment resolved
		// meanwhile is not counted out of the open ones twice.
		var resolved *int64
		err := tx.q.queryRow(ctx, "DELETE FROM comments WHERE id = ? AND parent_id IS NULL RETURNING resolved_at", c.ID).Scan(&resolved)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		open := 0
		if resolved == nil {
			open = -1
		}
		return tx.countComment(ctx, s, -1, open)
	})
}
