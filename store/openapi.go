package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/quiredocs/quire"
)

// API specifications (contract §4.16) and the durable job that processes
// them. The job lives on the spec's row (job_* columns, see migration 0008):
// a spec has at most one job, the processing of its current source.

const openAPISpecColumns = `p.id, p.org_id, p.slug, p.source_url, p.state, p.created_at, p.updated_at,
	p.last_version, p.last_processed_at, p.last_error_code, p.last_errors, p.last_error_count, p.visibility`

func scanOpenAPISpec(row interface{ Scan(...any) error }) (*quire.OpenAPISpec, error) {
	var p quire.OpenAPISpec
	var sourceURL, lastVersion, errorCode sql.NullString
	var created, updated int64
	var processed *int64
	var errs, visibility string
	if err := row.Scan(&p.ID, &p.OrgID, &p.Slug, &sourceURL, &p.State, &created, &updated,
		&lastVersion, &processed, &errorCode, &errs, &p.LastErrorCount, &visibility); err != nil {
		return nil, err
	}
	p.SourceURL, p.LastVersion, p.LastErrorCode = sourceURL.String, lastVersion.String, quire.SpecErrorCode(errorCode.String)
	p.Visibility = quire.SpecVisibility(visibility)
	p.CreatedAt, p.UpdatedAt, p.LastProcessedAt = fromMicros(created), fromMicros(updated), nullMicros(processed)
	if err := json.Unmarshal([]byte(errs), &p.LastErrors); err != nil {
		return nil, err
	}
	return &p, nil
}

// OpenAPISource is where a spec's document comes from: a URL to fetch, or
// the text itself. Exactly one is set.
type OpenAPISource struct {
	URL  string
	Text string
}

func (s OpenAPISource) args() (url, text any) {
	if s.URL != "" {
		return s.URL, nil
	}
	return nil, s.Text
}

// OpenAPISpec returns an organization's spec by slug.
func (r reader) OpenAPISpec(ctx context.Context, orgID, slug string) (*quire.OpenAPISpec, error) {
	p, err := scanOpenAPISpec(r.q.queryRow(ctx, "SELECT "+openAPISpecColumns+" FROM openapi_specs p WHERE p.org_id = ? AND p.slug = ?", orgID, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "API specification not found")
	}
	return p, err
}

// ListOpenAPISpecs lists an organization's specs, oldest first. (Not by
// slug: PostgreSQL's collation may weigh hyphens unlike SQLite's bytes.)
func (r reader) ListOpenAPISpecs(ctx context.Context, orgID string, p Page) (*List[*quire.OpenAPISpec], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM openapi_specs p", "SELECT "+openAPISpecColumns+" FROM openapi_specs p", " WHERE p.org_id = ?", []any{orgID},
		keysetOrder{key: "p.created_at", id: "p.id", numeric: true}, p,
		scanWithCursor(scanOpenAPISpec, func(s *quire.OpenAPISpec) Cursor { return Cursor{Num: micros(s.CreatedAt), ID: s.ID} }))
}

