package gitsync

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/store"
)

// RunDue claims spaces with operations waiting and runs them, one space
// after the other, until none is left; it returns how many operations
// ended. When ctx ends in the middle of one, the space is given back with
// that operation still running: the next claim runs it again.
func (s *Syncer) RunDue(ctx context.Context) (int, error) {
	return lease.Drain(ctx, func(ctx context.Context) (*store.GitSyncClaim, error) { return s.DB.ClaimGitSync(ctx, s.lease()) }, s.runClaim)
}

// QueueAndRun queues what continuous sync owes and runs everything due, at
// once: for tests, benchmarks and the admin command.
func (s *Syncer) QueueAndRun(ctx context.Context) (int, error) {
	if _, err := s.DB.QueueGitSyncWork(ctx, s.Poll()); err != nil {
		return 0, err
	}
	return s.RunDue(ctx)
}

// runClaim runs a claimed space's operations in order, renewing the lease
// while it does, and gives the space back.
func (s *Syncer) runClaim(ctx context.Context, c *store.GitSyncClaim) (int, error) {
	n, giveBack := 0, false
	w := lease.Watch{DB: s.DB, Lease: s.lease(), Poll: s.lease() / 3}
	out, err := w.Run(ctx, c.Lease(), func(ctx context.Context) error {
		for {
			op, err := s.DB.NextGitSyncOperation(ctx, c)
			if err != nil || op == nil {
				giveBack = !errors.Is(err, store.ErrGitClaimLost)
				return err
			}
			res := s.runOperation(ctx, c, op)
			if ctx.Err() != nil && res.State != store.GitTimeout {
				// Stopped, or the lease was lost: the operation stays
				// running, to be run again by whoever claims the space next.
				return ctx.Err()
			}
			if err := s.DB.FinishGitSyncOperation(ctx, c, op, res); err != nil {
				return err
			}
			n++
		}
	})
	switch {
	case err != nil: // stopped: the space was given back
		return n, err
	case giveBack:
		return n, errors.Join(out.Err, s.DB.GiveBack(ctx, c.Lease()))
	case out.Lost:
		return n, nil
	}
	return n, out.Err
}

// runOperation runs one operation within the Syncer's timeout and says how
// it ended.
func (s *Syncer) runOperation(ctx context.Context, c *store.GitSyncClaim, op *store.GitSyncOperation) store.GitSyncResult {
	if op.Attempts > maxAttempts {
		return store.GitSyncResult{State: store.GitFailure, Error: fmt.Sprintf("the operation was interrupted %d times", maxAttempts)}
	}
	octx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	run := &operation{s: s, claim: c, op: op}
	err := run.run(octx)
	res := run.result
	switch {
	case err == nil:
		res.State = store.GitSuccess
	case ctx.Err() == nil && errors.Is(octx.Err(), context.DeadlineExceeded):
		res.State, res.Error = store.GitTimeout, fmt.Sprintf("the operation took longer than %v", s.timeout())
	default:
		res.State, res.Error = store.GitFailure, errorMessage(err)
		if _, expected := errors.AsType[*syncError](err); !expected && ctx.Err() == nil {
			s.log().Error("Git sync operation failed", "space", op.SpaceID, "direction", op.Direction, "err", err)
		}
	}
	return res
}

// operation is one run of an operation.
type operation struct {
	s      *Syncer
	claim  *store.GitSyncClaim
	op     *store.GitSyncOperation
	conn   *store.GitSync
	remote *remote
	// connected: the operation is on the space's connection (same URL,
	// branch and folder), so it reads and moves the sync point.
	connected bool
	result    store.GitSyncResult
}

func (o *operation) run(ctx context.Context) error {
	conn, err := o.s.DB.GitSync(ctx, o.op.SpaceID)
	if err != nil {
		return err
	}
	rawURL, err := o.s.open(ctx, o.op.URLSealed, urlAD(o.op.SpaceID))
	if err != nil {
		return fmt.Errorf("open the repository URL: %w", err)
	}
	url := string(rawURL)
	o.conn = conn
	o.connected = !o.op.Standalone && RedactURL(url) == conn.URL && o.op.Ref == conn.Ref && o.op.Directory == conn.Directory
	if o.connected && conn.ConflictChangeRequest != "" {
		cr, err := o.s.DB.ChangeRequest(ctx, o.op.SpaceID, conn.ConflictChangeRequest)
		if err == nil {
			return failf("sync waits for change request #%d, whose changes from Git conflict with the space's: merge or archive it", cr.Number)
		}
	}
	if o.remote, err = openRemote(url, o.op.Ref, o.s.cacheDir(o.op.SpaceID, RedactURL(url)), o.s.Remotes); err != nil {
		return err
	}
	if o.remote.sshHost != "" {
		if o.remote.auth, err = o.s.sshAuth(ctx, o.op.SpaceID, o.remote.sshUser, o.remote.sshHost); err != nil {
			return err
		}
	}
	head, err := o.remote.fetch(ctx)
	if err != nil {
		return err
	}
	if o.op.Direction == store.GitDirImport {
		return o.pull(ctx, head)
	}
	return o.export(ctx, head)
}

