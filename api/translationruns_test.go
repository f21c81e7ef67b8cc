package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/llm"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/translate"
)

type translationOut struct {
	ID           string
	Status       string
	Source       struct{ Space, Language string }
	Language     string
	Instructions json.RawMessage
	Result       *struct{ Space, Revision, Language string }
	LastRun      *struct{ Status, Reason string }
	Stats        struct{ Runs, TotalPages, LatestPages, LatestWords int }
	Permissions  struct{ View, Edit bool }
	URLs         struct{ Location string }
}

// trCall calls a translation or glossary operation, checks the answer
// against the whole reference and wants status.
func trCall(t *testing.T, e *env, token, method, path string, body any, status int) *response {
	t.Helper()
	res := e.call(t, token, method, path, body)
	if ref := fullReference(t); ref != nil {
		bare, _, _ := strings.Cut(strings.TrimPrefix(path, "/v1"), "?")
		if err := ref.Check(method, bare, res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res.want(t, status)
}

// fakeTranslator is an OpenAI-compatible endpoint that "translates" by
// replacing the words of words, and remembers the system prompts it was
// given. While hold is not nil, each request waits for it to close; with
// fail set, it answers 500.
type fakeTranslator struct {
	words   *strings.Replacer
	mu      sync.Mutex
	systems []string
	calls   atomic.Int64
	hold    chan struct{}
	fail    atomic.Bool
}

func newFakeTranslator(t *testing.T) (*fakeTranslator, *llm.Model) {
	f := &fakeTranslator{words: strings.NewReplacer("Getting started", "Premiers pas", "Installing", "Installation",
		"Hello", "Bonjour", "widget", "bidule", "Upgrading", "Mise à jour", "A guide", "Un guide")}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, &llm.Model{URL: srv.URL + "/v1", Name: "test-model"}
}

func (f *fakeTranslator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct{ Role, Content string }
	}
	b, _ := io.ReadAll(r.Body)
	if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(b, &req) != nil || len(req.Messages) != 2 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.calls.Add(1)
	f.mu.Lock()
	f.systems = append(f.systems, req.Messages[0].Content)
	hold := f.hold
	f.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	if f.fail.Load() {
		http.Error(w, `{"error":{"message":"the model is overloaded"}}`, http.StatusInternalServerError)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{
		"role": "assistant", "content": "```markdown\n" + f.words.Replace(req.Messages[1].Content) + "\n```"}}}})
}

func (f *fakeTranslator) prompts() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.systems, "\n")
}

// translatorEnv is an env whose server has model configured.
func translatorEnv(t *testing.T, model *llm.Model) *env {
	e := newEnv(t)
	e.srv = api.New(e.db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()}, Model: model})
	return e
}

