package store

import (
	"context"

	"github.com/quiredocs/quire"
)

// Transaction-level forms of the change-request writes, so that one
// transaction can create a request, edit it and merge it (a website import
// into a space, which must leave nothing behind when any step fails).
//
// They repeat the bodies of DB.CreateChangeRequest, DB.EditChangeRequest and
// DB.MergeChangeRequest (changerequests.go, merge.go); those should become
// db.Tx(ctx, func(tx *Tx) error { c, err = tx.X(…); return err }), so that
// the SQL is written once.

// CreateChangeRequest is DB.CreateChangeRequest within tx.
func (tx *Tx) CreateChangeRequest(ctx context.Context, spaceID, subject, userID string) (*quire.ChangeRequest, error) {
	// Writing the space's row first serializes numbering on PostgreSQL.
	if _, err := tx.q.exec(ctx, "UPDATE spaces SET updated_at = updated_at WHERE id = ?", spaceID); err != nil {
		return nil, err
	}
	var revision string
	var number int64
	if err := tx.q.queryRow(ctx, `SELECT s.revision_id, (SELECT COALESCE(MAX(number), 0) + 1 FROM change_requests WHERE space_id = s.id)
		FROM spaces s WHERE s.id = ?`, spaceID).Scan(&revision, &number); err != nil {
		return nil, err
	}
	id := newID()
	if _, err := tx.q.exec(ctx, `INSERT INTO change_requests (id, space_id, number, status, subject, created_by, created_at, updated_at,
		revision_id, revision_initial) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, spaceID, number, string(quire.StatusDraft), subject, userID, micros(tx.Now), micros(tx.Now), revision, revision); err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "INSERT INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)", id, userID); err != nil {
		return nil, err
	}
	return tx.ChangeRequest(ctx, spaceID, id)
}

// EditChangeRequest is DB.EditChangeRequest within tx.
func (tx *Tx) EditChangeRequest(ctx context.Context, spaceID, ref, userID string, edit EditFunc) (*quire.ChangeRequest, error) {
	c, err := tx.lockChangeRequest(ctx, spaceID, ref)
	if err != nil {
		return nil, err
	}
	head, err := tx.revisionTree(ctx, spaceID, c.RevisionID)
	if err != nil {
		return nil, err
	}
	next, err := edit(tx.Now, head.Clone())
	if err != nil {
		return nil, err
	}
	rev, err := tx.addRevision(ctx, spaceID, []string{c.RevisionID}, RevisionEdits, next, "", userID)
	if err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "UPDATE change_requests SET revision_id = ?, updated_at = ? WHERE id = ?", rev.ID, micros(tx.Now), c.ID); err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, `INSERT INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)
		ON CONFLICT DO NOTHING`, c.ID, userID); err != nil {
		return nil, err
	}
	return tx.ChangeRequest(ctx, spaceID, c.ID)
}

// MergeChangeRequest is DB.MergeChangeRequest within tx.
func (tx *Tx) MergeChangeRequest(ctx context.Context, spaceID, ref, userID string) (*quire.ChangeRequest, error) {
	// The space's row first: merges into one space apply one at a time.
	var head string
	if err := tx.q.queryRow(ctx, "UPDATE spaces SET updated_at = ? WHERE id = ? RETURNING revision_id", micros(tx.Now), spaceID).Scan(&head); err != nil {
		return nil, err
	}
	c, err := tx.lockChangeRequest(ctx, spaceID, ref)
	if err != nil {
		return nil, err
	}
	merged, err := tx.merge3(ctx, spaceID, c.Base(), head, c.RevisionID)
	if err != nil {
		return nil, err
	}
	rev, err := tx.addRevision(ctx, spaceID, []string{head, c.RevisionID}, RevisionMerge, merged, c.ID, userID)
	if err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "UPDATE spaces SET revision_id = ? WHERE id = ?", rev.ID, spaceID); err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "UPDATE change_requests SET status = ?, revision_merged = ?, updated_at = ? WHERE id = ?",
		string(quire.StatusMerged), rev.ID, micros(tx.Now), c.ID); err != nil {
		return nil, err
	}
	return tx.ChangeRequest(ctx, spaceID, c.ID)
}
