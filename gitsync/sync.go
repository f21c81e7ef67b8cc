package gitsync

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/integration"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// Syncer runs Git sync: the operations git/import and git/export queue, and
// continuous two-way sync of the spaces connected to a branch. Operations
// are rows of the store, run by whichever server claims their space
// (store.ClaimGitSync), so they survive a restart and one space is never
// synced by two servers at once.
type Syncer struct {
	DB    *store.DB
	Blobs blob.Store
	// Remotes are the repositories the server may reach.
	Remotes outbound.Remotes
	// SecretKey (32 bytes) seals credentials and webhook secrets; nil, the
	// key the server keeps in the database (as for integration secrets).
	SecretKey []byte
	// KnownHosts is a known_hosts file that, when set, is the only trust
	// of ssh remotes' host keys; "" trusts each host's first key, per space.
	KnownHosts string
	// CacheDir keeps a bare copy of each space's repository, so a sync
	// fetches only what is new; "" fetches everything each time, in memory.
	CacheDir string
	// Lease is how long a worker holds a space (renewed while it runs);
	// another worker takes the space over when it runs out. Default 2 min.
	Lease time.Duration
	// PollInterval is how often connected branches are polled for new
	// commits. Default DefaultPollInterval.
	PollInterval time.Duration
	// Timeout bounds one operation; one that takes longer ends as timeout.
	// Default 5 min.
	Timeout time.Duration
	Log     *slog.Logger
}

// Defaults of a Syncer.
const (
	DefaultPollInterval = time.Minute
	defaultLease        = 2 * time.Minute
	defaultTimeout      = 5 * time.Minute
	// maxAttempts is how often an operation may be started before it is
	// given up: one that kills its worker must not do so forever.
	maxAttempts = 5
	// maxPushRetries is how often an export fetches and merges a remote
	// that moved while it pushed, before giving up for this time.
	maxPushRetries = 3
)

// committer commits every commit Quire makes; the author is the user.
var committer = Author{Name: "Quire", Email: "quire@localhost"}

func (s *Syncer) lease() time.Duration   { return cmpOr(s.Lease, defaultLease) }
func (s *Syncer) timeout() time.Duration { return cmpOr(s.Timeout, defaultTimeout) }

// Poll is the interval branches are polled at.
func (s *Syncer) Poll() time.Duration { return cmpOr(s.PollInterval, DefaultPollInterval) }

func cmpOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func (s *Syncer) log() *slog.Logger {
	if s.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Log
}

// Additional data of sealed values: a value sealed for one space and use
// cannot be moved to another.
func urlAD(spaceID string) []byte     { return []byte("git-sync-url:" + spaceID) }
func webhookAD(spaceID string) []byte { return []byte("git-sync-webhook:" + spaceID) }

func (s *Syncer) seal(ctx context.Context, plain, ad []byte) ([]byte, error) {
	key, err := integration.SecretsKey(ctx, s.DB, s.SecretKey)
	if err != nil {
		return nil, err
	}
	return integration.Seal(key, plain, ad)
}

func (s *Syncer) open(ctx context.Context, sealed, ad []byte) ([]byte, error) {
	key, err := integration.SecretsKey(ctx, s.DB, s.SecretKey)
	if err != nil {
		return nil, err
	}
	return integration.Open(key, sealed, ad)
}

// Request is an import or export asked for with git/import or git/export.
type Request struct {
	Direction     string // store.GitDirImport, store.GitDirExport
	URL           string // may carry basic-auth credentials
	Ref           string
	Directory     string
	CommitMessage string
	Timestamp     time.Time // zero: now
	Standalone    bool
	Sync          *bool // turn continuous sync on or off; nil keeps it
}

// NormalizeRef turns a branch name into its ref: "main" is refs/heads/main.
func NormalizeRef(ref string) string {
	if strings.HasPrefix(ref, "refs/") {
		return ref
	}
	return "refs/heads/" + ref
}

