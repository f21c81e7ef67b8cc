package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"time"
)

// SetKeepAlive sets how often the server's quiet event streams say they
// are alive; for tests, before the server serves.
func (s *Server) SetKeepAlive(d time.Duration) { s.keepAlive = d }

// PageListUncached is the page list of revision revisionID of space
// spaceID built afresh, as listPages built it for every request before
// the page list cache: the reference the cached bytes are held to.
func (s *Server) PageListUncached(ctx context.Context, spaceID, revisionID string, document, metadata bool) ([]byte, error) {
	sp, err := s.db.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	v, err := s.reader.Open(ctx, sp, revisionID, nil)
	if err != nil {
		return nil, err
	}
	f := format{document: document, metadata: metadata}
	if document {
		f.docBytes = new(int)
		*f.docBytes = MaxAnswerDocumentBytes
	}
	pages, err := s.pagesJSON(v, f)
	if err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	if err := writeJSON(rec, http.StatusOK, map[string]any{"pages": pages}); err != nil {
		return nil, err
	}
	return rec.Body.Bytes(), nil
}
