package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/web"
)

// The page list of a revision (GET …/content/pages and
// …/revisions/{revisionId}/pages) is the API's largest answer: every page
// with its body, 2.7 MB for 1,000 pages. Its bytes depend only on the space's
// id (in each page's app URL), the tree (immutable, named by its root), the
// format and metadata flags, and the server's public URL and app host; never
// on the caller, and on no state a commit changes in place. So it is encoded
// once per key, kept as bytes in an LRU bounded in bytes, and gzipped on
// first demand. A new revision has a new root, hence a new key: nothing is
// invalidated, old entries age out. The caller is authorized before the
// cache is consulted (the view's load), so cached bytes never reach someone
// who may not read them.

// maxPageListBytes bounds the page list cache; an entry costs twice its body
// (room for its gzipped form), so a 10,000-page list (27.7 MB) fits.
const maxPageListBytes = 128 << 20

// pageList is one encoded page list, gzipped on first demand.
type pageList struct {
	body   []byte
	gzOnce sync.Once
	gz     []byte // nil when gzip saves nothing
}

func (l *pageList) gzipped() []byte {
	l.gzOnce.Do(func() { l.gz = web.Gzip(l.body) })
	return l.gz
}

// pageListCache holds encoded page lists and builds each missing one once,
// however many requests ask for it meanwhile.
type pageListCache struct {
	lists *lru.Cache[string, *pageList]

	mu       sync.Mutex
	building map[string]*pageListBuild
}

// pageListBuild is a build under way; done closes when list or err is set.
type pageListBuild struct {
	done chan struct{}
	list *pageList
	err  error
}

func newPageListCache(maxBytes int) *pageListCache {
	return &pageListCache{lists: lru.New[string, *pageList](maxBytes), building: map[string]*pageListBuild{}}
}

// get is the page list named key, built by build when missing. Errors are
// not kept: the next request builds again.
func (c *pageListCache) get(ctx context.Context, key string, build func() ([]byte, error)) (*pageList, error) {
	if l, ok := c.lists.Get(key); ok {
		return l, nil
	}
	c.mu.Lock()
	if b, ok := c.building[key]; ok {
		c.mu.Unlock()
		select {
		case <-b.done:
			return b.list, b.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	b := &pageListBuild{done: make(chan struct{}), err: errors.New("page list build failed")}
	c.building[key] = b
	c.mu.Unlock()
	defer func() { // also when build panics, so that waiters wake
		c.mu.Lock()
		delete(c.building, key)
		c.mu.Unlock()
		close(b.done)
	}()
	body, err := build()
	if err != nil {
		b.err = err
		return nil, err
	}
	b.list, b.err = &pageList{body: body}, nil
	c.lists.Add(key, b.list, 2*len(body)+len(key)+128)
	return b.list, nil
}

// pageListKey names what a page list of v in format f is made of.
func pageListKey(v *revision.View, f format) string {
	return v.Space.ID + "\x00" + v.Revision.Root + "\x00" + strconv.FormatBool(f.document) + "\x00" + strconv.FormatBool(f.metadata)
}

func (s *Server) listPages(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	list, err := s.pageLists.get(r.Context(), pageListKey(v, f), func() ([]byte, error) { return s.encodePageList(v, f) })
	if err != nil {
		return err
	}
	body := list.body
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	if web.AcceptsGzip(r) {
		if gz := list.gzipped(); gz != nil {
			h.Set("Content-Encoding", "gzip")
			body = gz
		}
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(body)
	return err
}

// encodePageList is the page list of v in format f as writeJSON writes it.
func (s *Server) encodePageList(v *revision.View, f format) ([]byte, error) {
	pages, err := s.pagesJSON(v, f)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(map[string]any{"pages": pages})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
