package site

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/quiredocs/quire/web"
)

// observe serves a request to a published site through serve, logging one
// line for it (never its query, which may hold share keys or tokens) and
// answering 500 with the error page when serve panics.
func (s *Server) observe(w http.ResponseWriter, r *http.Request, serve func(w http.ResponseWriter)) {
	start := s.now()
	sw := &web.StatusWriter{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.cfg.Logger.Error("published site: panic", "method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if sw.Status == 0 {
				title, info := errorPage(http.StatusInternalServerError, nil)
				s.writeError(sw, r, nil, title, info)
			}
		}
		s.cfg.Logger.Info("site request", "method", r.Method, "host", r.Host, "path", r.URL.Path,
			"status", sw.Status, "bytes", sw.Bytes, "duration", time.Since(start))
	}()
	serve(sw)
}
