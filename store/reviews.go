package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/quiredocs/quire"
)

// Reviews, requested reviewers, contributors and commenters of change
// requests (migration 0016).

const reviewSelect = `SELECT v.id, v.change_request_id, v.status, v.revision_id, COALESCE(v.comment_id, ''), v.outdated,
	v.created_at, v.updated_at, ` + userColumns + `, q.id, q.display_name, q.email, q.photo_url, q.created_at
	FROM change_request_reviews v JOIN users u ON u.id = v.reviewer_id LEFT JOIN users q ON q.id = v.requested_by`

type reviewRow struct {
	v                        quire.Review
	created, updated, userAt int64
	byID, byName, byEmail    sql.NullString
	byPhoto                  sql.NullString
	byCreated                sql.NullInt64
}

func (r *reviewRow) dest() []any {
	v := &r.v
	return append([]any{&v.ID, &v.ChangeRequestID, &v.Status, &v.RevisionID, &v.CommentID, &v.Outdated, &r.created, &r.updated},
		append(scanUser(&v.Reviewer, &r.userAt), &r.byID, &r.byName, &r.byEmail, &r.byPhoto, &r.byCreated)...)
}

func (r *reviewRow) value() *quire.Review {
	v := r.v
	v.CreatedAt, v.UpdatedAt, v.Reviewer.CreatedAt = fromMicros(r.created), fromMicros(r.updated), fromMicros(r.userAt)
	if r.byID.Valid {
		v.RequestedBy = &quire.User{ID: r.byID.String, DisplayName: r.byName.String, Email: r.byEmail.String,
			PhotoURL: r.byPhoto.String, CreatedAt: fromMicros(r.byCreated.Int64)}
	}
	return &v
}

func scanReview(row interface{ Scan(...any) error }) (*quire.Review, error) {
	var r reviewRow
	if err := row.Scan(r.dest()...); err != nil {
		return nil, err
	}
	return r.value(), nil
}

// Review returns a review of a change request (by the request's id).
func (r reader) Review(ctx context.Context, changeRequestID, id string) (*quire.Review, error) {
	return scanOne[reviewRow, *quire.Review](ctx, r.q, "review", reviewSelect+" WHERE v.change_request_id = ? AND v.id = ?", changeRequestID, id)
}

// ReviewFilter narrows a list of reviews.
type ReviewFilter struct {
	Outdated *bool // nil for all
}

// ListReviews lists the reviews of a change request, newest first.
func (r reader) ListReviews(ctx context.Context, changeRequestID string, f ReviewFilter, p Page) (*List[*quire.Review], error) {
	where, args := " WHERE v.change_request_id = ?", []any{changeRequestID}
	if f.Outdated != nil {
		where += " AND v.outdated = ?"
		args = append(args, *f.Outdated)
	}
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM change_request_reviews v", reviewSelect, where, args,
		keysetOrder{key: "v.created_at", id: "v.id", desc: true, numeric: true}, p,
		scanWithCursor(scanReview, func(v *quire.Review) Cursor { return Cursor{Num: micros(v.CreatedAt), ID: v.ID} }))
}

