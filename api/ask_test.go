package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/llm"
)

type askOut struct {
	Answer struct {
		Answer struct {
			Markdown string         `json:"markdown"`
			Document map[string]any `json:"document"`
		} `json:"answer"`
		FollowupQuestions []string `json:"followupQuestions"`
		Sources           []struct {
			Type     string   `json:"type"`
			Reason   string   `json:"reason"`
			Page     string   `json:"page"`
			Revision string   `json:"revision"`
			Space    string   `json:"space"`
			Sections []string `json:"sections"`
		} `json:"sources"`
	} `json:"answer"`
}

// askSpace seeds a space with an install guide and a webhooks page, and
// returns it with its pages' ids by title.
func askSpace(t *testing.T, e *env) (spaceID string, ids map[string]string) {
	t.Helper()
	spaceID = e.crSpace(t)
	ids = e.cmSeed(t, spaceID,
		insertPage("install", "# Installing Quire\n\nDownload it.\n\n## On Linux\n\nUnpack the archive first. Run the installer as root. Then start the service.\n\n## On macOS\n\nDrag it to Applications.\n"),
		insertPage("hooks", "# Webhooks\n\nQuire calls your server when pages change.\n\n## Can I retry a webhook?\n\nRetries happen three times.\n"),
	)
	return spaceID, ids
}

// events reads the data of each unnamed event of a stream.
func events(t *testing.T, body []byte) []string {
	t.Helper()
	var out []string
	for ev := range strings.SplitSeq(string(body), "\n\n") {
		if data, ok := strings.CutPrefix(ev, "data: "); ok {
			out = append(out, data)
		} else if strings.TrimSpace(ev) != "" {
			t.Errorf("unexpected event %q", ev)
		}
	}
	return out
}

// TestAskExtractive: with no model, an answer quotes the sentences of the
// best section that hold the question's words, names it as its source, and
// comes only from what the caller can read.
func TestAskExtractive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, ids := askSpace(t, e)
	ask := func(token, query, q string) askOut {
		t.Helper()
		var out askOut
		e.call(t, token, "POST", "/v1/orgs/"+e.org+"/ask"+q, map[string]any{"query": query}).want(t, http.StatusOK).Decode(t, &out)
		return out
	}
	got := ask(e.admin.token, "How do I run the installer on Linux?", "")
	a := got.Answer
	if !strings.HasPrefix(a.Answer.Markdown, "> ") || !strings.Contains(a.Answer.Markdown, "Run the installer as root.") ||
		strings.Contains(a.Answer.Markdown, "Drag it") || !strings.Contains(a.Answer.Markdown, "[Installing Quire › On Linux](http://quire.test/s/"+spaceID+"/installing-quire#on-linux)") {
		t.Errorf("answer %q", a.Answer.Markdown)
	}
	if len(a.Sources) != 1 || a.Sources[0].Type != "page" || a.Sources[0].Page != ids["Installing Quire"] || a.Sources[0].Space != spaceID ||
		a.Sources[0].Revision == "" || len(a.Sources[0].Sections) != 1 || a.Sources[0].Sections[0] != "on-linux" || a.Sources[0].Reason == "" {
		t.Errorf("sources %+v", a.Sources)
	}
	if a.FollowupQuestions == nil || len(a.FollowupQuestions) != 0 {
		t.Errorf("follow-ups %v, want none without a model", a.FollowupQuestions)
	}

	// As a JSON document.
	if doc := ask(e.admin.token, "installer", "?format=document").Answer.Answer.Document; doc["object"] != "document" {
		t.Errorf("document answer %v", doc)
	}
	// Nothing holds the words.
	if a := ask(e.admin.token, "kubernetes helm chart", "").Answer; !strings.Contains(a.Answer.Markdown, "does not cover") || len(a.Sources) != 0 {
		t.Errorf("unanswerable: %+v", a)
	}
	// A guest granted nothing reads no space, and learns nothing from it.
	guest := e.addUser(t, "guest", "Gil Guest")
	if a := ask(guest.token, "installer", "").Answer; len(a.Sources) != 0 || strings.Contains(a.Answer.Markdown, "root") {
		t.Errorf("guest: %+v", a)
	}
	e.call(t, e.outsider(t).token, "POST", "/v1/orgs/"+e.org+"/ask", map[string]any{"query": "installer"}).wantError(t, http.StatusNotFound)

	for _, bad := range []any{map[string]any{}, map[string]any{"query": ""}, map[string]any{"query": strings.Repeat("a", 1001)},
		map[string]any{"query": "x", "previousQueries": strings.Split(strings.Repeat("q,", 11), ",")[:11]}} {
		e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/ask", bad).wantError(t, http.StatusBadRequest)
	}
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/ask?details=maybe", map[string]any{"query": "x"}).wantError(t, http.StatusBadRequest, "details")

	// The stream holds the same answer in one event.
	res := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/stream?query="+url.QueryEscape("installer linux"), nil).want(t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	evs := events(t, res.Body)
	if len(evs) != 1 || !strings.Contains(evs[0], `"type":"answer"`) || !strings.Contains(evs[0], "Run the installer as root.") {
		t.Errorf("stream events %q", evs)
	}
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/stream", nil).wantError(t, http.StatusBadRequest, "query")
}

