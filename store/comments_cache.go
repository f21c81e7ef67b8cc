package store

import (
	"context"
	"database/sql"
	"math/rand/v2"

	"github.com/quiredocs/quire"
)

// Decoding comment rows was most of the cost of a page of comments, so each
// server keeps the rows it decoded, by id, with their version. A write of a
// row sets a new random version, so an entry is used only while the row is
// unchanged, on whichever server changed it; a version written by a
// transaction that rolled back is never seen again.

// cachedComment is a decoded comment row whose users have only their ids.
type cachedComment struct {
	version int64
	c       *quire.Comment
}

// newVersion is the version a write gives a comment row.
func newVersion() int64 { return rand.Int64() }

// commentCost estimates the memory a cached comment holds.
func commentCost(c *quire.Comment) int {
	n := 512 + len(c.Markdown) + 64*len(c.Repliers)
	for _, r := range c.Reactions {
		n += 64 + 64*len(r.Users)
	}
	return n
}

// listedComment is a row a list selected, before its body is read.
type listedComment struct {
	id      string
	version int64
}

// commentsByVersion returns the comments of scope s that rows list, in
// their order, from the cache where it holds their version, reading the
// others in one query. A row deleted since the list was read is left out.
// The comments are the cache's own: nobody may change them.
func (r reader) commentsByVersion(ctx context.Context, s CommentScope, rows []listedComment) ([]*quire.Comment, error) {
	found := make(map[string]*quire.Comment, len(rows))
	var missing []string
	for _, row := range rows {
		if e, ok := r.content.comments.Get(row.id); ok && e.version == row.version {
			found[row.id] = e.c
		} else {
			missing = append(missing, row.id)
		}
	}
	if len(missing) > 0 {
		if err := r.readComments(ctx, s, missing, found); err != nil {
			return nil, err
		}
	}
	out := make([]*quire.Comment, 0, len(rows))
	for _, row := range rows {
		if c := found[row.id]; c != nil {
			out = append(out, c)
		}
	}
	return out, nil
}

// readComments reads the rows of ids into found and the cache.
func (r reader) readComments(ctx context.Context, s CommentScope, ids []string, found map[string]*quire.Comment) error {
	in, args := inList(ids)
	rows, err := r.q.query(ctx, "SELECT "+commentColumns+", k.version FROM comments k WHERE k.id IN ("+in+")", args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var version int64
		c, err := scanComment(s, rows, &version)
		if err != nil {
			return err
		}
		found[c.ID] = c
		r.content.comments.Add(c.ID, cachedComment{version, c}, commentCost(c))
	}
	return rows.Err()
}

// scanListed reads a row of SELECT k.id, k.version, k.posted_at.
func scanListed(rows *sql.Rows) (listedComment, Cursor, error) {
	var row listedComment
	var posted int64
	err := rows.Scan(&row.id, &row.version, &posted)
	return row, Cursor{Num: posted, ID: row.id}, err
}
