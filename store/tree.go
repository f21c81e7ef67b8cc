package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/quiredocs/quire"
)

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	if string(b) == "null" {
		return "[]"
	}
	return string(b)
}

// childPath is the path of a new child of parentID ("" for the top level),
// which must be a live collection of the organization.
func (tx *Tx) childPath(ctx context.Context, orgID, parentID string) (string, error) {
	if parentID == "" {
		return "", nil
	}
	c, err := tx.liveCollection(ctx, orgID, parentID)
	if err != nil {
		return "", err
	}
	return pathOf(append(c.Ancestors, c.ID)), nil
}

// liveCollection returns a collection of the organization that is not deleted.
func (r reader) liveCollection(ctx context.Context, orgID, id string) (*quire.Collection, error) {
	c, err := r.Collection(ctx, id)
	if err == nil && (c.OrgID != orgID || !c.DeletedAt.IsZero()) {
		err = quire.Errorf(quire.CodeNotFound, "collection not found")
	}
	return c, err
}

// childrenOf is the condition on spaces or collections for the children of a
// parent ("" for the top level), written so that an index serves it.
func childrenOf(orgID, parentID string) (string, []any) {
	if parentID == "" {
		return "org_id = ? AND path = ''", []any{orgID}
	}
	return "parent_id = ?", []any{parentID}
}

// siblings lists the live children of a parent ("" for the top level) in order.
func (r reader) siblings(ctx context.Context, orgID, parentID string) ([]quire.Sibling, []int64, error) {
	cond, args := childrenOf(orgID, parentID)
	rows, err := r.q.query(ctx, `SELECT 'space', id, position FROM spaces WHERE `+cond+` AND deleted_at IS NULL
		UNION ALL SELECT 'collection', id, position FROM collections WHERE `+cond+` AND deleted_at IS NULL
		ORDER BY 3, 2`, append(args, args...)...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var sibs []quire.Sibling
	var positions []int64
	for rows.Next() {
		var s quire.Sibling
		var pos int64
		if err := rows.Scan(&s.Kind, &s.ID, &pos); err != nil {
			return nil, nil, err
		}
		sibs, positions = append(sibs, s), append(positions, pos)
	}
	return sibs, positions, rows.Err()
}

// endPosition is the position after every child of a parent.
func (tx *Tx) endPosition(ctx context.Context, orgID, parentID string) (int64, error) {
	var max sql.NullInt64
	cond, args := childrenOf(orgID, parentID)
	err := tx.q.queryRow(ctx, `SELECT MAX(p) FROM (
		SELECT MAX(position) AS p FROM spaces WHERE `+cond+`
		UNION ALL SELECT MAX(position) AS p FROM collections WHERE `+cond+`) m`, append(args, args...)...).Scan(&max)
	return max.Int64 + 1, err
}

func tableOf(kind string) string {
	if kind == "collection" {
		return "collections"
	}
	return "spaces"
}

// move puts item under parentID ("" for the top level of orgID) at pos,
// renumbering the siblings whose place changed, and re-roots the paths of
// everything below a moved collection.
func (tx *Tx) move(ctx context.Context, item quire.Sibling, orgID, parentID string, pos quire.Position) error {
	path, err := tx.childPath(ctx, orgID, parentID)
	if err != nil {
		return err
	}
	sibs, positions, err := tx.siblings(ctx, orgID, parentID)
	if err != nil {
		return err
	}
	placements, err := quire.Renumber(sibs, positions, item, pos)
	if err != nil {
		return err
	}
	for _, p := range placements {
		if _, err := tx.q.exec(ctx, "UPDATE "+tableOf(p.Kind)+" SET position = ? WHERE id = ?", p.Position, p.ID); err != nil {
			return err
		}
	}
	var oldPath string
	if err := tx.q.queryRow(ctx, "SELECT path FROM "+tableOf(item.Kind)+" WHERE id = ?", item.ID).Scan(&oldPath); err != nil {
		return err
	}
	if _, err := tx.q.exec(ctx, "UPDATE "+tableOf(item.Kind)+" SET org_id = ?, parent_id = ?, path = ?, updated_at = ? WHERE id = ?",
		orgID, nullString(parentID), path, micros(tx.Now), item.ID); err != nil {
		return err
	}
	if item.Kind == "collection" {
		return tx.reroot(ctx, oldPath+item.ID+"/", path+item.ID+"/", orgID)
	}
	return nil
}

// reroot rewrites the path prefix of every descendant of a moved collection
// (ids hold no LIKE wildcards) and moves them to orgID.
func (tx *Tx) reroot(ctx context.Context, oldPrefix, newPrefix, orgID string) error {
	for _, table := range []string{"collections", "spaces"} {
		if _, err := tx.q.exec(ctx, "UPDATE "+table+" SET path = CAST(? AS TEXT) || substr(path, CAST(? AS INTEGER)), org_id = ? WHERE path LIKE ?",
			newPrefix, len(oldPrefix)+1, orgID, oldPrefix+"%"); err != nil {
			return err
		}
	}
	return nil
}

// MoveSpace moves a live space under parentID ("" for the top level) at pos.
// A space with in-collection visibility moved to the top level becomes private.
func (db *DB) MoveSpace(ctx context.Context, id, parentID string, pos quire.Position) (*quire.Space, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error { return tx.MoveSpace(ctx, id, parentID, pos) },
		func(tx *Tx) (*quire.Space, error) { return tx.Space(ctx, id) })
}

