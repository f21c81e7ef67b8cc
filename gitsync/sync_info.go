package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// What GET S/git/info shows of a space's connection.

// Provider names a repository's host as the reference's GitSyncProvider
// does, which knows only github and gitlab: gitlab for hosts named so,
// github for every other (Gitea, a file:// repository…).
func Provider(url string) string {
	if strings.Contains(strings.ToLower(hostOf(url)), "gitlab") {
		return "gitlab"
	}
	return "github"
}

func hostOf(raw string) string {
	host, _ := splitRemote(raw)
	return host
}

// splitRemote splits a repository URL (without credentials) into its host
// and path; ssh URLs, scp-like ones included, drop their user.
func splitRemote(raw string) (host, path string) {
	if u, ok := outbound.ScpLike(raw); ok {
		return u.Host, u.Path
	}
	rest := raw
	for _, scheme := range []string{"https://", "http://", "ssh://"} {
		if r, ok := strings.CutPrefix(raw, scheme); ok {
			rest = r
			if scheme == "ssh://" {
				if _, after, found := strings.Cut(rest, "@"); found {
					rest = after
				}
			}
			break
		}
	}
	host, path, _ = strings.Cut(rest, "/")
	return host, path
}

// RepoName is a repository's name as shown: its URL's path without the
// leading slash and the .git suffix ("owner/repo").
func RepoName(url string) string {
	if rest, ok := strings.CutPrefix(url, "file://"); ok {
		return strings.TrimSuffix(rest, ".git")
	}
	_, p := splitRemote(url)
	return strings.TrimSuffix(strings.Trim(p, "/"), ".git")
}

// Connection is what git/info shows of a space's connection.
func (s *Syncer) Connection(ctx context.Context, spaceID string) (*store.GitSync, *store.GitSyncOperation, error) {
	conn, err := s.DB.GitSync(ctx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	op, err := s.DB.LatestGitSyncOperation(ctx, spaceID)
	return conn, op, err
}

// OperationTimeout is how long, in milliseconds, an operation may run
// before it ends as timeout.
func (s *Syncer) OperationTimeout() int64 { return s.timeout().Milliseconds() }

// Disconnect removes a space's connection and queue, and this server's
// cache of its repository (other servers' caches stay until their folder
// is cleared; they hold nothing that is not in the repository).
func (s *Syncer) Disconnect(ctx context.Context, spaceID string) (bool, error) {
	deleted, err := s.DB.DeleteGitSync(ctx, spaceID)
	if err != nil || !deleted || s.CacheDir == "" {
		return deleted, err
	}
	caches, _ := filepath.Glob(filepath.Join(s.CacheDir, spaceID+"-*.git"))
	for _, dir := range caches {
		if err := os.RemoveAll(dir); err != nil {
			s.log().Warn("remove a Git sync cache", "space", spaceID, "err", err)
		}
	}
	return true, nil
}
