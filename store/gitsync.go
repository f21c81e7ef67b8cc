package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
)

// Git sync (see migration 0021): a space's connection to a repository, the
// queue of its operations, and the claim a worker holds on a space while it
// runs them, so that two servers never sync one space at once.

// Git sync operation states: the reference's GitSyncOperationState, and
// queued, which the API reports as running.
const (
	GitQueued  = "queued"
	GitRunning = "running"
	GitSuccess = "success"
	GitFailure = "failure"
	GitTimeout = "timeout"
)

// Git sync directions, as the reference names them.
const (
	GitDirImport = "import"
	GitDirExport = "export"
)

// GitSync is a space's connection to a branch and folder of a repository.
type GitSync struct {
	SpaceID   string
	URL       string // without credentials
	URLSealed []byte // as given, sealed
	Ref       string
	Directory string
	Sync      bool   // continuous two-way sync
	Webhook   []byte // the sealed webhook secret; nil when none
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
	// SyncedCommit and SyncedRevision are the sync point: the last commit
	// both sides agree on, and the revision holding its content.
	SyncedCommit, SyncedRevision string
	// ConflictChangeRequest is the change request an import left open with
	// conflicts; sync holds until it is merged or archived.
	ConflictChangeRequest string
}

// GitSyncOperation is one queued or finished import or export.
type GitSyncOperation struct {
	ID, SpaceID     string
	Direction       string // GitDirImport, GitDirExport
	State           string // GitQueued … GitTimeout
	Stage           string
	Auto            bool // queued by continuous sync
	OrderedAt       time.Time
	URLSealed       []byte
	Ref, Directory  string
	CommitMessage   string
	Standalone      bool
	UserID          string
	Attempts        int
	CreatedAt       time.Time
	StartedAt       time.Time // zero until started
	UpdatedAt       time.Time
	EndedAt         time.Time // zero until ended
	Commit          string
	ChangeRequestID string
	Error           string
}

// GitSyncConfig is what an import or export request sets on the space's
// connection.
type GitSyncConfig struct {
	URL       string
	URLSealed []byte
	Ref       string
	Directory string
	// Sync turns continuous sync on or off; nil leaves it as it is.
	Sync *bool
	// Webhook is a sealed webhook secret, kept when continuous sync is on
	// and the connection has none yet.
	Webhook []byte
}

// NewGitSyncOperation is an operation to queue.
type NewGitSyncOperation struct {
	Direction     string
	OrderedAt     time.Time // zero: now
	CommitMessage string
	Standalone    bool
	UserID        string
}

const gitSyncColumns = `g.space_id, g.url, g.url_sealed, g.ref, g.directory, g.sync, g.webhook_secret, g.created_by, g.created_at,
	g.updated_at, g.synced_commit, g.synced_revision, g.conflict_change_request`

func scanGitSync(row interface{ Scan(...any) error }) (*GitSync, error) {
	var g GitSync
	var sealed string
	var webhook, commit, revision, conflict sql.NullString
	var created, updated int64
	if err := row.Scan(&g.SpaceID, &g.URL, &sealed, &g.Ref, &g.Directory, &g.Sync, &webhook, &g.CreatedBy, &created,
		&updated, &commit, &revision, &conflict); err != nil {
		return nil, err
	}
	var err error
	if g.URLSealed, err = base64.StdEncoding.DecodeString(sealed); err != nil {
		return nil, err
	}
	if webhook.Valid {
		if g.Webhook, err = base64.StdEncoding.DecodeString(webhook.String); err != nil {
			return nil, err
		}
	}
	g.CreatedAt, g.UpdatedAt = fromMicros(created), fromMicros(updated)
	g.SyncedCommit, g.SyncedRevision, g.ConflictChangeRequest = commit.String, revision.String, conflict.String
	return &g, nil
}

// GitSync returns a space's connection; CodeNotFound when it has none.
func (r reader) GitSync(ctx context.Context, spaceID string) (*GitSync, error) {
	g, err := scanGitSync(r.q.queryRow(ctx, "SELECT "+gitSyncColumns+" FROM git_syncs g WHERE g.space_id = ?", spaceID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "no Git repository is connected to this space")
	}
	return g, err
}