// MoveSpace is DB.MoveSpace in tx.
func (tx *Tx) MoveSpace(ctx context.Context, id, parentID string, pos quire.Position) error {
	sp, err := tx.Space(ctx, id)
	if err != nil {
		return err
	}
	if err := tx.move(ctx, quire.Sibling{Kind: "space", ID: id}, sp.OrgID, parentID, pos); err != nil {
		return err
	}
	if parentID == "" && sp.Visibility == quire.VisibilityInCollection {
		if _, err := tx.q.exec(ctx, "UPDATE spaces SET visibility = ? WHERE id = ?", string(quire.VisibilityPrivate), id); err != nil {
			return err
		}
	}
	return nil
}

// MoveCollection moves a live collection under parentID ("" for the top
// level) at pos. A collection cannot move into itself or its descendants.
func (db *DB) MoveCollection(ctx context.Context, id, parentID string, pos quire.Position) (*quire.Collection, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error { return tx.MoveCollection(ctx, id, parentID, pos) },
		func(tx *Tx) (*quire.Collection, error) { return tx.Collection(ctx, id) })
}

// MoveCollection is DB.MoveCollection in tx.
func (tx *Tx) MoveCollection(ctx context.Context, id, parentID string, pos quire.Position) error {
	c, err := tx.Collection(ctx, id)
	if err != nil {
		return err
	}
	if parentID != "" {
		target, err := tx.liveCollection(ctx, c.OrgID, parentID)
		if err != nil {
			return err
		}
		if target.ID == id || contains(target.Ancestors, id) {
			return quire.Errorf(quire.CodeInvalid, "parent: a collection cannot move into itself or its descendants")
		}
	}
	return tx.move(ctx, quire.Sibling{Kind: "collection", ID: id}, c.OrgID, parentID, pos)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TransferSpace moves a live space to the top level of another organization.
// Its grants, given to people and teams of the old one, are dropped.
func (db *DB) TransferSpace(ctx context.Context, id, orgID string) (*quire.Space, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error { return tx.TransferSpace(ctx, id, orgID) },
		func(tx *Tx) (*quire.Space, error) { return tx.Space(ctx, id) })
}

// TransferSpace is DB.TransferSpace in tx.
func (tx *Tx) TransferSpace(ctx context.Context, id, orgID string) error {
	if err := tx.move(ctx, quire.Sibling{Kind: "space", ID: id}, orgID, "", quire.Position{}); err != nil {
		return err
	}
	if _, err := tx.q.exec(ctx, "UPDATE spaces SET visibility = ? WHERE id = ? AND visibility = ?",
		string(quire.VisibilityPrivate), id, string(quire.VisibilityInCollection)); err != nil {
		return err
	}
	if _, err := tx.q.exec(ctx, "DELETE FROM content_grants WHERE content_id = ?", id); err != nil {
		return err
	}
	return tx.unpublishSpaces(ctx, "s.id = ?", id) // sites of the old organization
}

// TransferCollection moves a live collection, with everything in it, to the
// top level of another organization, dropping the grants on all of it.
func (db *DB) TransferCollection(ctx context.Context, id, orgID string) (*quire.Collection, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error { return tx.TransferCollection(ctx, id, orgID) },
		func(tx *Tx) (*quire.Collection, error) { return tx.Collection(ctx, id) })
}

// TransferCollection is DB.TransferCollection in tx.
func (tx *Tx) TransferCollection(ctx context.Context, id, orgID string) error {
	c, err := tx.Collection(ctx, id)
	if err != nil {
		return err
	}
	prefix := pathOf(append(c.Ancestors, c.ID))
	if _, err := tx.q.exec(ctx, `DELETE FROM content_grants WHERE content_id = ?
		OR content_id IN (SELECT id FROM spaces WHERE path LIKE ?)
		OR content_id IN (SELECT id FROM collections WHERE path LIKE ?)`, id, prefix+"%", prefix+"%"); err != nil {
		return err
	}
	if err := tx.unpublishSpaces(ctx, "s.path LIKE ?", prefix+"%"); err != nil { // sites of the old organization
		return err
	}
	return tx.move(ctx, quire.Sibling{Kind: "collection", ID: id}, orgID, "", quire.Position{})
}
