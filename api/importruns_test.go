package api_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
)

type importRunOut struct {
	ID          string
	Status      string
	Reason      string
	CompletedAt string
	Target      struct{ Space, ChangeRequest string }
	URLs        struct{ Location string }
	Pages       []struct{ ID, SourceURL, Type, Status string }
}

// irCall calls an import-run operation, checks the answer against the
// whole reference and wants status.
func irCall(t *testing.T, e *env, token, method, path string, body any, status int) *response {
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

// runImporter runs the import worker over e's store until the test ends.
func runImporter(t *testing.T, e *env) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	a := &authoring.Author{DB: e.db, Fetcher: outbound.Fetcher{AllowPrivate: true}}
	wg.Go(func() { jobs.RunImporter(ctx, e.db, a, 20*time.Millisecond, slog.New(slog.DiscardHandler)) })
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// waitImportRun polls the run until its status is no longer pending or
// in-progress.
func waitImportRun(t *testing.T, e *env, id string) importRunOut {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var out importRunOut
		irCall(t, e, e.admin.token, "GET", "/v1/org/"+e.org+"/imports/"+id, nil, http.StatusOK).Decode(t, &out)
		if out.Status != "pending" && out.Status != "in-progress" {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("import run %s still %s", id, out.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func websiteRun(url, space string) map[string]any {
	return map[string]any{"source": map[string]any{"type": "website", "url": url}, "target": map[string]any{"space": space}}
}

// TestImportRuns: a run imports a website into a space, or a change
// request, as a job: started pending, polled until completed, its pages
// there; the list filters and pages; who may start, read and cancel.
func TestImportRuns(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	site := importSite(t)
	sp := colCreateSpace(t, e, "Imported", "")
	base := "/v1/org/" + e.org + "/imports"

	var run importRunOut
	irCall(t, e, e.admin.token, "POST", base, websiteRun(site.URL+"/docs/", sp.ID), http.StatusCreated).Decode(t, &run)
	if run.Status != "pending" || run.Target.Space != sp.ID || !strings.HasSuffix(run.URLs.Location, base+"/"+run.ID) {
		t.Fatalf("started %+v", run)
	}
	runImporter(t, e)
	done := waitImportRun(t, e, run.ID)
	if done.Status != "completed" || done.CompletedAt == "" || len(done.Pages) != 3 {
		t.Fatalf("run ended %+v", done)
	}
	content := e.revision(t, "/v1/spaces/"+sp.ID+"/content")
	ids := cmIDs(content.Pages)
	if len(content.Pages) != 2 || content.Pages[0].Title != "Home" || content.Pages[1].Title != "Guide" {
		t.Fatalf("imported tree %+v", content.Pages)
	}
	if done.Pages[0].ID != ids["Home"] || done.Pages[0].SourceURL != site.URL+"/docs/" || done.Pages[0].Type != "page" || done.Pages[0].Status != "complete" {
		t.Errorf("run pages %+v, want Home %s first", done.Pages, ids["Home"])
	}

	// Into a change request: the pages are its revision, the space keeps its own.
	crSpace, crPath := e.newChangeRequest(t)
	crID := crPath[strings.LastIndex(crPath, "/")+1:]
	body := websiteRun(site.URL+"/docs/guide", crSpace)
	body["target"].(map[string]any)["changeRequest"] = crID
	irCall(t, e, e.admin.token, "POST", base, body, http.StatusCreated).Decode(t, &run)
	if done := waitImportRun(t, e, run.ID); done.Status != "completed" || done.Target.ChangeRequest != crID || len(done.Pages) != 2 {
		t.Fatalf("change request run %+v", done)
	}
	if rev := e.revision(t, crPath+"/content"); len(rev.Pages) != 2 || rev.Pages[0].Title != "Guide" || rev.Pages[1].Title != "Advanced" {
		t.Errorf("change request content %+v", rev.Pages)
	}

	// A site that fails: the run fails with the reason.
	irCall(t, e, e.admin.token, "POST", base, websiteRun(site.URL+"/missing", sp.ID), http.StatusCreated).Decode(t, &run)
	if failed := waitImportRun(t, e, run.ID); failed.Status != "failed" || !strings.Contains(failed.Reason, "url") {
		t.Errorf("failed run %+v", failed)
	}

	// The list: most recent first, filtered, paged.
	var list listOut[importRunOut]
	irCall(t, e, e.admin.token, "GET", base, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 3 || list.Items[0].Status != "failed" || list.Items[2].Status != "completed" {
		t.Fatalf("list %+v", list)
	}
	irCall(t, e, e.admin.token, "GET", base+"?status=completed&space="+sp.ID, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 1 || list.Items[0].ID != done.ID {
		t.Errorf("completed into %s: %+v", sp.ID, list)
	}
	irCall(t, e, e.admin.token, "GET", base+"?status=active", nil, http.StatusOK).Decode(t, &list)
	if list.Count != 0 {
		t.Errorf("active %+v", list)
	}
	irCall(t, e, e.admin.token, "GET", base+"?limit=2", nil, http.StatusOK).Decode(t, &list)
	if len(list.Items) != 2 || list.Next == nil {
		t.Fatalf("first page %+v", list)
	}
	first := list.Items[1].ID
	next := list.Next.Page
	list = listOut[importRunOut]{}
	irCall(t, e, e.admin.token, "GET", base+"?limit=2&page="+next, nil, http.StatusOK).Decode(t, &list)
	if len(list.Items) != 1 || list.Next != nil || list.Items[0].ID == first || list.Items[0].ID != done.ID {
		t.Errorf("second page %+v", list)
	}
	irCall(t, e, e.admin.token, "GET", base+"?status=running", nil, http.StatusBadRequest)

	// Bad requests name the field and start nothing.
	for _, bad := range []map[string]any{
		{"target": map[string]any{"space": sp.ID}},
		{"source": map[string]any{"type": "website", "url": site.URL}},
		{"source": map[string]any{"type": "file", "files": []string{"k"}}, "target": map[string]any{"space": sp.ID}},
		{"source": map[string]any{"type": "website", "url": site.URL}, "target": map[string]any{"space": sp.ID, "page": "p"}},
		{"source": map[string]any{"type": "website", "url": site.URL}, "target": map[string]any{"space": sp.ID}, "site": "nosuchsite"},
	} {
		irCall(t, e, e.admin.token, "POST", base, bad, http.StatusBadRequest)
	}
	irCall(t, e, e.admin.token, "POST", base, websiteRun(site.URL, "nosuchspace"), http.StatusNotFound)
	irCall(t, e, e.admin.token, "GET", base+"/nosuchrun", nil, http.StatusNotFound)
	irCall(t, e, e.admin.token, "POST", base+"/"+done.ID+"/cancel", nil, http.StatusBadRequest) // completed already

	// Readers read runs but start or cancel none; guests who cannot see
	// the space see nothing; other organizations get 404.
	reader := e.addUser(t, "read", "Rita Reader")
	irCall(t, e, reader.token, "GET", base+"/"+done.ID, nil, http.StatusOK)
	irCall(t, e, reader.token, "POST", base, websiteRun(site.URL+"/docs/", sp.ID), http.StatusForbidden)
	guest := e.addUser(t, "guest", "Gus Guest")
	irCall(t, e, guest.token, "GET", base+"/"+done.ID, nil, http.StatusNotFound)
	irCall(t, e, guest.token, "POST", base, websiteRun(site.URL+"/docs/", sp.ID), http.StatusNotFound)
	list = listOut[importRunOut]{}
	irCall(t, e, guest.token, "GET", base, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 0 {
		t.Errorf("guest sees %+v", list)
	}
	org2, other := colOtherOrg(t, e)
	irCall(t, e, other.token, "GET", base+"/"+done.ID, nil, http.StatusNotFound)
	irCall(t, e, other.token, "GET", base, nil, http.StatusNotFound)
	irCall(t, e, other.token, "POST", base, websiteRun(site.URL+"/docs/", sp.ID), http.StatusNotFound)
	irCall(t, e, other.token, "POST", "/v1/org/"+org2+"/imports", websiteRun(site.URL+"/docs/", sp.ID), http.StatusNotFound)
	irCall(t, e, other.token, "GET", "/v1/org/"+org2+"/imports/"+done.ID, nil, http.StatusNotFound)
}

// TestImportRunCancel: a run cancelled while a page hangs stops at that
// page and writes nothing.
func TestImportRunCancel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	requested, aborted := make(chan struct{}), make(chan struct{})
	var once sync.Once
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/docs/" {
			w.Write([]byte(`<html><body><main><h1>Home</h1><p><a href="slow">Slow</a></p></main></body></html>`))
			return
		}
		once.Do(func() { close(requested) })
		<-r.Context().Done() // hangs until the fetch gives up
		close(aborted)
	}))
	t.Cleanup(site.Close)
	sp := colCreateSpace(t, e, "Cancelled", "")
	before := e.revision(t, "/v1/spaces/"+sp.ID+"/content")
	base := "/v1/org/" + e.org + "/imports"
	var run importRunOut
	irCall(t, e, e.admin.token, "POST", base, websiteRun(site.URL+"/docs/", sp.ID), http.StatusCreated).Decode(t, &run)
	runImporter(t, e)
	select {
	case <-requested:
	case <-time.After(30 * time.Second):
		t.Fatal("the slow page was never fetched")
	}
	irCall(t, e, e.admin.token, "POST", base+"/"+run.ID+"/cancel", nil, http.StatusOK).Decode(t, &run)
	if run.Status != "cancelled" {
		t.Fatalf("cancelled %+v", run)
	}
	select {
	case <-aborted:
	case <-time.After(10 * time.Second):
		t.Fatal("the worker kept fetching the cancelled run's page")
	}
	time.Sleep(100 * time.Millisecond) // let the worker finish with the run
	if after := waitImportRun(t, e, run.ID); after.Status != "cancelled" || len(after.Pages) != 0 {
		t.Errorf("run after cancel %+v", after)
	}
	if after := e.revision(t, "/v1/spaces/"+sp.ID+"/content"); after.ID != before.ID || len(after.Pages) != len(before.Pages) {
		t.Errorf("content changed: %+v", after)
	}
	var crs listOut[map[string]any]
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+sp.ID+"/change-requests?status=merged", nil).want(t, http.StatusOK).Decode(t, &crs)
	if crs.Count != 0 {
		t.Errorf("change requests left: %+v", crs)
	}
	irCall(t, e, e.admin.token, "POST", base+"/"+run.ID+"/cancel", nil, http.StatusBadRequest)
}

// TestImportRunsOnce: two servers' workers over one store run each run
// once; a run whose worker died (its lease ran out) is run again.
func TestImportRunsOnce(t *testing.T) {
	t.Parallel()
	a, b := twoServers(t)
	var homes atomic.Int64
	inner := importSite(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/docs/" {
			homes.Add(1)
		}
		time.Sleep(20 * time.Millisecond) // the workers overlap
		res, err := http.Get(inner.URL + r.URL.Path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		w.Header().Set("Content-Type", res.Header.Get("Content-Type"))
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	}))
	t.Cleanup(site.Close)
	base := "/v1/org/" + a.org + "/imports"
	var ids []string
	for i := range 4 {
		sp := colCreateSpace(t, a, "Space "+string(rune('A'+i)), "")
		var run importRunOut
		irCall(t, a, a.admin.token, "POST", base, websiteRun(site.URL+"/docs/", sp.ID), http.StatusCreated).Decode(t, &run)
		ids = append(ids, run.ID)
	}
	// A worker claims the first run and dies: its lease runs out at once.
	dead, err := a.db.ClaimImportRun(t.Context(), time.Millisecond)
	if err != nil || dead == nil || dead.ID != ids[0] {
		t.Fatalf("claim %+v, %v", dead, err)
	}
	time.Sleep(5 * time.Millisecond)
	runImporter(t, a)
	runImporter(t, b)
	for _, id := range ids {
		if run := waitImportRun(t, b, id); run.Status != "completed" || len(run.Pages) != 3 {
			t.Errorf("run %s: %+v", id, run)
		}
	}
	if n := homes.Load(); n != 4 {
		t.Errorf("the website was imported %d times for 4 runs", n)
	}
	var crs listOut[map[string]any]
	for _, id := range ids {
		var run importRunOut
		a.call(t, a.admin.token, "GET", base+"/"+id, nil).want(t, http.StatusOK).Decode(t, &run)
		a.call(t, a.admin.token, "GET", "/v1/spaces/"+run.Target.Space+"/change-requests?status=merged", nil).want(t, http.StatusOK).Decode(t, &crs)
		if crs.Count != 1 {
			t.Errorf("space %s has %d merged imports", run.Target.Space, crs.Count)
		}
	}
}