const gitOperationColumns = `o.id, o.space_id, o.direction, o.state, o.stage, o.auto, o.ordered_at, o.url_sealed, o.ref, o.directory,
	o.commit_message, o.standalone, o.user_id, o.attempts, o.created_at, o.started_at, o.updated_at, o.ended_at, o.commit_sha,
	o.change_request_id, o.error`

func scanGitOperation(row interface{ Scan(...any) error }) (*GitSyncOperation, error) {
	var o GitSyncOperation
	var sealed string
	var user, commit, cr, msg sql.NullString
	var ordered, created, updated int64
	var started, ended sql.NullInt64
	if err := row.Scan(&o.ID, &o.SpaceID, &o.Direction, &o.State, &o.Stage, &o.Auto, &ordered, &sealed, &o.Ref, &o.Directory,
		&o.CommitMessage, &o.Standalone, &user, &o.Attempts, &created, &started, &updated, &ended, &commit, &cr, &msg); err != nil {
		return nil, err
	}
	var err error
	if o.URLSealed, err = base64.StdEncoding.DecodeString(sealed); err != nil {
		return nil, err
	}
	o.OrderedAt, o.CreatedAt, o.UpdatedAt = fromMicros(ordered), fromMicros(created), fromMicros(updated)
	if started.Valid {
		o.StartedAt = fromMicros(started.Int64)
	}
	if ended.Valid {
		o.EndedAt = fromMicros(ended.Int64)
	}
	o.UserID, o.Commit, o.ChangeRequestID, o.Error = user.String, commit.String, cr.String, msg.String
	return &o, nil
}

// LatestGitSyncOperation returns the space's operation running now, else
// the one that ended last; nil when there is none.
func (r reader) LatestGitSyncOperation(ctx context.Context, spaceID string) (*GitSyncOperation, error) {
	o, err := scanGitOperation(r.q.queryRow(ctx, "SELECT "+gitOperationColumns+` FROM git_sync_operations o WHERE o.space_id = ?
		ORDER BY CASE WHEN o.state = 'running' THEN 0 WHEN o.state = 'queued' THEN 2 ELSE 1 END, o.updated_at DESC, o.id DESC LIMIT 1`, spaceID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return o, err
}

// QueueGitSyncOperation sets the space's connection and queues an
// operation on it, in one transaction. A connection moved to another
// repository, branch or folder starts over: its sync point and any
// conflict are forgotten. It reports whether cfg.Webhook was kept (the
// caller shows that secret once).
func (db *DB) QueueGitSyncOperation(ctx context.Context, spaceID, userID string, cfg GitSyncConfig, op NewGitSyncOperation) (webhookKept bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		webhookKept = false
		now := micros(tx.Now)
		sealed := base64.StdEncoding.EncodeToString(cfg.URLSealed)
		old, err := tx.GitSync(ctx, spaceID)
		switch {
		case quire.ErrorCode(err) == quire.CodeNotFound:
			sync := cfg.Sync != nil && *cfg.Sync
			var webhook any
			if sync && cfg.Webhook != nil {
				webhook, webhookKept = base64.StdEncoding.EncodeToString(cfg.Webhook), true
			}
			if _, err := tx.q.exec(ctx, `INSERT INTO git_syncs (space_id, url, url_sealed, ref, directory, sync, webhook_secret, created_by,
				created_at, updated_at, next_pull_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				spaceID, cfg.URL, sealed, cfg.Ref, cfg.Directory, sync, webhook, userID, now, now, now); err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			set := map[string]any{"url": cfg.URL, "url_sealed": sealed, "ref": cfg.Ref, "directory": cfg.Directory, "updated_at": now}
			if old.URL != cfg.URL || old.Ref != cfg.Ref || old.Directory != cfg.Directory {
				set["synced_commit"], set["synced_revision"] = nil, nil
				set["conflict_change_request"], set["conflict_commit"], set["conflict_revision"] = nil, nil, nil
			}
			if cfg.Sync != nil {
				set["sync"], set["created_by"] = *cfg.Sync, userID
				if *cfg.Sync && old.Webhook == nil && cfg.Webhook != nil {
					set["webhook_secret"], webhookKept = base64.StdEncoding.EncodeToString(cfg.Webhook), true
				}
			}
			if err := tx.update(ctx, "git_syncs", "space_id", spaceID, set); err != nil {
				return err
			}
		}
		ordered := now
		if !op.OrderedAt.IsZero() {
			ordered = micros(op.OrderedAt)
		}
		_, err = tx.q.exec(ctx, `INSERT INTO git_sync_operations (id, space_id, direction, state, stage, auto, ordered_at, url_sealed, ref,
			directory, commit_message, standalone, user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, FALSE, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			newID(), spaceID, op.Direction, GitQueued, "repo_fetch", ordered, sealed, cfg.Ref, cfg.Directory, op.CommitMessage,
			op.Standalone, nullString(op.UserID), now, now)
		return err
	})
	return webhookKept, err
}

// SetGitWebhookSecret replaces the sealed webhook secret of a space's
// connection.
func (db *DB) SetGitWebhookSecret(ctx context.Context, spaceID string, sealed []byte) error {
	return db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "UPDATE git_syncs SET webhook_secret = ?, updated_at = ? WHERE space_id = ?",
			base64.StdEncoding.EncodeToString(sealed), micros(tx.Now), spaceID)
		if err == nil && n == 0 {
			return quire.Errorf(quire.CodeNotFound, "no Git repository is connected to this space")
		}
		return err
	})
}

