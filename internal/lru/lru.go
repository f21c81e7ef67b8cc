// Package lru is a least-recently-used cache bounded by the cost of its
// entries. Every cache belongs to a Budget (budget.go) under a name, and
// its bound is its name's share of that budget.
package lru

import (
	"container/list"
	"runtime"
	"sync"
	"sync/atomic"
)

// Cache is a concurrency-safe least-recently-used cache bounded by the total
// cost of its entries, which count against its name's share of a budget.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	meter   *meter
	held    *held      // this cache's part of meter, given back when it is collected
	order   *list.List // front is most recent; elements hold *lruEntry
	entries map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	key  K
	val  V
	cost int
}

// held is what one cache holds of its meter's entries and bytes.
type held struct{ entries, bytes atomic.Int64 }

// New returns a cache named name in the Default budget; name must be one of
// Shares.
func New[K comparable, V any](name string) *Cache[K, V] { return NewIn[K, V](Default, name) }

// NewIn returns a cache named name in budget b. Caches of one name share
// its share: a second server in one process (tests) takes from the first's
// room, never adds to the total.
func NewIn[K comparable, V any](b *Budget, name string) *Cache[K, V] {
	c := &Cache[K, V]{meter: b.meter(name), held: &held{}, order: list.New(), entries: map[K]*list.Element{}}
	runtime.AddCleanup(c, c.meter.release, c.held) // must not hold c: it would never be collected
	return c
}

func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		c.order.MoveToFront(e)
		c.meter.hits.Add(1)
		return e.Value.(*lruEntry[K, V]).val, true
	}
	c.meter.misses.Add(1)
	var zero V
	return zero, false
}

// Add stores v under k; an entry costing more than the cache's whole share
// is not kept. Least recently used entries of this cache make room while
// its name holds more than its share.
func (c *Cache[K, V]) Add(k K, v V, cost int) {
	max := c.meter.max()
	if int64(cost) > max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		c.remove(e)
	}
	c.entries[k] = c.order.PushFront(&lruEntry[K, V]{k, v, cost})
	c.count(1, cost)
	for c.meter.bytes.Load() > max && c.order.Len() > 0 {
		c.remove(c.order.Back())
	}
}

func (c *Cache[K, V]) remove(e *list.Element) {
	old := e.Value.(*lruEntry[K, V])
	c.order.Remove(e)
	delete(c.entries, old.key)
	c.count(-1, -old.cost)
}

// count adds entries and bytes to this cache's part and to its meter.
func (c *Cache[K, V]) count(entries, bytes int) {
	c.held.entries.Add(int64(entries))
	c.held.bytes.Add(int64(bytes))
	c.meter.entries.Add(int64(entries))
	c.meter.bytes.Add(int64(bytes))
}