// syncedCommit is the connection's sync point's commit; zero when none.
func (o *operation) syncedCommit() plumbing.Hash {
	if !o.connected || o.conn.SyncedCommit == "" {
		return plumbing.ZeroHash
	}
	return plumbing.NewHash(o.conn.SyncedCommit)
}

// pull brings the branch's head into the space, as a change request merged
// at once when it applies cleanly, left open with its conflicts otherwise.
func (o *operation) pull(ctx context.Context, head plumbing.Hash) error {
	if head.IsZero() {
		return failf("the branch %s does not exist in the repository", o.op.Ref)
	}
	o.result.Commit = head.String()
	synced := o.syncedCommit()
	if head == synced {
		return nil // nothing new
	}
	base := o.conn.SyncedRevision
	if !o.connected || base == "" {
		// No sync point: the branch's content replaces the space's (the
		// space's current content is the base, so its ids are kept).
		sp, err := o.s.DB.Space(ctx, o.op.SpaceID)
		if err != nil {
			return err
		}
		base = sp.RevisionID
	} else if same, err := o.sameFolder(synced, head); err != nil {
		return err
	} else if same {
		// Commits outside the folder: nothing to import.
		o.result.SyncedCommit, o.result.SyncedRevision = head.String(), base
		o.conn.SyncedCommit = head.String()
		return nil
	}
	_, baseTree, err := o.s.DB.RevisionTree(ctx, o.op.SpaceID, base)
	if err != nil {
		return err
	}
	files, err := o.remote.readFolder(head, o.op.Directory)
	if err != nil {
		return err
	}
	imp, err := Import(baseTree, files)
	if err != nil {
		return failf("the repository's content could not be read: %s", quire.ErrorMessage(err))
	}
	imp.Stamp(o.s.DB.Now().UnixMicro())
	for _, data := range imp.Blobs {
		if _, err := o.s.Blobs.Put(ctx, data); err != nil {
			return fmt.Errorf("store file: %w", err)
		}
	}
	info, err := o.remote.describe(head, synced)
	if err != nil {
		return err
	}
	userID, err := o.importAuthor(ctx, info.AuthorEmail)
	if err != nil {
		return err
	}
	out, err := o.s.DB.ImportGitCommit(ctx, o.claim, store.GitImport{
		Commit: head.String(), BaseRevision: base, Tree: normalize(imp.Tree), Subject: subject(info),
		UserID: userID, Standalone: o.op.Standalone, Sync: o.connected, Redirects: imp.Redirects,
	})
	if err != nil {
		return err
	}
	o.result.ChangeRequestID = out.ChangeRequest.ID
	if out.Conflict != nil {
		return failf("the commits from Git conflict with the space's content: resolve them in change request #%d (%s)",
			out.ChangeRequest.Number, out.Conflict.Error())
	}
	if o.connected && out.Merged {
		o.conn.SyncedCommit, o.conn.SyncedRevision = head.String(), out.Revision
	}
	return nil
}

// importAuthor is who authors an import's change request and revision:
// the member of the space's organization whose e-mail address is the head
// commit's author's, else the user who queued the operation, else the one
// who connected the space. (An author's address is what the pusher says it
// is: it names who wrote the content, it grants nothing.)
func (o *operation) importAuthor(ctx context.Context, email string) (string, error) {
	if email != "" {
		u, err := o.s.DB.UserByEmail(ctx, email)
		if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
			return "", err
		}
		if u != nil {
			sp, err := o.s.DB.Space(ctx, o.op.SpaceID)
			if err != nil {
				return "", err
			}
			m, err := o.s.DB.Membership(ctx, sp.OrgID, u.ID)
			if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
				return "", err
			}
			if m != nil && !m.Disabled && m.Role != "" { // members, not guests
				return u.ID, nil
			}
		}
	}
	if o.op.UserID != "" {
		return o.op.UserID, nil
	}
	return o.conn.CreatedBy, nil
}

// normalize returns t with the maps a stored tree has.
func normalize(t *content.Tree) *content.Tree {
	if t.Pages == nil {
		t.Pages = map[string]*content.Page{}
	}
	if t.Files == nil {
		t.Files = map[string]*content.File{}
	}
	return t
}