// TestRecommendedQuestions: without a model, questions come from headings
// written as questions, then from the first pages' titles.
func TestRecommendedQuestions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	askSpace(t, e)
	var out struct{ Questions []string }
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/questions", nil).want(t, http.StatusOK).Decode(t, &out)
	if len(out.Questions) != 5 || out.Questions[0] != "Can I retry a webhook?" ||
		out.Questions[1] != "What does the documentation say about Installing Quire?" {
		t.Errorf("questions %q", out.Questions)
	}
	res := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/questions/stream", nil).want(t, http.StatusOK)
	if evs := events(t, res.Body); len(evs) != 5 || evs[0] != `{"question":"Can I retry a webhook?"}` {
		t.Errorf("question events %q", evs)
	}
	// A guest granted nothing is recommended nothing.
	guest := e.addUser(t, "guest", "Gil Guest")
	e.call(t, guest.token, "GET", "/v1/orgs/"+e.org+"/ask/questions", nil).want(t, http.StatusOK).Decode(t, &out)
	if len(out.Questions) != 0 {
		t.Errorf("guest questions %q", out.Questions)
	}
}

// fakeModel is an OpenAI-compatible endpoint that answers every question
// with answer, streamed in pieces when asked, and remembers what it was sent.
type fakeModel struct {
	answer string
	mu     sync.Mutex
	asked  []string // the last message of each request
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct{ Role, Content string }
		Stream   bool
	}
	b, _ := io.ReadAll(r.Body)
	if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(b, &req) != nil || len(req.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.asked = append(f.asked, req.Messages[len(req.Messages)-1].Content)
	f.mu.Unlock()
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

// TestAskWithModel: with a model configured, it is given the sections found
// and the question, its answer is returned with the sources it cites and
// the follow-up questions it suggests, and streamed as it is written.
func TestAskWithModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, ids := askSpace(t, e)
	model := &fakeModel{answer: "Run the installer as root [1]. Retries are covered too [2].\nFollow-up: How do I uninstall Quire?\nFollow-up: Which ports does it use?\n"}
	endpoint := httptest.NewServer(model)
	t.Cleanup(endpoint.Close)
	e.srv = api.New(e.db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()},
		Model: &llm.Model{URL: endpoint.URL + "/v1", Name: "test-model"}})

	var out askOut
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/ask", map[string]any{"query": "How do I run the installer, and retry webhooks?"}).
		want(t, http.StatusOK).Decode(t, &out)
	a := out.Answer
	if a.Answer.Markdown != "Run the installer as root [1]. Retries are covered too [2]." {
		t.Errorf("answer %q", a.Answer.Markdown)
	}
	if len(a.FollowupQuestions) != 2 || a.FollowupQuestions[0] != "How do I uninstall Quire?" {
		t.Errorf("follow-ups %q", a.FollowupQuestions)
	}
	if len(a.Sources) != 2 || a.Sources[0].Space != spaceID {
		t.Fatalf("sources %+v", a.Sources)
	}
	model.mu.Lock()
	prompt := model.asked[len(model.asked)-1]
	model.mu.Unlock()
	if !strings.Contains(prompt, "[1] ") || !strings.Contains(prompt, "Question: How do I run the installer, and retry webhooks?") ||
		!strings.Contains(prompt, "Run the installer as root.") {
		t.Errorf("prompt %q", prompt)
	}
	for _, src := range a.Sources {
		if src.Page != ids["Installing Quire"] && src.Page != ids["Webhooks"] {
			t.Errorf("source %+v", src)
		}
	}

	// Streamed: the answer grows event by event, follow-ups come last.
	res := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/stream?query="+url.QueryEscape("installer webhooks"), nil).want(t, http.StatusOK)
	evs := events(t, res.Body)
	if len(evs) < 3 {
		t.Fatalf("%d events, want the answer in pieces", len(evs))
	}
	var first, last struct {
		Type   string
		Answer struct {
			Answer            struct{ Markdown string }
			FollowupQuestions []string
		}
	}
	json.Unmarshal([]byte(evs[0]), &first)
	json.Unmarshal([]byte(evs[len(evs)-1]), &last)
	if first.Type != "answer" || len(first.Answer.Answer.Markdown) >= len(last.Answer.Answer.Markdown) ||
		last.Answer.Answer.Markdown != a.Answer.Markdown || len(last.Answer.FollowupQuestions) != 2 {
		t.Errorf("first event %+v, last %+v", first, last)
	}
	for _, ev := range evs {
		if strings.Contains(ev, "Follow-up:") {
			t.Errorf("an event shows a follow-up line: %s", ev)
		}
	}

	// Recommended questions come from the model, given the titles.
	model.answer = "1. How do I install Quire?\n2. Can webhooks be retried?\n"
	var qs struct{ Questions []string }
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/questions", nil).want(t, http.StatusOK).Decode(t, &qs)
	if len(qs.Questions) != 2 || qs.Questions[0] != "How do I install Quire?" {
		t.Errorf("questions %q", qs.Questions)
	}

	// A failing model is a 502 that says so.
	endpoint.Close()
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/ask", map[string]any{"query": "installer"}).wantError(t, http.StatusBadGateway, "model")
}

