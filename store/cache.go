package store

import (
	"context"
	"crypto/sha256"
	"strings"
	"sync"

	"github.com/quiredocs/quire"
)

// Nearly every request reads the same few rows: the user of its token or app
// session, the space it names and what decides the caller's role there. DB
// keeps them in memory for as long as nothing commits: each cache is tagged
// with the
// change count (Commits) it was filled under, and a move of that count (a
// commit through this DB, or on PostgreSQL one another server announces,
// changes.go) empties it. Reads inside a Tx never use them.

// Bounds of the caches, in entries; a full cache starts over.
const (
	maxCachedUsers   = 10_000
	maxCachedSpaces  = 10_000
	maxCachedViewers = 50_000
)

// readCaches are the caches of a DB.
type readCaches struct {
	users    genCache[[sha256.Size]byte, *quire.User]
	sessions genCache[[sha256.Size]byte, *sessionUser] // app sessions, by id
	spaces   genCache[string, *quire.Space]
	viewers  genCache[string, *quire.Viewer]
}

// genCache is a map valid for one change count.
type genCache[K comparable, V any] struct {
	mu  sync.RWMutex
	gen uint64
	m   map[K]V
}

func (c *genCache[K, V]) get(k K, gen uint64) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.gen != gen {
		var zero V
		return zero, false
	}
	v, ok := c.m[k]
	return v, ok
}

// put remembers v, read after the change count was gen: a value read
// before a later change is dropped, as it may predate that change.
func (c *genCache[K, V]) put(k K, v V, gen uint64, max int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen < c.gen {
		return
	}
	if gen > c.gen || c.m == nil || len(c.m) >= max {
		c.m, c.gen = make(map[K]V), gen
	}
	c.m[k] = v
}

// cached reads through a cache: the change count is taken before the read,
// so that a commit during it makes the value stale at once. Only found
// values are kept. Without a trustworthy change count (changes.go) it
// reads the database every time.
func cached[K comparable, V any](db *DB, c *genCache[K, V], max int, k K, read func() (V, error)) (V, error) {
	gen, ok := db.ChangeCount()
	if !ok {
		return read()
	}
	if v, hit := c.get(k, gen); hit {
		return v, nil
	}
	v, err := read()
	// Kept only when no commit began or ended meanwhile: what was read
	// may be older than a commit the caller hears of next.
	if now, ok := db.ChangeCount(); err == nil && ok && now == gen {
		c.put(k, v, gen, max)
	}
	return v, err
}

// UserByToken returns the user an API token belongs to; a token that is
// not one is CodeUnauthorized.
func (db *DB) UserByToken(ctx context.Context, token string) (*quire.User, error) {
	u, err := cached(db, &db.cache.users, maxCachedUsers, sha256.Sum256([]byte(token)), func() (*quire.User, error) {
		return db.reader.UserByToken(ctx, token)
	})
	if err != nil {
		return nil, err
	}
	cp := *u // callers may change their copy
	return &cp, nil
}

// Space returns a space by id, deleted or not.
func (db *DB) Space(ctx context.Context, id string) (*quire.Space, error) {
	sp, err := cached(db, &db.cache.spaces, maxCachedSpaces, id, func() (*quire.Space, error) { return db.reader.Space(ctx, id) })
	if err != nil {
		return nil, err
	}
	cp := *sp
	return &cp, nil
}

// Viewer is reader.Viewer through the cache. The viewer is shared: callers
// must not change it.
func (db *DB) Viewer(ctx context.Context, orgID, userID string, ids []string) (*quire.Viewer, error) {
	key := orgID + "\x00" + userID + "\x00" + strings.Join(ids, "\x00")
	return cached(db, &db.cache.viewers, maxCachedViewers, key, func() (*quire.Viewer, error) {
		return db.reader.Viewer(ctx, orgID, userID, ids)
	})
}
