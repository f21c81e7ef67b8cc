package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/quiredocs/quire"
)

// Renderer revalidation (issue 30). A site may name the revalidation
// endpoint of the GitBook renderer that serves it, with the secret that
// signs calls to it. A write that changes what the site shows queues, in
// its own transaction, a call naming the cache tags of what changed: every
// write to a site does (touchSite: site:X), and so do a merge into a
// space the site publishes and a change of what the site shows of the
// space (space:S and site:X, since the site's published structure names
// the space's revision), and a new version of one of its organization's
// API specifications (organization:O:openapi:SLUG). Workers (jobs.Revalidator) claim
// due calls with a lease and make them.

// SiteRevalidation is a site's renderer endpoint and the outcome of the
// last call to it.
type SiteRevalidation struct {
	SiteID    string
	URL       string
	Secret    []byte // sealed
	CreatedAt time.Time
	UpdatedAt time.Time
	// LastAttemptAt is when the last call was tried, zero before any;
	// LastStatus the renderer's answer (0 when none came), LastError why it
	// failed ("" when it did not).
	LastAttemptAt time.Time
	LastStatus    int
	LastError     string
	Pending       int // calls waiting to be made
}

// MaxRevalidationTags bounds the tags of one call: a call waiting takes the
// tags of later changes up to this many, then a new call is queued.
const MaxRevalidationTags = 64

// SiteRevalidation reads a site's revalidation endpoint; not found when it
// has none.
func (db *DB) SiteRevalidation(ctx context.Context, siteID string) (*SiteRevalidation, error) {
	return readSiteRevalidation(ctx, db.reader, siteID)
}

func readSiteRevalidation(ctx context.Context, q reader, siteID string) (*SiteRevalidation, error) {
	var r SiteRevalidation
	var secret string
	var created, updated int64
	var last sql.NullInt64
	err := q.q.queryRow(ctx, `SELECT r.site_id, r.url, r.secret, r.created_at, r.updated_at, r.last_attempt_at, r.last_status, r.last_error,
		(SELECT COUNT(*) FROM site_revalidation_calls c WHERE c.site_id = r.site_id)
		FROM site_revalidation r WHERE r.site_id = ?`, siteID).Scan(&r.SiteID, &r.URL, &secret, &created, &updated, &last, &r.LastStatus, &r.LastError, &r.Pending)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "the site has no revalidation endpoint")
	}
	if err != nil {
		return nil, err
	}
	if r.Secret, err = base64.StdEncoding.DecodeString(secret); err != nil {
		return nil, fmt.Errorf("site %s revalidation secret: %w", siteID, err)
	}
	r.CreatedAt, r.UpdatedAt = fromMicros(created), fromMicros(updated)
	if last.Valid {
		r.LastAttemptAt = fromMicros(last.Int64)
	}
	return &r, nil
}

// SetSiteRevalidation sets a site's revalidation endpoint: its URL and its
// secret, sealed. The outcome of earlier calls is forgotten; calls waiting
// go to the new endpoint.
func (db *DB) SetSiteRevalidation(ctx context.Context, siteID, url string, sealedSecret []byte) (*SiteRevalidation, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		var n int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM sites WHERE id = ?", siteID).Scan(&n); err != nil || n == 0 {
			if err == nil {
				err = quire.Errorf(quire.CodeNotFound, "site not found")
			}
			return err
		}
		now, secret := micros(tx.Now), base64.StdEncoding.EncodeToString(sealedSecret)
		_, err := tx.q.exec(ctx, `INSERT INTO site_revalidation (site_id, url, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (site_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, updated_at = excluded.updated_at,
			last_attempt_at = NULL, last_status = 0, last_error = ''`, siteID, url, secret, now, now)
		return err
	}, func(tx *Tx) (*SiteRevalidation, error) { return readSiteRevalidation(ctx, tx.reader, siteID) })
}

// DeleteSiteRevalidation removes a site's revalidation endpoint, and the
// calls waiting for it; not found when it has none.
func (db *DB) DeleteSiteRevalidation(ctx context.Context, siteID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "DELETE FROM site_revalidation WHERE site_id = ?", siteID)
		if err == nil && n == 0 {
			err = quire.Errorf(quire.CodeNotFound, "the site has no revalidation endpoint")
		}
		return err
	})
}

