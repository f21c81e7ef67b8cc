package store

import "context"

// ForgetVisitorKey makes a site look as one made before visitor keys were.
func (db *DB) ForgetVisitorKey(ctx context.Context, siteID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		_, err := tx.q.exec(ctx, "UPDATE sites SET visitor_key = NULL WHERE id = ?", siteID)
		return err
	})
}
