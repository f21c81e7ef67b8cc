//go:build unix

package gitsync_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// A Git sync killed mid-operation: the test binary runs again as a child
// process (TestSyncKillChild) that syncs the space and is sent SIGKILL at a
// chosen point; a fresh Syncer, once the child's lease has run out, takes
// the space and finishes.

// Environment of the child.
const (
	killChildEnv = "QUIRE_GITSYNC_KILL_CHILD" // the file the child writes when it reaches the point
	killDBEnv    = "QUIRE_GITSYNC_KILL_DB"    // the database URL
	killDataEnv  = "QUIRE_GITSYNC_KILL_DATA"  // the data folder: database, blobs, git cache
)

// killLease is the child's lease: how long the space stays its after it dies.
const killLease = time.Second

// stallingBlobs is a blob store that, on the first Put, writes the marker
// file and blocks: the child is killed while it stores an import's files.
type stallingBlobs struct {
	blob.Store
	marker string
}

func (b stallingBlobs) Put(ctx context.Context, data []byte) (string, error) {
	os.WriteFile(b.marker, []byte("put"), 0o644)
	select {} // until killed
}

// TestSyncKillChild is the child: it runs the space's due operations, and
// is killed in the middle. Without the environment it does nothing.
func TestSyncKillChild(t *testing.T) {
	marker := os.Getenv(killChildEnv)
	if marker == "" {
		t.Skip("the child process of TestKilledSyncLosesNothing")
	}
	data := os.Getenv(killDataEnv)
	db, err := store.Open(context.Background(), os.Getenv(killDBEnv), data)
	if err != nil {
		t.Fatal(err)
	}
	s := &gitsync.Syncer{DB: db, Blobs: stallingBlobs{Store: blob.Dir{Path: filepath.Join(data, "blobs")}, marker: marker},
		Remotes: outbound.Remotes{AllowFile: true}, CacheDir: filepath.Join(data, "git"), PollInterval: time.Hour, Lease: killLease}
	n, err := s.RunDue(context.Background())
	t.Fatalf("the child was not killed: it ran %d operations (%v)", n, err)
}

// killedSync runs the child until marker exists, then kills it (and
// what it started: git-receive-pack and its hook) with SIGKILL.
func killedSync(t *testing.T, dbURL, data, marker string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSyncKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChildEnv+"="+marker, killDBEnv+"="+dbURL, killDataEnv+"="+data)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(15 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the child ended before the point it is killed at: %v\n%s", err, out)
		case <-deadline:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
			t.Fatalf("the child never reached the point it is killed at\n%s", out)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var exit *exec.ExitError
	if err := <-exited; !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child ended with %v, want killed\n%s", err, out)
	}
}

