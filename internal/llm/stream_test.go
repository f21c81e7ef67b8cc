package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire/internal/llm"
)

// chunk is one server-sent event carrying a piece of the answer.
func chunk(content string) string {
	b, _ := json.Marshal(map[string]any{
		"object":  "chat.completion.chunk",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": content}}},
	})
	return "data: " + string(b) + "\n\n"
}

// collect returns an onDelta that records the pieces it is given.
func collect(deltas *[]string) func(string) error {
	return func(d string) error {
		*deltas = append(*deltas, d)
		return nil
	}
}

func TestStreamDeliversDeltasAsTheyArrive(t *testing.T) {
	// Each piece is written and flushed alone; after one carrying text, the
	// server waits until the client has handed it on, which it could not do
	// if it read the whole body first.
	pieces := []struct {
		raw      string
		waitRead bool
	}{
		{": keep-alive\n\n", false},
		{"event: message\nid: 1\nretry: 3000\n" + `data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}` + "\n\n", false},
		{chunk("Use "), true},
		{"\n\n: still thinking\n", false},
		{chunk("**Publish**"), true},
		{`data:{"choices":[{"index":0,"delta":{"content":" [1]."}}]}` + "\n\n", true}, // no space after the colon
		{`data: {"choices":[],"usage":{"total_tokens":9}}` + "\n\n", false},
		{"data: [DONE]\n\n", false},
		{"data: not read after the end\n\n", false},
	}
	read := make(chan string)
	m := endpoint(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range pieces {
			io.WriteString(w, p.raw)
			w.(http.Flusher).Flush()
			if !p.waitRead {
				continue
			}
			select {
			case <-read:
			case <-time.After(5 * time.Second):
				t.Errorf("the client did not hand on %q before the next piece was sent", p.raw)
				return
			}
		}
	})
	var deltas []string
	text, err := m.Stream(t.Context(), question, func(d string) error {
		deltas = append(deltas, d)
		read <- d
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Use ", "**Publish**", " [1]."}, deltas); diff != "" {
		t.Errorf("deltas (-want +got):\n%s", diff)
	}
	if want := "Use **Publish** [1]."; text != want {
		t.Errorf("text %q, want %q", text, want)
	}
}

func TestStreamBodies(t *testing.T) {
	hello, world := strings.TrimSuffix(chunk("Hello"), "\n\n"), strings.TrimSuffix(chunk(", world"), "\n\n")
	tests := []struct {
		name    string
		body    string
		want    string
		wantErr string // "" for none
	}{
		{"LF", hello + "\n\n" + world + "\n\ndata: [DONE]\n\n", "Hello, world", ""},
		{"CRLF", hello + "\r\n\r\n" + world + "\r\n\r\ndata: [DONE]\r\n\r\n", "Hello, world", ""},
		{"lone CR", hello + "\r\r" + world + "\r\rdata: [DONE]\r\r", "Hello, world", ""},
		{"byte order mark", "\uFEFF" + hello + "\n\ndata: [DONE]\n\n", "Hello", ""},
		{"data split over lines", "data: {\"choices\":[{\"delta\":\ndata: {\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n", "Hi", ""},
		{"ends without DONE after a chunk", hello + "\n\n", "Hello", ""},
		{"ends without a blank line", hello + "\n", "Hello", ""},
		{"DONE without a chunk", "data: [DONE]\n\n", "", ""},
		{"empty body", "", "", "ended before any chunk"},
		{"only comments", ": ping\n\n: ping\n\n", "", "ended before any chunk"},
		{"data that is not JSON", hello + "\n\ndata: Hello\n\n", "Hello", "malformed stream chunk"},
		{"cut off mid-chunk", hello + "\n\n" + world[:20], "Hello", "malformed stream chunk"},
		{"error chunk", hello + "\n\n" + `data: {"error":{"message":"upstream timed out"}}` + "\n\n", "Hello",
			"endpoint sent an error in the stream: upstream timed out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := endpoint(t, answerWith(200, "text/event-stream", tt.body))
			var deltas []string
			text, err := m.Stream(t.Context(), question, collect(&deltas))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one mentioning %q", err, tt.wantErr)
			}
			if text != tt.want || text != strings.Join(deltas, "") {
				t.Fatalf("text %q, deltas %q, want %q", text, deltas, tt.want)
			}
		})
	}
}