// slowModel answers after a delay, as models thinking do.
type slowModel struct {
	fakeModel
	delay time.Duration
}

func (m *slowModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	time.Sleep(m.delay)
	m.fakeModel.ServeHTTP(w, r)
}

// TestAskStreamKeepAlive: while the model thinks, the stream says it is
// alive, so that proxies keep it open; the answer follows.
func TestAskStreamKeepAlive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	askSpace(t, e)
	endpoint := httptest.NewServer(&slowModel{fakeModel: fakeModel{answer: "Run it as root [1]."}, delay: 300 * time.Millisecond})
	t.Cleanup(endpoint.Close)
	srv := api.New(e.db, api.Config{PublicURL: testPublicURL, Model: &llm.Model{URL: endpoint.URL + "/v1", Name: "m"}})
	srv.SetKeepAlive(20 * time.Millisecond)
	e.srv = srv
	res := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/stream?query=installer", nil).want(t, http.StatusOK)
	body := string(res.Body)
	if !strings.HasPrefix(body, ": keep-alive\n\n") || !strings.Contains(body, "Run it as root [1].") {
		t.Errorf("stream %q: want keep-alive comments, then the answer", body)
	}
}

// brokenModel starts an answer and then drops the connection.
type brokenModel struct{}

func (brokenModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"Run it\"}}]}\n\n")
	w.(http.Flusher).Flush()
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}

// TestAskStreamModelFails: when the model fails mid-answer, the stream,
// already answered 200, ends with an error event saying so.
func TestAskStreamModelFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	askSpace(t, e)
	endpoint := httptest.NewServer(brokenModel{})
	t.Cleanup(endpoint.Close)
	e.srv = api.New(e.db, api.Config{PublicURL: testPublicURL, Model: &llm.Model{URL: endpoint.URL + "/v1", Name: "m"}})
	res := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/ask/stream?query=installer", nil).want(t, http.StatusOK)
	body := string(res.Body)
	if !strings.Contains(body, `"markdown":"Run it"`) || !strings.HasSuffix(body, "\n\n") ||
		!strings.Contains(body, "event: error\ndata: {\"error\":{\"code\":502,\"message\":\"the answering model failed; try again later\"}}") {
		t.Errorf("stream %q", body)
	}
}
