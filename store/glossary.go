package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/quiredocs/quire"
)

// The translation glossary of an organization (issue 19, the reference's
// GlossaryEntry): terms and how each language says them, which translation
// runs keep to. Bounded by MaxGlossaryEntries, so read whole.

// MaxGlossaryEntries bounds an organization's glossary.
const MaxGlossaryEntries = 1000

// GlossaryEntry is one term of a glossary: language code → term.
type GlossaryEntry struct {
	ID, OrgID            string
	Translations         map[string]string
	CreatedAt, UpdatedAt time.Time
}

// GlossaryOp is one operation of a glossary batch: Type insert (with
// Translations), update (ID and Translations) or delete (ID).
type GlossaryOp struct {
	Type         string
	ID           string
	Translations map[string]string
}

const glossaryColumns = "id, org_id, translations, created_at, updated_at"

func scanGlossaryEntry(row interface{ Scan(...any) error }) (*GlossaryEntry, error) {
	var g GlossaryEntry
	var terms string
	var created, updated int64
	if err := row.Scan(&g.ID, &g.OrgID, &terms, &created, &updated); err != nil {
		return nil, err
	}
	g.CreatedAt, g.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &g, json.Unmarshal([]byte(terms), &g.Translations)
}

// GlossaryEntry is one entry of an organization's glossary.
func (r reader) GlossaryEntry(ctx context.Context, orgID, id string) (*GlossaryEntry, error) {
	return scanRow(ctx, r.q, "glossary entry", scanGlossaryEntry, "SELECT "+glossaryColumns+" FROM glossary_entries WHERE org_id = ? AND id = ?", orgID, id)
}

// GlossaryEntries are the whole glossary of an organization, oldest first.
func (r reader) GlossaryEntries(ctx context.Context, orgID string) ([]*GlossaryEntry, error) {
	return scanRows(ctx, r.q, scanGlossaryEntry, "SELECT "+glossaryColumns+" FROM glossary_entries WHERE org_id = ? ORDER BY created_at, id", orgID)
}

// UpdateGlossary applies a batch of operations in one transaction: all of
// them or none. An update or delete of an id the glossary lacks is a 400
// naming operations[i].id, and so is a glossary grown past
// MaxGlossaryEntries.
func (db *DB) UpdateGlossary(ctx context.Context, orgID string, ops []GlossaryOp) error {
	return db.Tx(ctx, func(tx *Tx) error {
		now := micros(tx.Now)
		for i, op := range ops {
			terms, err := json.Marshal(op.Translations)
			if err != nil {
				return err
			}
			var n int64
			switch op.Type {
			case "insert":
				// Entries inserted by one batch keep its order: created_at
				// ties, ids are not ordered, so each gets its own microsecond.
				n, err = tx.q.affected(ctx, "INSERT INTO glossary_entries ("+glossaryColumns+") VALUES (?, ?, ?, ?, ?)",
					newID(), orgID, string(terms), now+int64(i), now+int64(i))
			case "update":
				n, err = tx.q.affected(ctx, "UPDATE glossary_entries SET translations = ?, updated_at = ? WHERE org_id = ? AND id = ?",
					string(terms), now, orgID, op.ID)
			case "delete":
				n, err = tx.q.affected(ctx, "DELETE FROM glossary_entries WHERE org_id = ? AND id = ?", orgID, op.ID)
			default:
				return fmt.Errorf("glossary: operation %q", op.Type)
			}
			if err != nil {
				return err
			}
			if n == 0 {
				return quire.Errorf(quire.CodeInvalid, "operations[%d].id: no glossary entry %q", i, op.ID)
			}
		}
		var count int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM glossary_entries WHERE org_id = ?", orgID).Scan(&count); err != nil {
			return err
		}
		if count > MaxGlossaryEntries {
			return quire.Errorf(quire.CodeInvalid, "operations: the glossary would have %d entries, more than the %d it may have", count, MaxGlossaryEntries)
		}
		return nil
	})
}
