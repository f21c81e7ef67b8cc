package store

import (
	"context"
	"database/sql"

	"github.com/quiredocs/quire"
)

const collectionColumns = `c.id, c.org_id, c.parent_id, c.path, c.title, c.description, c.default_level,
	c.position, c.created_at, c.updated_at, c.deleted_at`

type collectionRow struct {
	c                quire.Collection
	parent, level    sql.NullString
	path             string
	position         int64
	created, updated int64
	deleted          *int64
}

func (r *collectionRow) dest() []any {
	c := &r.c
	return []any{&c.ID, &c.OrgID, &r.parent, &r.path, &c.Title, &c.Description, &r.level,
		&r.position, &r.created, &r.updated, &r.deleted}
}

func (r *collectionRow) value() *quire.Collection {
	c := r.c
	c.ParentID, c.Ancestors = r.parent.String, ancestorsOf(r.path)
	c.DefaultLevel = quire.DefaultLevel(r.level.String)
	c.CreatedAt, c.UpdatedAt, c.DeletedAt = fromMicros(r.created), fromMicros(r.updated), nullMicros(r.deleted)
	return &c
}

func (r *collectionRow) cursor() Cursor { return Cursor{Str: r.path, Num: r.position, ID: r.c.ID} }

// Collection returns a collection by id, deleted or not.
func (r reader) Collection(ctx context.Context, id string) (*quire.Collection, error) {
	return scanOne[collectionRow, *quire.Collection](ctx, r.q, "collection", "SELECT "+collectionColumns+" FROM collections c WHERE c.id = ?", id)
}

// CollectionFilter narrows a collection list.
type CollectionFilter struct {
	TopLevelOnly bool          // Contract §4.7: nested=false lists only top-level collections
	VisibleTo    *quire.Viewer // as in SpaceFilter
}

// ListCollections lists the live collections of an organization in tree order.
func (r reader) ListCollections(ctx context.Context, orgID string, f CollectionFilter, p Page) (*List[*quire.Collection], error) {
	where, args := " WHERE c.org_id = ? AND c.deleted_at IS NULL", []any{orgID}
	if f.TopLevelOnly {
		where += " AND c.parent_id IS NULL"
	}
	vis, visArgs := visibleClause("c", f.VisibleTo)
	return listInTree[collectionRow, *quire.Collection](ctx, r.q, "collections", "c", collectionColumns, where+vis, append(args, visArgs...), p)
}

// CreateCollection creates a collection at the end of its parent's children.
func (db *DB) CreateCollection(ctx context.Context, orgID, title, parentID string) (c *quire.Collection, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		path, err := tx.childPath(ctx, orgID, parentID)
		if err != nil {
			return err
		}
		pos, err := tx.endPosition(ctx, orgID, parentID)
		if err != nil {
			return err
		}
		id := newID()
		if _, err := tx.q.exec(ctx, `INSERT INTO collections (id, org_id, parent_id, path, title, default_level, position, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, orgID, nullString(parentID), path, title, string(quire.LevelInherit), pos,
			micros(tx.Now), micros(tx.Now)); err != nil {
			return err
		}
		c, err = tx.Collection(ctx, id)
		return err
	})
	return c, err
}

// CollectionUpdate is a partial update; nil fields stay as they are.
type CollectionUpdate struct {
	Title        *string
	Description  *string
	DefaultLevel *quire.DefaultLevel
}

// UpdateCollection applies u to a collection.
func (db *DB) UpdateCollection(ctx context.Context, id string, u CollectionUpdate) (*quire.Collection, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		set := map[string]any{"updated_at": micros(tx.Now)}
		if u.Title != nil {
			set["title"] = *u.Title
		}
		if u.Description != nil {
			set["description"] = *u.Description
		}
		if u.DefaultLevel != nil {
			set["default_level"] = nullLevel(*u.DefaultLevel)
		}
		return tx.update(ctx, "collections", "id", id, set)
	}, func(tx *Tx) (*quire.Collection, error) { return tx.Collection(ctx, id) })
}

// DeleteCollection marks a collection deleted together with every live
// collection and space inside it, at one time: each of those spaces can be
// restored for RestoreWindow, and all of it is purged after.
func (db *DB) DeleteCollection(ctx context.Context, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		c, err := tx.Collection(ctx, id)
		if err != nil {
			return err
		}
		prefix := pathOf(append(c.Ancestors, c.ID)) + "%"
		now := micros(tx.Now)
		if _, err := tx.q.exec(ctx, "UPDATE collections SET deleted_at = ? WHERE deleted_at IS NULL AND (id = ? OR path LIKE ?)", now, id, prefix); err != nil {
			return err
		}
		if _, err = tx.q.exec(ctx, "UPDATE spaces SET deleted_at = ? WHERE deleted_at IS NULL AND path LIKE ?", now, prefix); err != nil {
			return err
		}
		return tx.unpublishSpaces(ctx, "s.path LIKE ?", prefix) // see sitespaces.go
	})
}
