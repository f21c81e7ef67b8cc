package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/quiredocs/quire/revision"
)

// SetKeepAlive sets how often the server's quiet event streams say they
// are alive; for tests, before the server serves.
func (s *Server) SetKeepAlive(d time.Duration) { s.keepAlive = d }

// PageListUncached is the page list of revision revisionID of space
// spaceID built afresh, as listPages built it for every request before
// the page list cache: the reference the cached bytes are held to.
func (s *Server) PageListUncached(ctx context.Context, spaceID, revisionID string, document, metadata bool) ([]byte, error) {
	return s.uncached(ctx, spaceID, revisionID, document, metadata, func(v *revision.View, f revision.Format) (any, error) {
		pages, err := v.PagesJSON(s.wire, f)
		return map[string]any{"pages": pages}, err
	})
}

// PageUncached is a page read (GET …/page/{pageId}) built afresh, as it was
// before the answer cache.
func (s *Server) PageUncached(ctx context.Context, spaceID, revisionID, pageID string, document, metadata bool) ([]byte, error) {
	return s.uncached(ctx, spaceID, revisionID, document, metadata, func(v *revision.View, f revision.Format) (any, error) {
		return v.PageJSON(s.wire, pageID, f, true)
	})
}

func (s *Server) uncached(ctx context.Context, spaceID, revisionID string, document, metadata bool, answer func(*revision.View, revision.Format) (any, error)) ([]byte, error) {
	sp, err := s.db.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	v, err := s.reader.Open(ctx, sp, revisionID, nil)
	if err != nil {
		return nil, err
	}
	out, err := answer(v, revision.NewFormat(document, metadata))
	if err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	if err := writeJSON(rec, http.StatusOK, out); err != nil {
		return nil, err
	}
	return rec.Body.Bytes(), nil
}