// CheckRequest validates a request, naming the field at fault.
func (s *Syncer) CheckRequest(r *Request) error {
	if r.URL == "" {
		return quire.Errorf(quire.CodeInvalid, "url: is required")
	}
	if len(r.URL) > 2048 {
		return quire.Errorf(quire.CodeInvalid, "url: must be at most 2048 characters")
	}
	if _, err := s.Remotes.Check(r.URL); err != nil {
		return quire.Errorf(quire.CodeInvalid, "url: %s", err.Error())
	}
	if r.Ref == "" {
		return quire.Errorf(quire.CodeInvalid, "ref: is required")
	}
	r.Ref = NormalizeRef(r.Ref)
	if !strings.HasPrefix(r.Ref, "refs/heads/") || !plumbing.ReferenceName(r.Ref).IsBranch() || len(r.Ref) > 255 ||
		strings.ContainsAny(r.Ref, " ~^:?*[\\\x7f") || strings.Contains(r.Ref, "..") || strings.HasSuffix(r.Ref, "/") || strings.HasSuffix(r.Ref, ".lock") {
		return quire.Errorf(quire.CodeInvalid, "ref: must name a branch, as refs/heads/main")
	}
	dir := strings.Trim(r.Directory, "/")
	if dir != "" {
		if clean := path.Clean(dir); clean != dir || strings.HasPrefix(dir, "../") || dir == ".." || dir == "." || strings.Contains(dir, "\\") ||
			strings.HasPrefix(dir, ".git/") || dir == ".git" || len(dir) > 512 {
			return quire.Errorf(quire.CodeInvalid, "repoProjectDirectory: must be a relative folder path without . or .. segments")
		}
	}
	r.Directory = dir
	if r.Direction == store.GitDirExport && strings.TrimSpace(r.CommitMessage) == "" {
		return quire.Errorf(quire.CodeInvalid, "commitMessage: is required")
	}
	if len(r.CommitMessage) > 64<<10 {
		return quire.Errorf(quire.CodeInvalid, "commitMessage: must be at most 65536 bytes")
	}
	return nil
}

// Queue checks and queues an import or export of space sp for the user,
// setting the space's connection to the request's repository. When it
// turns continuous sync on for the first time, it returns the webhook
// secret, which is shown this once.
func (s *Syncer) Queue(ctx context.Context, sp *quire.Space, userID string, r Request) (webhookSecret string, err error) {
	if err := s.CheckRequest(&r); err != nil {
		return "", err
	}
	sealed, err := s.seal(ctx, []byte(r.URL), urlAD(sp.ID))
	if err != nil {
		return "", err
	}
	cfg := store.GitSyncConfig{URL: RedactURL(r.URL), URLSealed: sealed, Ref: r.Ref, Directory: r.Directory, Sync: r.Sync}
	var secret string
	if r.Sync != nil && *r.Sync {
		secret = newSecret()
		if cfg.Webhook, err = s.seal(ctx, []byte(secret), webhookAD(sp.ID)); err != nil {
			return "", err
		}
	}
	kept, err := s.DB.QueueGitSyncOperation(ctx, sp.ID, userID, cfg, store.NewGitSyncOperation{
		Direction: r.Direction, OrderedAt: r.Timestamp, CommitMessage: r.CommitMessage, Standalone: r.Standalone, UserID: userID})
	if err != nil || !kept {
		return "", err
	}
	return secret, nil
}

// RotateWebhookSecret gives a connected space a new webhook secret and
// returns it; the old one stops working.
func (s *Syncer) RotateWebhookSecret(ctx context.Context, spaceID string) (string, error) {
	secret := newSecret()
	sealed, err := s.seal(ctx, []byte(secret), webhookAD(spaceID))
	if err != nil {
		return "", err
	}
	return secret, s.DB.SetGitWebhookSecret(ctx, spaceID, sealed)
}

func newSecret() string { return strings.ToLower(rand.Text()) + strings.ToLower(rand.Text()) }

// cacheDir is where a space's repository is kept; "" in memory. Another
// URL gets another folder, so a connection moved to another repository
// does not mix their objects.
func (s *Syncer) cacheDir(spaceID, url string) string {
	if s.CacheDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(s.CacheDir, spaceID+"-"+hex.EncodeToString(sum[:6])+".git")
}

// syncError is an operation's failure told to whoever reads git/info.
type syncError struct{ msg string }

func (e *syncError) Error() string { return e.msg }

func failf(format string, args ...any) error { return &syncError{fmt.Sprintf(format, args...)} }

// errorMessage is what git/info tells of an operation's error: its own
// words for expected failures, else a generic sentence (the cause is
// logged).
func errorMessage(err error) string {
	if e, ok := errors.AsType[*syncError](err); ok {
		return e.msg
	}
	if e, ok := errors.AsType[*RemoteError](err); ok {
		return e.Message
	}
	if e, ok := errors.AsType[*outbound.Error](err); ok {
		return e.Message
	}
	if quire.ErrorCode(err) != quire.CodeInternal {
		return quire.ErrorMessage(err)
	}
	return "internal error"
}
