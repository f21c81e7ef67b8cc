// Package sse writes server-sent events (the text/event-stream format) to
// one HTTP client, keeping a quiet stream open with comment lines so that
// proxies do not close it while the server thinks.
package sse

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"
)

// ErrClosed is writing to a stream after Close.
var ErrClosed = errors.New("event stream ended")

// Stream is an open event stream; it is safe for concurrent use.
type Stream struct {
	mu      sync.Mutex
	w       http.ResponseWriter // nil once closed
	rc      *http.ResponseController
	stop    chan struct{}
	timeout time.Duration
}

// Start answers 200 with an event stream, which says it is alive every
// keepAlive while quiet, until Close. Each write sets the write deadline
// timeout ahead, so a stream lives as long as its client reads it.
func Start(w http.ResponseWriter, keepAlive, timeout time.Duration) *Stream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // proxies must not hold events back
	w.WriteHeader(http.StatusOK)
	s := &Stream{w: w, rc: http.NewResponseController(w), stop: make(chan struct{}), timeout: timeout}
	go s.keepAlive(keepAlive)
	return s
}

func (s *Stream) keepAlive(interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if s.write([]byte(": keep-alive\n\n")) != nil {
				return
			}
		}
	}
}

// write writes raw stream text and flushes it to the client.
func (s *Stream) write(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w == nil {
		return ErrClosed
	}
	s.rc.SetWriteDeadline(time.Now().Add(s.timeout)) // not supported: no connection to bound
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

// Send writes one event of data v, as JSON.
func (s *Stream) Send(v any) error { return s.send("", v) }

// send writes one event, of type event unless that is "", of data v.
func (s *Stream) send(event string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var head []byte
	if event != "" {
		head = []byte("event: " + event + "\n")
	}
	return s.write(append(append(append(head, "data: "...), b...), '\n', '\n'))
}

// Close ends the stream, after a last event of type event and data v when
// event is not "". Nothing is written after it.
func (s *Stream) Close(event string, v any) {
	close(s.stop)
	if event != "" {
		s.send(event, v)
	}
	s.mu.Lock()
	s.w = nil
	s.mu.Unlock()
}
