// Package llm is a small client for an OpenAI-compatible chat completions
// endpoint, which the "ask" feature uses to answer questions grounded on
// documentation sections. It reads bounded amounts from the endpoint and
// never puts the API key in an error.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on what is read from the endpoint, so that a broken or hostile
// server cannot make us hold an unbounded answer in memory.
const (
	maxCompleteBody = 1 << 20   // bytes of a Complete response body
	maxStreamText   = 1 << 20   // bytes of text a Stream gathers
	maxEventSize    = 256 << 10 // bytes of one line, or of the data of one event, in a stream
	maxErrorBody    = 64 << 10  // bytes of a non-2xx body read to find its message
	maxErrorMessage = 300       // bytes of the endpoint's error message kept in our error
)

// defaultTimeout bounds a whole request when Model.Client is nil; for Stream
// that includes reading every chunk of the answer.
const defaultTimeout = 2 * time.Minute

// ErrTooLarge is returned, wrapped, when a response goes past one of the
// limits on what is read.
var ErrTooLarge = errors.New("llm: response too large")

// Model is an OpenAI-compatible chat completions endpoint, configured by the operator.
type Model struct {
	URL    string       // base URL, e.g. "https://api.openai.com/v1"; requests go to URL + "/chat/completions"
	APIKey string       // sent as "Authorization: Bearer <key>" when not empty
	Name   string       // the model name sent as "model"
	Client *http.Client // nil: a client with a 2-minute timeout
}

// Message is one turn of a chat: Role is "system", "user" or "assistant".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// StatusError is returned when the endpoint answers with a status outside
// 2xx, so that callers can tell a rate limit (429) or a bad key (401) apart.
type StatusError struct {
	StatusCode int
	Status     string // as the endpoint sent it, e.g. "429 Too Many Requests"
	Message    string // the endpoint's error message when its body had one; truncated, key removed
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return "llm: endpoint answered " + e.Status
	}
	return "llm: endpoint answered " + e.Status + ": " + e.Message
}

// chatRequest is the body of a chat completions request.
type chatRequest struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	Stream   bool      `json:"stream"`
}

// Complete asks for one answer (stream false) and returns choices[0].message.content.
func (m *Model) Complete(ctx context.Context, messages []Message) (string, error) {
	resp, err := m.post(ctx, messages, false)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCompleteBody+1))
	if err != nil {
		return "", readError(ctx, err)
	}
	if len(body) > maxCompleteBody {
		return "", fmt.Errorf("%w: body over %d bytes", ErrTooLarge, maxCompleteBody)
	}
	var answer struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return "", fmt.Errorf("llm: malformed response: %w", err)
	}
	if len(answer.Choices) == 0 {
		// Some proxies answer 200 with an error body.
		if msg, ok := m.errorMessage(answer.Error); ok {
			return "", fmt.Errorf("llm: response has no choices: %s", msg)
		}
		return "", errors.New("llm: response has no choices")
	}
	return answer.Choices[0].Message.Content, nil
}

// post sends the chat request and returns the response when its status is
// 2xx; the caller closes its body.
func (m *Model) post(ctx context.Context, messages []Message, stream bool) (*http.Response, error) {
	if m.URL == "" {
		return nil, errors.New("llm: model has no URL")
	}
	if len(messages) == 0 {
		return nil, errors.New("llm: no messages to send")
	}
	body, err := json.Marshal(chatRequest{Model: m.Name, Messages: messages, Stream: stream})
	if err != nil {
		return nil, fmt.Errorf("llm: encode request: %w", err)
	}
	url := strings.TrimSuffix(m.URL, "/") + "/chat/completions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if m.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.APIKey)
	}
	resp, err := m.client().Do(req)
	if err != nil {
		return nil, readError(ctx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, m.statusError(resp)
	}
	return resp, nil
}

func (m *Model) client() *http.Client {
	if m.Client != nil {
		return m.Client
	}
	return &http.Client{Timeout: defaultTimeout}
}

// statusError describes a non-2xx response, with the endpoint's message
// when its body has the usual {"error":{"message":...}} shape.
func (m *Model) statusError(resp *http.Response) error {
	e := &StatusError{StatusCode: resp.StatusCode, Status: resp.Status}
	if e.Status == "" {
		e.Status = fmt.Sprint(resp.StatusCode)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody)) // the status alone is error enough
	var envelope struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &envelope) == nil {
		e.Message, _ = m.errorMessage(envelope.Error)
	}
	return e
}

// errorMessage reads an "error" member, as an object with a message or as a
// bare string (both are seen in the wild); ok reports that one was sent.
// The message is truncated and has the API key removed, since some
// endpoints echo the key they refused.
func (m *Model) errorMessage(raw json.RawMessage) (msg string, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var object struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &msg) != nil && json.Unmarshal(raw, &object) == nil {
		msg = object.Message
	}
	if m.APIKey != "" {
		msg = strings.ReplaceAll(msg, m.APIKey, "[API key]")
	}
	return truncate(strings.TrimSpace(msg), maxErrorMessage), true
}

// truncate cuts s to at most n bytes, at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// readError wraps a failure to send or read, naming the context's error
// when it was cancelled or timed out, as that is the cause.
func readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("llm: %w", ctx.Err())
	}
	return fmt.Errorf("llm: %w", err)
}
