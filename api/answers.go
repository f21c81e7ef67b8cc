package api

import (
	"bufio"
	"bytes"
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

// Reads of a revision's pages (GET …/content/page/{pageId}, by path, and the
// page lists of …/content/pages and …/revisions/{revisionId}/pages) answer
// bytes that depend only on the space's id (in each page's app URL), the
// tree (immutable, named by its root), the page and the format and metadata
// flags, and the server's public URL and app host; never on the caller, and
// on no state a commit changes in place. So each answer is encoded once per
// key, kept as bytes in an LRU bounded in bytes, and gzipped on first
// demand: the page list is the API's largest answer, every page with its
// body, 2.7 MB for 1,000 pages. A new revision has a new root, hence new
// keys: nothing is invalidated, old entries age out. A page in markdown
// format is keyed by what its bytes are made of instead (pageKey), so that
// merges elsewhere in the space leave its answer in place. The caller is
// authorized before the cache is consulted (the view's load), so cached
// bytes never reach someone who may not read them.

// Answers cost twice their body (room for the gzipped form) in the cache
// "api.answers". Page lists are kept apart, in "api.lists": each merge
// makes a new list of megabytes, which would push every page read out of
// the answer cache within a second. A list costs its bytes plain and
// gzipped (shared with the runs it is made of, but they may outlive them).

// encodedAnswer is one encoded answer, gzipped on first demand. Its bytes
// may be in parts: a page list is written from its runs as they are
// cached (pagelist.go), rather than copied into one buffer for each
// revision.
type encodedAnswer struct {
	body   [][]byte
	size   int      // of body
	length []string // Content-Length of body, as a header value
	gzOnce sync.Once
	gz     [][]byte // nil when gzip saves nothing
	gzLen  []string // Content-Length of gz
}

func newEncodedAnswer(body []byte) *encodedAnswer {
	return newEncodedAnswerParts([][]byte{body})
}

func newEncodedAnswerParts(body [][]byte) *encodedAnswer {
	a := &encodedAnswer{body: body}
	for _, b := range body {
		a.size += len(b)
	}
	a.length = []string{strconv.Itoa(a.size)}
	return a
}

// newEncodedAnswerGzipped is an answer whose gzipped form is made already.
func newEncodedAnswerGzipped(body, gz [][]byte) *encodedAnswer {
	a := newEncodedAnswerParts(body)
	a.gzOnce.Do(func() {
		if n := partsSize(gz); n < a.size {
			a.gz, a.gzLen = gz, []string{strconv.Itoa(n)}
		}
	})
	return a
}

func partsSize(parts [][]byte) int {
	n := 0
	for _, b := range parts {
		n += len(b)
	}
	return n
}

// encoded wraps a build of an answer's bytes as a build of the answer.
func encoded(build func() ([]byte, error)) func() (*encodedAnswer, error) {
	return func() (*encodedAnswer, error) {
		body, err := build()
		if err != nil {
			return nil, err
		}
		return newEncodedAnswer(body), nil
	}
}

func (a *encodedAnswer) gzipped() [][]byte {
	a.gzOnce.Do(func() {
		if gz := web.GzipFast(bytes.Join(a.body, nil)); gz != nil {
			a.gz, a.gzLen = [][]byte{gz}, []string{strconv.Itoa(len(gz))}
		}
	})
	return a.gz
}

// cost is what the answer counts against the cache: its body and room for
// its gzipped form. Parts shared with other answers count in each.
func (a *encodedAnswer) cost() int {
	if a.gz != nil && len(a.body) > 1 {
		return a.size + partsSize(a.gz)
	}
	return 2 * a.size
}

// answerCache holds encoded answers and builds each missing one once,
// however many requests ask for it meanwhile.
type answerCache struct {
	answers *lru.Cache[string, *encodedAnswer]

	mu       sync.Mutex
	building map[string]*answerBuild
}

// answerBuild is a build under way; done closes when answer or err is set.
type answerBuild struct {
	done   chan struct{}
	answer *encodedAnswer
	err    error
}

// newAnswerCache returns an answer cache named name in the cache budget.
func newAnswerCache(name string) *answerCache {
	return &answerCache{answers: lru.New[string, *encodedAnswer](name), building: map[string]*answerBuild{}}
}

// get is the answer named key, built by build when missing. Errors are
// not kept: the next request builds again.
func (c *answerCache) get(ctx context.Context, key string, build func() (*encodedAnswer, error)) (*encodedAnswer, error) {
	if a, ok := c.answers.Get(key); ok {
		return a, nil
	}
	c.mu.Lock()
	if b, ok := c.building[key]; ok {
		c.mu.Unlock()
		select {
		case <-b.done:
			return b.answer, b.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	b := &answerBuild{done: make(chan struct{}), err: errors.New("answer build failed")}
	c.building[key] = b
	c.mu.Unlock()
	defer func() { // also when build panics, so that waiters wake
		c.mu.Lock()
		delete(c.building, key)
		c.mu.Unlock()
		close(b.done)
	}()
	a, err := build()
	if err != nil {
		b.err = err
		return nil, err
	}
	b.answer, b.err = a, nil
	c.answers.Add(key, a, a.cost()+len(key)+128)
	return a, nil
}

// serve answers 200 with the answer named key, gzipped when the client
// takes it.
func (c *answerCache) serve(w http.ResponseWriter, r *http.Request, key string, build func() (*encodedAnswer, error)) error {
	a, err := c.get(r.Context(), key, build)
	if err != nil {
		return err
	}
	body, length := a.body, a.length
	h := w.Header()
	if _, ok := h["Vary"]; ok {
		h.Add("Vary", "Accept-Encoding")
	} else {
		h["Vary"] = headerVaryEncoding
	}
	if web.AcceptsGzip(r) {
		if gz := a.gzipped(); gz != nil {
			h["Content-Encoding"] = web.HeaderGzip
			body, length = gz, a.gzLen
		}
	}
	// Shared, never changed header values: these answers are the API's most
	// frequent, and each Set would allocate.
	h["Content-Type"] = headerJSON
	h["Content-Length"] = length
	w.WriteHeader(http.StatusOK)
	if len(body) == 1 {
		_, err = w.Write(body[0])
		return err
	}
	// Parts are written through a larger buffer: each write to the
	// connection is a system call, and a page list has dozens of parts.
	bw := partWriters.Get().(*bufio.Writer)
	defer partWriters.Put(bw)
	bw.Reset(w)
	defer bw.Reset(nil)
	for _, b := range body {
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

var partWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// headerJSON is the Content-Type of JSON answers, as a header value.
var headerJSON = []string{"application/json; charset=utf-8"}

// headerVaryEncoding is "Vary: Accept-Encoding" as a header value.
var headerVaryEncoding = []string{"Accept-Encoding"}

// revisionKey names what the answers of v in format f are made of; what
// names the answer ("pages", or a page's id).
func revisionKey(v *revision.View, f format, what string) string {
	return v.Space.ID + "\x00" + v.Revision.Root + "\x00" + strconv.FormatBool(f.document) + "\x00" + strconv.FormatBool(f.metadata) + "\x00" + what
}

// encodeJSON encodes v as writeJSON writes it.
func encodeJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func (s *Server) listPages(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	return s.lists.serve(w, r, revisionKey(v, f, "pages"), s.pageListOf(r.Context(), v, f))
}

// pageListOf builds the page list of v in format f, as listPages answers it.
func (s *Server) pageListOf(ctx context.Context, v *revision.View, f format) func() (*encodedAnswer, error) {
	return func() (*encodedAnswer, error) {
		if !f.document {
			if a, ok, err := s.pageListRuns(ctx, v, f); ok {
				return a, err
			}
		}
		pages, err := s.pagesJSON(v, f)
		if err != nil {
			return nil, err
		}
		body, err := encodeJSON(map[string]any{"pages": pages})
		if err != nil {
			return nil, err
		}
		return newEncodedAnswer(body), nil
	}
}

// writePage answers the page id of v, in full, in format f.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, v *revision.View, id string, f format) error {
	key, build := s.pageAnswer(v, id, f)
	return s.answers.serve(w, r, key, build)
}

// pageAnswer is the key and the build of the answer of page id of v, in
// full, in format f: what a page read answers, and, without its final
// newline, what a page list holds of a top-level page.
func (s *Server) pageAnswer(v *revision.View, id string, f format) (string, func() (*encodedAnswer, error)) {
	key, ok := pageKey(v, f, id)
	if !ok {
		key = revisionKey(v, f, id)
	}
	return key, encoded(func() ([]byte, error) {
		page, err := s.pageJSON(v, id, f, true)
		if err != nil {
			return nil, err
		}
		return encodeJSON(page)
	})
}
