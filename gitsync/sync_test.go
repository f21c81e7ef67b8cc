package gitsync_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// requireGit skips a test when the git command is missing, except on CI,
// where .ci/run installs it and its absence is a failure.
func requireGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is not installed")
		}
		t.Skip("git is not installed")
	}
}

// git runs the git command line in dir, as a second writer of the
// repository, and returns its output.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := filepath.Join(os.TempDir(), "quire-gitsync-test-home")
	os.MkdirAll(home, 0o700)
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Gina Git", "GIT_AUTHOR_EMAIL=gina@example.com",
		"GIT_COMMITTER_NAME=Gina Git", "GIT_COMMITTER_EMAIL=gina@example.com", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// fixture is a space, a bare repository on disk and a Syncer between them.
type fixture struct {
	t      testing.TB
	ctx    context.Context
	db     *store.DB
	syncer *gitsync.Syncer
	user   *quire.User
	space  *quire.Space
	bare   string // the bare repository
	url    string // its file:// URL
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	requireGit(t)
	db := storetest.Open(t)
	ctx := context.Background()
	b, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada Lovelace")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, b.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "docs.git")
	git(t, "", "init", "--quiet", "--bare", "--initial-branch=main", bare)
	f := &fixture{t: t, ctx: ctx, db: db, user: b.User, space: sp, bare: bare, url: "file://" + bare,
		syncer: &gitsync.Syncer{DB: db, Blobs: blob.Dir{Path: t.TempDir()}, Remotes: outbound.Remotes{AllowFile: true},
			CacheDir: t.TempDir(), PollInterval: time.Hour}}
	return f
}

// merge merges a change request with subject that applies edit.
func (f *fixture) merge(subject string, edit func(tr *content.Tree)) {
	f.t.Helper()
	cr, err := f.db.CreateChangeRequest(f.ctx, f.space.ID, subject, f.user.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.db.EditChangeRequest(f.ctx, f.space.ID, cr.ID, f.user.ID, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		edit(tr)
		return tr, nil
	}); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.db.MergeChangeRequest(f.ctx, f.space.ID, cr.ID, f.user.ID); err != nil {
		f.t.Fatal(err)
	}
}

func addPage(tr *content.Tree, id, title, slug, body string) {
	tr.Pages[id] = &content.Page{ID: id, Title: title, Slug: slug, Kind: content.KindDocument, Markdown: body}
	tr.Root = append(tr.Root, id)
}

// connect queues an export that turns continuous sync on, and runs it.
func (f *fixture) connect() {
	f.t.Helper()
	on := true
	if _, err := f.syncer.Queue(f.ctx, f.space, f.user.ID, gitsync.Request{Direction: store.GitDirExport, URL: f.url, Ref: "main",
		CommitMessage: "Connect Quire", Sync: &on}); err != nil {
		f.t.Fatal(err)
	}
	f.run()
	f.wantState(store.GitSuccess)
}

// run queues what sync owes (a pull included) and runs it all.
func (f *fixture) run() {
	f.t.Helper()
	if err := f.db.PullGitSyncNow(f.ctx, f.space.ID); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.syncer.QueueAndRun(f.ctx); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) wantState(state string) *store.GitSyncOperation {
	f.t.Helper()
	op, err := f.db.LatestGitSyncOperation(f.ctx, f.space.ID)
	if err != nil || op == nil {
		f.t.Fatalf("latest operation: %v, %v", op, err)
	}
	if op.State != state {
		f.t.Fatalf("latest operation (%s) is %s (%s), want %s", op.Direction, op.State, op.Error, state)
	}
	return op
}

// clone clones the branch into a fresh folder, a second writer's work tree.
func (f *fixture) clone() string {
	f.t.Helper()
	dir := filepath.Join(f.t.TempDir(), "work")
	git(f.t, "", "clone", "--quiet", "--branch", "main", f.url, dir)
	return dir
}