func TestStreamStopsWhenOnDeltaFails(t *testing.T) {
	m := endpoint(t, answerWith(200, "text/event-stream", chunk("one")+chunk("two")+chunk("three")+"data: [DONE]\n\n"))
	errClientGone := errors.New("client gone")
	var deltas []string
	text, err := m.Stream(t.Context(), question, func(d string) error {
		deltas = append(deltas, d)
		if len(deltas) == 2 {
			return errClientGone
		}
		return nil
	})
	if !errors.Is(err, errClientGone) {
		t.Fatalf("error %v, want the one onDelta returned", err)
	}
	if diff := cmp.Diff([]string{"one", "two"}, deltas); diff != "" {
		t.Errorf("deltas (-want +got):\n%s", diff)
	}
	if text != "onetwo" {
		t.Errorf("text %q, want the pieces handed on", text)
	}
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name         string
		status       int
		contentType  string
		body         string
		wantErr      []string
		wantTooLarge bool
	}{
		{name: "400 with the usual error body", status: 400, contentType: "application/json",
			body:    `{"error":{"message":"This model's maximum context length is 8192 tokens."}}`,
			wantErr: []string{"400", "maximum context length"}},
		{name: "503 without a body", status: 503, contentType: "text/plain", wantErr: []string{"503"}},
		{name: "a JSON answer instead of a stream", status: 200, contentType: "application/json; charset=utf-8",
			body: `{"choices":[{"message":{"content":"ok"}}]}`, wantErr: []string{"got application/json"}},
		{name: "a line over 256 KiB", status: 200, contentType: "text/event-stream",
			body:    chunk("x") + chunk(strings.Repeat("a", 256<<10)),
			wantErr: []string{"line over"}, wantTooLarge: true},
		{name: "an event over 256 KiB", status: 200, contentType: "text/event-stream",
			body:    strings.Repeat("data: "+strings.Repeat("a", 1<<10)+"\n", 300),
			wantErr: []string{"event over"}, wantTooLarge: true},
		{name: "text over 1 MiB", status: 200, contentType: "text/event-stream",
			body:    strings.Repeat(chunk(strings.Repeat("a", 100<<10)), 11),
			wantErr: []string{"text over"}, wantTooLarge: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := endpoint(t, answerWith(tt.status, tt.contentType, tt.body))
			var deltas []string
			text, err := m.Stream(t.Context(), question, collect(&deltas))
			if err == nil {
				t.Fatalf("text %q, want an error", text)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
			if errors.Is(err, llm.ErrTooLarge) != tt.wantTooLarge {
				t.Errorf("errors.Is(%q, ErrTooLarge) = %v, want %v", err, !tt.wantTooLarge, tt.wantTooLarge)
			}
			if len(text) > 1<<20 || text != strings.Join(deltas, "") {
				t.Errorf("text of %d bytes, not the %d deltas handed on", len(text), len(deltas))
			}
		})
	}
}

func TestStreamCancelledMidway(t *testing.T) {
	m := endpoint(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, chunk("Partial"))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the rest never comes
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	start := time.Now()
	text, err := m.Stream(ctx, question, func(d string) error {
		time.AfterFunc(50*time.Millisecond, cancel) // while the client waits for more
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("returned after %v, want promptly", elapsed)
	}
	if text != "Partial" {
		t.Fatalf("text %q, want what came before the cancel", text)
	}
}

// bodyTransport answers every request with the same event stream, so the
// fuzzer can try many bodies without a network round trip each.
type bodyTransport []byte

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Request: r,
		Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body:   io.NopCloser(bytes.NewReader(b)),
	}, nil
}

func FuzzStream(f *testing.F) {
	f.Add([]byte(chunk("Hello") + chunk(", world") + "data: [DONE]\n\n"))
	f.Add([]byte(": ping\r\n\r\nevent: x\r\ndata:{\"choices\":[{\"delta\":{\"content\":\"é\"}}]}\r\r\ndata: [DONE]"))
	f.Add([]byte("data: {\"choices\":[{\"delta\":\ndata: {\"content\":\"Hi\"}}]}\n\ndata: {\"error\":\"x\"}\n\n"))
	f.Add([]byte("\uFEFFdata: {\"choices\":[]}\ndata\n\nid\rretry: 1\n\ndata: [DONE]  \n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		m := &llm.Model{URL: "http://llm.test/v1", Client: &http.Client{Transport: bodyTransport(body)}}
		var deltas []string
		text, err := m.Stream(t.Context(), question, func(d string) error {
			if d == "" {
				t.Error("onDelta given an empty piece")
			}
			deltas = append(deltas, d)
			return nil
		})
		if text != strings.Join(deltas, "") {
			t.Fatalf("text %q is not the deltas %q (error %v)", text, deltas, err)
		}
		if len(text) > 1<<20 {
			t.Fatalf("text of %d bytes, over the limit", len(text))
		}
	})
}
