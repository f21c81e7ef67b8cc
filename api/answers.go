package api

import (
	"bufio"
	"net/http"
	"sync"

	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/web"
)

// Reads of a revision's pages, lists, comments, searches and spaces answer
// bytes that revision encodes and keeps (revision.Answers): each answer is
// encoded once per key and gzipped on first demand. The caller is authorized
// before the answer is asked for, so kept bytes never reach someone who may
// not read them.

// encoded wraps a build of an answer's bytes as a build of the answer.
var encoded = revision.Encoded

// encodeJSON encodes v as writeJSON writes it.
var encodeJSON = revision.EncodeJSON

// serveAnswer answers 200 with the answer named key in c, gzipped when the
// client takes it.
func serveAnswer(w http.ResponseWriter, r *http.Request, c *revision.Answers, key string, build func() (*revision.Answer, error)) error {
	a, err := c.Get(r.Context(), key, build)
	if err != nil {
		return err
	}
	return writeAnswer(w, r, a)
}

// writeAnswer answers 200 with a, gzipped when the client takes it.
func writeAnswer(w http.ResponseWriter, r *http.Request, a *revision.Answer) (err error) {
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

func (s *Server) listPages(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	if ps, ok := pagesSeen(r.Context(), v); ok {
		pages, err := v.PagesJSON(s.wire, f)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, map[string]any{"pages": seenPagesJSON(pages, ps)})
	}
	a, err := s.reader.PageList(r.Context(), s.wire, v, f)
	if err != nil {
		return err
	}
	return writeAnswer(w, r, a)
}

// writePage answers the page id of v, in full, in format f.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, v *revision.View, id string, f revision.Format) error {
	a, err := s.reader.PageAnswer(r.Context(), s.wire, v, id, f)
	if err != nil {
		return err
	}
	return writeAnswer(w, r, a)
}
