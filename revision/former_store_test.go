package revision_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
)

// TestFormerPathsStore walks a space's history in the store: a renamed
// parent, a page moved out of it, a deleted page, and merges that change
// nothing of the paths.
func TestFormerPathsStore(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // guides, guides/install, big
	f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["guides"].Slug = "howto"
		return tr, nil
	})
	f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["guides"].Children = nil
		tr.Root = append(tr.Root, "install")
		delete(tr.Pages, "big")
		tr.Root = slices.DeleteFunc(tr.Root, func(id string) bool { return id == "big" })
		return tr, nil
	})
	f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["install"].Title = "Installing"
		return tr, nil
	})
	v := f.open(t)
	ctx := t.Context()

	tests := []struct {
		name  string
		limit int
		want  map[string]string
	}{
		{"whole history", 100, map[string]string{"guides": "guides", "guides/install": "install", "howto/install": "install"}},
		{"the last two revisions", 2, map[string]string{"howto/install": "install"}},
		{"none", 0, map[string]string{}},
	}
	for _, tt := range tests {
		got, err := f.reader.FormerPaths(ctx, v, tt.limit)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: FormerPaths (-want +got):\n%s", tt.name, diff)
		}
	}

	// A done context stops the walk with what it found and why it stopped.
	done, cancel := context.WithCancel(ctx)
	cancel()
	got, err := f.reader.FormerPaths(done, v, 100)
	if !errors.Is(err, context.Canceled) || len(got) != 0 {
		t.Errorf("FormerPaths with a done context = %v, %v; want nothing and context.Canceled", got, err)
	}
}