// TestImportRunRulesOnCompletion: a run into a space is allowed by the rules
// in force when it starts, and judged again in the transaction that
// completes it: rules asking for a review, set meanwhile, fail it with the
// rules' words and leave the space as it was.
func TestImportRunRulesOnCompletion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	site := importSite(t)
	sp := colCreateSpace(t, e, "Imported", "")
	var started importRunOut
	var before crSpaceCounts
	run(t, e, []scenario{
		{method: "POST", path: "/v1/org/" + e.org + "/imports", body: websiteRun(site.URL+"/docs/", sp.ID), status: http.StatusCreated,
			want: []check{field("status", "pending"), into(&started)}},
		{method: "PATCH", path: "/v1/spaces/" + sp.ID, body: map[string]any{"mergeRules": map[string]any{"type": "rules",
			"rules": []any{map[string]any{"rule": "require_at_least_one_review"}}}}, want: []check{into(&before)}},
	})
	runImporter(t, e)
	if done := waitImportRun(t, e, started.ID); done.Status != "failed" || !strings.Contains(done.Reason, "merge rules not met: require_at_least_one_review") {
		t.Fatalf("run ended %+v", done)
	}
	run(t, e, []scenario{
		{path: "/v1/spaces/" + sp.ID, want: []check{field("revision", before.Revision), field("changeRequests", before.ChangeRequests)}},
	})
}
