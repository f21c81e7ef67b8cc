package site

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"time"
)

// observe serves a request to a published site through serve, logging one
// line for it (never its query, which may hold share keys or tokens) and
// answering 500 with the error page when serve panics.
func (s *Server) observe(w http.ResponseWriter, r *http.Request, serve func(w http.ResponseWriter)) {
	start := s.now()
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.cfg.Logger.Error("published site: panic", "method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if sw.status == 0 {
				s.writeError(sw, r, nil, "Something went wrong", errorInfo{Status: http.StatusInternalServerError,
					Message: "Something went wrong on our side. Please try again in a moment."})
			}
		}
		s.cfg.Logger.Info("site request", "method", r.Method, "host", r.Host, "path", r.URL.Path,
			"status", sw.status, "bytes", sw.bytes, "duration", time.Since(start))
	}()
	serve(sw)
}

// statusWriter remembers what was answered, for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Flush lets streamed answers (the MCP server's events) through.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