// revalidateSite queues a call of the site's own tag, when the site has a
// revalidation endpoint: its structure, customization, publishing,
// redirects or settings changed. One indexed read when it has none.
func (tx *Tx) revalidateSite(ctx context.Context, siteID string) error {
	return tx.revalidate(ctx, "r.site_id = ?", siteID, func(site string) []string { return []string{quire.CacheTagSite(site)} })
}

// revalidateSpace queues a call to each site publishing the space that
// has a revalidation endpoint, naming the space, more, and the site, whose
// published structure names the space's revision: the space changed.
func (tx *Tx) revalidateSpace(ctx context.Context, spaceID string, more ...string) error {
	return tx.revalidate(ctx, "r.site_id IN (SELECT ss.site_id FROM site_spaces ss WHERE ss.space_id = ?)", spaceID,
		func(site string) []string {
			return append(append([]string{quire.CacheTagSpace(spaceID)}, more...), quire.CacheTagSite(site))
		})
}

// revalidateOpenAPI queues a call to each site of the organization that
// has a revalidation endpoint, naming the API specification: it has a new
// version, which any site's pages may show.
func (tx *Tx) revalidateOpenAPI(ctx context.Context, specID string) error {
	var orgID, slug string
	if err := tx.q.queryRow(ctx, "SELECT org_id, slug FROM openapi_specs WHERE id = ?", specID).Scan(&orgID, &slug); err != nil {
		return err
	}
	tag := []string{quire.CacheTagOpenAPI(orgID, slug)}
	return tx.revalidate(ctx, "r.site_id IN (SELECT s.id FROM sites s WHERE s.org_id = ?)", orgID, func(string) []string { return tag })
}

