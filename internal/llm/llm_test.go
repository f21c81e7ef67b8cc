package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire/internal/llm"
)

// endpoint starts a server playing the chat completions endpoint and
// returns a model pointed at it, under a /v1 base like OpenAI's.
func endpoint(t *testing.T, handler http.HandlerFunc) *llm.Model {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("request %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		// Reading the whole body lets the server notice when the client
		// goes away, which ends r.Context() for handlers that block on it.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("read request body: %v", err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return &llm.Model{URL: srv.URL + "/v1", Name: "test-model", Client: srv.Client()}
}

// answerWith is a handler answering with a fixed status and body.
func answerWith(status int, contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

var question = []llm.Message{
	{Role: "system", Content: "Answer from the sources."},
	{Role: "user", Content: "How do I publish a site?"},
}

func TestCompleteReturnsFirstChoice(t *testing.T) {
	m := endpoint(t, answerWith(200, "application/json",
		`{"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":"Use **Publish** [1]."},"finish_reason":"stop"},
		{"index":1,"message":{"role":"assistant","content":"second"}}]}`))
	got, err := m.Complete(t.Context(), question)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Use **Publish** [1]."; got != want {
		t.Fatalf("answer %q, want %q", got, want)
	}
}

func TestRequestSent(t *testing.T) {
	type sent struct {
		Authorization, ContentType string
		Body                       map[string]any
	}
	messages := []any{
		map[string]any{"role": "system", "content": "Answer from the sources."},
		map[string]any{"role": "user", "content": "How do I publish a site?"},
	}
	tests := []struct {
		name   string
		apiKey string
		stream bool
		want   sent
	}{
		{"complete with key", "sk-test", false, sent{"Bearer sk-test", "application/json",
			map[string]any{"model": "test-model", "messages": messages, "stream": false}}},
		{"complete without key", "", false, sent{"", "application/json",
			map[string]any{"model": "test-model", "messages": messages, "stream": false}}},
		{"stream with key", "sk-test", true, sent{"Bearer sk-test", "application/json",
			map[string]any{"model": "test-model", "messages": messages, "stream": true}}},
		{"stream without key", "", true, sent{"", "application/json",
			map[string]any{"model": "test-model", "messages": messages, "stream": true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got sent
			m := endpoint(t, func(w http.ResponseWriter, r *http.Request) {
				got.Authorization = r.Header.Get("Authorization")
				got.ContentType = r.Header.Get("Content-Type")
				if err := json.NewDecoder(r.Body).Decode(&got.Body); err != nil {
					t.Errorf("decode request body: %v", err)
				}
				if tt.stream {
					answerWith(200, "text/event-stream", chunk("ok")+"data: [DONE]\n\n")(w, r)
				} else {
					answerWith(200, "application/json", `{"choices":[{"message":{"content":"ok"}}]}`)(w, r)
				}
			})
			m.APIKey = tt.apiKey
			var err error
			if tt.stream {
				_, err = m.Stream(t.Context(), question, nil)
			} else {
				_, err = m.Complete(t.Context(), question)
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBaseURLWithTrailingSlash(t *testing.T) {
	m := endpoint(t, answerWith(200, "application/json", `{"choices":[{"message":{"content":"ok"}}]}`))
	m.URL += "/"
	if _, err := m.Complete(t.Context(), question); err != nil {
		t.Fatal(err)
	}
}

func TestCompleteErrors(t *testing.T) {
	long := strings.Repeat("é", 400) // 800 bytes
	tests := []struct {
		name         string
		status       int
		body         string
		wantErr      []string // each must appear in the error
		wantLenUnder int      // when set, the error is shorter than this
		wantTooLarge bool
	}{
		{name: "401 with the usual error body", status: 401,
			body:    `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error"}}`,
			wantErr: []string{"401", "Incorrect API key provided."}},
		{name: "429 with a bare string error", status: 429, body: `{"error":"slow down"}`,
			wantErr: []string{"429", "slow down"}},
		{name: "502 from a proxy in HTML", status: 502, body: `<html>Bad Gateway</html>`,
			wantErr: []string{"502"}},
		{name: "500 with a long message, truncated", status: 500, body: `{"error":{"message":"` + long + `"}}`,
			wantErr: []string{"500", "éé…"}, wantLenUnder: 400},
		{name: "malformed JSON", status: 200, body: `{"choices":[`, wantErr: []string{"malformed response"}},
		{name: "not JSON", status: 200, body: `Service ready`, wantErr: []string{"malformed response"}},
		{name: "no choices", status: 200, body: `{"choices":[]}`, wantErr: []string{"no choices"}},
		{name: "error body with 200", status: 200, body: `{"error":{"message":"model overloaded"}}`,
			wantErr: []string{"no choices", "model overloaded"}},
		{name: "body over 1 MiB", status: 200,
			body:    `{"choices":[{"message":{"content":"` + strings.Repeat("a", 1<<20) + `"}}]}`,
			wantErr: []string{"too large"}, wantTooLarge: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := endpoint(t, answerWith(tt.status, "application/json", tt.body))
			got, err := m.Complete(t.Context(), question)
			if err == nil {
				t.Fatalf("answer %q, want an error", got)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
			if tt.wantLenUnder > 0 && len(err.Error()) >= tt.wantLenUnder {
				t.Errorf("error is %d bytes long, want under %d", len(err.Error()), tt.wantLenUnder)
			}
			if errors.Is(err, llm.ErrTooLarge) != tt.wantTooLarge {
				t.Errorf("errors.Is(%q, ErrTooLarge) = %v, want %v", err, !tt.wantTooLarge, tt.wantTooLarge)
			}
		})
	}
}

func TestStatusErrorCarriesTheStatus(t *testing.T) {
	m := endpoint(t, answerWith(429, "application/json", `{"error":{"message":"Rate limit reached"}}`))
	_, err := m.Complete(t.Context(), question)
	statusErr, ok := errors.AsType[*llm.StatusError](err)
	if !ok {
		t.Fatalf("error %v is not a *StatusError", err)
	}
	if statusErr.StatusCode != 429 || statusErr.Message != "Rate limit reached" {
		t.Fatalf("StatusError %+v, want 429 and the endpoint's message", statusErr)
	}
}

func TestErrorsNeverShowTheAPIKey(t *testing.T) {
	const key = "sk-secret-0123456789"
	m := endpoint(t, answerWith(401, "application/json",
		`{"error":{"message":"Incorrect API key provided: `+key+`. Check it."}}`))
	m.APIKey = key
	_, err := m.Complete(t.Context(), question)
	if err == nil || strings.Contains(err.Error(), key) {
		t.Fatalf("error %v, want one without the key", err)
	}
	if !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Fatalf("error %q lost the endpoint's message", err)
	}
}

func TestCompleteRefusesBadSetup(t *testing.T) {
	if _, err := (&llm.Model{}).Complete(t.Context(), question); err == nil || !strings.Contains(err.Error(), "no URL") {
		t.Errorf("model without URL: %v, want an error naming the URL", err)
	}
	m := endpoint(t, answerWith(200, "application/json", `{"choices":[{"message":{"content":"ok"}}]}`))
	if _, err := m.Complete(t.Context(), nil); err == nil || !strings.Contains(err.Error(), "no messages") {
		t.Errorf("no messages: %v, want an error", err)
	}
}

func TestCompleteCancelled(t *testing.T) {
	m := endpoint(t, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers; the client gives up
	})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := m.Complete(ctx, question)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("returned after %v, want promptly", elapsed)
	}
}
