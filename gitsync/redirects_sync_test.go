package gitsync_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// TestRedirectsSyncBothWays: redirects pushed in .gitbook.yaml become the
// space's, and the commits Quire pushes afterwards keep them as written.
func TestRedirectsSyncBothWays(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.merge("Start", func(tr *content.Tree) {
		addPage(tr, "home", "Welcome", "welcome", "Hello.\n")
		addPage(tr, "install", "Install", "install", "Run it.\n")
	})
	f.connect()
	work := f.clone()
	cfg := filepath.Join(work, ".gitbook.yaml")
	want := readFile(t, cfg) + "\nredirects:\n  old/setup: install.md\n  start: README.md\n"
	writeFile(t, cfg, want)
	git(t, work, "commit", "--quiet", "-am", "Add redirects")
	git(t, work, "push", "--quiet")
	f.run()
	f.wantState(store.GitSuccess)
	got, err := f.db.SpaceRedirects(f.ctx, f.space.ID)
	if err != nil || len(got) != 2 || got["old/setup"] != "install" || got["start"] != "home" {
		t.Fatalf("space's redirects = %v, %v", got, err)
	}

	f.merge("Edit in Quire", func(tr *content.Tree) { tr.Pages["install"].Markdown = "Run it twice.\n" })
	f.run()
	f.wantState(store.GitSuccess)
	git(t, work, "pull", "--quiet")
	if got := git(t, work, "log", "-1", "--format=%s"); got != "Edit in Quire\n" {
		t.Fatalf("head = %q, want Quire's merge", got)
	}
	if got := readFile(t, cfg); got != want {
		t.Errorf(".gitbook.yaml after Quire's commit = %q, want %q", got, want)
	}
	if got := readFile(t, filepath.Join(work, "install.md")); !strings.Contains(got, "Run it twice.") {
		t.Errorf("install.md = %q", got)
	}
}