// revalidate queues a call of tags(site) to each site with an endpoint
// that where (on site_revalidation r, with arg) selects, in the order of
// their ids, so that writes queueing calls to the same sites lock their
// calls in one order.
func (tx *Tx) revalidate(ctx context.Context, where string, arg any, tags func(siteID string) []string) error {
	rows, err := tx.q.query(ctx, "SELECT r.site_id FROM site_revalidation r WHERE "+where+" ORDER BY r.site_id", arg)
	if err != nil {
		return err
	}
	var sites []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		sites = append(sites, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range sites {
		if err := tx.queueRevalidation(ctx, id, tags(id)); err != nil {
			return err
		}
	}
	return nil
}

// queueRevalidation queues a call of tags to a site: into its call not
// yet tried (nor claimed), while that stays within MaxRevalidationTags,
// else as a new call due now. A call being retried keeps its tags: later
// changes get attempts of their own.
func (tx *Tx) queueRevalidation(ctx context.Context, siteID string, tags []string) error {
	query := "SELECT id, tags FROM site_revalidation_calls WHERE site_id = ? AND claim IS NULL AND attempts = 0 ORDER BY created_at, id LIMIT 1"
	if tx.q.d.name() == "postgres" {
		query += " FOR UPDATE" // two writes adding to one call: the second waits and reads the first's tags
	}
	var id, raw string
	err := tx.q.queryRow(ctx, query, siteID).Scan(&id, &raw)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err == nil {
		var had []string
		if err := json.Unmarshal([]byte(raw), &had); err != nil {
			return fmt.Errorf("revalidation call %s: %w", id, err)
		}
		all := had
		for _, t := range tags {
			if !slices.Contains(all, t) {
				all = append(all, t)
			}
		}
		if len(all) == len(had) {
			return nil
		}
		if len(all) <= MaxRevalidationTags {
			body, _ := json.Marshal(all)
			_, err := tx.q.exec(ctx, "UPDATE site_revalidation_calls SET tags = ? WHERE id = ?", string(body), id)
			return err
		}
	}
	var uniq []string
	for _, t := range tags {
		if !slices.Contains(uniq, t) {
			uniq = append(uniq, t)
		}
	}
	body, _ := json.Marshal(uniq)
	_, err = tx.q.exec(ctx, "INSERT INTO site_revalidation_calls (id, site_id, tags, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)",
		newID(), siteID, string(body), micros(tx.Now), micros(tx.Now))
	return err
}

// revalidationQueue is the calls' queue: a call is ready at its next
// attempt.
var revalidationQueue = &queue{
	kind: "revalidation call", table: "site_revalidation_calls", alias: "c", key: "id",
	claim: "claim", until: "claimed_until", attempts: "attempts",
	ready: "c.next_attempt_at <= ?",
	order: "c.next_attempt_at, c.created_at, c.id",
	lost:  ErrRevalidationCallLost,
	fail: func(ctx context.Context, tx *Tx, l Lease, reason string) error {
		var siteID string
		err := tx.q.queryRow(ctx, "DELETE FROM site_revalidation_calls WHERE "+l.q.held()+" RETURNING site_id", l.ID, l.Claim).Scan(&siteID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		_, err = tx.q.exec(ctx, "UPDATE site_revalidation SET last_error = ? WHERE site_id = ?", reason, siteID)
		return err
	},
}

// ErrRevalidationCallLost reports a claimed call whose site's endpoint was
// removed, or whose lease ran out and was claimed by another worker.
var ErrRevalidationCallLost = errors.New("the revalidation call was removed or taken by another worker")

// RevalidationCallsDue reports, with a plain read, whether a call waits to
// be claimed.
func (db *DB) RevalidationCallsDue(ctx context.Context) (bool, error) {
	return revalidationQueue.anyDue(ctx, db)
}

// RevalidationCall is a call a worker holds, with what making it takes.
type RevalidationCall struct {
	ID, SiteID string
	Claim      string
	Tags       []string
	Attempts   int // this one included
	CreatedAt  time.Time
	URL        string
	Secret     []byte // sealed
}

// Lease is the worker's claim of c.
func (c *RevalidationCall) Lease() Lease {
	return Lease{q: revalidationQueue, ID: c.ID, Claim: c.Claim, Attempts: c.Attempts}
}

// ClaimRevalidationCall claims the call due first, for lease; nil when none
// is.
func (db *DB) ClaimRevalidationCall(ctx context.Context, lease time.Duration) (c *RevalidationCall, err error) {
	l, err := revalidationQueue.claimNext(ctx, db, lease, func(tx *Tx, l Lease) error {
		call := RevalidationCall{ID: l.ID, Claim: l.Claim, Attempts: l.Attempts}
		var tags, secret string
		var created int64
		if err := tx.q.queryRow(ctx, `SELECT c.site_id, c.tags, c.created_at, r.url, r.secret
			FROM site_revalidation_calls c JOIN site_revalidation r ON r.site_id = c.site_id WHERE c.id = ?`, l.ID).
			Scan(&call.SiteID, &tags, &created, &call.URL, &secret); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(tags), &call.Tags); err != nil {
			return fmt.Errorf("revalidation call %s: %w", l.ID, err)
		}
		var err error
		if call.Secret, err = base64.StdEncoding.DecodeString(secret); err != nil {
			return fmt.Errorf("site %s revalidation secret: %w", call.SiteID, err)
		}
		call.CreatedAt, c = fromMicros(created), &call
		return nil
	})
	if err != nil || l.ID == "" {
		return nil, err
	}
	return c, nil
}

// RevalidationAttempt is the outcome of making a claimed call.
type RevalidationAttempt struct {
	Done   bool // the renderer answered 2xx
	Status int  // 0 when no answer came
	Error  string
	// NextAttemptAt is when to try again after a failure; zero gives up.
	NextAttemptAt time.Time
}

// FinishRevalidationCall records an attempt of a claimed call on its
// site: a call made or given up is deleted, one to retry released until
// its next attempt. Nothing changes when the claim no longer holds.
func (db *DB) FinishRevalidationCall(ctx context.Context, c *RevalidationCall, a RevalidationAttempt) error {
	return db.Tx(ctx, func(tx *Tx) error {
		var n int64
		var err error
		if a.Done || a.NextAttemptAt.IsZero() {
			n, err = tx.q.affected(ctx, "DELETE FROM site_revalidation_calls WHERE "+revalidationQueue.held(), c.ID, c.Claim)
		} else {
			n, err = tx.q.affected(ctx, "UPDATE site_revalidation_calls SET claim = NULL, claimed_until = NULL, next_attempt_at = ? WHERE "+revalidationQueue.held(),
				micros(a.NextAttemptAt), c.ID, c.Claim)
		}
		if err != nil || n == 0 {
			return err
		}
		_, err = tx.q.exec(ctx, "UPDATE site_revalidation SET last_attempt_at = ?, last_status = ?, last_error = ? WHERE site_id = ?",
			micros(tx.Now), a.Status, a.Error, c.SiteID)
		return err
	})
}
