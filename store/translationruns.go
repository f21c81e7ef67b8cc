package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// Translations (issue 19, the reference's Translation): a source space
// translated by the configured model into a target space made with the
// translation. A run is the row's state, as an import run's is
// (importruns.go): queued by POST …/run, claimed by a worker with a lease,
// claimed again when its worker dies, and written in the transaction that
// ends it (Tx.CompleteTranslationRun), so a run writes once.

// The states of a translation's row.
const (
	TranslationIdle    = "idle"    // no run waits nor goes on
	TranslationQueued  = "queued"  // a run waits for a worker
	TranslationRunning = "running" // a worker holds it
)

// MaxTranslations bounds an organization's translations: each one makes a
// space, and lists are read whole.
const MaxTranslations = 200

// Translation is one translation of an organization.
type Translation struct {
	ID, OrgID                     string
	SourceSpaceID, SourceLanguage string
	Language                      string
	Instructions                  json.RawMessage
	TargetSpaceID                 string
	State                         string
	Rerun                         bool
	RunBy                         string // who asked for the last run; "" when no longer a user
	ResultRevisionID              string // "" until a run completed
	LastStatus, LastReason        string // "completed" or "failed", once a run ended
	LastStartedAt, LastEndedAt    time.Time
	Runs                          int
	TotalWords, TotalPages        int64
	TotalDuration, LatestDuration int64 // seconds
	LatestPages                   int
	LatestWords                   int64
	CreatedBy                     string
	CreatedAt, UpdatedAt          time.Time
	Claim                         string
	Attempts                      int
}

// TranslationRunStats is what a completed run counts.
type TranslationRunStats struct {
	Pages int
	Words int64
}

const translationRowColumns = `id, org_id, source_space_id, source_language, language, instructions, target_space_id, state, rerun, run_by,
	result_revision_id, last_status, last_reason, last_started_at, last_ended_at, runs, total_words, total_pages, total_duration,
	latest_duration, latest_pages, latest_words, created_by, created_at, updated_at, claim, attempts`

func scanTranslation(row interface{ Scan(...any) error }) (*Translation, error) {
	var t Translation
	var instructions string
	var runBy, result, lastStatus, lastReason, by, claim sql.NullString
	var started, ended sql.NullInt64
	var created, updated int64
	if err := row.Scan(&t.ID, &t.OrgID, &t.SourceSpaceID, &t.SourceLanguage, &t.Language, &instructions, &t.TargetSpaceID, &t.State,
		&t.Rerun, &runBy, &result, &lastStatus, &lastReason, &started, &ended, &t.Runs, &t.TotalWords, &t.TotalPages, &t.TotalDuration,
		&t.LatestDuration, &t.LatestPages, &t.LatestWords, &by, &created, &updated, &claim, &t.Attempts); err != nil {
		return nil, err
	}
	t.Instructions = json.RawMessage(instructions)
	t.RunBy, t.ResultRevisionID, t.LastStatus, t.LastReason = runBy.String, result.String, lastStatus.String, lastReason.String
	t.CreatedBy, t.Claim = by.String, claim.String
	t.CreatedAt, t.UpdatedAt = fromMicros(created), fromMicros(updated)
	if started.Valid {
		t.LastStartedAt = fromMicros(started.Int64)
	}
	if ended.Valid {
		t.LastEndedAt = fromMicros(ended.Int64)
	}
	return &t, nil
}

// NewTranslation is what creating a translation takes. Queue queues its
// first run.
type NewTranslation struct {
	OrgID, SourceSpaceID, SourceLanguage, Language string
	Instructions                                   json.RawMessage
	UserID                                         string
	Queue                                          bool
}

