// Package lru is a least-recently-used cache bounded by the cost of its entries.
package lru

import (
	"container/list"
	"sync"
)

// Cache is a concurrency-safe least-recently-used cache bounded by the total
// cost of its entries.
type Cache[K comparable, V any] struct {
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

// New returns a cache holding entries of a total cost up to maxCost.
func New[K comparable, V any](maxCost int) *Cache[K, V] {
	return &Cache[K, V]{max: maxCost, order: list.New(), entries: map[K]*list.Element{}}
}

func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruEntry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Add stores v under k; an entry costing more than the whole cache is not kept.
func (c *Cache[K, V]) Add(k K, v V, cost int) {
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
