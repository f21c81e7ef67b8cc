package gitsync_test

import (
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// httpRemote serves the fixture's bare repository over Git's smart HTTP
// protocol (git http-backend), for user:password only.
func httpRemote(t *testing.T, f *fixture, user, password string) *httptest.Server {
	t.Helper()
	execPath := strings.TrimSpace(git(t, "", "--exec-path"))
	backend := &cgi.Handler{Path: filepath.Join(execPath, "git-http-backend"),
		Env: []string{"GIT_PROJECT_ROOT=" + filepath.Dir(f.bare), "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=" + user}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != password {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	git(t, f.bare, "config", "http.receivepack", "true")
	return srv
}

// TestHTTPRemoteWithCredentials: an http remote is reached with the
// credentials of its URL, both ways; wrong ones are told as such; a
// private address is refused unless the operator allows it.
func TestHTTPRemoteWithCredentials(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, err := exec.LookPath(filepath.Join(strings.TrimSpace(git(t, "", "--exec-path")), "git-http-backend")); err != nil {
		t.Skip("git http-backend is not installed")
	}
	srv := httpRemote(t, f, "gina", "s3cret")
	f.merge("Start", func(tr *content.Tree) { addPage(tr, "home", "Welcome", "welcome", "Hello over HTTP.\n") })
	repo := "/" + filepath.Base(f.bare)

	queue := func(url string) {
		t.Helper()
		on := true
		if _, err := f.syncer.Queue(f.ctx, f.space, f.user.ID, gitsync.Request{Direction: store.GitDirExport, URL: url, Ref: "main",
			CommitMessage: "Over HTTP", Sync: &on}); err != nil {
			t.Fatal(err)
		}
		f.run()
	}
	// The test server is on 127.0.0.1: refused until private addresses are allowed.
	queue(strings.Replace(srv.URL, "http://", "http://gina:s3cret@", 1) + repo)
	if op := f.wantState(store.GitFailure); !strings.Contains(op.Error, "not public") {
		t.Errorf("error = %q, want the private address refused", op.Error)
	}
	f.syncer.Remotes = outbound.Remotes{AllowPrivate: true}
	queue(strings.Replace(srv.URL, "http://", "http://gina:wrong@", 1) + repo)
	if op := f.wantState(store.GitFailure); !strings.Contains(op.Error, "credentials") || strings.Contains(op.Error, "wrong") {
		t.Errorf("error = %q, want the credentials refused, not repeated", op.Error)
	}
	queue(strings.Replace(srv.URL, "http://", "http://gina:s3cret@", 1) + repo)
	f.wantState(store.GitSuccess)
	if got := git(t, f.bare, "show", "main:README.md"); !strings.Contains(got, "Hello over HTTP.") {
		t.Errorf("README.md pushed over HTTP = %q", got)
	}

	// And back: a commit on the branch is pulled over HTTP.
	work := f.clone()
	writeFile(t, filepath.Join(work, "README.md"), strings.Replace(readFile(t, filepath.Join(work, "README.md")), "Hello over HTTP.", "Edited in Git.", 1))
	git(t, work, "commit", "--quiet", "-am", "Edit in Git")
	git(t, work, "push", "--quiet")
	f.run()
	f.wantState(store.GitSuccess)
	if got := f.tree().Pages["home"].Markdown; !strings.Contains(got, "Edited in Git.") {
		t.Errorf("page after the pull over HTTP = %q", got)
	}
}
