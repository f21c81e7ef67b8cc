package store_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/store/storetest"
)

// TestRateLimitsShared: two limiters, as two servers, over one store share
// a key's count once they sync, neither writing announces a change (which
// would empty every server's caches each second), and expired counts go.
func TestRateLimitsShared(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	now := time.Unix(1_800_000_000, 0) // on a minute boundary
	clock := func() time.Time { return now }
	a, b := ratelimit.NewLimiter(), ratelimit.NewLimiter()
	a.Now, b.Now = clock, clock
	rate := ratelimit.Rate{Limit: 5, Per: time.Minute}
	commits := db.Commits()

	for range 3 {
		if d := a.Take("t:secret", rate); !d.Allowed {
			t.Fatal("a refused within the limit")
		}
	}
	if err := a.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	if d := b.Take("t:secret", rate); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("b before syncing: %+v, want allowed with 4 remaining (it knows only its own)", d)
	}
	if err := b.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	if d := b.Take("t:secret", rate); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("b after syncing: %+v, want the fifth request allowed, none remaining", d)
	}
	if d := b.Take("t:secret", rate); d.Allowed {
		t.Fatalf("b allowed a sixth request in the window: %+v", d)
	}
	if got := db.Commits(); got != commits {
		t.Errorf("syncing counts moved the change count from %d to %d", commits, got)
	}

	// The next window starts over, and the old one's rows are deleted.
	now = now.Add(time.Minute)
	if d := b.Take("t:secret", rate); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("next window: %+v", d)
	}
	if err := db.DeleteRateCounts(ctx, now.Unix()+1); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("t:secret"))
	sums, err := db.AddRateCounts(ctx, []ratelimit.Count{{Key: hex.EncodeToString(sum[:]), Window: now.Unix() - 60, N: 1, Expires: now.Unix()}})
	if err != nil || sums[0] != 1 {
		t.Fatalf("after deleting expired counts, the old window sums %v (%v), want 1", sums, err)
	}
}
