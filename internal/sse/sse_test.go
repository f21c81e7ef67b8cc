package sse

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestStream: events are JSON data lines, a quiet stream says it is alive,
// the last event may name its type, and nothing is written after Close.
func TestStream(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	s := Start(rec, time.Millisecond, time.Minute)
	if err := s.Send(map[string]string{"question": "Why?"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	s.Close("error", map[string]int{"code": 502})
	if err := s.Send("late"); !errors.Is(err, ErrClosed) {
		t.Errorf("Send after Close: %v", err)
	}
	body := rec.Body.String()
	if !strings.HasPrefix(body, "data: {\"question\":\"Why?\"}\n\n") || !strings.Contains(body, ": keep-alive\n\n") ||
		!strings.HasSuffix(body, "event: error\ndata: {\"code\":502}\n\n") {
		t.Errorf("body:\n%s", body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/event-stream" || rec.Code != 200 {
		t.Errorf("status %d, Content-Type %q", rec.Code, ct)
	}
}
