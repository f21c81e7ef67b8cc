package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// SetSiteCustomization replaces a site's customization (validated by the
// caller) and returns when it was set.
func (db *DB) SetSiteCustomization(ctx context.Context, siteID string, settings json.RawMessage) (updated time.Time, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		updated = tx.Now
		_, err := tx.q.exec(ctx, "UPDATE sites SET customization = ?, customization_updated_at = ? WHERE id = ?", string(settings), micros(tx.Now), siteID)
		return err
	})
	return updated, err
}

// SiteCustomizationUpdated is when a site's customization was last set; zero
// when never.
func (r reader) SiteCustomizationUpdated(ctx context.Context, siteID string) (time.Time, error) {
	var updated sql.NullInt64
	err := r.q.queryRow(ctx, "SELECT customization_updated_at FROM sites WHERE id = ?", siteID).Scan(&updated)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, quire.Errorf(quire.CodeNotFound, "site not found")
	}
	if err != nil || !updated.Valid {
		return time.Time{}, err
	}
	return fromMicros(updated.Int64), nil
}

// SiteSpaceCustomization returns a site space's overrides of its site's
// customization (nil when none) and when they were set.
func (r reader) SiteSpaceCustomization(ctx context.Context, siteID, id string) (json.RawMessage, time.Time, error) {
	var custom sql.NullString
	var updated sql.NullInt64
	err := r.q.queryRow(ctx, "SELECT customization, customization_updated_at FROM site_spaces WHERE site_id = ? AND id = ?", siteID, id).Scan(&custom, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, quire.Errorf(quire.CodeNotFound, "site space not found")
	}
	if err != nil || !custom.Valid {
		return nil, time.Time{}, err
	}
	return json.RawMessage(custom.String), fromMicros(updated.Int64), nil
}

// UpdateSiteSpaceCustomization replaces a site space's overrides with what
// change makes of the current ones (nil when none), in one transaction; a
// nil result removes them. It returns whether there were overrides before.
func (db *DB) UpdateSiteSpaceCustomization(ctx context.Context, siteID, id string,
	change func(current json.RawMessage) (json.RawMessage, error)) (had bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		current, _, err := tx.SiteSpaceCustomization(ctx, siteID, id)
		if err != nil {
			return err
		}
		had = current != nil
		next, err := change(current)
		if err != nil {
			return err
		}
		var value any
		var at any
		if next != nil {
			value, at = string(next), micros(tx.Now)
		}
		_, err = tx.q.exec(ctx, "UPDATE site_spaces SET customization = ?, customization_updated_at = ? WHERE site_id = ? AND id = ?", value, at, siteID, id)
		return err
	})
	return had, err
}
