package store

import (
	"container/list"
	"sync"
)

// lru is a concurrency-safe least-recently-used cache bounded by the total
// cost of its entries.
type lru[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	used    int
	order   *list.List // front is most recent; elements hold *lruEntry
	entries map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	key  K
	val  V
	cost int
}

func newLRU[K comparable, V any](maxCost int) *lru[K, V] {
	return &lru[K, V]{max: maxCost, order: list.New(), entries: map[K]*list.Element{}}
}

func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruEntry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// add stores v under k; an entry costing more than the whole cache is not kept.
func (c *lru[K, V]) add(k K, v V, cost int) {
	if cost > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		c.used -= e.Value.(*lruEntry[K, V]).cost
		c.order.Remove(e)
	}
	c.entries[k] = c.order.PushFront(&lruEntry[K, V]{k, v, cost})
	c.used += cost
	for c.used > c.max {
		last := c.order.Back()
		old := last.Value.(*lruEntry[K, V])
		c.order.Remove(last)
		delete(c.entries, old.key)
		c.used -= old.cost
	}
}
