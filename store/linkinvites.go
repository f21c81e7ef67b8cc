package store

import (
	"context"
	"database/sql"

	"github.com/quiredocs/quire"
)

// linkInviteColumns read a link invite of link_invites li.
const linkInviteColumns = "li.id, li.org_id, li.space_id, li.collection_id, li.role, li.created_by, li.created_at"

type linkInviteRow struct {
	li                      quire.LinkInvite
	space, collection, role sql.NullString
	createdBy               sql.NullString
	created                 int64
}

func (r *linkInviteRow) dest() []any {
	return []any{&r.li.ID, &r.li.OrgID, &r.space, &r.collection, &r.role, &r.createdBy, &r.created}
}

func (r *linkInviteRow) value() *quire.LinkInvite {
	li := r.li
	li.Target = quire.TargetOrganization
	switch {
	case r.space.Valid:
		li.Target, li.TargetID = quire.TargetSpace, r.space.String
	case r.collection.Valid:
		li.Target, li.TargetID = quire.TargetCollection, r.collection.String
	}
	li.Role, li.CreatedBy, li.CreatedAt = quire.Role(r.role.String), r.createdBy.String, fromMicros(r.created)
	return &li
}

// linkInviteLive keeps the link invites whose space or collection is still
// in their organization (a transferred one has left it).
const linkInviteLive = ` AND (li.space_id IS NULL OR EXISTS (SELECT 1 FROM spaces s WHERE s.id = li.space_id AND s.org_id = li.org_id))
	AND (li.collection_id IS NULL OR EXISTS (SELECT 1 FROM collections c WHERE c.id = li.collection_id AND c.org_id = li.org_id))`

// CreateLinkInvite makes a link invite, li's ID, CreatedAt and Key set
// here, and returns it with its key.
func (db *DB) CreateLinkInvite(ctx context.Context, li quire.LinkInvite) (*quire.LinkInvite, error) {
	err := db.Tx(ctx, func(tx *Tx) error {
		var hash string
		li.ID, li.CreatedAt = newID(), tx.Now
		li.Key, hash = newInviteKey()
		var space, collection sql.NullString
		switch li.Target {
		case quire.TargetSpace:
			space = nullString(li.TargetID)
		case quire.TargetCollection:
			collection = nullString(li.TargetID)
		}
		_, err := tx.q.exec(ctx, `INSERT INTO link_invites (id, hash, org_id, space_id, collection_id, role, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, li.ID, hash, li.OrgID, space, collection, nullRole(li.Role), nullString(li.CreatedBy), micros(tx.Now))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &li, nil
}

// LinkInvite returns a link invite of an organization by id.
func (r reader) LinkInvite(ctx context.Context, orgID, id string) (*quire.LinkInvite, error) {
	return scanOne[linkInviteRow, *quire.LinkInvite](ctx, r.q, "invite",
		"SELECT "+linkInviteColumns+" FROM link_invites li WHERE li.org_id = ? AND li.id = ?"+linkInviteLive, orgID, id)
}

// ListLinkInvites lists the link invites to an organization itself, oldest
// first: the reference's list holds only those (InviteLinkToOrganization);
// a space's or collection's is read by id.
func (r reader) ListLinkInvites(ctx context.Context, orgID string, p Page) (*List[*quire.LinkInvite], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM link_invites li", "SELECT "+linkInviteColumns+" FROM link_invites li",
		" WHERE li.org_id = ? AND li.space_id IS NULL AND li.collection_id IS NULL", []any{orgID}, keysetOrder{key: "li.created_at", id: "li.id", numeric: true}, p,
		func(rows *sql.Rows) (*quire.LinkInvite, Cursor, error) {
			var row linkInviteRow
			if err := rows.Scan(row.dest()...); err != nil {
				return nil, Cursor{}, err
			}
			return row.value(), Cursor{Num: row.created, ID: row.li.ID}, nil
		})
}

// UpdateLinkInvite sets the role (or level) a link invite gives.
func (db *DB) UpdateLinkInvite(ctx context.Context, orgID, id string, role quire.Role) (li *quire.LinkInvite, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.LinkInvite(ctx, orgID, id); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "UPDATE link_invites SET role = ? WHERE org_id = ? AND id = ?", nullRole(role), orgID, id); err != nil {
			return err
		}
		li, err = tx.LinkInvite(ctx, orgID, id)
		return err
	})
	return li, err
}

// DeleteLinkInvite deletes a link invite, after which its link joins no
// one; it reports whether there was one.
func (db *DB) DeleteLinkInvite(ctx context.Context, orgID, id string) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "DELETE FROM link_invites WHERE org_id = ? AND id = ?", orgID, id)
		deleted = n > 0
		return err
	})
	return deleted, err
}
