package api

import (
	"context"
	"io"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Git sync (the reference's space-git operations, gitsync.Syncer): imports
// and exports are queued and answered 204, then run in the background; the
// space keeps a connection to the repository, which GET S/git/info shows
// without its credentials.

// gitRequest is the Syncer's form of a validated b.
func gitRequest(b *wire.GitRepositoryInput) gitsync.Request {
	r := gitsync.Request{Direction: b.Direction, Sync: b.Sync}
	for dst, src := range map[*string]*string{&r.URL: b.URL, &r.Ref: b.Ref, &r.CommitMessage: b.CommitMessage, &r.Directory: b.RepoProjectDirectory} {
		if src != nil {
			*dst = *src
		}
	}
	if b.Timestamp != nil {
		r.Timestamp = *b.Timestamp
	}
	r.Standalone = b.Standalone != nil && *b.Standalone
	return r
}

// importGitRepository answers POST S/git/import: editors queue a
// standalone import (into a change request left open); one that updates
// the space merges, so it needs the review role, as merging does.
func (s *Server) importGitRepository(w http.ResponseWriter, r *http.Request) error {
	return s.queueGit(w, r, store.GitDirImport)
}

// exportToGitRepository answers POST S/git/export: editors.
func (s *Server) exportToGitRepository(w http.ResponseWriter, r *http.Request) error {
	return s.queueGit(w, r, store.GitDirExport)
}

func (s *Server) queueGit(w http.ResponseWriter, r *http.Request, direction string) error {
	sp, role, err := s.space(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	body := wire.GitRepositoryInput{Direction: direction}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	secret, err := s.author.QueueGit(r.Context(), s.git, sp, role, caller(r.Context()).ID, gitRequest(&body))
	if err != nil {
		return err
	}
	if secret != "" {
		// The webhook secret, shown this once (POST S/git/webhook-secret
		// makes a new one).
		w.Header().Set("X-Quire-Webhook-Secret", secret)
	}
	return noContent(w)
}

// getSpaceGitInfo answers GET S/git/info: readers; 404 when the space has
// no repository.
func (s *Server) getSpaceGitInfo(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return err
	}
	out, err := s.gitSyncState(r.Context(), sp)
	if err != nil {
		return err
	}
	if out == nil {
		return errorf(quire.CodeNotFound, "no Git repository is connected to this space")
	}
	return writeJSON(w, http.StatusOK, out)
}

// gitSyncState is the space's GitSyncState (git/info, and the space's
// gitSync); nil when no repository is connected.
func (s *Server) gitSyncState(ctx context.Context, sp *quire.Space) (*wire.GitSyncState, error) {
	conn, op, err := s.git.Connection(ctx, sp.ID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := &wire.GitSyncState{InstallationID: sp.ID, InstallationProvider: gitsync.Provider(conn.URL), InstallationStatus: "active",
		RepoName: gitsync.RepoName(conn.URL), URL: conn.URL, Ref: conn.Ref, RepoProjectDirectory: conn.Directory, Sync: conn.Sync,
		SyncedCommit: conn.SyncedCommit, OperationTimeout: s.git.OperationTimeout(), UpdatedAt: conn.UpdatedAt}
	if op != nil {
		o := &wire.GitOperation{State: op.State, Direction: op.Direction, StartedAt: op.StartedAt, Error: op.Error, Commit: op.Commit,
			ChangeRequest: op.ChangeRequestID}
		if op.State == store.GitQueued { // waiting its turn: the reference has no such state
			o.State, o.StartedAt = store.GitRunning, op.CreatedAt
		}
		if !op.EndedAt.IsZero() {
			o.EndedAt = &op.EndedAt
		}
		out.Operation = o
	}
	return out, nil
}

// deleteSpaceGit answers DELETE S/git: space admins disconnect the space.
func (s *Server) deleteSpaceGit(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	deleted, err := s.git.Disconnect(r.Context(), sp.ID)
	if err != nil {
		return err
	}
	if !deleted {
		return errorf(quire.CodeNotFound, "no Git repository is connected to this space")
	}
	return noContent(w)
}

// rotateGitWebhookSecret answers POST S/git/webhook-secret: space admins
// get a new webhook secret, shown this once.
func (s *Server) rotateGitWebhookSecret(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	secret, err := s.git.RotateWebhookSecret(r.Context(), sp.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]string{"secret": secret, "url": s.publicURL + "/v1/spaces/" + sp.ID + "/git/webhook"})
}

// gitWebhook answers POST S/git/webhook, with no token: a push webhook
// from GitHub, Gitea or GitLab, proven by the space's webhook secret,
// makes the branch due for a pull at once.
func (s *Server) gitWebhook(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, gitsync.MaxWebhookBytes))
	if err != nil {
		return errorf(quire.CodeTooLarge, "the webhook's body is larger than %d MiB", gitsync.MaxWebhookBytes>>20)
	}
	if err := s.git.Webhook(r.Context(), r.PathValue("spaceId"), r.Header, body); err != nil {
		return err
	}
	return noContent(w)
}
