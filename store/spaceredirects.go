package store

import (
	"context"
	"database/sql"
	"errors"
)

// SpaceRedirects returns a space's redirects from .gitbook.yaml: former
// path → id of the page now there.
func (r reader) SpaceRedirects(ctx context.Context, spaceID string) (map[string]string, error) {
	rows, err := r.q.query(ctx, "SELECT source, page_id FROM space_redirects WHERE space_id = ?", spaceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var source, pageID string
		if err := rows.Scan(&source, &pageID); err != nil {
			return nil, err
		}
		out[source] = pageID
	}
	return out, rows.Err()
}

// SpaceRedirect returns the id of the page a former path of a space leads
// to; "" when it is not one of the space's redirects.
func (r reader) SpaceRedirect(ctx context.Context, spaceID, source string) (string, error) {
	var pageID string
	err := r.q.queryRow(ctx, "SELECT page_id FROM space_redirects WHERE space_id = ? AND source = ?", spaceID, source).Scan(&pageID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return pageID, err
}

// SetSpaceRedirects replaces a space's redirects.
func (tx *Tx) SetSpaceRedirects(ctx context.Context, spaceID string, redirects map[string]string) error {
	if _, err := tx.q.exec(ctx, "DELETE FROM space_redirects WHERE space_id = ?", spaceID); err != nil {
		return err
	}
	for source, pageID := range redirects {
		if _, err := tx.q.exec(ctx, "INSERT INTO space_redirects (space_id, source, page_id) VALUES (?, ?, ?)",
			spaceID, source, pageID); err != nil {
			return err
		}
	}
	return nil
}