// TestKilledSyncLosesNothing kills a sync twice: once pushing (the branch
// has the commit, the store does not know), once storing an import's
// files; each time the other side writes meanwhile. A fresh Syncer
// resumes after the lease, and both sides end up with everything.
func TestKilledSyncLosesNothing(t *testing.T) {
	t.Parallel()
	requireGit(t)
	ctx := context.Background()
	dbURL, data := storetest.URL(t), t.TempDir()
	db, err := store.Open(ctx, dbURL, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
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
	// The syncer a restarted server runs: the same data folder.
	fresh := &gitsync.Syncer{DB: db, Blobs: blob.Dir{Path: filepath.Join(data, "blobs")}, Remotes: outbound.Remotes{AllowFile: true},
		CacheDir: filepath.Join(data, "git"), PollInterval: time.Hour, Lease: killLease}
	f := &fixture{t: t, ctx: ctx, db: db, syncer: fresh, user: b.User, space: sp, bare: bare, url: "file://" + bare}
	f.merge("Start", func(tr *content.Tree) {
		addPage(tr, "home", "Welcome", "welcome", "Hello.\n")
		addPage(tr, "faq", "FAQ", "faq", "No questions.\n")
	})
	f.connect()
	work := f.clone()
	resume := func(wantAttempts int) {
		t.Helper()
		time.Sleep(killLease + 100*time.Millisecond) // the dead child's lease runs out
		if n, err := fresh.RunDue(ctx); n != 1 || err != nil {
			t.Fatalf("resume: %d operations, %v; want the killed one", n, err)
		}
		op := f.wantState(store.GitSuccess)
		if op.Attempts != wantAttempts {
			t.Errorf("the resumed operation (%s) ran %d times, want %d", op.Direction, op.Attempts, wantAttempts)
		}
	}

	// 1. Killed pushing a Quire merge: the branch's hook signals once the
	// push is received and stalls, the child dies before recording it.
	hook := filepath.Join(bare, "hooks", "post-receive")
	pushed := filepath.Join(t.TempDir(), "pushed")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nif [ ! -e '"+pushed+"' ]; then touch '"+pushed+"'; sleep 60; fi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.merge("Quire edit", func(tr *content.Tree) { tr.Pages["home"].Markdown = "Hello from Quire.\n" })
	if _, err := db.QueueGitSyncWork(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	killedSync(t, dbURL, data, pushed)
	f.wantState(store.GitRunning)
	// Meanwhile a Git writer pushes on top of the commit the store never
	// heard of.
	git(t, work, "pull", "--quiet")
	writeFile(t, filepath.Join(work, "faq.md"), strings.Replace(readFile(t, filepath.Join(work, "faq.md")), "No questions.", "Ask away.", 1))
	git(t, work, "commit", "--quiet", "-am", "Git edit")
	git(t, work, "push", "--quiet")
	resume(2)
	tr := f.tree()
	if !strings.Contains(tr.Pages["home"].Markdown, "Hello from Quire.") || !strings.Contains(tr.Pages["faq"].Markdown, "Ask away.") {
		t.Errorf("space after resuming: home %q, faq %q; want both edits", tr.Pages["home"].Markdown, tr.Pages["faq"].Markdown)
	}
	git(t, work, "pull", "--quiet")
	if home := readFile(t, filepath.Join(work, "README.md")); !strings.Contains(home, "Hello from Quire.") {
		t.Errorf("branch after resuming: README.md %q", home)
	}

	// 2. Killed importing a Git commit that adds an image, while storing
	// its bytes; meanwhile Quire merges another edit.
	os.MkdirAll(filepath.Join(work, ".gitbook", "assets"), 0o755)
	writeFile(t, filepath.Join(work, ".gitbook", "assets", "dot.png"), dotPNG(t))
	writeFile(t, filepath.Join(work, "faq.md"), readFile(t, filepath.Join(work, "faq.md"))+"\n![](.gitbook/assets/dot.png)\n")
	git(t, work, "add", "-A")
	git(t, work, "commit", "--quiet", "-m", "Add an image")
	git(t, work, "push", "--quiet")
	if err := db.PullGitSyncNow(ctx, sp.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.QueueGitSyncWork(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	killedSync(t, dbURL, data, filepath.Join(t.TempDir(), "storing"))
	f.wantState(store.GitRunning)
	f.merge("Another Quire edit", func(tr *content.Tree) { tr.Pages["home"].Markdown = "Hello again from Quire.\n" })
	resume(2)
	tr = f.tree()
	if len(tr.Files) != 1 || !strings.Contains(tr.Pages["faq"].Markdown, "/files/") || !strings.Contains(tr.Pages["home"].Markdown, "Hello again") {
		t.Errorf("space after resuming: files %v, faq %q, home %q", tr.Files, tr.Pages["faq"].Markdown, tr.Pages["home"].Markdown)
	}
	f.run() // Quire's merge, pushed on top
	f.wantState(store.GitSuccess)
	git(t, work, "pull", "--quiet")
	if home, faq := readFile(t, filepath.Join(work, "README.md")), readFile(t, filepath.Join(work, "faq.md")); !strings.Contains(home, "Hello again from Quire.") ||
		!strings.Contains(faq, "Ask away.") || !strings.Contains(faq, "dot.png") {
		t.Errorf("branch at the end: README.md %q, faq.md %q", home, faq)
	}
	if got := git(t, work, "status", "--porcelain"); got != "" {
		t.Errorf("work tree after the last pull: %q", got)
	}
}

// dotPNG is a 1×1 PNG.
func dotPNG(t *testing.T) string {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