// runTranslator runs a translation worker over e's store until stop is
// called or the test ends.
func runTranslator(t *testing.T, e *env, model *llm.Model) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	w := &jobs.Translator{DB: e.db, Author: &authoring.Author{DB: e.db}, Poll: 20 * time.Millisecond,
		Translate: translate.Translator{Model: model, Limits: translate.Limits{Call: 10 * time.Second}}}
	wg.Go(func() { w.Run(ctx, 20*time.Millisecond, slog.New(slog.DiscardHandler)) })
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// waitTranslation polls the translation until its status is completed
// after at least runs runs ended (lastRun counts failures too).
func waitTranslation(t *testing.T, e *env, id string, ended func(translationOut) bool) translationOut {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var out translationOut
		trCall(t, e, e.admin.token, "GET", "/v1/orgs/"+e.org+"/translations/"+id, nil, http.StatusOK).Decode(t, &out)
		if out.Status == "completed" && ended(out) {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("translation %s still %s: %+v", id, out.Status, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func runs(n int) func(translationOut) bool {
	return func(o translationOut) bool { return o.Stats.Runs >= n }
}

// translationSource makes a space with a page and a child page.
func translationSource(t *testing.T, e *env) string {
	t.Helper()
	sp := e.crSpace(t)
	e.cmSeed(t, sp,
		insertPage("start", "---\ndescription: A guide\n---\n# Getting started\n\nHello, turn the widget on.\n\n```sh\nwidget --on\n```\n"),
		insertPage("", "# Installing\n\nHello again.\n", "into", "start"))
	return sp
}

// TestTranslations: a translation makes its target space and, run by the
// worker through the model, writes the source's pages translated into it
// in one merged change, keeping the page tree, following the instructions
// (its own and its language's) and the glossary; run again, it follows
// the source; the list, update and delete.
func TestTranslations(t *testing.T) {
	t.Parallel()
	fake, model := newFakeTranslator(t)
	e := translatorEnv(t, model)
	src := translationSource(t, e)
	base := "/v1/orgs/" + e.org

	trCall(t, e, e.admin.token, "PUT", base+"/translations-glossary", map[string]any{"operations": []any{
		map[string]any{"type": "insert", "translations": map[string]any{"en": "widget", "fr": "bidule", "de": "Dingsbums"}},
		map[string]any{"type": "insert", "translations": map[string]any{"en": "gizmo", "fr": "gadget"}},
	}}, http.StatusNoContent)

	var tr translationOut
	res := trCall(t, e, e.admin.token, "POST", base+"/translations", map[string]any{
		"source": map[string]any{"space": src, "language": "en"}, "language": "fr", "instructions": transDoc("Keep product names.")},
		http.StatusCreated)
	res.Decode(t, &tr)
	if tr.Status != "pending" || tr.Result != nil || !tr.Permissions.Edit || tr.URLs.Location != testPublicURL+"/v1/orgs/"+e.org+"/translations/"+tr.ID {
		t.Errorf("created %+v", tr)
	}
	// Its language settings live under its id (contract §4.18).
	e.call(t, e.admin.token, "PUT", base+"/translations/"+tr.ID+"/languages/fr", map[string]any{"instructions": transDoc("Use the formal vous.")}).
		want(t, http.StatusCreated)

	runTranslator(t, e, model)
	tr = waitTranslation(t, e, tr.ID, runs(1))
	if tr.Result == nil || tr.Result.Language != "fr" || tr.LastRun == nil || tr.LastRun.Status != "completed" ||
		tr.Stats.LatestPages != 2 || tr.Stats.TotalPages != 2 || tr.Stats.LatestWords == 0 {
		t.Fatalf("after the run: %+v", tr)
	}
	target := e.revision(t, "/v1/spaces/"+tr.Result.Space+"/content")
	if target.ID != tr.Result.Revision {
		t.Errorf("target's revision %s, result %s", target.ID, tr.Result.Revision)
	}
	source := e.revision(t, "/v1/spaces/"+src+"/content")
	if len(target.Pages) != 1 || len(target.Pages[0].Pages) != 1 {
		t.Fatalf("target's tree %+v", target.Pages)
	}
	top, child := target.Pages[0], target.Pages[0].Pages[0]
	if top.Title != "Premiers pas" || top.Description != "Un guide" || child.Title != "Installation" ||
		top.Slug != source.Pages[0].Slug || top.ID != source.Pages[0].ID {
		t.Errorf("translated pages %q %q %q, slug %q (source %q)", top.Title, top.Description, child.Title, top.Slug, source.Pages[0].Slug)
	}
	var page struct{ Markdown string }
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+tr.Result.Space+"/content/page/"+top.ID+"?format=markdown", nil).want(t, http.StatusOK).Decode(t, &page)
	if !strings.Contains(page.Markdown, "Bonjour, turn the bidule on.") || !strings.Contains(page.Markdown, "```sh\nbidule --on\n```") {
		t.Errorf("translated body %q", page.Markdown)
	}
	prompts := fake.prompts()
	for _, want := range []string{"from English to French", "Keep product names.", "Use the formal vous.", `"widget" → "bidule"`} {
		if !strings.Contains(prompts, want) {
			t.Errorf("the model was not told %q:\n%s", want, prompts)
		}
	}
	if strings.Contains(prompts, "gizmo") {
		t.Errorf("the model was told glossary terms its text lacks")
	}
	var crs listOut[map[string]any]
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+tr.Result.Space+"/change-requests?status=merged", nil).want(t, http.StatusOK).Decode(t, &crs)
	if crs.Count != 1 {
		t.Errorf("target has %d merged changes, want 1", crs.Count)
	}

	// The source changes; run again: the target follows it.
	e.cmSeed(t, src, insertPage("", "# Upgrading\n\nHello.\n"))
	trCall(t, e, e.admin.token, "POST", base+"/translations/"+tr.ID+"/run", nil, http.StatusNoContent)
	tr = waitTranslation(t, e, tr.ID, runs(2))
	target = e.revision(t, "/v1/spaces/"+tr.Result.Space+"/content")
	if got := titles(target.Pages); len(got) != 2 || got[1] != "Mise à jour" || tr.Stats.LatestPages != 3 || tr.Stats.TotalPages != 5 {
		t.Errorf("after the second run: %v, %+v", got, tr.Stats)
	}

	var list listOut[translationOut]
	trCall(t, e, e.admin.token, "GET", base+"/translations?limit=1", nil, http.StatusOK).Decode(t, &list)
	if list.Count != 1 || len(list.Items) != 1 || list.Items[0].ID != tr.ID || list.Next != nil {
		t.Errorf("list %+v", list)
	}
	trCall(t, e, e.admin.token, "PUT", base+"/translations/"+tr.ID, map[string]any{"instructions": transDoc("Be brief.")}, http.StatusOK).Decode(t, &tr)
	if !strings.Contains(string(tr.Instructions), "Be brief.") {
		t.Errorf("instructions %s", tr.Instructions)
	}
	trCall(t, e, e.admin.token, "DELETE", base+"/translations/"+tr.ID, nil, http.StatusResetContent)
	trCall(t, e, e.admin.token, "DELETE", base+"/translations/"+tr.ID, nil, http.StatusNoContent)
	e.call(t, e.admin.token, "GET", base+"/translations/"+tr.ID, nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", base+"/translations/"+tr.ID+"/languages", nil).want(t, http.StatusOK)
	// The target space stays: it is the organization's content.
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+tr.Result.Space, nil).want(t, http.StatusOK)
}

// TestTranslationGlossary: batches insert, update and delete all or
// nothing; the list pages and sorts by a language; bad batches are 400s
// naming the field.
func TestTranslationGlossary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := "/v1/orgs/" + e.org + "/translations-glossary"
	put := func(ops ...any) *response {
		return e.call(t, e.admin.token, "PUT", path, map[string]any{"operations": ops})
	}
	insert := func(terms map[string]any) map[string]any {
		return map[string]any{"type": "insert", "translations": terms}
	}
	trCall(t, e, e.admin.token, "PUT", path, map[string]any{"operations": []any{
		insert(map[string]any{"en": "space", "fr": "espace"}),
		insert(map[string]any{"en": "page", "fr": "page", "de": "Seite"}),
		insert(map[string]any{"en": "site"}),
	}}, http.StatusNoContent)
	type entry struct {
		ID           string
		Translations map[string]string
		URLs         struct{ Location string }
	}
	var all listOut[entry]
	trCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &all)
	if all.Count != 3 || all.Items[0].Translations["en"] != "space" || all.Items[2].Translations["en"] != "site" {
		t.Fatalf("glossary %+v", all)
	}
	var byFr listOut[entry]
	trCall(t, e, e.admin.token, "GET", path+"?orderBy=fr&limit=2", nil, http.StatusOK).Decode(t, &byFr)
	if len(byFr.Items) != 2 || byFr.Items[0].Translations["fr"] != "espace" || byFr.Items[1].Translations["fr"] != "page" || byFr.Next == nil {
		t.Fatalf("by fr %+v", byFr)
	}
	var rest listOut[entry]
	trCall(t, e, e.admin.token, "GET", path+"?orderBy=fr&limit=2&page="+byFr.Next.Page, nil, http.StatusOK).Decode(t, &rest)
	if len(rest.Items) != 1 || rest.Items[0].Translations["en"] != "site" || rest.Next != nil {
		t.Errorf("second page %+v", rest)
	}
	site := all.Items[2].ID
	var one, updated entry
	trCall(t, e, e.admin.token, "GET", path+"/"+site, nil, http.StatusOK).Decode(t, &one)
	if one.URLs.Location != testPublicURL+path+"/"+site {
		t.Errorf("entry %+v", one)
	}
	put(map[string]any{"type": "update", "id": site, "translations": map[string]any{"en": "site", "fr": "site"}},
		map[string]any{"type": "delete", "id": all.Items[0].ID}).want(t, http.StatusNoContent)
	trCall(t, e, e.admin.token, "GET", path+"/"+site, nil, http.StatusOK).Decode(t, &updated)
	if updated.Translations["fr"] != "site" {
		t.Errorf("updated %+v", updated)
	}
	e.call(t, e.admin.token, "GET", path+"/"+all.Items[0].ID, nil).wantError(t, http.StatusNotFound)

	for _, bad := range []struct {
		body  any
		field string
	}{
		{map[string]any{}, "operations"},
		{map[string]any{"operations": []any{map[string]any{"type": "upsert"}}}, "operations[0].type"},
		{map[string]any{"operations": []any{map[string]any{"translations": map[string]any{"en": "x"}}}}, "operations[0].type"},
		{map[string]any{"operations": []any{map[string]any{"type": "update", "translations": map[string]any{"en": "x"}}}}, "operations[0].id"},
		{map[string]any{"operations": []any{insert(map[string]any{"en": "x"}), map[string]any{"type": "insert"}}}, "operations[1].translations"},
		{map[string]any{"operations": []any{insert(map[string]any{})}}, "operations[0].translations"},
		{map[string]any{"operations": []any{insert(map[string]any{"xx": "x"})}}, "operations[0].translations.xx"},
		{map[string]any{"operations": []any{insert(map[string]any{"fr": "two\nlines"})}}, "operations[0].translations.fr"},
		{map[string]any{"operations": []any{insert(map[string]any{"fr": strings.Repeat("a", 256)})}}, "operations[0].translations.fr"},
		// All or nothing: the insert before the unknown id is not kept.
		{map[string]any{"operations": []any{insert(map[string]any{"en": "kept?"}), map[string]any{"type": "delete", "id": "nosuch"}}}, "operations[1].id"},
	} {
		trCall(t, e, e.admin.token, "PUT", path, bad.body, http.StatusBadRequest).wantError(t, http.StatusBadRequest, bad.field)
	}
	e.call(t, e.admin.token, "GET", path+"?orderBy=xx", nil).wantError(t, http.StatusBadRequest, "orderBy")
	e.call(t, e.admin.token, "GET", path+"?limit=0", nil).wantError(t, http.StatusBadRequest, "limit")
	var after listOut[entry]
	trCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &after)
	if after.Count != 2 {
		t.Errorf("after the refused batches: %d entries, want 2", after.Count)
	}
	many := make([]any, 1001)
	for i := range many {
		many[i] = insert(map[string]any{"en": "x"})
	}
	e.call(t, e.admin.token, "PUT", path, map[string]any{"operations": many}).wantError(t, http.StatusBadRequest, "operations")
}

