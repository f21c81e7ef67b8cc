package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/quiredocs/quire"
)

const translationColumns = "org_id, settings_id, language, instructions, created_at, updated_at"

func scanTranslationLanguage(row interface{ Scan(...any) error }) (*quire.TranslationLanguage, error) {
	var t quire.TranslationLanguage
	var doc string
	var created, updated int64
	if err := row.Scan(&t.OrgID, &t.SettingsID, &t.Language, &doc, &created, &updated); err != nil {
		return nil, err
	}
	t.Document, t.CreatedAt, t.UpdatedAt = json.RawMessage(doc), fromMicros(created), fromMicros(updated)
	return &t, nil
}

// TranslationLanguage returns the settings of one language of an
// organization's translation configuration.
func (r reader) TranslationLanguage(ctx context.Context, orgID, settingsID, language string) (*quire.TranslationLanguage, error) {
	t, err := scanTranslationLanguage(r.q.queryRow(ctx, "SELECT "+translationColumns+
		" FROM translation_languages WHERE org_id = ? AND settings_id = ? AND language = ?", orgID, settingsID, language))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "translation language not found")
	}
	return t, err
}

// ListTranslationLanguages lists the languages of a translation
// configuration by language code; an id with none lists nothing.
func (r reader) ListTranslationLanguages(ctx context.Context, orgID, settingsID string, p Page) (*List[*quire.TranslationLanguage], error) {
	const from = " FROM translation_languages"
	return listKeyset(ctx, r.q, "SELECT COUNT(*)"+from, "SELECT "+translationColumns+from, " WHERE org_id = ? AND settings_id = ?", []any{orgID, settingsID},
		keysetOrder{key: "language", id: "language"}, p,
		scanWithCursor(scanTranslationLanguage, func(t *quire.TranslationLanguage) Cursor { return Cursor{Str: t.Language, ID: t.Language} }))
}

// PutTranslationLanguage sets a language's instructions in a translation
// configuration, creating the language (and so the configuration) when it is
// new, and reports whether it was.
func (db *DB) PutTranslationLanguage(ctx context.Context, orgID, settingsID, language string, instructions json.RawMessage) (t *quire.TranslationLanguage, created bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		now := micros(tx.Now)
		n, err := tx.q.affected(ctx, "INSERT INTO translation_languages ("+translationColumns+") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
			orgID, settingsID, language, string(instructions), now, now)
		if err != nil {
			return err
		}
		if created = n > 0; !created {
			if _, err := tx.q.exec(ctx, "UPDATE translation_languages SET instructions = ?, updated_at = ? WHERE org_id = ? AND settings_id = ? AND language = ?",
				string(instructions), now, orgID, settingsID, language); err != nil {
				return err
			}
		}
		t, err = tx.TranslationLanguage(ctx, orgID, settingsID, language)
		return err
	})
	return t, created, err
}

// DeleteTranslationLanguage removes a language from a translation
// configuration.
func (db *DB) DeleteTranslationLanguage(ctx context.Context, orgID, settingsID, language string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if n, err := tx.q.affected(ctx, "DELETE FROM translation_languages WHERE org_id = ? AND settings_id = ? AND language = ?", orgID, settingsID, language); err != nil {
			return err
		} else if n == 0 {
			return quire.Errorf(quire.CodeNotFound, "translation language not found")
		}
		return nil
	})
}
