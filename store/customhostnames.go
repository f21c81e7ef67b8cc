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

// SaveHostnameCheck keeps the outcome of a DNS check of siteID's
// hostname. A check that proved it marks it verified, and the published
// sites serve it; one that did not takes the mark off once the hostname
// has gone unproved for longer than grace, so that a record lost for a
// while (a DNS outage, a zone being moved) does not take the site down.
func (db *DB) SaveHostnameCheck(ctx context.Context, siteID, hostname string, verified bool, status, detail string, grace time.Duration) (*HostnameCheck, error) {
	var c *HostnameCheck
	err := db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "DELETE FROM custom_hostname_checks WHERE hostname = ?", hostname); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "INSERT INTO custom_hostname_checks (hostname, status, detail, checked_at) VALUES (?, ?, ?, ?)",
			hostname, status, detail, micros(tx.Now))
		if err != nil {
			return err
		}
		c = &HostnameCheck{Status: status, Detail: detail, CheckedAt: tx.Now}
		if verified {
			_, err = tx.q.exec(ctx, "UPDATE sites SET hostname_verified_at = ? WHERE id = ? AND hostname = ?", micros(tx.Now), siteID, hostname)
		} else {
			_, err = tx.q.exec(ctx, "UPDATE sites SET hostname_verified_at = NULL WHERE id = ? AND hostname = ? AND hostname_verified_at <= ?",
				siteID, hostname, micros(tx.Now.Add(-grace)))
		}
		return err
	})
	return c, err
}

// HostnameVerifiedAt returns when siteID's hostname was last proved its
// own while it is served, zero while it is not.
func (r reader) HostnameVerifiedAt(ctx context.Context, siteID string) (time.Time, error) {
	var at sql.NullInt64
	err := r.q.queryRow(ctx, "SELECT hostname_verified_at FROM sites WHERE id = ?", siteID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) || !at.Valid {
		return time.Time{}, nil
	}
	return fromMicros(at.Int64), err
}

// SiteHostname is a site's custom hostname.
type SiteHostname struct {
	SiteID, OrgID, Hostname string
}

// SiteHostnames lists the custom hostnames of all sites, for checking
// again.
func (r reader) SiteHostnames(ctx context.Context) ([]SiteHostname, error) {
	rows, err := r.q.query(ctx, "SELECT id, org_id, hostname FROM sites WHERE hostname IS NOT NULL ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SiteHostname
	for rows.Next() {
		var h SiteHostname
		if err := rows.Scan(&h.SiteID, &h.OrgID, &h.Hostname); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
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