// CreateOpenAPISpec creates a spec and queues its processing. A slug the
// organization already uses is CodeConflict.
func (db *DB) CreateOpenAPISpec(ctx context.Context, orgID, slug string, src OpenAPISource) (*quire.OpenAPISpec, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		url, text := src.args()
		_, err := tx.q.exec(ctx, `INSERT INTO openapi_specs (id, org_id, slug, source_url, source_text, state, created_at, updated_at, job_due)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			newID(), orgID, slug, url, text, string(quire.SpecPending), micros(tx.Now), micros(tx.Now), micros(tx.Now))
		if quire.ErrorCode(err) == quire.CodeConflict {
			return &quire.Error{Code: quire.CodeConflict, Message: "slug: the organization already has an API specification " + slug, Err: err}
		}
		if err != nil {
			return err
		}
		return nil
	}, func(tx *Tx) (*quire.OpenAPISpec, error) { return tx.OpenAPISpec(ctx, orgID, slug) })
}

// PutOpenAPISpec creates the spec named slug, or gives an existing one a new
// source; either way it queues processing, and created tells which. A job
// in progress for the old source is superseded: its result is dropped.
func (db *DB) PutOpenAPISpec(ctx context.Context, orgID, slug string, src OpenAPISource) (p *quire.OpenAPISpec, created bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		url, text := src.args()
		now := micros(tx.Now)
		// ON CONFLICT DO NOTHING rather than look then insert: two PUTs of a
		// new slug at once on PostgreSQL then create one spec and update it.
		n, err := tx.q.affected(ctx, `INSERT INTO openapi_specs (id, org_id, slug, source_url, source_text, state, created_at, updated_at, job_due)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (org_id, slug) DO NOTHING`,
			newID(), orgID, slug, url, text, string(quire.SpecPending), now, now, now)
		if err != nil {
			return err
		}
		if created = n == 1; !created {
			if _, err := tx.q.exec(ctx, `UPDATE openapi_specs SET source_url = ?, source_text = ?, state = ?, updated_at = ?,
				job_due = ?, job_claim = NULL, job_claimed_until = NULL, job_attempts = 0 WHERE org_id = ? AND slug = ?`,
				url, text, string(quire.SpecPending), now, now, orgID, slug); err != nil {
				return err
			}
		}
		p, err = tx.OpenAPISpec(ctx, orgID, slug)
		return err
	})
	return p, created, err
}

// DeleteOpenAPISpec deletes a spec with its versions, and reports whether
// there was one. A job in progress for it finishes for nothing.
func (db *DB) DeleteOpenAPISpec(ctx context.Context, orgID, slug string) (deleted bool, err error) {
	return db.deleteSome(ctx, "DELETE FROM openapi_specs WHERE org_id = ? AND slug = ?", orgID, slug)
}

// UpdateOpenAPISpecVisibility sets a spec's visibility; a spec the
// organization does not have is CodeNotFound.
func (db *DB) UpdateOpenAPISpecVisibility(ctx context.Context, orgID, slug string, v quire.SpecVisibility) (*quire.OpenAPISpec, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "UPDATE openapi_specs SET visibility = ?, updated_at = ? WHERE org_id = ? AND slug = ?",
			string(v), micros(tx.Now), orgID, slug)
		if err == nil && n == 0 {
			err = quire.Errorf(quire.CodeNotFound, "API specification not found")
		}
		return err
	}, func(tx *Tx) (*quire.OpenAPISpec, error) { return tx.OpenAPISpec(ctx, orgID, slug) })
}

const openAPIVersionColumns = "id, spec_id, hash, format, source_url, created_at"

func scanOpenAPIVersion(row interface{ Scan(...any) error }, more ...any) (*quire.OpenAPISpecVersion, error) {
	var v quire.OpenAPISpecVersion
	var sourceURL sql.NullString
	var created int64
	if err := row.Scan(append([]any{&v.ID, &v.SpecID, &v.Hash, &v.Format, &sourceURL, &created}, more...)...); err != nil {
		return nil, err
	}
	v.SourceURL, v.CreatedAt = sourceURL.String, fromMicros(created)
	return &v, nil
}

// OpenAPISpecVersions lists all of a spec's versions, newest first, without
// their documents.
func (r reader) OpenAPISpecVersions(ctx context.Context, specID string) ([]*quire.OpenAPISpecVersion, error) {
	list, err := r.ListOpenAPISpecVersions(ctx, specID, Page{Limit: math.MaxInt32})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// ListOpenAPISpecVersions lists one page of a spec's versions, newest
// first, without their documents.
func (r reader) ListOpenAPISpecVersions(ctx context.Context, specID string, p Page) (*List[*quire.OpenAPISpecVersion], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM openapi_spec_versions", "SELECT "+openAPIVersionColumns+" FROM openapi_spec_versions",
		" WHERE spec_id = ?", []any{specID}, keysetOrder{key: "created_at", id: "id", desc: true, numeric: true}, p,
		scanWithCursor(func(row interface{ Scan(...any) error }) (*quire.OpenAPISpecVersion, error) {
			return scanOpenAPIVersion(row)
		},
			func(v *quire.OpenAPISpecVersion) Cursor { return Cursor{Num: micros(v.CreatedAt), ID: v.ID} }))
}

// OpenAPISpecVersion returns one version of a spec with its document.
func (r reader) OpenAPISpecVersion(ctx context.Context, specID, versionID string) (*quire.OpenAPISpecVersion, error) {
	var document string
	var jsonDocument sql.NullString
	v, err := scanOpenAPIVersion(r.q.queryRow(ctx, "SELECT "+openAPIVersionColumns+", document, json_document FROM openapi_spec_versions WHERE spec_id = ? AND id = ?",
		specID, versionID), &document, &jsonDocument)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "API specification version not found")
	}
	if err != nil {
		return nil, err
	}
	v.Document, v.JSONDocument = document, jsonDocument.String
	return v, nil
}

// OpenAPIJob is a claimed processing job: the spec's source as it was when
// claimed.
type OpenAPIJob struct {
	SpecID string
	// Claim identifies this claim; finishing checks it still holds.
	Claim  string
	Source OpenAPISource
	// Attempts counts the claims of this job, this one included: more than
	// one means a worker died (or gave up at shutdown) while holding it.
	Attempts int
}

// OpenAPIResult is what processing found: a document and its format, or
// an error code with messages.
type OpenAPIResult struct {
	Format   string
	Document string
	// JSON is Document converted to JSON when it is YAML, "" when it is
	// JSON already.
	JSON       string
	ErrorCode  quire.SpecErrorCode // "" on success
	Errors     []string            // the first messages
	ErrorCount int                 // how many in all
}

// openAPIQueue is the queue of processing jobs, which live on their
// spec's row: a spec has a job while job_due is set.
var openAPIQueue = &queue{
	kind: "API specification processing", table: "openapi_specs", alias: "p", key: "id",
	claim: "job_claim", until: "job_claimed_until", attempts: "job_attempts",
	ready: "p.job_due IS NOT NULL AND p.job_due <= ?", order: "p.job_due, p.id",
	take:     "state = '" + string(quire.SpecProgress) + "', updated_at = ?",
	giveBack: "state = '" + string(quire.SpecPending) + "', updated_at = ?",
	lost:     ErrOpenAPIJobLost,
	fail: func(ctx context.Context, tx *Tx, l Lease, reason string) error {
		return tx.finishOpenAPIJob(ctx, l, OpenAPISource{}, OpenAPIResult{ErrorCode: quire.SpecParseError, Errors: []string{reason}, ErrorCount: 1})
	},
}

// ErrOpenAPIJobLost reports a claimed job whose spec was deleted or given
// a new source, or whose lease ran out and was claimed by another worker.
var ErrOpenAPIJobLost = errors.New("the API specification was changed, deleted or taken by another worker")

// OpenAPIJobsDue reports, with a plain read, whether a job is waiting to be
// claimed, so idle workers do not take the write lock to find nothing.
func (db *DB) OpenAPIJobsDue(ctx context.Context) (bool, error) { return openAPIQueue.anyDue(ctx, db) }

// ClaimOpenAPIJob claims the oldest due job whose lease, if any, has run
// out, for lease; nil when there is none. The spec moves to progress.
func (db *DB) ClaimOpenAPIJob(ctx context.Context, lease time.Duration) (job *OpenAPIJob, err error) {
	l, err := openAPIQueue.claimNext(ctx, db, lease, func(tx *Tx, l Lease) error {
		var url, text sql.NullString
		if err := tx.q.queryRow(ctx, "SELECT source_url, source_text FROM openapi_specs WHERE id = ?", l.ID).Scan(&url, &text); err != nil {
			return err
		}
		job = &OpenAPIJob{SpecID: l.ID, Claim: l.Claim, Attempts: l.Attempts, Source: OpenAPISource{URL: url.String, Text: text.String}}
		return nil
	})
	if err != nil || l.ID == "" {
		return nil, err // none due, or a retried transaction found none
	}
	return job, nil
}

// Lease is the worker's claim of job.
func (job *OpenAPIJob) Lease() Lease {
	return Lease{q: openAPIQueue, ID: job.SpecID, Claim: job.Claim, Attempts: job.Attempts}
}

// FinishOpenAPIJob records the result of a claimed job: on success a new
// version, which becomes lastVersion; on failure the error, keeping the
// last good version. Either way the spec is complete. It reports false, and
// changes nothing, when the claim no longer holds: the spec was deleted, was
// given a new source, or its lease ran out and another worker claimed it.
func (db *DB) FinishOpenAPIJob(ctx context.Context, job *OpenAPIJob, res OpenAPIResult) (finished bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error { return tx.finishOpenAPIJob(ctx, job.Lease(), job.Source, res) })
	if errors.Is(err, ErrOpenAPIJobLost) {
		return false, nil
	}
	return err == nil, err
}

// finishOpenAPIJob is FinishOpenAPIJob, of the job l holds on a document
// from src, within tx; ErrOpenAPIJobLost when the claim no longer holds.
func (tx *Tx) finishOpenAPIJob(ctx context.Context, l Lease, src OpenAPISource, res OpenAPIResult) error {
	if err := tx.hold(ctx, l); err != nil {
		return err
	}
	now := micros(tx.Now)
	set := map[string]any{
		"state": string(quire.SpecComplete), "updated_at": now, "last_processed_at": now,
		"job_due": nil, "job_claim": nil, "job_claimed_until": nil, "job_attempts": 0,
	}
	if res.ErrorCode == "" {
		sum := sha256.Sum256([]byte(res.Document))
		version := newID()
		url, _ := src.args()
		var converted any
		if res.JSON != "" {
			converted = res.JSON
		}
		if _, err := tx.q.exec(ctx, `INSERT INTO openapi_spec_versions (id, spec_id, hash, format, document, json_document, source_url, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, version, l.ID, hex.EncodeToString(sum[:]), res.Format, res.Document, converted, url, now); err != nil {
			return err
		}
		set["last_version"], set["last_error_code"], set["last_errors"], set["last_error_count"] = version, nil, "[]", 0
		if err := tx.revalidateOpenAPI(ctx, l.ID); err != nil {
			return err
		}
	} else {
		errs := res.Errors
		if errs == nil {
			errs = []string{}
		}
		b, err := json.Marshal(errs)
		if err != nil {
			return err
		}
		set["last_error_code"], set["last_errors"], set["last_error_count"] = string(res.ErrorCode), string(b), max(res.ErrorCount, len(errs))
	}
	return tx.update(ctx, "openapi_specs", "id", l.ID, set)
}
