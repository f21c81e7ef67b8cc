package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"

	"github.com/quiredocs/quire"
)

// newVisitorKey returns a fresh key for signing visitor tokens: 32 random
// bytes as 64 hex digits, used by signers as text.
func newVisitorKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

// SitePublishingAuth returns how a site admits visitor-auth visitors, with
// its signing key, which is made here for a site that has none yet (one made
// before keys were).
func (db *DB) SitePublishingAuth(ctx context.Context, siteID string) (auth quire.SitePublishingAuth, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		auth, err = tx.sitePublishingAuth(ctx, siteID)
		return err
	})
	return auth, err
}

// sitePublishingAuth reads a site's publishing auth, first giving it a key
// when it has none.
func (tx *Tx) sitePublishingAuth(ctx context.Context, siteID string) (quire.SitePublishingAuth, error) {
	if _, err := tx.q.exec(ctx, "UPDATE sites SET visitor_key = ? WHERE id = ? AND visitor_key IS NULL", newVisitorKey(), siteID); err != nil {
		return quire.SitePublishingAuth{}, err
	}
	var key, fallback, logout, issuer sql.NullString
	err := tx.q.queryRow(ctx, "SELECT visitor_key, visitor_fallback_url, visitor_logout_url, visitor_issuer FROM sites WHERE id = ?", siteID).
		Scan(&key, &fallback, &logout, &issuer)
	if errors.Is(err, sql.ErrNoRows) {
		return quire.SitePublishingAuth{}, quire.Errorf(quire.CodeNotFound, "site not found")
	}
	return quire.SitePublishingAuth{Key: key.String, FallbackURL: fallback.String, LogoutURL: logout.String, Issuer: issuer.String}, err
}

// SitePublishingAuthUpdate is a partial update of a site's publishing auth;
// nil fields stay as they are and "" removes one.
type SitePublishingAuthUpdate struct {
	FallbackURL *string
	LogoutURL   *string
	Issuer      *string
}

// UpdateSitePublishingAuth applies u to a site's publishing auth.
func (db *DB) UpdateSitePublishingAuth(ctx context.Context, siteID string, u SitePublishingAuthUpdate) (quire.SitePublishingAuth, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		set := map[string]any{}
		for col, v := range map[string]*string{"visitor_fallback_url": u.FallbackURL, "visitor_logout_url": u.LogoutURL, "visitor_issuer": u.Issuer} {
			if v != nil {
				set[col] = nullString(*v)
			}
		}
		return tx.update(ctx, "sites", "id", siteID, set)
	}, func(tx *Tx) (quire.SitePublishingAuth, error) { return tx.sitePublishingAuth(ctx, siteID) })
}

// RegenerateSitePublishingAuth gives a site a new signing key: tokens signed
// with the old one are no longer valid.
func (db *DB) RegenerateSitePublishingAuth(ctx context.Context, siteID string) (quire.SitePublishingAuth, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "UPDATE sites SET visitor_key = ? WHERE id = ?", newVisitorKey(), siteID)
		return err
	}, func(tx *Tx) (quire.SitePublishingAuth, error) { return tx.sitePublishingAuth(ctx, siteID) })
}
