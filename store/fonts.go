package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// Font is one of an organization's custom fonts.
type Font struct {
	ID, OrgID, Family, CreatedBy string
	Faces                        []FontFace // by weight
	CreatedAt, UpdatedAt         time.Time
}

// FontFace is a font's file for one weight.
type FontFace struct {
	Weight int
	Blob   string
	Format string // woff2 or woff
	Size   int64
}

// FontFaceChange sets (Face) or removes (nil Face) the face of a weight.
type FontFaceChange struct {
	Weight int
	Face   *FontFace
}

// CreateFont records a new font of orgID with its faces.
func (db *DB) CreateFont(ctx context.Context, orgID, family, createdBy string, faces []FontFace) (*Font, error) {
	id := newID()
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "INSERT INTO custom_fonts (id, org_id, family, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
			id, orgID, family, createdBy, micros(tx.Now), micros(tx.Now)); err != nil {
			return err
		}
		for _, f := range faces {
			if err := tx.putFace(ctx, id, f); err != nil {
				return err
			}
		}
		return nil
	}, func(tx *Tx) (*Font, error) { return tx.Font(ctx, orgID, id) })
}

func (tx *Tx) putFace(ctx context.Context, fontID string, f FontFace) error {
	if _, err := tx.q.exec(ctx, "DELETE FROM custom_font_faces WHERE font_id = ? AND weight = ?", fontID, f.Weight); err != nil {
		return err
	}
	_, err := tx.q.exec(ctx, "INSERT INTO custom_font_faces (font_id, weight, blob, format, size) VALUES (?, ?, ?, ?, ?)",
		fontID, f.Weight, f.Blob, f.Format, f.Size)
	return err
}

// UpdateFont renames a font (family not "") and sets or removes faces; a
// font keeps its regular (400) face.
func (db *DB) UpdateFont(ctx context.Context, orgID, id, family string, changes []FontFaceChange) (*Font, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if _, err := tx.Font(ctx, orgID, id); err != nil {
			return err
		}
		if family != "" {
			if _, err := tx.q.exec(ctx, "UPDATE custom_fonts SET family = ? WHERE id = ?", family, id); err != nil {
				return err
			}
		}
		for _, c := range changes {
			var err error
			if c.Face == nil {
				_, err = tx.q.exec(ctx, "DELETE FROM custom_font_faces WHERE font_id = ? AND weight = ?", id, c.Weight)
			} else {
				err = tx.putFace(ctx, id, *c.Face)
			}
			if err != nil {
				return err
			}
		}
		var regular int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM custom_font_faces WHERE font_id = ? AND weight = 400", id).Scan(&regular); err != nil {
			return err
		}
		if regular == 0 {
			return quire.Errorf(quire.CodePreconditionFailed, "fontFaces: a font keeps a face of weight 400 (regular)")
		}
		_, err := tx.q.exec(ctx, "UPDATE custom_fonts SET updated_at = ? WHERE id = ?", micros(tx.Now), id)
		return err
	}, func(tx *Tx) (*Font, error) { return tx.Font(ctx, orgID, id) })
}

// DeleteFont deletes a font of orgID, reporting whether there was one.
func (db *DB) DeleteFont(ctx context.Context, orgID, id string) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "DELETE FROM custom_fonts WHERE org_id = ? AND id = ?", orgID, id)
		deleted = n > 0
		return err
	})
	return deleted, err
}

// Font returns a font of orgID with its faces.
func (r reader) Font(ctx context.Context, orgID, id string) (*Font, error) {
	f := &Font{ID: id, OrgID: orgID}
	var created, updated int64
	err := r.q.queryRow(ctx, "SELECT family, created_by, created_at, updated_at FROM custom_fonts WHERE org_id = ? AND id = ?", orgID, id).
		Scan(&f.Family, &f.CreatedBy, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "font not found")
	}
	if err != nil {
		return nil, err
	}
	f.CreatedAt, f.UpdatedAt = fromMicros(created), fromMicros(updated)
	rows, err := r.q.query(ctx, "SELECT weight, blob, format, size FROM custom_font_faces WHERE font_id = ? ORDER BY weight", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var face FontFace
		if err := rows.Scan(&face.Weight, &face.Blob, &face.Format, &face.Size); err != nil {
			return nil, err
		}
		f.Faces = append(f.Faces, face)
	}
	return f, rows.Err()
}

// ListFonts lists an organization's fonts by family.
func (r reader) ListFonts(ctx context.Context, orgID string, p Page) (*List[*Font], error) {
	list, err := listKeyset(ctx, r.q, "SELECT COUNT(*) FROM custom_fonts f", "SELECT f.id, f.family FROM custom_fonts f",
		" WHERE f.org_id = ?", []any{orgID}, keysetOrder{key: "f.family", id: "f.id"}, p,
		func(rows *sql.Rows) (*Font, Cursor, error) {
			var f Font
			err := rows.Scan(&f.ID, &f.Family)
			return &f, Cursor{Str: f.Family, ID: f.ID}, err
		})
	if err != nil {
		return nil, err
	}
	for i, f := range list.Items {
		if list.Items[i], err = r.Font(ctx, orgID, f.ID); err != nil {
			return nil, err
		}
	}
	return list, nil
}
