package gitsync_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// BenchmarkGitSyncOnePageChange1000: from a merged one-page change in a
// space of 1,000 pages synced with a branch, to its commit pushed (the
// export: fetch, write the folder, commit, push). Goal: at most 1 s.
func BenchmarkGitSyncOnePageChange1000(b *testing.B) {
	f := newFixture(b)
	f.merge("Start", func(tr *content.Tree) {
		for i := range 1000 {
			addPage(tr, fmt.Sprintf("p%d", i), fmt.Sprintf("Page %d", i), fmt.Sprintf("page-%d", i),
				strings.Repeat(fmt.Sprintf("Paragraph of page %d, long enough to look like documentation.\n\n", i), 20))
		}
	})
	f.connect()
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		f.merge(fmt.Sprintf("Edit %d", n), func(tr *content.Tree) { tr.Pages["p500"].Markdown = fmt.Sprintf("Edited %d times.\n", n) })
		b.StartTimer()
		if _, err := f.syncer.QueueAndRun(f.ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if op := f.wantState(store.GitSuccess); op.Direction != store.GitDirExport || op.Commit == "" {
		b.Fatalf("last operation = %+v, want a pushed export", op)
	}
}