// DeleteGitSync disconnects a space from its repository: the connection,
// its queue and the ssh host keys it trusted go (the deploy key stays);
// what was imported or pushed stays where it is.
func (db *DB) DeleteGitSync(ctx context.Context, spaceID string) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		for _, table := range []string{"git_sync_operations", "git_host_keys"} {
			if _, err := tx.q.exec(ctx, "DELETE FROM "+table+" WHERE space_id = ?", spaceID); err != nil {
				return err
			}
		}
		n, err := tx.q.affected(ctx, "DELETE FROM git_syncs WHERE space_id = ?", spaceID)
		deleted = n > 0
		return err
	})
	return deleted, err
}

// PullGitSyncNow makes a space's branch due for a pull at once, as a push
// webhook asks.
func (db *DB) PullGitSyncNow(ctx context.Context, spaceID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		_, err := tx.q.exec(ctx, "UPDATE git_syncs SET next_pull_at = ? WHERE space_id = ? AND sync", micros(tx.Now), spaceID)
		return err
	})
}

// keepGitOperations is how many finished operations a space keeps.
const keepGitOperations = 50

// QueueGitSyncWork queues what continuous sync owes and reports how many
// operations it queued: a pull of every branch due for one (polled every
// pollInterval), and an export of every space whose current revision is
// not the one last synced. A conflict change request that was merged or
// archived ends its wait: its imported content becomes the sync point.
func (db *DB) QueueGitSyncWork(ctx context.Context, pollInterval time.Duration) (queued int, err error) {
	// A plain read first: a write would move every server's change count
	// (and pass by their caches) for nothing.
	if owed, err := db.gitSyncWorkOwed(ctx); err != nil || !owed {
		return 0, err
	}
	err = db.Tx(ctx, func(tx *Tx) error {
		queued = 0
		now := micros(tx.Now)
		// Conflicts resolved (merged) or given up (archived).
		if _, err := tx.q.exec(ctx, `UPDATE git_syncs SET synced_commit = conflict_commit, synced_revision = conflict_revision,
			conflict_change_request = NULL, conflict_commit = NULL, conflict_revision = NULL, next_pull_at = ?
			WHERE conflict_change_request IS NOT NULL AND EXISTS (SELECT 1 FROM change_requests c
			WHERE c.id = git_syncs.conflict_change_request AND c.status IN ('merged', 'archived'))`, now); err != nil {
			return err
		}
		active := ` FROM git_syncs g JOIN spaces s ON s.id = g.space_id WHERE g.sync AND g.conflict_change_request IS NULL
			AND s.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM git_sync_operations o WHERE o.space_id = g.space_id
			AND o.state IN ('queued', 'running') AND o.auto AND o.direction = ?)`
		for _, q := range []struct {
			direction, where string
			args             []any
		}{
			{GitDirImport, " AND g.next_pull_at <= ?", []any{now}},
			// Content, not revision ids: a merge of Git's commits alone has
			// their content, and must not be pushed back reformatted.
			{GitDirExport, ` AND g.synced_revision IS NOT NULL AND s.revision_id <> g.synced_revision
				AND (SELECT r.root FROM revisions r WHERE r.id = s.revision_id) <> (SELECT r.root FROM revisions r WHERE r.id = g.synced_revision)`, nil},
		} {
			n, err := tx.q.affected(ctx, `INSERT INTO git_sync_operations (id, space_id, direction, state, stage, auto, ordered_at,
				url_sealed, ref, directory, created_at, updated_at)
				SELECT `+idExpr(tx)+`, g.space_id, ?, ?, 'repo_fetch', TRUE, ?, g.url_sealed, g.ref, g.directory, ?, ?`+active+q.where,
				append([]any{q.direction, GitQueued, now, now, now, q.direction}, q.args...)...)
			if err != nil {
				return err
			}
			queued += int(n)
		}
		_, err := tx.q.exec(ctx, "UPDATE git_syncs SET next_pull_at = ? WHERE sync AND next_pull_at <= ?", micros(tx.Now.Add(pollInterval)), now)
		return err
	})
	return queued, err
}

