package api

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

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

// The answers are kept by the reader (revision.Answers): page lists apart
// from the rest (Reader.Lists). A list costs its bytes plain and gzipped
// (shared with the runs it is made of, but they may outlive them).

// encoded wraps a build of an answer's bytes as a build of the answer.
func encoded(build func() ([]byte, error)) func() (*revision.Answer, error) {
	return func() (*revision.Answer, error) {
		body, err := build()
		if err != nil {
			return nil, err
		}
		return revision.NewAnswer(body), nil
	}
}

// serveAnswer answers 200 with the answer named key in c, gzipped when the
// client takes it.
func serveAnswer(w http.ResponseWriter, r *http.Request, c *revision.Answers, key string, build func() (*revision.Answer, error)) error {
	a, err := c.Get(r.Context(), key, build)
	if err != nil {
		return err
	}
	body, length := a.Body, a.Length
	h := w.Header()
	if _, ok := h["Vary"]; ok {
		h.Add("Vary", "Accept-Encoding")
	} else {
		h["Vary"] = headerVaryEncoding
	}
	if web.AcceptsGzip(r) {
		if gz, gzLen := a.Gzipped(); gz != nil {
			h["Content-Encoding"] = web.HeaderGzip
			body, length = gz, gzLen
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
	return serveAnswer(w, r, s.reader.Lists(), revisionKey(v, f, "pages"), s.pageListOf(r.Context(), v, f))
}

// pageListOf builds the page list of v in format f, as listPages answers it.
func (s *Server) pageListOf(ctx context.Context, v *revision.View, f format) func() (*revision.Answer, error) {
	return func() (*revision.Answer, error) {
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
		return revision.NewAnswer(body), nil
	}
}

// writePage answers the page id of v, in full, in format f.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, v *revision.View, id string, f format) error {
	key, build := s.pageAnswer(v, id, f)
	return serveAnswer(w, r, s.reader.Answers(), key, build)
}

// pageAnswer is the key and the build of the answer of page id of v, in
// full, in format f: what a page read answers, and, without its final
// newline, what a page list holds of a top-level page.
func (s *Server) pageAnswer(v *revision.View, id string, f format) (string, func() (*revision.Answer, error)) {
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
