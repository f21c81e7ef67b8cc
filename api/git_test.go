package api_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// gitEnv is a test server whose Git sync may use file:// repositories,
// logging to logs.
type gitEnv struct {
	*env
	syncer *gitsync.Syncer
	logs   *bytes.Buffer
	space  string
}

func newGitEnv(t *testing.T) *gitEnv {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
	db := storetest.Open(t)
	logs := &bytes.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, nil))
	blobs := blob.Dir{Path: t.TempDir()}
	syncer := &gitsync.Syncer{DB: db, Blobs: blobs, Remotes: outbound.Remotes{AllowFile: true}, CacheDir: t.TempDir(),
		PollInterval: time.Hour, Log: log}
	e := &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: blobs, Logger: log, Git: syncer})}
	e.initOrg(t)
	sp, err := db.CreateSpace(t.Context(), e.org, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := db.CreateChangeRequest(t.Context(), sp.ID, "Start", e.admin.id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(t.Context(), sp.ID, cr.ID, e.admin.id, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["home"] = &content.Page{ID: "home", Title: "Welcome", Slug: "welcome", Kind: content.KindDocument, Markdown: "Hello.\n"}
		tr.Root = []string{"home"}
		return tr, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(t.Context(), sp.ID, cr.ID, e.admin.id); err != nil {
		t.Fatal(err)
	}
	return &gitEnv{env: e, syncer: syncer, logs: logs, space: sp.ID}
}

// call is env.call with the answer checked against the whole reference,
// where the git operations are.
func (e *gitEnv) call(t *testing.T, token, method, path string, body any) *response {
	t.Helper()
	res := e.env.call(t, token, method, path, body)
	if ref := fullReference(t); ref != nil {
		if err := ref.Check(method, strings.TrimPrefix(path, "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir(), "GIT_AUTHOR_NAME=Gina", "GIT_AUTHOR_EMAIL=gina@example.com",
		"GIT_COMMITTER_NAME=Gina", "GIT_COMMITTER_EMAIL=gina@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestGitSyncAPI: git/export and git/import queue operations answered 204,
// GET git/info tells how the latest went, in the reference's GitSyncState;
// who may do what; a push webhook proven by the secret pulls at once.
func TestGitSyncAPI(t *testing.T) {
	t.Parallel()
	e := newGitEnv(t)
	bare := filepath.Join(t.TempDir(), "docs.git")
	runGit(t, "", "init", "--quiet", "--bare", "--initial-branch=main", bare)
	url := "file://" + bare
	base := "/v1/spaces/" + e.space + "/git"
	editor, reader, outsider := e.addUser(t, "edit", "Eddie Editor"), e.addUser(t, "read", "Rita Reader"), e.outsider(t)

	e.call(t, e.admin.token, "GET", base+"/info", nil).wantError(t, http.StatusNotFound, "no Git repository")
	if sp := e.call(t, reader.token, "GET", "/v1/spaces/"+e.space, nil).want(t, http.StatusOK).JSON(t); sp["gitSync"] != nil {
		t.Errorf("gitSync of a space with no repository: %v", sp["gitSync"])
	}
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"ref": "main", "commitMessage": "x"}, "url"},
		{map[string]any{"url": url, "commitMessage": "x"}, "ref"},
		{map[string]any{"url": url, "ref": "main"}, "commitMessage"},
		{map[string]any{"url": "git://example.com/docs.git", "ref": "main", "commitMessage": "x"}, "url"},
		{map[string]any{"url": "ssh://git:pass@example.com/docs.git", "ref": "main", "commitMessage": "x"}, "url"},
		{map[string]any{"url": url, "ref": "main~1", "commitMessage": "x"}, "ref"},
		{map[string]any{"url": url, "ref": "main", "commitMessage": "x", "repoProjectDirectory": "../up"}, "repoProjectDirectory"},
	} {
		e.call(t, e.admin.token, "POST", base+"/export", c.body).wantError(t, http.StatusBadRequest, c.want)
	}
	export := map[string]any{"url": url, "ref": "refs/heads/main", "commitMessage": "First export", "repoProjectDirectory": "docs", "sync": true}
	e.call(t, outsider.token, "POST", base+"/export", export).want(t, http.StatusNotFound)
	e.call(t, reader.token, "POST", base+"/export", export).want(t, http.StatusForbidden)
	e.call(t, editor.token, "POST", base+"/export", export).wantError(t, http.StatusForbidden, "admins")
	res := e.call(t, e.admin.token, "POST", base+"/export", export).want(t, http.StatusNoContent)
	secret := res.Header.Get("X-Quire-Webhook-Secret")
	if secret == "" {
		t.Fatal("no webhook secret when sync was turned on")
	}
	info := e.call(t, reader.token, "GET", base+"/info", nil).want(t, http.StatusOK).JSON(t)
	if op := info["operation"].(map[string]any); op["state"] != "running" || op["direction"] != "export" {
		t.Errorf("queued operation = %v, want running export", op)
	}
	if _, err := e.syncer.QueueAndRun(t.Context()); err != nil {
		t.Fatal(err)
	}
	info = e.call(t, reader.token, "GET", base+"/info", nil).want(t, http.StatusOK).JSON(t)
	head := strings.TrimSpace(runGit(t, bare, "rev-parse", "main"))
	op := info["operation"].(map[string]any)
	if op["state"] != "success" || op["commit"] != head || info["sync"] != true || info["repoProjectDirectory"] != "docs" || info["url"] != url {
		t.Errorf("info after the export = %v, want success at %s", info, head)
	}
	// The space shows the same state as its gitSync (checked against the
	// whole reference by call).
	sp := e.call(t, reader.token, "GET", "/v1/spaces/"+e.space, nil).want(t, http.StatusOK).JSON(t)
	if diff := cmp.Diff(info, sp["gitSync"]); diff != "" || info["installationProvider"] != "github" ||
		info["installationStatus"] != "active" || info["repoName"] != strings.TrimSuffix(bare, ".git") {
		t.Errorf("space's gitSync after the export differs from git/info (-info +gitSync):\n%s", diff)
	}
	if got := runGit(t, bare, "show", "main:docs/README.md"); !strings.Contains(got, "Hello.") {
		t.Errorf("docs/README.md = %q", got)
	}

	// An editor exports on the same connection without touching sync.
	e.call(t, editor.token, "POST", base+"/export", map[string]any{"url": url, "ref": "main", "commitMessage": "Again", "repoProjectDirectory": "docs"}).
		want(t, http.StatusNoContent)
	// An editor may not import into the space (it merges), only standalone.
	e.call(t, editor.token, "POST", base+"/import", map[string]any{"url": url, "ref": "main", "repoProjectDirectory": "docs"}).
		wantError(t, http.StatusForbidden, "review")

	// A push, then its webhook: wrong proofs are refused, GitHub's and
	// GitLab's are taken.
	work := filepath.Join(t.TempDir(), "work")
	runGit(t, "", "clone", "--quiet", url, work)
	readme := filepath.Join(work, "docs", "README.md")
	data, _ := os.ReadFile(readme)
	os.WriteFile(readme, bytes.Replace(data, []byte("Hello."), []byte("Hello from Git."), 1), 0o644)
	runGit(t, work, "commit", "--quiet", "-am", "Edit from Git")
	runGit(t, work, "push", "--quiet")
	payload := []byte(`{"ref":"refs/heads/main"}`)
	hook := func(header, value string) int {
		req := httptest.NewRequest("POST", base+"/webhook", bytes.NewReader(payload))
		if header != "" {
			req.Header.Set(header, value)
		}
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		return rec.Code
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(payload)
	sig := hex.EncodeToString(mac.Sum(nil))
	for _, c := range []struct {
		header, value string
		want          int
	}{
		{"", "", http.StatusUnauthorized},
		{"X-Hub-Signature-256", "sha256=" + strings.Repeat("0", 64), http.StatusUnauthorized},
		{"X-Gitlab-Token", "wrong", http.StatusUnauthorized},
		{"X-Hub-Signature-256", "sha256=" + sig, http.StatusNoContent},
		{"X-Gitea-Signature", sig, http.StatusNoContent},
		{"X-Gitlab-Token", secret, http.StatusNoContent},
	} {
		if got := hook(c.header, c.value); got != c.want {
			t.Errorf("webhook with %s %q: %d, want %d", c.header, c.value, got, c.want)
		}
	}
	if _, err := e.syncer.QueueAndRun(t.Context()); err != nil {
		t.Fatal(err)
	}
	page := e.call(t, reader.token, "GET", "/v1/spaces/"+e.space+"/content/page/home", nil).want(t, http.StatusOK).JSON(t)
	if md, _ := page["markdown"].(string); !strings.Contains(md, "Hello from Git.") {
		t.Errorf("page after the webhook's pull: %v", page["markdown"])
	}
	sp = e.call(t, reader.token, "GET", "/v1/spaces/"+e.space, nil).want(t, http.StatusOK).JSON(t)
	if gs, _ := sp["gitSync"].(map[string]any); gs == nil || gs["operation"].(map[string]any)["direction"] != "import" ||
		gs["operation"].(map[string]any)["state"] != "success" {
		t.Errorf("space's gitSync after the pull = %v", sp["gitSync"])
	}

	// Disconnected: git/info is 404 again; the webhook is refused.
	e.call(t, editor.token, "DELETE", base, nil).want(t, http.StatusForbidden)
	e.call(t, e.admin.token, "DELETE", base, nil).want(t, http.StatusNoContent)
	if caches, _ := filepath.Glob(filepath.Join(e.syncer.CacheDir, e.space+"-*.git")); len(caches) != 0 {
		t.Errorf("repository caches left after disconnecting: %v", caches)
	}
	e.call(t, reader.token, "GET", base+"/info", nil).want(t, http.StatusNotFound)
	if sp := e.call(t, reader.token, "GET", "/v1/spaces/"+e.space, nil).want(t, http.StatusOK).JSON(t); sp["gitSync"] != nil {
		t.Errorf("gitSync after disconnecting: %v", sp["gitSync"])
	}
	if got := hook("X-Gitlab-Token", secret); got != http.StatusNotFound {
		t.Errorf("webhook after disconnecting: %d, want 404", got)
	}
}

// TestGitSyncCredentialsStaySecret: credentials in a repository URL are
// used but never shown by git/info, in an operation's error or in the logs;
// a remote on a private address is refused unless the operator allows it.
func TestGitSyncCredentialsStaySecret(t *testing.T) {
	t.Parallel()
	e := newGitEnv(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a private address was reached: %s", r.URL)
	}))
	defer srv.Close()
	url := strings.Replace(srv.URL, "http://", "http://gina:hunter2-secret@", 1) + "/docs.git"
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+e.space+"/git/import", map[string]any{"url": url, "ref": "main"}).want(t, http.StatusNoContent)
	if _, err := e.syncer.QueueAndRun(t.Context()); err != nil {
		t.Fatal(err)
	}
	res := e.call(t, e.admin.token, "GET", "/v1/spaces/"+e.space+"/git/info", nil).want(t, http.StatusOK)
	info := res.JSON(t)
	op := info["operation"].(map[string]any)
	if op["state"] != "failure" || !strings.Contains(op["error"].(string), "not public") {
		t.Errorf("operation = %v, want a failure naming the private address", op)
	}
	if info["url"] != srv.URL+"/docs.git" {
		t.Errorf("url = %v, want it without credentials", info["url"])
	}
	for what, text := range map[string]string{"git/info": string(res.Body), "logs": e.logs.String()} {
		if strings.Contains(text, "hunter2") {
			t.Errorf("%s show the password: %s", what, text)
		}
	}
}
