package revision

import (
	"context"
	"strconv"
	"time"

	"github.com/quiredocs/quire"
)

// PublishedTTL bounds how stale a cached published site may be. Writes
// through this server are seen at once (store.DB.Commits), and those of
// other servers sharing the database as soon as the store hears of them;
// this bounds the rest, such as a time the store could not hear.
const PublishedTTL = time.Second

// The site and structure caches of a published site are keyed by the
// site's version and the store's commit count, so a change makes new keys
// and the old entries age out.

type cachedSite struct {
	commits uint64
	site    *quire.Site // read-only
	built   time.Time
}

type cachedStructure struct {
	key   string
	st    *quire.SiteStructure
	built time.Time
}

// PublishedSite returns the site id (without counts, see store.SiteHeader)
// as of commits (store.DB.Commits, read before), from the cache when no
// write committed through this server since it was read, less than
// PublishedTTL ago. The site returned is the caller's to change.
func (r *Reader) PublishedSite(ctx context.Context, id string, commits uint64) (*quire.Site, error) {
	now := r.now()
	if e, ok := r.sites.Get(id); ok && e.commits == commits && now.Sub(e.built) < PublishedTTL {
		copied := *e.site
		return &copied, nil
	}
	site, err := r.db.SiteHeader(ctx, id)
	if err != nil {
		return nil, err
	}
	copied := *site
	r.sites.Add(id, cachedSite{commits: commits, site: &copied, built: now}, 512)
	return site, nil
}

// PublishedStructure returns the structure of site as of commits, from the
// cache when it is fresh. It is shared: never modify it.
func (r *Reader) PublishedStructure(ctx context.Context, site *quire.Site, commits uint64) (*quire.SiteStructure, error) {
	key := strconv.FormatInt(site.Version, 10) + ":" + strconv.FormatUint(commits, 10)
	now := r.now()
	if e, ok := r.structures.Get(site.ID); ok && e.key == key && now.Sub(e.built) < PublishedTTL {
		return e.st, nil
	}
	st, err := r.db.SiteStructure(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	r.structures.Add(site.ID, cachedStructure{key: key, st: st, built: now}, 2048+1024*len(st.AllSiteSpaces()))
	return st, nil
}

// publishedAnswer is an encoded answer about a published site, and when it
// was built.
type publishedAnswer struct {
	body  []byte
	built time.Time
}

// PublishedAnswer is the answer kept under key by KeepPublishedAnswer, if
// built less than PublishedTTL ago. The key names the site at its version,
// the store at its commit count and whatever else the answer depends on
// (the API's: the caller's roles).
func (r *Reader) PublishedAnswer(key string) ([]byte, bool) {
	e, ok := r.published.Get(key)
	if !ok || r.now().Sub(e.built) >= PublishedTTL {
		return nil, false
	}
	return e.body, true
}

// KeepPublishedAnswer keeps body under key; read only.
func (r *Reader) KeepPublishedAnswer(key string, body []byte) {
	r.published.Add(key, publishedAnswer{body: body, built: r.now()}, len(body)+len(key))
}