// CreateTranslation records a translation with its target space: a new
// private space named after the source and the language, placed right after
// the source, with the source's visibility, default level and grants. The
// source must be a space of the organization, not deleted.
func (db *DB) CreateTranslation(ctx context.Context, n NewTranslation) (t *Translation, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		var count int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM translations WHERE org_id = ?", n.OrgID).Scan(&count); err != nil {
			return err
		}
		if count >= MaxTranslations {
			return quire.Errorf(quire.CodeInvalid, "the organization has %d translations, the most it may have; delete one first", MaxTranslations)
		}
		src, err := tx.Space(ctx, n.SourceSpaceID)
		if quire.ErrorCode(err) == quire.CodeNotFound || err == nil && (src.OrgID != n.OrgID || !src.DeletedAt.IsZero()) {
			return quire.Errorf(quire.CodeInvalid, "source.space: no space %q in this organization", n.SourceSpaceID)
		}
		if err != nil {
			return err
		}
		suffix := " (" + n.Language + ")"
		target, err := tx.createSpace(ctx, n.OrgID, NewSpace{Title: truncateRunes(src.Title, 50-len([]rune(suffix))) + suffix,
			Emoji: src.Emoji, ParentID: src.ParentID, EditMode: src.EditMode})
		if err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "UPDATE spaces SET visibility = ?, default_level = ? WHERE id = ?",
			string(src.Visibility), nullLevel(src.DefaultLevel), target.ID); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, `INSERT INTO content_grants (org_id, content_id, content_kind, principal_kind, principal_id, role, created_at)
				SELECT org_id, ?, content_kind, principal_kind, principal_id, role, ? FROM content_grants WHERE content_id = ?`,
			target.ID, micros(tx.Now), src.ID); err != nil {
			return err
		}
		if err := tx.move(ctx, quire.Sibling{Kind: "space", ID: target.ID}, src.OrgID, src.ParentID,
			quire.Position{After: &quire.Sibling{Kind: "space", ID: src.ID}}); err != nil {
			return err
		}
		id, now, state := newID(), micros(tx.Now), TranslationIdle
		if n.Queue {
			state = TranslationQueued
		}
		if _, err := tx.q.exec(ctx, `INSERT INTO translations (id, org_id, source_space_id, source_language, language, instructions,
			target_space_id, state, run_by, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, n.OrgID, src.ID, n.SourceLanguage, n.Language, string(n.Instructions), target.ID, state,
			nullString(n.UserID), nullString(n.UserID), now, now); err != nil {
			return err
		}
		t, err = tx.Translation(ctx, n.OrgID, id)
		return err
	})
	return t, err
}

// Translation is one translation of an organization.
func (r reader) Translation(ctx context.Context, orgID, id string) (*Translation, error) {
	return scanRow(ctx, r.q, "translation", scanTranslation, "SELECT "+translationRowColumns+" FROM translations WHERE org_id = ? AND id = ?", orgID, id)
}

// Translations are an organization's translations, oldest first (at most
// MaxTranslations, so read whole).
func (r reader) Translations(ctx context.Context, orgID string) ([]*Translation, error) {
	return scanRows(ctx, r.q, scanTranslation, "SELECT "+translationRowColumns+" FROM translations WHERE org_id = ? ORDER BY created_at, id", orgID)
}

// UpdateTranslation replaces a translation's instructions; the next run
// follows them.
func (db *DB) UpdateTranslation(ctx context.Context, orgID, id string, instructions json.RawMessage) (t *Translation, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "UPDATE translations SET instructions = ?, updated_at = ? WHERE org_id = ? AND id = ?",
			string(instructions), micros(tx.Now), orgID, id)
		if err != nil {
			return err
		}
		if n == 0 {
			return quire.Errorf(quire.CodeNotFound, "translation not found")
		}
		t, err = tx.Translation(ctx, orgID, id)
		return err
	})
	return t, err
}

// DeleteTranslation deletes a translation, with the language settings kept
// under its id, and reports whether there was one. Its target space stays:
// it is content of the organization now. A run going on writes nothing.
func (db *DB) DeleteTranslation(ctx context.Context, orgID, id string) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "DELETE FROM translations WHERE org_id = ? AND id = ?", orgID, id)
		if err != nil || n == 0 {
			return err
		}
		deleted = true
		_, err = tx.q.exec(ctx, "DELETE FROM translation_languages WHERE org_id = ? AND settings_id = ?", orgID, id)
		return err
	})
	return deleted, err
}

// QueueTranslationRun queues a run of a translation by the user: an idle
// one is queued; a queued one stays so; a running one runs again once this
// run ends, so that it sees what changed meanwhile. Each update is
// conditional on the state it changes, so a run ending meanwhile is never
// missed.
func (db *DB) QueueTranslationRun(ctx context.Context, orgID, id, userID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Translation(ctx, orgID, id); err != nil {
			return err
		}
		now := micros(tx.Now)
		for range 2 {
			n, err := tx.q.affected(ctx, "UPDATE translations SET rerun = ?, run_by = ?, updated_at = ? WHERE id = ? AND state = 'running'",
				true, nullString(userID), now, id)
			if err != nil || n > 0 {
				return err
			}
			n, err = tx.q.affected(ctx, "UPDATE translations SET state = ?, run_by = ?, attempts = 0, updated_at = ? WHERE id = ? AND state <> 'running'",
				TranslationQueued, nullString(userID), now, id)
			if err != nil || n > 0 {
				return err
			}
		}
		return quire.Errorf(quire.CodeConflict, "translationId: the translation's run is changing state; try again")
	})
}

// translationQueue is the queue of translation runs: a run waits queued,
// and is running while a worker holds it.
var translationQueue = &queue{
	kind: "translation run", table: "translations", alias: "t", key: "id",
	claim: "claim", until: "claimed_until", attempts: "attempts",
	ready: "t.state IN ('queued', 'running')", order: "t.updated_at, t.id",
	take:     "state = 'running', last_started_at = CASE WHEN state = 'queued' THEN ? ELSE last_started_at END",
	giveBack: "state = 'queued'",
	lost:     ErrTranslationRunLost,
	fail: func(ctx context.Context, tx *Tx, l Lease, reason string) error {
		return tx.endRun(ctx, &Translation{ID: l.ID, Claim: l.Claim}, "failed", reason, "", nil)
	},
}

// TranslationRunsDue reports, with a plain read, whether a run waits to be
// claimed.
func (db *DB) TranslationRunsDue(ctx context.Context) (bool, error) {
	return translationQueue.anyDue(ctx, db)
}

// ClaimTranslationRun claims, for lease, the translation queued longest, or
// a running one whose lease ran out; nil when there is none.
func (db *DB) ClaimTranslationRun(ctx context.Context, lease time.Duration) (*Translation, error) {
	return claimRow(ctx, db, translationQueue, lease, translationRowColumns, scanTranslation)
}

// Lease is the worker's claim of t's run.
func (t *Translation) Lease() Lease {
	return Lease{q: translationQueue, ID: t.ID, Claim: t.Claim, Attempts: t.Attempts}
}

// ErrTranslationRunLost reports a claimed run whose translation was deleted
// or whose lease ran out and was claimed by another worker: its worker stops
// and writes nothing.
var ErrTranslationRunLost = errors.New("the translation was deleted or its run taken by another worker")

// endRun ends t's claimed run as status, or fails with ErrTranslationRunLost
// when the claim no longer holds; a run asked for meanwhile (rerun) is
// queued, in the same statement, so that none is lost.
func (tx *Tx) endRun(ctx context.Context, t *Translation, status, reason, revision string, stats *TranslationRunStats) error {
	now := micros(tx.Now)
	set := `state = CASE WHEN rerun THEN 'queued' ELSE 'idle' END, rerun = ?, claim = NULL, claimed_until = NULL, attempts = 0,
		last_status = ?, last_reason = ?, last_ended_at = ?, updated_at = ?`
	args := []any{false, status, nullString(reason), now, now}
	if stats != nil {
		secs := int64(tx.Now.Sub(t.LastStartedAt).Round(time.Second) / time.Second)
		set += `, result_revision_id = ?, runs = runs + 1, total_words = total_words + ?, total_pages = total_pages + ?,
			total_duration = total_duration + ?, latest_duration = ?, latest_pages = ?, latest_words = ?`
		args = append(args, revision, stats.Words, stats.Pages, secs, secs, stats.Pages, stats.Words)
	}
	// The claim's condition, translationQueue.held(), spelled out: the
	// queue's give-up calls endRun.
	n, err := tx.q.affected(ctx, "UPDATE translations SET "+set+" WHERE id = ? AND claim = ?", append(args, t.ID, t.Claim)...)
	if err == nil && n == 0 {
		return ErrTranslationRunLost
	}
	return err
}

// CompleteTranslationRun records t's claimed run completed, within the
// transaction that wrote revision into the target space; ErrTranslationRunLost,
// which rolls the writing back, when the claim no longer holds.
func (tx *Tx) CompleteTranslationRun(ctx context.Context, t *Translation, revision string, stats TranslationRunStats) error {
	return tx.endRun(ctx, t, "completed", "", revision, &stats)
}
