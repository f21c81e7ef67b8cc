package lru

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Shares are the parts of a budget each cache may hold, by name. A cache's
// bound is budget × share ÷ the sum of Shares, so the caches together never
// hold more than the budget. The parts are the MiB each cache was bounded
// by when each had its own bound: a budget of their sum (1,374 MiB) gives
// each what it had.
//
// Fixed shares rather than one pool that caches borrow from: the total is
// bounded by construction, no cache evicts another's entries (so no lock is
// taken across caches and reads cost what they did), and a cache kept apart
// on purpose (the API's page lists, which would push page answers out)
// stays apart. The cost is that a share unused by one cache is not lent to
// another.
var Shares = map[string]int{
	// revision: what reads derive from immutable content
	"revision.infos":      64,  // indexes and resolvers of trees
	"revision.documents":  64,  // JSON documents of pages and comment bodies
	"revision.sections":   32,  // search sections of pages
	"revision.ranked":     16,  // search results
	"revision.matched":    32,  // what the search index found
	"revision.snippets":   16,  // search result snippets
	"revision.scores":     32,  // scores of pages' sections
	"revision.words":      64,  // the words scores are counted on
	"revision.sites":      1,   // published site headers
	"revision.structures": 16,  // published site structures
	"revision.published":  64,  // encoded answers about published sites (the API's GET SITE/published)
	"revision.answers":    128, // encoded page answers
	"revision.lists":      64,  // encoded page lists, apart from the page answers
	"revision.runs":       64,  // encoded runs of pages of page lists

	// store: decoded rows that never change
	"store.trees":     256, // decoded trees of revisions
	"store.objects":   64,  // content objects already stored
	"store.revisions": 32,  // revision rows
	"store.comments":  64,  // comment rows, by version
	"store.indexed":   16,  // searchable pages of trees

	// content: decoded objects, shared by every decode
	"content.pages":  32,
	"content.bodies": 64,
	"content.lists":  8,
	"content.files":  8,

	// site: published sites
	"site.hosts":      1,   // the site at each hostname
	"site.answers":    128, // rendered pages and text answers
	"site.redirects":  1,   // redirect lookups
	"site.conditions": 4,   // page conditions of trees
	"site.moved":      32,  // former page paths of spaces
	"site.members":    1,   // whether API tokens are members'
	"site.programs":   4,   // compiled conditions

	// api: embeds read from the pages they show (GET S/embed)
	"api.embeds": 1,

	// ask: a model's suggested questions
	"ask.recommended": 1,
}

// Default is the budget of the caches of this process, sized to the
// machine (MachineBudget); quire serve sets it from --cache-budget before
// it builds anything that caches.
var Default = NewBudget(MachineBudget(), Shares)

// Budget bounds the bytes that a set of caches hold together, each name
// held to its share.
type Budget struct {
	total  atomic.Int64
	shares map[string]int
	sum    int64

	mu     sync.Mutex
	meters map[string]*meter
}

// NewBudget returns a budget of total bytes split by shares.
func NewBudget(total int64, shares map[string]int) *Budget {
	b := &Budget{shares: shares, meters: map[string]*meter{}}
	for _, s := range shares {
		b.sum += int64(s)
	}
	b.total.Store(total)
	return b
}

// SetTotal changes the budget to total bytes. A cache holding more than
// its new share gives back the difference as it next adds an entry.
func (b *Budget) SetTotal(total int64) { b.total.Store(total) }

// Total is the budget in bytes.
func (b *Budget) Total() int64 { return b.total.Load() }

// meter is one name's account: what its caches hold, and how often a
// lookup found its key.
type meter struct {
	name           string
	budget         *Budget
	share          int64
	entries, bytes atomic.Int64
	hits, misses   atomic.Int64
}

// meter is the account of name, made on first use; a name not in the
// shares is a programming error.
func (b *Budget) meter(name string) *meter {
	share, ok := b.shares[name]
	if !ok {
		panic(fmt.Sprintf("lru: cache %q has no share of the budget (lru.Shares)", name))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.meters[name]
	if m == nil {
		m = &meter{name: name, budget: b, share: int64(share)}
		b.meters[name] = m
	}
	return m
}

// max is the bytes the caches of m's name may hold together.
func (m *meter) max() int64 { return m.budget.total.Load() * m.share / m.budget.sum }

// release gives back what a collected cache held.
func (m *meter) release(h *held) {
	m.entries.Add(-h.entries.Load())
	m.bytes.Add(-h.bytes.Load())
}

// Stat is what the caches of one name hold and how they were used.
type Stat struct {
	Name         string
	Entries      int64
	Bytes        int64
	Max          int64 // the bytes its share of the budget allows
	Hits, Misses int64 // lookups that found their key, and that did not
}

// Stats reports every name that has had a cache, by name.
func (b *Budget) Stats() []Stat {
	b.mu.Lock()
	out := make([]Stat, 0, len(b.meters))
	for _, m := range b.meters {
		out = append(out, Stat{Name: m.name, Entries: m.entries.Load(), Bytes: m.bytes.Load(), Max: m.max(),
			Hits: m.hits.Load(), Misses: m.misses.Load()})
	}
	b.mu.Unlock()
	slices.SortFunc(out, func(a, b Stat) int { return strings.Compare(a.Name, b.Name) })
	return out
}
