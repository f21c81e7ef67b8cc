package revision_test

import (
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
)

// TestUntilChanged: an answer is built once while the store's change count
// stays, and again after a write moves it.
func TestUntilChanged(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	builds := 0
	build := func() ([]byte, error) {
		builds++
		return []byte("answer\n"), nil
	}
	steps := []struct {
		name       string
		write      bool
		wantBuilds int
	}{
		{"first read", false, 1},
		{"read again", false, 1},
		{"after a write", true, 2},
		{"read again after it", false, 2},
	}
	for _, st := range steps {
		if st.write {
			f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
				tr.Pages["install"].Title = "Installing"
				return tr, nil
			})
		}
		a, kept, err := f.reader.UntilChanged(ctx, "k", build)
		if err != nil || string(a.Body[0]) != "answer\n" {
			t.Fatalf("%s: %v, %v", st.name, a, err)
		}
		if !kept {
			t.Skip("the store's change count is not trusted here")
		}
		if builds != st.wantBuilds {
			t.Errorf("%s: %d builds, want %d", st.name, builds, st.wantBuilds)
		}
	}
}
