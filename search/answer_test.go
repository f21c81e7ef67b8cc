package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/llm"
)

// fakeModel is an OpenAI-compatible endpoint that answers every request
// with answer, streamed a word at a time when asked to stream, or fails
// with status when it is set. It keeps the messages of each request.
type fakeModel struct {
	answer string
	status int
	mu     sync.Mutex
	asked  [][]llm.Message
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []llm.Message
		Stream   bool
	}
	b, _ := io.ReadAll(r.Body)
	if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(b, &req) != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.asked = append(f.asked, req.Messages)
	f.mu.Unlock()
	if f.status != 0 {
		http.Error(w, `{"error":{"message":"overloaded"}}`, f.status)
		return
	}
	if !req.Stream {
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": f.answer}}}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, word := range strings.SplitAfter(f.answer, " ") {
		chunk, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"delta": map[string]any{"content": word}}}})
		fmt.Fprintf(w, "data: %s\n\n", chunk)
		w.(http.Flusher).Flush()
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// serve starts f and returns the model it is.
func (f *fakeModel) serve(t *testing.T) *llm.Model {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return &llm.Model{URL: srv.URL + "/v1", Name: "test-model"}
}

var askSources = []Source{
	{PageTitle: "Install", URL: "http://x.test/install#linux",
		Section: Section{ID: "linux", Title: "On Linux", Body: "Unpack the archive. Run the installer as root. Then start it."}},
	{PageTitle: "Webhooks", URL: "http://x.test/hooks", Section: Section{Body: "Retries happen three times."}},
}

func TestAsk(t *testing.T) {
	const modelAnswer = "Run the installer as root [1]. See [7].\nFollow-up: How do I uninstall?\n"
	for _, tc := range []struct {
		name     string
		model    *fakeModel // nil: no model
		q        Question
		sources  []Source
		stream   bool
		want     Answer
		messages []llm.Message // the model's request, when it is asked
	}{
		{name: "no sources", model: &fakeModel{answer: modelAnswer}, q: Question{Text: "installer"}, want: Answer{Markdown: NotCovered}},
		{name: "quoted", q: Question{Text: "How do I run the installer?"}, sources: askSources,
			want: Answer{Markdown: "> Run the installer as root.\n\nFrom [Install › On Linux](http://x.test/install#linux).", Used: []int{0}}},
		{name: "quoted from the second", q: Question{Text: "retries"}, sources: askSources,
			want: Answer{Markdown: "> Retries happen three times.\n\nFrom [Webhooks](http://x.test/hooks).", Used: []int{1}}},
		{name: "nothing to quote", q: Question{Text: "kubernetes"}, sources: askSources, want: Answer{Markdown: NotCovered}},
		{name: "model", model: &fakeModel{answer: modelAnswer}, q: Question{Text: "installer?", Previous: []string{"hello", "hi"}}, sources: askSources,
			want: Answer{Markdown: "Run the installer as root [1]. See [7].", FollowUps: []string{"How do I uninstall?"}, Used: []int{0}}},
		{name: "model streamed", model: &fakeModel{answer: modelAnswer}, q: Question{Text: "installer?"}, sources: askSources, stream: true,
			want: Answer{Markdown: "Run the installer as root [1]. See [7].", FollowUps: []string{"How do I uninstall?"}, Used: []int{0}}},
		{name: "model cites none", model: &fakeModel{answer: "It depends."}, q: Question{Text: "installer?"}, sources: askSources,
			want: Answer{Markdown: "It depends.", Used: []int{0, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var model *llm.Model
			if tc.model != nil {
				model = tc.model.serve(t)
			}
			var partial []Answer
			var progress func(Answer) error
			if tc.stream {
				progress = func(a Answer) error { partial = append(partial, a); return nil }
			}
			got, err := Ask(t.Context(), model, tc.q, tc.sources, progress)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if tc.model != nil && tc.sources != nil {
				system, user := Prompt(tc.q.Text, tc.sources)
				want := []llm.Message{{Role: "system", Content: system}}
				for _, p := range tc.q.Previous {
					want = append(want, llm.Message{Role: "user", Content: p})
				}
				want = append(want, llm.Message{Role: "user", Content: user})
				if diff := cmp.Diff([][]llm.Message{want}, tc.model.asked); diff != "" {
					t.Errorf("asked (-want +got):\n%s", diff)
				}
			}
			if tc.model != nil && tc.sources == nil && len(tc.model.asked) != 0 {
				t.Errorf("model asked %v with no sources", tc.model.asked)
			}
			if tc.stream {
				// Each word, the answer so far; never a follow-up line half written.
				if len(partial) != len(strings.SplitAfter(modelAnswer, " ")) {
					t.Errorf("%d partial answers", len(partial))
				}
				for _, p := range partial {
					if strings.Contains(p.Markdown, "Follow") || p.FollowUps != nil || len(p.Used) == 0 {
						t.Errorf("partial answer %+v", p)
					}
				}
				if last := partial[len(partial)-1].Markdown; last != tc.want.Markdown {
					t.Errorf("last partial answer %q", last)
				}
			}
		})
	}
}

// TestAskProgressFails: a streamed answer stops at the first partial
// answer that cannot be told.
func TestAskProgressFails(t *testing.T) {
	model := (&fakeModel{answer: "a b c"}).serve(t)
	stop := errors.New("client gone")
	n := 0
	_, err := Ask(t.Context(), model, Question{Text: "q"}, askSources, func(Answer) error { n++; return stop })
	// The failure is the model's to the client, its cause in the log.
	if !errors.Is(err, stop) || quire.ErrorCode(err) != quire.CodeBadGateway || n != 1 {
		t.Errorf("err %v after %d partial answers", err, n)
	}
}

// TestModelFails: a model's failure is a bad gateway, unless the caller
// went away.
func TestModelFails(t *testing.T) {
	model := (&fakeModel{status: http.StatusTooManyRequests}).serve(t)
	_, err := Ask(t.Context(), model, Question{Text: "q"}, askSources, nil)
	if quire.ErrorCode(err) != quire.CodeBadGateway || quire.ErrorMessage(err) != "the answering model failed; try again later" {
		t.Errorf("Ask: %v", err)
	}
	if _, err := Questions(t.Context(), model, []string{"Install"}); quire.ErrorCode(err) != quire.CodeBadGateway {
		t.Errorf("Questions: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Ask(ctx, model, Question{Text: "q"}, askSources, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Ask with its context ended: %v", err)
	}
}

func TestQuestions(t *testing.T) {
	titles := []string{"Install", "Can I retry a webhook?"}
	for _, tc := range []struct {
		name   string
		model  *fakeModel
		titles []string
		want   []string
	}{
		{name: "no model", titles: titles, want: []string{"Can I retry a webhook?", "What does the documentation say about Install?"}},
		{name: "no titles", model: &fakeModel{answer: "Why?"}, want: []string{}},
		{name: "model", model: &fakeModel{answer: "1. How do I install?\n- How do I install?\n\nWhy retry?\n"}, titles: titles,
			want: []string{"How do I install?", "Why retry?"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var model *llm.Model
			if tc.model != nil {
				model = tc.model.serve(t)
			}
			got, err := Questions(t.Context(), model, tc.titles)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("questions (-want +got):\n%s", diff)
			}
			if tc.model != nil && len(tc.titles) > 0 {
				system, user := RecommendPrompt(tc.titles)
				if diff := cmp.Diff([][]llm.Message{{{Role: "system", Content: system}, {Role: "user", Content: user}}}, tc.model.asked); diff != "" {
					t.Errorf("asked (-want +got):\n%s", diff)
				}
			}
		})
	}
}