// tree returns the space's current content.
func (f *fixture) tree() *content.Tree {
	f.t.Helper()
	sp, err := f.db.Space(f.ctx, f.space.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	_, tr, err := f.db.RevisionTree(f.ctx, sp.ID, sp.RevisionID)
	if err != nil {
		f.t.Fatal(err)
	}
	return tr
}

func pageBySlug(tr *content.Tree, slug string) *content.Page {
	for _, p := range tr.Pages {
		if p.Slug == slug {
			return p
		}
	}
	return nil
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExportThenCloneReadsLayout: a Quire merge appears as a commit that
// git clone reads, in the folder layout, by the merger with the change
// request's subject as its message.
func TestExportThenCloneReadsLayout(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.merge("Write the welcome page", func(tr *content.Tree) {
		addPage(tr, "home", "Welcome", "welcome", "Hello from Quire.\n")
		addPage(tr, "install", "Install", "install", "Run the binary.\n")
	})
	f.connect()
	work := f.clone()
	if got := readFile(t, filepath.Join(work, "README.md")); !strings.Contains(got, "Hello from Quire.") {
		t.Errorf("README.md = %q, want the first page", got)
	}
	if got := readFile(t, filepath.Join(work, "install.md")); !strings.Contains(got, "Run the binary.") {
		t.Errorf("install.md = %q", got)
	}
	if got := git(t, work, "log", "-1", "--format=%an <%ae>|%s"); got != "Ada Lovelace <ada@example.com>|Connect Quire\n" {
		t.Errorf("first commit = %q, want the caller and the commit message", got)
	}

	// A merge in Quire becomes a commit: the merger, the request's subject.
	f.merge("Explain upgrades", func(tr *content.Tree) {
		tr.Pages["install"].Markdown = "Run the binary. Upgrade by replacing it.\n"
	})
	f.run()
	op := f.wantState(store.GitSuccess)
	git(t, work, "pull", "--quiet")
	if got := readFile(t, filepath.Join(work, "install.md")); !strings.Contains(got, "Upgrade by replacing it.") {
		t.Errorf("install.md after the merge = %q", got)
	}
	if got := git(t, work, "log", "-1", "--format=%H %an|%s"); got != op.Commit+" Ada Lovelace|Explain upgrades\n" {
		t.Errorf("merge commit = %q, want %s by the merger with the subject", got, op.Commit)
	}
	// Nothing more to push: no empty commit.
	f.run()
	if got := git(t, work, "rev-list", "--count", "origin/main"); got != "2\n" {
		t.Errorf("commits on main = %q, want 2", got)
	}
	// With nothing owed, looking for work writes nothing (a write would move
	// every server's change count).
	writes := f.db.Writes()
	if n, err := f.db.QueueGitSyncWork(f.ctx, time.Hour); n != 0 || err != nil || f.db.Writes() != writes {
		t.Errorf("idle QueueGitSyncWork: %d queued, %v, %d writes", n, err, f.db.Writes()-writes)
	}
}

// TestPushedCommitAppearsInSpace: a commit pushed with git is imported as a
// change request named after it, merged at once, and is not pushed back.
func TestPushedCommitAppearsInSpace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.merge("Start", func(tr *content.Tree) {
		addPage(tr, "home", "Welcome", "welcome", "Hello.\n")
		addPage(tr, "faq", "FAQ", "faq", "No questions yet.\n")
	})
	f.connect()
	work := f.clone()
	faq := readFile(t, filepath.Join(work, "faq.md"))
	// Written as a person would, not as Quire writes: no final newline,
	// blank lines doubled. The import is not pushed back reformatted.
	writeFile(t, filepath.Join(work, "faq.md"), strings.TrimRight(strings.Replace(faq, "No questions yet.", "Is it free? Yes.\n\n\n\nReally.", 1), "\n"))
	git(t, work, "commit", "--quiet", "-am", "Answer the first question")
	git(t, work, "push", "--quiet")
	before := git(t, work, "rev-parse", "HEAD")

	f.run()
	op := f.wantState(store.GitSuccess)
	tr := f.tree()
	if p := tr.Pages["faq"]; p == nil || !strings.Contains(p.Markdown, "Is it free? Yes.") {
		t.Fatalf("faq page after the pull = %+v, want the pushed edit under its id", p)
	}
	list, err := f.db.ListChangeRequests(f.ctx, f.space.ID, store.ChangeRequestFilter{Status: quire.StatusMerged}, store.Page{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) == 0 || list.Items[0].Subject != "Answer the first question" {
		t.Errorf("merged change requests = %+v, want one named after the commit", list.Items)
	}
	_ = op
	// The import is not pushed back as a new commit.
	f.run()
	git(t, work, "fetch", "--quiet")
	if after := git(t, work, "rev-parse", "origin/main"); after != before {
		t.Errorf("the branch moved from %s to %s after an import", before, after)
	}
}

// TestConcurrentEditsMerge: edits on both sides to different pages merge:
// the space gets Git's, the branch gets Quire's, and nothing is lost.
func TestConcurrentEditsMerge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.merge("Start", func(tr *content.Tree) {
		addPage(tr, "home", "Welcome", "welcome", "Hello.\n")
		addPage(tr, "a", "Alpha", "alpha", "Alpha one.\n")
		addPage(tr, "b", "Beta", "beta", "Beta one.\n")
	})
	f.connect()
	work := f.clone()
	writeFile(t, filepath.Join(work, "beta.md"), strings.Replace(readFile(t, filepath.Join(work, "beta.md")), "Beta one.", "Beta from Git.", 1))
	git(t, work, "commit", "--quiet", "-am", "Beta from Git")
	git(t, work, "push", "--quiet")
	f.merge("Alpha from Quire", func(tr *content.Tree) { tr.Pages["a"].Markdown = "Alpha from Quire.\n" })

	f.run() // the export finds the branch moved: pulls, merges, then pushes both
	f.run()
	tr := f.tree()
	if !strings.Contains(tr.Pages["a"].Markdown, "Alpha from Quire.") || !strings.Contains(tr.Pages["b"].Markdown, "Beta from Git.") {
		t.Errorf("space: alpha %q, beta %q; want both edits", tr.Pages["a"].Markdown, tr.Pages["b"].Markdown)
	}
	git(t, work, "pull", "--quiet")
	if a, b := readFile(t, filepath.Join(work, "alpha.md")), readFile(t, filepath.Join(work, "beta.md")); !strings.Contains(a, "Alpha from Quire.") || !strings.Contains(b, "Beta from Git.") {
		t.Errorf("branch: alpha %q, beta %q; want both edits", a, b)
	}
	f.wantState(store.GitSuccess)
}

// TestConflictLeavesOpenChangeRequest: the same page edited on both sides
// leaves the import's change request open with its conflict; the branch
// keeps Git's edit, the space Quire's, and sync waits until the request is
// settled.
func TestConflictLeavesOpenChangeRequest(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.merge("Start", func(tr *content.Tree) { addPage(tr, "home", "Welcome", "welcome", "Hello.\n") })
	f.connect()
	work := f.clone()
	writeFile(t, filepath.Join(work, "README.md"), strings.Replace(readFile(t, filepath.Join(work, "README.md")), "Hello.", "Hello from Git.", 1))
	git(t, work, "commit", "--quiet", "-am", "Greet from Git")
	git(t, work, "push", "--quiet")
	f.merge("Greet from Quire", func(tr *content.Tree) { tr.Pages["home"].Markdown = "Hello from Quire.\n" })

	f.run()
	op := f.wantState(store.GitFailure)
	if !strings.Contains(op.Error, "conflict") {
		t.Errorf("error = %q, want it to name the conflict", op.Error)
	}
	open, err := f.db.ListChangeRequests(f.ctx, f.space.ID, store.ChangeRequestFilter{Status: quire.StatusOpen}, store.Page{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(open.Items) != 1 || open.Items[0].Subject != "Greet from Git" {
		t.Fatalf("open change requests = %+v, want the import", open.Items)
	}
	_, crTree, err := f.db.RevisionTree(f.ctx, f.space.ID, open.Items[0].RevisionID)
	if err != nil || !strings.Contains(crTree.Pages["home"].Markdown, "Hello from Git.") {
		t.Errorf("the change request's content = %v, %v; want Git's edit", crTree, err)
	}
	if got := f.tree().Pages["home"].Markdown; !strings.Contains(got, "Hello from Quire.") {
		t.Errorf("space = %q, want Quire's edit kept", got)
	}
	git(t, work, "fetch", "--quiet")
	if got := git(t, work, "show", "origin/main:README.md"); !strings.Contains(got, "Hello from Git.") {
		t.Errorf("branch README.md = %q, want Git's edit kept", got)
	}

	// Resolved in Quire: the request is updated keeping Git's version, merged,
	// and the resolution reaches the branch.
	if _, err := f.db.UpdateChangeRequestResolving(f.ctx, f.space.ID, open.Items[0].ID, f.user.ID, store.UpdateOptions{
		Resolve: map[string]content.Resolution{"home": {Keep: content.KeepTheirs}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.MergeChangeRequest(f.ctx, f.space.ID, open.Items[0].ID, f.user.ID); err != nil {
		t.Fatal(err)
	}
	f.run()
	f.run()
	f.wantState(store.GitSuccess)
	git(t, work, "pull", "--quiet")
	if got := readFile(t, filepath.Join(work, "README.md")); !strings.Contains(got, "Hello from Git.") {
		t.Errorf("branch after the resolution = %q", got)
	}
}

// TestInterruptedSyncResumes: a worker that dies holding a space (its
// operation left running) loses nothing: once its lease runs out another
// worker runs the operation again, to completion.
func TestInterruptedSyncResumes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.syncer.Lease = 300 * time.Millisecond
	f.merge("Start", func(tr *content.Tree) { addPage(tr, "home", "Welcome", "welcome", "Hello.\n") })
	f.connect()
	f.merge("Second edit", func(tr *content.Tree) { tr.Pages["home"].Markdown = "Hello again.\n" })

	// A worker claims the space, starts the export and dies.
	if _, err := f.db.QueueGitSyncWork(f.ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	dead, err := f.db.ClaimGitSync(f.ctx, f.syncer.Lease)
	if err != nil || dead == nil {
		t.Fatalf("claim: %v, %v", dead, err)
	}
	if op, err := f.db.NextGitSyncOperation(f.ctx, dead); err != nil || op == nil || op.Direction != store.GitDirExport {
		t.Fatalf("start: %+v, %v", op, err)
	}
	f.wantState(store.GitRunning)
	// While its lease holds, no one else takes the space.
	if n, err := f.syncer.RunDue(f.ctx); n != 0 || err != nil {
		t.Fatalf("run while the dead worker's lease holds: %d, %v", n, err)
	}
	time.Sleep(f.syncer.Lease + 50*time.Millisecond)
	if n, err := f.syncer.RunDue(f.ctx); n != 1 || err != nil {
		t.Fatalf("run after the lease ran out: %d, %v; want the export done", n, err)
	}
	op := f.wantState(store.GitSuccess)
	if op.Attempts != 2 {
		t.Errorf("attempts = %d, want 2", op.Attempts)
	}
	work := f.clone()
	if got := readFile(t, filepath.Join(work, "README.md")); !strings.Contains(got, "Hello again.") {
		t.Errorf("README.md = %q, want the second edit pushed", got)
	}
	// The dead worker, were it to wake up, can no longer finish anything.
	if err := f.db.FinishGitSyncOperation(f.ctx, dead, op, store.GitSyncResult{State: store.GitFailure}); err == nil {
		t.Error("a lost claim finished an operation")
	}

}

// TestTwoServersNeverSyncOneSpaceAtOnce: two store handles on one database
// (two servers) contend for one space: only one claims it until it is
// given back.
func TestTwoServersNeverSyncOneSpaceAtOnce(t *testing.T) {
	t.Parallel()
	requireGit(t)
	url, dir := storetest.URL(t), t.TempDir()
	open := func() *store.DB {
		db, err := store.Open(context.Background(), url, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	one, two := open(), open()
	ctx := context.Background()
	b, err := one.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := one.CreateSpace(ctx, b.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	s := &gitsync.Syncer{DB: one, Remotes: outbound.Remotes{AllowFile: true}}
	if _, err := s.Queue(ctx, sp, b.User.ID, gitsync.Request{Direction: store.GitDirImport, URL: "file:///nowhere.git", Ref: "main"}); err != nil {
		t.Fatal(err)
	}
	claims := make(chan *store.GitSyncClaim, 8)
	done := make(chan struct{})
	for _, db := range []*store.DB{one, two, one, two} {
		go func() {
			defer func() { done <- struct{}{} }()
			c, err := db.ClaimGitSync(ctx, time.Minute)
			if err != nil {
				t.Error(err)
			}
			if c != nil {
				claims <- c
			}
		}()
	}
	for range 4 {
		<-done
	}
	close(claims)
	var got []*store.GitSyncClaim
	for c := range claims {
		got = append(got, c)
	}
	if len(got) != 1 {
		t.Fatalf("%d claims of one space, want 1", len(got))
	}
	if c, err := two.ClaimGitSync(ctx, time.Minute); c != nil || err != nil {
		t.Fatalf("second claim while held: %v, %v", c, err)
	}
	if err := one.ReleaseGitSyncClaim(ctx, got[0]); err != nil {
		t.Fatal(err)
	}
	if c, err := two.ClaimGitSync(ctx, time.Minute); c == nil || err != nil {
		t.Fatalf("claim once given back: %v, %v", c, err)
	}
}

// TestOperationsRunInTimestampOrder: operations run in the order of the
// timestamps of the events that asked for them, not of their arrival.
func TestOperationsRunInTimestampOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	now := time.Now()
	for _, r := range []gitsync.Request{
		{Direction: store.GitDirExport, URL: f.url, Ref: "main", CommitMessage: "Later", Timestamp: now.Add(time.Minute)},
		{Direction: store.GitDirImport, URL: f.url, Ref: "main", Timestamp: now},
	} {
		if _, err := f.syncer.Queue(f.ctx, f.space, f.user.ID, r); err != nil {
			t.Fatal(err)
		}
	}
	c, err := f.db.ClaimGitSync(f.ctx, time.Minute)
	if err != nil || c == nil {
		t.Fatalf("claim: %v, %v", c, err)
	}
	first, err := f.db.NextGitSyncOperation(f.ctx, c)
	if err != nil || first == nil || first.Direction != store.GitDirImport {
		t.Fatalf("first operation = %+v, %v; want the import, whose event came first", first, err)
	}
}

// TestProjectDirectory: a space synced with a folder of a larger repository
// writes only that folder, keeps the rest, and takes commits outside the
// folder as nothing to import.
func TestProjectDirectory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	seed := t.TempDir()
	git(t, seed, "init", "--quiet", "--initial-branch=main")
	os.MkdirAll(filepath.Join(seed, "src"), 0o755)
	writeFile(t, filepath.Join(seed, "src", "main.go"), "package main\n")
	git(t, seed, "add", ".")
	git(t, seed, "commit", "--quiet", "-m", "Code")
	git(t, seed, "push", "--quiet", f.url, "HEAD:main")

	f.merge("Start", func(tr *content.Tree) { addPage(tr, "home", "Welcome", "welcome", "Hello.\n") })
	on := true
	if _, err := f.syncer.Queue(f.ctx, f.space, f.user.ID, gitsync.Request{Direction: store.GitDirExport, URL: f.url, Ref: "main",
		Directory: "docs/guide", CommitMessage: "Docs", Sync: &on}); err != nil {
		t.Fatal(err)
	}
	f.run()
	f.wantState(store.GitSuccess)
	work := f.clone()
	if got := readFile(t, filepath.Join(work, "docs", "guide", "README.md")); !strings.Contains(got, "Hello.") {
		t.Errorf("docs/guide/README.md = %q", got)
	}
	if got := readFile(t, filepath.Join(work, "src", "main.go")); got != "package main\n" {
		t.Errorf("src/main.go = %q, want it kept", got)
	}

	// A commit to the code only: nothing imported, no change request.
	writeFile(t, filepath.Join(work, "src", "main.go"), "package main\n\nfunc main() {}\n")
	git(t, work, "commit", "--quiet", "-am", "More code")
	git(t, work, "push", "--quiet")
	f.run()
	f.wantState(store.GitSuccess)
	for _, status := range []quire.ChangeRequestStatus{quire.StatusOpen, quire.StatusMerged} {
		list, err := f.db.ListChangeRequests(f.ctx, f.space.ID, store.ChangeRequestFilter{Status: status}, store.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range list.Items {
			if c.Subject == "More code" {
				t.Errorf("a commit outside the folder made change request #%d", c.Number)
			}
		}
	}
	conn, err := f.db.GitSync(f.ctx, f.space.ID)
	if head := strings.TrimSpace(git(t, work, "rev-parse", "HEAD")); err != nil || conn.SyncedCommit != head {
		t.Errorf("sync point = %v (%v), want the new head %s", conn, err, head)
	}
}
