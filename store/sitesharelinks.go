package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/quiredocs/quire"
)

// ShareLink is one of a site's share links: whoever shows its key reads the
// published share-link site while the link is active.
type ShareLink struct {
	ID        string
	SiteID    string
	Name      string
	Key       string
	Active    bool
	CreatedAt time.Time
}

// maxShareLinks bounds the links of one site, so that checking a visitor's
// key stays a small read.
const maxShareLinks = 100

const shareLinkColumns = "l.id, l.site_id, l.name, l.share_key, l.active, l.created_at"

func scanShareLink(row interface{ Scan(...any) error }) (*ShareLink, error) {
	var l ShareLink
	var created int64
	if err := row.Scan(&l.ID, &l.SiteID, &l.Name, &l.Key, &l.Active, &created); err != nil {
		return nil, err
	}
	l.CreatedAt = fromMicros(created)
	return &l, nil
}

// loadShareKeys fills the keys of a share-link site's active links; other
// sites need none, and skip the read.
func (r reader) loadShareKeys(ctx context.Context, s *quire.Site) error {
	if s.Visibility != quire.VisibilityShareLink {
		return nil
	}
	rows, err := r.q.query(ctx, "SELECT share_key FROM site_share_links WHERE site_id = ? AND active = ? ORDER BY created_at, id", s.ID, true)
	if err != nil {
		return err
	}
	return eachRow(rows, func(rows *sql.Rows) error {
		var key string
		if err := rows.Scan(&key); err != nil {
			return err
		}
		s.ShareKeys = append(s.ShareKeys, key)
		return nil
	})
}

func (tx *Tx) insertShareLink(ctx context.Context, siteID, id, name, key string) error {
	_, err := tx.q.exec(ctx, "INSERT INTO site_share_links (id, site_id, name, share_key, active, created_at) VALUES (?, ?, ?, ?, ?, ?)",
		id, siteID, name, key, true, micros(tx.Now))
	return err
}

// ListShareLinks lists a site's share links, oldest first; search keeps
// those whose name contains it, in any case.
func (r reader) ListShareLinks(ctx context.Context, siteID, search string, p Page) (*List[*ShareLink], error) {
	where, args := " WHERE l.site_id = ?", []any{siteID}
	if search != "" {
		where += ` AND LOWER(l.name) LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscaper.Replace(strings.ToLower(search))+"%")
	}
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM site_share_links l", "SELECT "+shareLinkColumns+" FROM site_share_links l", where, args,
		keysetOrder{key: "l.created_at", id: "l.id", numeric: true}, p,
		scanWithCursor(scanShareLink, func(l *ShareLink) Cursor { return Cursor{Num: micros(l.CreatedAt), ID: l.ID} }))
}

// CreateShareLink adds an active share link, with a new key, to a site.
func (db *DB) CreateShareLink(ctx context.Context, siteID, name string) (*ShareLink, error) {
	id := newID()
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		var n int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_share_links WHERE site_id = ?", siteID).Scan(&n); err != nil {
			return err
		}
		if n >= maxShareLinks {
			return quire.Errorf(quire.CodeInvalid, "name: a site has at most %d share links; delete one first", maxShareLinks)
		}
		return tx.insertShareLink(ctx, siteID, id, name, newShareKey())
	}, func(tx *Tx) (*ShareLink, error) { return tx.shareLink(ctx, siteID, id) })
}

func (r reader) shareLink(ctx context.Context, siteID, id string) (*ShareLink, error) {
	l, err := scanShareLink(r.q.queryRow(ctx, "SELECT "+shareLinkColumns+" FROM site_share_links l WHERE l.site_id = ? AND l.id = ?", siteID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "share link not found")
	}
	return l, err
}

// UpdateShareLink renames a share link or (de)activates it; nil fields stay.
func (db *DB) UpdateShareLink(ctx context.Context, siteID, id string, name *string, active *bool) (*ShareLink, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if _, err := tx.shareLink(ctx, siteID, id); err != nil {
			return err
		}
		if name != nil {
			if _, err := tx.q.exec(ctx, "UPDATE site_share_links SET name = ? WHERE id = ?", *name, id); err != nil {
				return err
			}
		}
		if active != nil {
			if _, err := tx.q.exec(ctx, "UPDATE site_share_links SET active = ? WHERE id = ?", *active, id); err != nil {
				return err
			}
		}
		return nil
	}, func(tx *Tx) (*ShareLink, error) { return tx.shareLink(ctx, siteID, id) })
}

// DeleteShareLink removes a share link; deleted is false when there was none.
func (db *DB) DeleteShareLink(ctx context.Context, siteID, id string) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		res, err := tx.q.exec(ctx, "DELETE FROM site_share_links WHERE site_id = ? AND id = ?", siteID, id)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		deleted = n > 0
		return nil
	})
	return deleted, err
}