// TestTranslationPermissions: members (guests too) read translations and
// the glossary; only admins write (403); others see no organization (404).
// Bad bodies are 400s naming the field.
func TestTranslationPermissions(t *testing.T) {
	t.Parallel()
	_, model := newFakeTranslator(t)
	e := translatorEnv(t, model)
	reader, guest, out := e.addUser(t, "read", "Rae Reader"), e.addUser(t, "guest", "Gil Guest"), e.outsider(t)
	src := translationSource(t, e)
	base := "/v1/orgs/" + e.org
	var tr translationOut
	trCall(t, e, e.admin.token, "POST", base+"/translations", map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "de"},
		http.StatusCreated).Decode(t, &tr)
	if string(tr.Instructions) != `{"object":"document","data":{},"nodes":[]}` {
		t.Errorf("default instructions %s", tr.Instructions)
	}
	one := base + "/translations/" + tr.ID
	create := map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "es"}
	glossary := map[string]any{"operations": []any{}}
	for _, u := range []user{reader, guest} {
		var got translationOut
		trCall(t, e, u.token, "GET", one, nil, http.StatusOK).Decode(t, &got)
		if !got.Permissions.View || got.Permissions.Edit {
			t.Errorf("permissions %+v", got.Permissions)
		}
		trCall(t, e, u.token, "GET", base+"/translations", nil, http.StatusOK)
		trCall(t, e, u.token, "GET", base+"/translations-glossary", nil, http.StatusOK)
		e.call(t, u.token, "POST", base+"/translations", create).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "PUT", one, map[string]any{"instructions": transDoc("x")}).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "POST", one+"/run", nil).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "DELETE", one, nil).wantError(t, http.StatusForbidden)
		e.call(t, u.token, "PUT", base+"/translations-glossary", glossary).wantError(t, http.StatusForbidden)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", one}, {"GET", base + "/translations"}, {"POST", base + "/translations"}, {"PUT", one}, {"DELETE", one},
		{"POST", one + "/run"}, {"GET", base + "/translations-glossary"}, {"PUT", base + "/translations-glossary"},
		{"GET", base + "/translations-glossary/g1"},
	} {
		e.call(t, out.token, c.method, c.path, map[string]any{}).wantError(t, http.StatusNotFound)
	}
	e.call(t, reader.token, "GET", base+"/translations/nosuch", nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "POST", base+"/translations/nosuch/run", nil).wantError(t, http.StatusNotFound)

	// A space of the outsider's organization is no source here.
	var orgs listOut[struct{ ID string }]
	e.call(t, out.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &orgs)
	var theirs struct{ ID string }
	e.call(t, out.token, "POST", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", map[string]any{"title": "Theirs"}).want(t, http.StatusCreated).Decode(t, &theirs)
	for _, bad := range []struct {
		body  any
		field string
	}{
		{map[string]any{"language": "fr"}, "source"},
		{map[string]any{"source": map[string]any{"language": "en"}, "language": "fr"}, "source.space"},
		{map[string]any{"source": map[string]any{"space": src}, "language": "fr"}, "source.language"},
		{map[string]any{"source": map[string]any{"space": src, "language": "en"}}, "language"},
		{map[string]any{"source": map[string]any{"space": src, "language": "english"}, "language": "fr"}, "source.language"},
		{map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "klingon"}, "language"},
		{map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "en"}, "language"},
		{map[string]any{"source": map[string]any{"space": "nosuch", "language": "en"}, "language": "fr"}, "source.space"},
		{map[string]any{"source": map[string]any{"space": theirs.ID, "language": "en"}, "language": "fr"}, "source.space"},
		{map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "fr", "instructions": map[string]any{"object": "text"}}, "instructions"},
		{map[string]any{"source": "x", "language": "fr"}, "source"},
	} {
		trCall(t, e, e.admin.token, "POST", base+"/translations", bad.body, http.StatusBadRequest).wantError(t, http.StatusBadRequest, bad.field)
	}
	trCall(t, e, e.admin.token, "PUT", one, map[string]any{}, http.StatusBadRequest).wantError(t, http.StatusBadRequest, "instructions")
	e.call(t, e.admin.token, "GET", base+"/translations?limit=1001", nil).wantError(t, http.StatusBadRequest, "limit")
}

