package lru

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestBudgetBoundsTotal: caches filled far past the budget hold no more than
// it together, each its share, and keep their most recent entries.
func TestBudgetBoundsTotal(t *testing.T) {
	b := NewBudget(1000, map[string]int{"a": 1, "b": 1, "c": 2})
	a, a2 := NewIn[int, int](b, "a"), NewIn[int, int](b, "a") // one name twice: one share
	bc, c := NewIn[int, int](b, "b"), NewIn[string, []byte](b, "c")
	for i := range 1000 {
		a.Add(i, i, 10)
		a2.Add(i, i, 10)
		bc.Add(i, i, 7)
		c.Add(string(rune('a'+i%26))+string(rune(i)), nil, 30)
	}
	var total int64
	want := map[string]int64{"a": 250, "b": 250, "c": 500}
	for _, s := range b.Stats() {
		if s.Bytes > want[s.Name] || s.Max != want[s.Name] {
			t.Errorf("%s holds %d bytes of a bound of %d, want at most %d", s.Name, s.Bytes, s.Max, want[s.Name])
		}
		total += s.Bytes
	}
	if total > b.Total() {
		t.Errorf("caches hold %d bytes, over the budget of %d", total, b.Total())
	}
	if _, ok := bc.Get(999); !ok {
		t.Error("the most recent entry was evicted")
	}
	if _, ok := bc.Get(0); ok {
		t.Error("the oldest entry was kept")
	}
}

// TestBudgetBoundsConcurrentAdds: caches of one name filled at once by
// several goroutines end within their share.
func TestBudgetBoundsConcurrentAdds(t *testing.T) {
	b := NewBudget(1000, map[string]int{"a": 1})
	var wg sync.WaitGroup
	for range 4 {
		c := NewIn[int, int](b, "a")
		wg.Go(func() {
			for i := range 2000 {
				c.Add(i, i, 1+i%13)
				c.Get(i - 1)
			}
		})
	}
	wg.Wait()
	if s := b.Stats()[0]; s.Bytes > 1000 || s.Hits+s.Misses != 8000 {
		t.Errorf("after concurrent adds: %+v, want at most 1000 bytes and 8000 lookups", s)
	}
}

// TestCostlierThanShare: an entry costing more than its cache's share is
// not kept, and evicts nothing.
func TestCostlierThanShare(t *testing.T) {
	b := NewBudget(100, map[string]int{"a": 1, "b": 1})
	c := NewIn[string, string](b, "a")
	c.Add("small", "x", 10)
	c.Add("big", "y", 51)
	if _, ok := c.Get("big"); ok {
		t.Error("an entry costing more than the share was kept")
	}
	if _, ok := c.Get("small"); !ok {
		t.Error("an entry too costly to keep evicted another")
	}
}

// TestStats: a name's entries, bytes, hits and misses, replacing an entry
// counting once.
func TestStats(t *testing.T) {
	b := NewBudget(1<<20, map[string]int{"a": 1})
	c := NewIn[string, int](b, "a")
	c.Add("k", 1, 5)
	c.Add("k", 2, 7)
	c.Get("k")
	c.Get("k")
	c.Get("nope")
	got := b.Stats()
	want := Stat{Name: "a", Entries: 1, Bytes: 7, Max: 1 << 20, Hits: 2, Misses: 1}
	if len(got) != 1 || got[0] != want {
		t.Errorf("Stats = %+v, want [%+v]", got, want)
	}
}

// TestCollectedCacheGivesBack: what a collected cache held no longer counts
// against its name, so later caches of the name have its room.
func TestCollectedCacheGivesBack(t *testing.T) {
	b := NewBudget(100, map[string]int{"a": 1})
	func() {
		c := NewIn[int, int](b, "a")
		c.Add(1, 1, 90)
	}()
	for deadline := time.Now().Add(5 * time.Second); b.Stats()[0].Bytes != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("a collected cache still counts %d bytes", b.Stats()[0].Bytes)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestSharesNamed: every share is positive, so each cache has room.
func TestSharesNamed(t *testing.T) {
	for name, s := range Shares {
		if s <= 0 {
			t.Errorf("cache %q has a share of %d", name, s)
		}
	}
}

// TestUnknownName: a cache without a share is a programming error.
func TestUnknownName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a cache without a share was made")
		}
	}()
	NewIn[int, int](NewBudget(100, map[string]int{"a": 1}), "b")
}

func TestMachineBudget(t *testing.T) {
	if n := MachineBudget(); n < minBudget || n > maxBudget {
		t.Errorf("MachineBudget() = %d, outside [%d, %d]", n, minBudget, maxBudget)
	}
}

// BenchmarkGetParallel is a hit from every core on one cache.
func BenchmarkGetParallel(b *testing.B) {
	c := NewIn[int, int](NewBudget(1<<20, map[string]int{"a": 1}), "a")
	for i := range 100 {
		c.Add(i, i, 8)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			c.Get(i % 100)
			i++
		}
	})
}
