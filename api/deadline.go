package api

import (
	"net/http"
	"time"
)

// Deadlines bound how long a slow client holds a connection. http.Server's
// ReadTimeout and WriteTimeout are one fixed span per request, too short
// for event streams and too long for everything else, so they are set here
// per request through http.ResponseController instead.
const (
	// readBodyTimeout is how long a request body may take to arrive; larger
	// bodies (handleLimit) get more time, as if sent at minBodyRate.
	readBodyTimeout = 30 * time.Second
	minBodyRate     = 128 << 10 // bytes per second
	// writeTimeout is how long a client may take to take an answer, from
	// its first byte; event streams extend it with every event.
	writeTimeout = 60 * time.Second
)

// withDeadlines sets the read deadline of a request's body and the write
// deadline of its answer. A request without a body gets no read deadline:
// the server is then reading in the background to notice a client leaving,
// and an expired deadline would cancel the request. The server clears both
// deadlines once the answer is written; handlers served without a
// connection (tests' recorders) get none.
func (s *Server) withDeadlines(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hasBody(r) {
			http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.readTimeout))
		}
		next.ServeHTTP(&deadlineWriter{ResponseWriter: w, timeout: s.writeTimeout}, r)
	})
}

func hasBody(r *http.Request) bool { return r.Body != nil && r.Body != http.NoBody }

// allowBody gives a route taking bodies of up to limit bytes, more than
// MaxBodyBytes, the time to receive that much at minBodyRate.
func (s *Server) allowBody(w http.ResponseWriter, r *http.Request, limit int64) {
	if limit <= MaxBodyBytes || !hasBody(r) {
		return
	}
	d := s.readTimeout + time.Duration(limit/minBodyRate)*time.Second
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
}

// deadlineWriter starts the write deadline when the answer starts, so that
// a handler that thinks long (a model answering) is not cut short, while a
// client that does not read its answer is.
type deadlineWriter struct {
	http.ResponseWriter
	timeout time.Duration
	started bool
}

func (w *deadlineWriter) start() {
	if !w.started {
		w.started = true
		http.NewResponseController(w.ResponseWriter).SetWriteDeadline(time.Now().Add(w.timeout))
	}
}

func (w *deadlineWriter) WriteHeader(status int) {
	w.start()
	w.ResponseWriter.WriteHeader(status)
}

func (w *deadlineWriter) Write(b []byte) (int, error) {
	w.start()
	return w.ResponseWriter.Write(b)
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