// TestTranslationWithoutModel: with no model configured, a translation is
// created (its target space too) but running it is a 400 saying so.
func TestTranslationWithoutModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	src := translationSource(t, e)
	var tr translationOut
	trCall(t, e, e.admin.token, "POST", "/v1/orgs/"+e.org+"/translations", map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "fr"},
		http.StatusCreated).Decode(t, &tr)
	if tr.Status != "pending" || tr.Stats.Runs != 0 {
		t.Errorf("created %+v", tr)
	}
	trCall(t, e, e.admin.token, "POST", "/v1/orgs/"+e.org+"/translations/"+tr.ID+"/run", nil, http.StatusBadRequest).
		wantError(t, http.StatusBadRequest, "no language model is configured")
	if due, err := e.db.TranslationRunsDue(t.Context()); err != nil || due {
		t.Errorf("a run is due without a model: %v, %v", due, err)
	}
}

// TestTranslationRunFails: a model that fails ends the run failed, with
// the reason, and writes nothing; run again once the model is back, it
// completes.
func TestTranslationRunFails(t *testing.T) {
	t.Parallel()
	fake, model := newFakeTranslator(t)
	fake.fail.Store(true)
	e := translatorEnv(t, model)
	src := translationSource(t, e)
	var tr translationOut
	trCall(t, e, e.admin.token, "POST", "/v1/orgs/"+e.org+"/translations", map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "fr"},
		http.StatusCreated).Decode(t, &tr)
	runTranslator(t, e, model)
	tr = waitTranslation(t, e, tr.ID, func(o translationOut) bool { return o.LastRun != nil })
	if tr.LastRun.Status != "failed" || !strings.Contains(tr.LastRun.Reason, "the model is overloaded") || tr.Result != nil || tr.Stats.Runs != 0 {
		t.Fatalf("failed run %+v, last run %+v", tr, *tr.LastRun)
	}
	fake.fail.Store(false)
	trCall(t, e, e.admin.token, "POST", "/v1/orgs/"+e.org+"/translations/"+tr.ID+"/run", nil, http.StatusNoContent)
	if tr = waitTranslation(t, e, tr.ID, runs(1)); tr.LastRun.Status != "completed" || tr.LastRun.Reason != "" || tr.Result == nil {
		t.Errorf("run again %+v", tr)
	}
}

