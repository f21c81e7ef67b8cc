package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/quiredocs/quire"
)

const siteRedirectColumns = "id, site_id, source, section_id, created_at, updated_at"

func scanSiteRedirect(row interface{ Scan(...any) error }) (*quire.SiteRedirect, error) {
	var rd quire.SiteRedirect
	var created int64
	var updated *int64
	if err := row.Scan(&rd.ID, &rd.SiteID, &rd.Source, &rd.SectionID, &created, &updated); err != nil {
		return nil, err
	}
	rd.CreatedAt, rd.UpdatedAt = fromMicros(created), nullMicros(updated)
	return &rd, nil
}

// SiteRedirect returns a redirect of a site by id.
func (r reader) SiteRedirect(ctx context.Context, siteID, id string) (*quire.SiteRedirect, error) {
	rd, err := scanSiteRedirect(r.q.queryRow(ctx, "SELECT "+siteRedirectColumns+" FROM site_redirects WHERE id = ? AND site_id = ?", id, siteID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "site redirect not found")
	}
	return rd, err
}

// SiteRedirectBySource returns the redirect of a site from a source path.
func (r reader) SiteRedirectBySource(ctx context.Context, siteID, source string) (*quire.SiteRedirect, error) {
	rd, err := scanSiteRedirect(r.q.queryRow(ctx, "SELECT "+siteRedirectColumns+" FROM site_redirects WHERE site_id = ? AND source = ?", siteID, source))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "no redirect from %s", source)
	}
	return rd, err
}

// ListSiteRedirects lists the redirects of a site by source.
func (r reader) ListSiteRedirects(ctx context.Context, siteID string, p Page) (*List[*quire.SiteRedirect], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM site_redirects", "SELECT "+siteRedirectColumns+" FROM site_redirects", " WHERE site_id = ?", []any{siteID},
		keysetOrder{key: "source", id: "id"}, p,
		scanWithCursor(scanSiteRedirect, func(rd *quire.SiteRedirect) Cursor { return Cursor{Str: rd.Source, ID: rd.ID} }))
}

// checkRedirect checks that a source is free in the site (but for the
// redirect id) and that the destination is a section of the site.
func (tx *Tx) checkRedirect(ctx context.Context, siteID, id string, source, sectionID *string) error {
	if source != nil {
		var n int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM site_redirects WHERE site_id = ? AND source = ? AND id <> ?", siteID, *source, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return quire.Errorf(quire.CodeConflict, "source: the site already redirects %s", *source)
		}
	}
	if sectionID != nil {
		if _, _, err := tx.siteSection(ctx, siteID, *sectionID); err != nil {
			if quire.ErrorCode(err) == quire.CodeNotFound {
				return quire.Errorf(quire.CodeInvalid, "destination.siteSectionId: no section %q in the site", *sectionID)
			}
			return err
		}
	}
	return nil
}

// CreateSiteRedirect adds a redirect from source to a section of the site.
func (db *DB) CreateSiteRedirect(ctx context.Context, siteID, source, sectionID string) (rd *quire.SiteRedirect, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if err := tx.checkRedirect(ctx, siteID, "", &source, &sectionID); err != nil {
			return err
		}
		id := newID()
		if _, err := tx.q.exec(ctx, "INSERT INTO site_redirects (id, site_id, source, section_id, created_at) VALUES (?, ?, ?, ?, ?)",
			id, siteID, source, sectionID, micros(tx.Now)); err != nil {
			return err
		}
		rd, err = tx.SiteRedirect(ctx, siteID, id)
		return err
	})
	return rd, err
}

// UpdateSiteRedirect changes a redirect's source or destination section (nil: unchanged).
func (db *DB) UpdateSiteRedirect(ctx context.Context, siteID, id string, source, sectionID *string) (*quire.SiteRedirect, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		if _, err := tx.SiteRedirect(ctx, siteID, id); err != nil {
			return err
		}
		if err := tx.checkRedirect(ctx, siteID, id, source, sectionID); err != nil {
			return err
		}
		set := map[string]any{"updated_at": micros(tx.Now)}
		if source != nil {
			set["source"] = *source
		}
		if sectionID != nil {
			set["section_id"] = *sectionID
		}
		return tx.update(ctx, "site_redirects", "id", id, set)
	}, func(tx *Tx) (*quire.SiteRedirect, error) { return tx.SiteRedirect(ctx, siteID, id) })
}

// DeleteSiteRedirect removes a redirect of a site.
func (db *DB) DeleteSiteRedirect(ctx context.Context, siteID, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		res, err := tx.q.exec(ctx, "DELETE FROM site_redirects WHERE id = ? AND site_id = ?", id, siteID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return quire.Errorf(quire.CodeNotFound, "site redirect not found")
		}
		return nil
	})
}

// RedirectOp is one operation of a bulk upsert: the redirect from Source to
// the section SectionID, or, when SectionID is nil, none (delete). A non
// empty Refused is why the caller refuses it; it is reported, not done.
type RedirectOp struct {
	Source    string
	SectionID *string
	Refused   string
}

// RedirectResult is what became of one RedirectOp: Status created, updated,
// deleted or error (with Error); ID is the redirect's, but for deleted and
// error.
type RedirectResult struct {
	Status, Source, ID, Error string
}

// UpsertSiteRedirects applies ops in order in one transaction, each on its
// own: one that cannot be done (refused, a section not in the site, nothing
// to delete) is reported as an error and the others are still done.
func (db *DB) UpsertSiteRedirects(ctx context.Context, siteID string, ops []RedirectOp) (results []RedirectResult, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		results = make([]RedirectResult, 0, len(ops))
		if err := tx.touchSite(ctx, siteID); err != nil {
			return err
		}
		for _, op := range ops {
			res, err := tx.upsertRedirect(ctx, siteID, op)
			if err != nil {
				return err
			}
			results = append(results, res)
		}
		return nil
	})
	return results, err
}

func (tx *Tx) upsertRedirect(ctx context.Context, siteID string, op RedirectOp) (RedirectResult, error) {
	res := RedirectResult{Source: op.Source, Status: "error"}
	if op.Refused != "" {
		res.Error = op.Refused
		return res, nil
	}
	var id string
	err := tx.q.queryRow(ctx, "SELECT id FROM site_redirects WHERE site_id = ? AND source = ?", siteID, op.Source).Scan(&id)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return res, err
	}
	if op.SectionID == nil {
		if id == "" {
			res.Error = "no redirect from " + op.Source
			return res, nil
		}
		_, err := tx.q.exec(ctx, "DELETE FROM site_redirects WHERE id = ?", id)
		res.Status = "deleted"
		return res, err
	}
	if err := tx.checkRedirect(ctx, siteID, id, nil, op.SectionID); err != nil {
		if quire.ErrorCode(err) == quire.CodeInvalid {
			res.Error = quire.ErrorMessage(err)
			return res, nil
		}
		return res, err
	}
	if id != "" {
		res.Status, res.ID = "updated", id
		return res, tx.update(ctx, "site_redirects", "id", id, map[string]any{"section_id": *op.SectionID, "updated_at": micros(tx.Now)})
	}
	res.Status, res.ID = "created", newID()
	_, err = tx.q.exec(ctx, "INSERT INTO site_redirects (id, site_id, source, section_id, created_at) VALUES (?, ?, ?, ?, ?)",
		res.ID, siteID, op.Source, *op.SectionID, micros(tx.Now))
	return res, err
}