// sameFolder reports whether the folder holds the same content in two
// commits.
func (o *operation) sameFolder(a, b plumbing.Hash) (bool, error) {
	hashOf := func(h plumbing.Hash) (plumbing.Hash, error) {
		c, err := o.remote.repo.CommitObject(h)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		t, err := c.Tree()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if o.op.Directory == "" {
			return t.Hash, nil
		}
		e, err := t.FindEntry(o.op.Directory)
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			return plumbing.ZeroHash, nil
		}
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return e.Hash, nil
	}
	ha, err := hashOf(a)
	if err != nil {
		return false, nil // not in the cache (a history rewritten): import
	}
	hb, err := hashOf(b)
	return err == nil && ha == hb, err
}

// subject names an import's change request after its commits.
func subject(info commitInfo) string {
	first, _, _ := strings.Cut(strings.TrimSpace(info.Message), "\n")
	first = strings.TrimSpace(first)
	if first == "" {
		first = "Commit " + info.Hash.String()[:7]
	}
	if info.Count > 1 {
		more := fmt.Sprintf("%d", info.Count-1)
		if info.Count >= maxCountedCommits {
			more += "+"
		}
		first += fmt.Sprintf(" (and %s more commits from Git)", more)
	}
	return truncate(first, 100)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// export commits the space's current content to the branch and pushes it.
// When the branch moved since the sync point, its new commits are brought
// into the space first, so the commit pushed holds both sides; a push
// refused because the branch moved meanwhile does the same again.
func (o *operation) export(ctx context.Context, head plumbing.Hash) error {
	for attempt := 0; ; attempt++ {
		if synced := o.syncedCommit(); !synced.IsZero() && head != synced {
			if err := o.pull(ctx, head); err != nil {
				return err
			}
		}
		sp, err := o.s.DB.Space(ctx, o.op.SpaceID)
		if err != nil {
			return err
		}
		rev, tree, err := o.s.DB.RevisionTree(ctx, sp.ID, sp.RevisionID)
		if err != nil {
			return err
		}
		// Each file goes to the cache as it comes: one file's bytes in
		// memory at a time.
		redirects, err := o.s.DB.SpaceRedirects(ctx, sp.ID)
		if err != nil {
			return err
		}
		files := map[string]plumbing.Hash{}
		if err := Export(ctx, tree, redirects, o.s.Blobs, func(p string, data []byte) error {
			h, err := o.remote.store(plumbing.BlobObject, data)
			files[p] = h
			return err
		}); err != nil {
			return err
		}
		author, message, err := o.authorAndMessage(ctx, rev)
		if err != nil {
			return err
		}
		commit, err := o.remote.commit(head, o.op.Directory, files, author, committer, message, o.s.DB.Now())
		if err != nil {
			return err
		}
		if commit.IsZero() { // the branch holds this content already
			if o.connected {
				o.result.SyncedCommit, o.result.SyncedRevision = head.String(), rev.ID
			}
			return nil
		}
		pushErr := o.remote.push(ctx, commit)
		if pushErr == nil {
			o.result.Commit = commit.String()
			if o.connected {
				o.result.SyncedCommit, o.result.SyncedRevision = commit.String(), rev.ID
			}
			return nil
		}
		moved, err := o.remote.fetch(ctx)
		if err != nil || moved == head || attempt+1 >= maxPushRetries {
			return pushErr
		}
		// The branch moved: with a sync point, its new commits are merged
		// in first (at the top of the loop); without, the export replaces
		// the folder again, on the new head.
		head = moved
	}
}

// authorAndMessage are the author and message of an export's commit: for
// git/export, the caller and their message; for continuous sync, the user
// who made the revision (the merger) and the subject of the change request
// merged.
func (o *operation) authorAndMessage(ctx context.Context, rev *store.Revision) (Author, string, error) {
	userID, message := o.op.UserID, o.op.CommitMessage
	if o.op.Auto {
		userID, message = rev.CreatedBy, "Update from Quire"
		if rev.MergedFrom != "" {
			if cr, err := o.s.DB.ChangeRequest(ctx, o.op.SpaceID, rev.MergedFrom); err == nil && cr.Subject != "" {
				message = cr.Subject
			}
		}
	}
	author := committer
	if userID != "" {
		u, err := o.s.DB.User(ctx, userID)
		if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
			return Author{}, "", err
		}
		if u != nil {
			author = Author{Name: u.DisplayName, Email: u.Email}
		}
	}
	if !strings.HasSuffix(message, "\n") {
		message += "\n"
	}
	return author, message, nil
}