// TestTranslationRunSurvivesRestart: a worker stopped in the middle of a
// run gives it back, and a new worker runs it; a run whose worker died
// (its lease ran out) is claimed again; a run asked for while one runs
// follows it; each run writes once.
func TestTranslationRunSurvivesRestart(t *testing.T) {
	t.Parallel()
	fake, model := newFakeTranslator(t)
	e := translatorEnv(t, model)
	src := translationSource(t, e)
	var tr translationOut
	trCall(t, e, e.admin.token, "POST", "/v1/orgs/"+e.org+"/translations", map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "fr"},
		http.StatusCreated).Decode(t, &tr)

	fake.mu.Lock()
	fake.hold = make(chan struct{})
	fake.mu.Unlock()
	stop := runTranslator(t, e, model)
	deadline := time.Now().Add(10 * time.Second)
	for fake.calls.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the worker never asked the model")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var mid translationOut
	trCall(t, e, e.admin.token, "GET", "/v1/orgs/"+e.org+"/translations/"+tr.ID, nil, http.StatusOK).Decode(t, &mid)
	if mid.Status != "running" {
		t.Errorf("while the model thinks: %s", mid.Status)
	}
	// Asked for while it runs, a run follows this one.
	trCall(t, e, e.admin.token, "POST", "/v1/orgs/"+e.org+"/translations/"+tr.ID+"/run", nil, http.StatusNoContent)
	stop() // the server stops: the run is given back
	trCall(t, e, e.admin.token, "GET", "/v1/orgs/"+e.org+"/translations/"+tr.ID, nil, http.StatusOK).Decode(t, &mid)
	if mid.Status != "pending" || mid.LastRun != nil {
		t.Errorf("after the stop: %+v", mid)
	}

	// A worker claims it and dies without giving it back: its lease runs out.
	dead, err := e.db.ClaimTranslationRun(t.Context(), time.Millisecond)
	if err != nil || dead == nil || dead.ID != tr.ID {
		t.Fatalf("claim %+v, %v", dead, err)
	}
	time.Sleep(5 * time.Millisecond)
	fake.mu.Lock()
	close(fake.hold)
	fake.hold = nil
	fake.mu.Unlock()
	runTranslator(t, e, model)
	tr = waitTranslation(t, e, tr.ID, runs(2))
	if tr.Stats.Runs != 2 || tr.LastRun.Status != "completed" {
		t.Errorf("after the restart: %+v", tr)
	}
	var crs listOut[map[string]any]
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+tr.Result.Space+"/change-requests?status=merged", nil).want(t, http.StatusOK).Decode(t, &crs)
	if crs.Count != 2 {
		t.Errorf("target has %d merged changes, want 2 (one a run)", crs.Count)
	}
}