// CurrentReviews returns the reviews of a change request that are not
// outdated (one at most per reviewer), oldest first: what merge rules read.
func (r reader) CurrentReviews(ctx context.Context, changeRequestID string) ([]*quire.Review, error) {
	rows, err := r.q.query(ctx, reviewSelect+" WHERE v.change_request_id = ? AND v.outdated = ? ORDER BY v.created_at, v.id", changeRequestID, false)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*quire.Review
	for rows.Next() {
		v, err := scanReview(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// NewReview is a review to submit.
type NewReview struct {
	SpaceID, ChangeRequest string // the request by id or number
	ReviewerID             string
	Status                 quire.ReviewStatus
	Comment                string // markdown of the comment posted with it; "" for none
}

// SubmitReview records a review of the request's current revision: the
// reviewer's earlier reviews become outdated, the review names who asked
// for it (if anyone did), and its comment is posted in the request's
// comments. A merged request takes no more reviews (CodeInvalid).
func (db *DB) SubmitReview(ctx context.Context, n NewReview) (*quire.Review, error) {
	return db.SubmitReviewChecked(ctx, n, nil)
}

// ReviewCheck judges a write of a change request's reviews or reviewers
// within its transaction, given the request as read under its lock, before
// anything is written; an error refuses the write. It may run again (a
// retried transaction): no side effects.
type ReviewCheck func(tx *Tx, c *quire.ChangeRequest) error

// SubmitReviewChecked is SubmitReview with check asked first, when not nil,
// whether the review may be written.
func (db *DB) SubmitReviewChecked(ctx context.Context, n NewReview, check ReviewCheck) (v *quire.Review, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		c, err := tx.lockedChangeRequest(ctx, n.SpaceID, n.ChangeRequest)
		if err != nil {
			return err
		}
		if check != nil {
			if err := check(tx, c); err != nil {
				return err
			}
		}
		if err := checkUnmerged(c); err != nil {
			return err
		}
		var commentID any
		if n.Comment != "" {
			if commentID, err = tx.CreateComment(ctx, NewComment{CommentScope: CommentScope{SpaceID: n.SpaceID, ChangeRequestID: c.ID},
				UserID: n.ReviewerID, Markdown: n.Comment, RevisionID: c.RevisionID}); err != nil {
				return err
			}
		}
		if err := tx.outdateReviews(ctx, c.ID, n.ReviewerID); err != nil {
			return err
		}
		var requestedBy sql.NullString
		if err := tx.q.queryRow(ctx, "SELECT requested_by FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?",
			c.ID, n.ReviewerID).Scan(&requestedBy); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		id := newID()
		if _, err := tx.q.exec(ctx, `INSERT INTO change_request_reviews (id, change_request_id, reviewer_id, requested_by, status,
			revision_id, comment_id, outdated, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, c.ID, n.ReviewerID, requestedBy, string(n.Status), c.RevisionID, commentID, false, micros(tx.Now), micros(tx.Now)); err != nil {
			return err
		}
		v, err = tx.Review(ctx, c.ID, id)
		return err
	})
	return v, err
}

// outdateReviews marks a reviewer's reviews of a request outdated.
func (tx *Tx) outdateReviews(ctx context.Context, changeRequestID, userID string) error {
	_, err := tx.q.exec(ctx, "UPDATE change_request_reviews SET outdated = ?, updated_at = ? WHERE change_request_id = ? AND reviewer_id = ? AND outdated = ?",
		true, micros(tx.Now), changeRequestID, userID, false)
	return err
}

const requestedReviewerSelect = `SELECT w.revision_id, w.created_at, ` + userColumns + `, q.id, q.display_name, q.email, q.photo_url, q.created_at
	FROM change_request_reviewers w JOIN users u ON u.id = w.user_id JOIN users q ON q.id = w.requested_by`

func scanRequestedReviewer(row interface{ Scan(...any) error }) (*quire.RequestedReviewer, error) {
	var w quire.RequestedReviewer
	var created, userAt, byAt int64
	dest := append(append([]any{&w.RevisionID, &created}, scanUser(&w.User, &userAt)...), scanUser(&w.RequestedBy, &byAt)...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	w.CreatedAt, w.User.CreatedAt, w.RequestedBy.CreatedAt = fromMicros(created), fromMicros(userAt), fromMicros(byAt)
	return &w, nil
}

// ListRequestedReviewers lists the users asked to review a change request,
// in the order they were asked.
func (r reader) ListRequestedReviewers(ctx context.Context, changeRequestID string, p Page) (*List[*quire.RequestedReviewer], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM change_request_reviewers w", requestedReviewerSelect,
		" WHERE w.change_request_id = ?", []any{changeRequestID},
		keysetOrder{key: "w.created_at", id: "w.user_id", numeric: true}, p,
		scanWithCursor(scanRequestedReviewer, func(w *quire.RequestedReviewer) Cursor {
			return Cursor{Num: micros(w.CreatedAt), ID: w.User.ID}
		}))
}

// RequestReviewers asks users to review a change request (by id), on behalf
// of byUserID, and sets its subject and description (markdown) when they
// are not nil. Asking a user again renews the request and outdates their
// reviews. It returns the requests as now recorded, in the order of users.
func (db *DB) RequestReviewers(ctx context.Context, spaceID, changeRequestID, byUserID string, users []string, subject, desc *string) ([]*quire.RequestedReviewer, error) {
	return db.RequestReviewersChecked(ctx, spaceID, changeRequestID, byUserID, users, subject, desc, nil)
}

// RequestReviewersChecked is RequestReviewers with check asked first, when
// not nil, whether the users may be asked.
func (db *DB) RequestReviewersChecked(ctx context.Context, spaceID, changeRequestID, byUserID string, users []string, subject, desc *string,
	check ReviewCheck) (out []*quire.RequestedReviewer, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		c, err := tx.lockedChangeRequest(ctx, spaceID, changeRequestID)
		if err != nil {
			return err
		}
		if check != nil {
			if err := check(tx, c); err != nil {
				return err
			}
		}
		if err := checkUnmerged(c); err != nil {
			return err
		}
		if subject != nil || desc != nil {
			set := map[string]any{"updated_at": micros(tx.Now)}
			if subject != nil {
				set["subject"] = *subject
			}
			if desc != nil {
				set["description"] = description(*desc)
			}
			if err := tx.update(ctx, "change_requests", "id", c.ID, set); err != nil {
				return err
			}
		}
		out = out[:0]
		for _, u := range users {
			if _, err := tx.q.exec(ctx, `INSERT INTO change_request_reviewers (change_request_id, user_id, requested_by, revision_id, created_at)
				VALUES (?, ?, ?, ?, ?) ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = excluded.requested_by,
				revision_id = excluded.revision_id, created_at = excluded.created_at`, c.ID, u, byUserID, c.RevisionID, micros(tx.Now)); err != nil {
				return err
			}
			if err := tx.outdateReviews(ctx, c.ID, u); err != nil {
				return err
			}
			w, err := scanRequestedReviewer(tx.q.queryRow(ctx, requestedReviewerSelect+" WHERE w.change_request_id = ? AND w.user_id = ?", c.ID, u))
			if err != nil {
				return err
			}
			out = append(out, w)
		}
		return nil
	})
	return out, err
}

// RemoveRequestedReviewer withdraws the request that userID review a change
// request (by id), reporting whether there was one.
func (db *DB) RemoveRequestedReviewer(ctx context.Context, changeRequestID, userID string) (removed bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "DELETE FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?", changeRequestID, userID)
		removed = n > 0
		return err
	})
	return removed, err
}

// ListContributors lists who wrote revisions of a change request (its
// creator first among equals), most recent contribution first.
func (r reader) ListContributors(ctx context.Context, changeRequestID string, p Page) (*List[*quire.Contributor], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM change_request_contributors k",
		"SELECT k.edits, k.updated_at, "+userColumns+" FROM change_request_contributors k JOIN users u ON u.id = k.user_id",
		" WHERE k.change_request_id = ?", []any{changeRequestID},
		keysetOrder{key: "k.updated_at", id: "k.user_id", desc: true, numeric: true}, p,
		scanWithCursor(func(row interface{ Scan(...any) error }) (*quire.Contributor, error) {
			var k quire.Contributor
			var at, userAt int64
			if err := row.Scan(append([]any{&k.Edits, &at}, scanUser(&k.User, &userAt)...)...); err != nil {
				return nil, err
			}
			k.UpdatedAt, k.User.CreatedAt = fromMicros(at), fromMicros(userAt)
			return &k, nil
		}, func(k *quire.Contributor) Cursor { return Cursor{Num: micros(k.UpdatedAt), ID: k.User.ID} }))
}

// ListCommenters lists the members of an organization who posted a comment
// or a reply in a scope (a space's own comments, or a change request's),
// most recently joined first, as ListMembers does by default.
func (r reader) ListCommenters(ctx context.Context, orgID string, s CommentScope, p Page) (*List[*quire.Member], error) {
	where := ` WHERE m.org_id = ? AND EXISTS (SELECT 1 FROM comments k
		WHERE k.space_id = ? AND k.change_request_id = ? AND k.posted_by = m.user_id)`
	list, err := listKeyset(ctx, r.q, "SELECT COUNT(*) FROM members m JOIN users u ON u.id = m.user_id", memberSelect, where,
		[]any{orgID, s.SpaceID, s.ChangeRequestID}, keysetOrder{key: "m.joined_at", id: "m.user_id", desc: true, numeric: true}, p,
		func(rows *sql.Rows) (*quire.Member, Cursor, error) {
			var row memberRow
			if err := rows.Scan(row.dest()...); err != nil {
				return nil, Cursor{}, err
			}
			return row.value(), Cursor{Num: row.joined, ID: row.m.User.ID}, nil
		})
	if err != nil {
		return nil, err
	}
	return list, r.fillSpaceCounts(ctx, orgID, list.Items...)
}

// RequestedReviewer reports whether userID is asked to review a change
// request (by id).
func (r reader) RequestedReviewer(ctx context.Context, changeRequestID, userID string) (bool, error) {
	var n int
	err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?",
		changeRequestID, userID).Scan(&n)
	return n > 0, err
}