// gitSyncWorkOwed reports whether QueueGitSyncWork has anything to do.
func (db *DB) gitSyncWorkOwed(ctx context.Context) (bool, error) {
	var n int
	err := db.q.queryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM git_syncs g JOIN spaces s ON s.id = g.space_id WHERE
		(g.conflict_change_request IS NOT NULL AND EXISTS (SELECT 1 FROM change_requests c WHERE c.id = g.conflict_change_request
			AND c.status IN ('merged', 'archived')))
		OR (g.sync AND g.conflict_change_request IS NULL AND g.next_pull_at <= ?)
		OR (g.sync AND g.conflict_change_request IS NULL AND g.synced_revision IS NOT NULL AND s.revision_id <> g.synced_revision
			AND (SELECT r.root FROM revisions r WHERE r.id = s.revision_id) <> (SELECT r.root FROM revisions r WHERE r.id = g.synced_revision)
			AND NOT EXISTS (SELECT 1 FROM git_sync_operations o WHERE o.space_id = g.space_id AND o.state IN ('queued', 'running')
			AND o.auto AND o.direction = 'export')) LIMIT 1) d`, micros(db.Now())).Scan(&n)
	return n > 0, err
}

// idExpr is SQL for a fresh random id per row, as newID makes them.
func idExpr(tx *Tx) string {
	if tx.q.d.name() == "postgres" {
		return "substr(md5(random()::text || clock_timestamp()::text), 1, 20)"
	}
	return "lower(hex(randomblob(10)))"
}

// gitQueue is the queue of spaces with Git sync operations waiting: a
// worker holds the space, so that two servers never sync one space at
// once, and runs its operations in order, which count their own attempts.
var gitQueue = &queue{
	kind: "Git sync", table: "git_syncs", alias: "g", key: "space_id", claim: "claim", until: "claimed_until",
	ready: "EXISTS (SELECT 1 FROM git_sync_operations o WHERE o.space_id = g.space_id AND o.state IN ('queued', 'running'))",
	order: "g.claimed_until, g.space_id",
	lost:  ErrGitClaimLost,
	fail: func(ctx context.Context, tx *Tx, l Lease, reason string) error {
		if err := tx.hold(ctx, l); err != nil {
			return err
		}
		now := micros(tx.Now)
		if _, err := tx.q.exec(ctx, `UPDATE git_sync_operations SET state = ?, stage = 'finalize', error = ?, updated_at = ?, ended_at = ?
			WHERE id = (SELECT o.id FROM git_sync_operations o WHERE o.space_id = ? AND o.state IN ('queued', 'running')
			ORDER BY CASE WHEN o.state = 'running' THEN 0 ELSE 1 END, o.ordered_at, o.created_at, o.id LIMIT 1)`,
			GitFailure, reason, now, now, l.ID); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "UPDATE git_syncs SET claim = NULL, claimed_until = NULL WHERE "+l.q.held(), l.ID, l.Claim)
		return err
	},
}

// GitSyncClaim is a worker's hold on one space's operations.
type GitSyncClaim struct {
	SpaceID string
	Claim   string
}

// Lease is the worker's claim of the space.
func (c *GitSyncClaim) Lease() Lease { return Lease{q: gitQueue, ID: c.SpaceID, Claim: c.Claim} }

// GitSyncWorkDue reports, with a plain read, whether some space has
// operations waiting and no worker holding it.
func (db *DB) GitSyncWorkDue(ctx context.Context) (bool, error) { return gitQueue.anyDue(ctx, db) }

// ClaimGitSync claims, for lease, a space with operations waiting that no
// worker holds (or whose worker's lease ran out); nil when there is none.
func (db *DB) ClaimGitSync(ctx context.Context, lease time.Duration) (c *GitSyncClaim, err error) {
	l, err := gitQueue.claimNext(ctx, db, lease, func(tx *Tx, l Lease) error {
		c = &GitSyncClaim{SpaceID: l.ID, Claim: l.Claim}
		return nil
	})
	if err != nil || l.ID == "" {
		return nil, err // none due, or a retried transaction found none
	}
	return c, nil
}

// ErrGitClaimLost reports a worker's claim that ran out and was taken by
// another worker, or whose connection was removed.
var ErrGitClaimLost = errors.New("the space's Git sync claim was lost")

// checkClaim fails unless c still holds, locking the connection's row.
func (tx *Tx) checkClaim(ctx context.Context, c *GitSyncClaim) error { return tx.hold(ctx, c.Lease()) }

// ReleaseGitSyncClaim lets another worker claim the space at once.
func (db *DB) ReleaseGitSyncClaim(ctx context.Context, c *GitSyncClaim) error {
	return db.GiveBack(ctx, c.Lease())
}

// NextGitSyncOperation starts the claimed space's next operation, in the
// order of their timestamps: one left running by a worker that stopped
// comes first and is run again. nil when none is left.
func (db *DB) NextGitSyncOperation(ctx context.Context, c *GitSyncClaim) (op *GitSyncOperation, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		op = nil
		if err := tx.checkClaim(ctx, c); err != nil {
			return err
		}
		o, err := scanGitOperation(tx.q.queryRow(ctx, "SELECT "+gitOperationColumns+` FROM git_sync_operations o
			WHERE o.space_id = ? AND o.state IN ('queued', 'running')
			ORDER BY CASE WHEN o.state = 'running' THEN 0 ELSE 1 END, o.ordered_at, o.created_at, o.id LIMIT 1`, c.SpaceID))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if o.StartedAt.IsZero() {
			o.StartedAt = tx.Now
		}
		o.State, o.Attempts, o.UpdatedAt = GitRunning, o.Attempts+1, tx.Now
		if _, err := tx.q.exec(ctx, "UPDATE git_sync_operations SET state = ?, attempts = ?, started_at = ?, updated_at = ? WHERE id = ?",
			o.State, o.Attempts, micros(o.StartedAt), micros(tx.Now), o.ID); err != nil {
			return err
		}
		op = o
		return nil
	})
	return op, err
}

// GitSyncResult is how an operation ended.
type GitSyncResult struct {
	State           string // GitSuccess, GitFailure, GitTimeout
	Error           string
	Commit          string
	ChangeRequestID string
	// SyncedCommit and SyncedRevision, when set, are the new sync point.
	SyncedCommit, SyncedRevision string
}

// FinishGitSyncOperation records how an operation ended, and the new sync
// point if any, while the claim holds; the space keeps its last
// keepGitOperations finished operations.
func (db *DB) FinishGitSyncOperation(ctx context.Context, c *GitSyncClaim, op *GitSyncOperation, res GitSyncResult) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if err := tx.checkClaim(ctx, c); err != nil {
			return err
		}
		now := micros(tx.Now)
		if _, err := tx.q.exec(ctx, `UPDATE git_sync_operations SET state = ?, stage = 'finalize', error = ?, commit_sha = COALESCE(?, commit_sha),
			change_request_id = COALESCE(?, change_request_id), updated_at = ?, ended_at = ? WHERE id = ?`,
			res.State, nullString(res.Error), nullString(res.Commit), nullString(res.ChangeRequestID), now, now, op.ID); err != nil {
			return err
		}
		if res.SyncedCommit != "" {
			if err := tx.setSyncPoint(ctx, c.SpaceID, res.SyncedCommit, res.SyncedRevision); err != nil {
				return err
			}
		}
		_, err := tx.q.exec(ctx, `DELETE FROM git_sync_operations WHERE space_id = ? AND state NOT IN ('queued', 'running') AND id NOT IN
			(SELECT id FROM git_sync_operations WHERE space_id = ? AND state NOT IN ('queued', 'running') ORDER BY updated_at DESC, id DESC LIMIT ?)`,
			c.SpaceID, c.SpaceID, keepGitOperations)
		return err
	})
}

func (tx *Tx) setSyncPoint(ctx context.Context, spaceID, commit, revision string) error {
	_, err := tx.q.exec(ctx, "UPDATE git_syncs SET synced_commit = ?, synced_revision = ?, updated_at = ? WHERE space_id = ?",
		commit, revision, micros(tx.Now), spaceID)
	return err
}

// GitImport is a commit's content to bring into a space.
type GitImport struct {
	Commit       string
	BaseRevision string        // the revision the import's tree was made against (the sync point)
	Tree         *content.Tree // the commit's content, ids kept from BaseRevision's tree
	Subject      string
	UserID       string // authors the change request
	Standalone   bool   // leave the change request open, do not merge
	// Redirects replace the space's when the request merges (nil: the
	// folder has no .gitbook.yaml, the space's are kept).
	Redirects map[string]string
	// Sync records the outcome on the connection: the commit and its
	// revision as the sync point after a merge, the change request as the
	// conflict waited on otherwise.
	Sync bool
}

// GitImported is what an import made.
type GitImported struct {
	ChangeRequest *quire.ChangeRequest
	Merged        bool
	Conflict      *content.ConflictError // set when the request is left open with conflicts
	Revision      string                 // the request's revision: the commit's content
}

// ImportGitCommit brings a commit's content into a space in one
// transaction, while the claim holds: a change request forked from the
// base revision gets the tree as its revision, then is merged with a
// three-way merge against the space's current content (base, the space,
// the commit). When the merge conflicts, or the import is standalone, the
// request stays open.
func (db *DB) ImportGitCommit(ctx context.Context, c *GitSyncClaim, in GitImport) (out *GitImported, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if err := tx.checkClaim(ctx, c); err != nil {
			return err
		}
		out = &GitImported{}
		cr, err := tx.CreateChangeRequest(ctx, c.SpaceID, in.Subject, in.UserID)
		if err != nil {
			return err
		}
		base := in.BaseRevision
		if base == "" {
			base = cr.RevisionInitial
		}
		rev, err := tx.addRevision(ctx, c.SpaceID, []string{base}, RevisionEdits, in.Tree, "", in.UserID)
		if err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "UPDATE change_requests SET status = ?, revision_id = ?, revision_initial = ? WHERE id = ?",
			string(quire.StatusOpen), rev.ID, base, cr.ID); err != nil {
			return err
		}
		out.Revision = rev.ID
		if !in.Standalone {
			merged, err := tx.MergeChangeRequest(ctx, c.SpaceID, cr.ID, in.UserID)
			conflict, isConflict := errors.AsType[*content.ConflictError](err)
			switch {
			case isConflict:
				out.Conflict = conflict
			case err != nil:
				return err
			default:
				out.Merged = true
				cr = merged
				if in.Redirects != nil {
					if err := tx.SetSpaceRedirects(ctx, c.SpaceID, in.Redirects); err != nil {
						return err
					}
				}
			}
		}
		if in.Sync && !in.Standalone {
			if out.Merged {
				err = tx.setSyncPoint(ctx, c.SpaceID, in.Commit, rev.ID)
			} else {
				_, err = tx.q.exec(ctx, `UPDATE git_syncs SET conflict_change_request = ?, conflict_commit = ?, conflict_revision = ?,
					updated_at = ? WHERE space_id = ?`, cr.ID, in.Commit, rev.ID, micros(tx.Now), c.SpaceID)
			}
			if err != nil {
				return err
			}
		}
		if out.ChangeRequest, err = tx.ChangeRequest(ctx, c.SpaceID, cr.ID); err != nil {
			return err
		}
		return nil
	})
	return out, err
}
