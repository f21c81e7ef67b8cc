package store

import "context"

// ForgetVisitorKey makes a site look as one made before visitor keys were.
func (db *DB) ForgetVisitorKey(ctx context.Context, siteID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		_, err := tx.q.exec(ctx, "UPDATE sites SET visitor_key = NULL WHERE id = ?", siteID)
		return err
	})
}

// InviteHashes returns what org_invites keeps of an organization's invite keys.
func (db *DB) InviteHashes(ctx context.Context, orgID string) ([]string, error) {
	rows, err := db.q.query(ctx, "SELECT hash FROM org_invites WHERE org_id = ?", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// QueueRevalidation queues a revalidation call of tags to a site, as a
// change to it does.
func (db *DB) QueueRevalidation(ctx context.Context, siteID string, tags ...string) error {
	return db.Tx(ctx, func(tx *Tx) error { return tx.queueRevalidation(ctx, siteID, tags) })
}
