package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// HostnameCheck is the last DNS check of a custom hostname.
type HostnameCheck struct {
	Status, Detail string
	CheckedAt      time.Time
}

// HostnameCheck returns the last check of hostname, nil when none.
func (r reader) HostnameCheck(ctx context.Context, hostname string) (*HostnameCheck, error) {
	var c HostnameCheck
	var at int64
	err := r.q.queryRow(ctx, "SELECT status, detail, checked_at FROM custom_hostname_checks WHERE hostname = ?", hostname).Scan(&c.Status, &c.Detail, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	c.CheckedAt = fromMicros(at)
	return &c, err
}

// SaveHostnameCheck keeps the outcome of a DNS check of hostname.
func (db *DB) SaveHostnameCheck(ctx context.Context, hostname, status, detail string) (*HostnameCheck, error) {
	var c *HostnameCheck
	err := db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "DELETE FROM custom_hostname_checks WHERE hostname = ?", hostname); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "INSERT INTO custom_hostname_checks (hostname, status, detail, checked_at) VALUES (?, ?, ?, ?)",
			hostname, status, detail, micros(tx.Now))
		c = &HostnameCheck{Status: status, Detail: detail, CheckedAt: tx.Now}
		return err
	})
	return c, err
}

// RemoveSiteHostname takes hostname off the site it serves, reporting
// whether one did; its last check goes with it.
func (db *DB) RemoveSiteHostname(ctx context.Context, siteID, hostname string) (removed bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "UPDATE sites SET hostname = NULL, version = version + 1, updated_at = ? WHERE id = ? AND hostname = ?",
			micros(tx.Now), siteID, hostname)
		if err != nil || n == 0 {
			return err
		}
		removed = true
		_, err = tx.q.exec(ctx, "DELETE FROM custom_hostname_checks WHERE hostname = ?", hostname)
		return err
	})
	return removed, err
}
