package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/quiredocs/quire/web"
)

// LimitInFlight lets at most max requests be worked on at once; one that
// finds no room within wait is answered 503 with Retry-After at once. An
// overloaded server then keeps its latency and memory bounded and tells
// clients to come back, rather than taking every request and answering
// all of them late. Streams of server-sent events (asks, change feeds),
// which stay open, and the health and metrics endpoints, which must answer
// most when the server is busy, are not counted. max 0 means no limit.
func LimitInFlight(next http.Handler, max int, wait time.Duration) http.Handler {
	if max <= 0 {
		return next
	}
	slots := make(chan struct{}, max)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if exemptFromInFlight(r) {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
		default:
			timer := time.NewTimer(wait)
			select {
			case slots <- struct{}{}:
				timer.Stop()
			case <-timer.C:
				busy(w)
				return
			case <-r.Context().Done():
				timer.Stop()
				return
			}
		}
		defer func() { <-slots }()
		next.ServeHTTP(w, r)
	})
}

func exemptFromInFlight(r *http.Request) bool {
	return r.URL.Path == "/healthz" || r.URL.Path == "/metrics" ||
		strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// busy answers a request the server has no room for.
func busy(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "1")
	_ = web.WriteJSONError(w, http.StatusServiceUnavailable, "the server is busy: try again in a second")
}
