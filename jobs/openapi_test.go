package jobs_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// testFetcher reaches the test servers on loopback and gives up quickly.
var testFetcher = outbound.Fetcher{AllowPrivate: true, Timeout: 500 * time.Millisecond}

// specServer serves documents by path: /slow answers after the fetcher has
// given up, /big more than quire.MaxSpecBytes, anything else from docs or 404.
func specServer(t *testing.T, docs map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		case "/big":
			w.Write([]byte(strings.Repeat("#", quire.MaxSpecBytes+1)))
			return
		}
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/yaml")
		w.Write([]byte(doc))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// unreachableURL is a loopback URL nothing listens on.
func unreachableURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/openapi.yaml"
}

// specOrg opens a fresh store with a fixed clock and an organization.
func specOrg(t *testing.T) (db *store.DB, orgID string, clock *time.Time) {
	t.Helper()
	db = storetest.Open(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	b, err := db.InitOrganization(t.Context(), "Org", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	return db, b.Organization.ID, &now
}

func process(t *testing.T, db *store.DB, f outbound.Fetcher, want int) {
	t.Helper()
	n, err := jobs.ProcessSpecs(t.Context(), db, f)
	if err != nil || n != want {
		t.Fatalf("ProcessSpecs = %d, %v; want %d processed", n, err, want)
	}
}

func getSpec(t *testing.T, db *store.DB, orgID, slug string) *quire.OpenAPISpec {
	t.Helper()
	p, err := db.OpenAPISpec(t.Context(), orgID, slug)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProcessSpecs processes each kind of source to its outcome: a version
// for a valid document, the reference's error codes otherwise.
func TestProcessSpecs(t *testing.T) {
	t.Parallel()
	srv := specServer(t, map[string]string{"/petstore.yaml": petstore30, "/swagger.yaml": petstoreSwagger, "/invalid.yaml": invalidSpec})
	for _, tc := range []struct {
		name          string
		src           store.OpenAPISource
		refusePrivate bool          // as servers do unless QUIRE_ALLOW_PRIVATE_FETCH=1
		timeout       time.Duration // testFetcher's when 0
		code          quire.SpecErrorCode
		format        string
		message       string
	}{
		{name: "text", src: store.OpenAPISource{Text: petstore31JSON}, format: "3.1.0"},
		{name: "url", src: store.OpenAPISource{URL: srv.URL + "/petstore.yaml"}, format: "3.0.3"},
		{name: "swagger url", src: store.OpenAPISource{URL: srv.URL + "/swagger.yaml"}, format: "2.0"},
		{name: "invalid text", src: store.OpenAPISource{Text: invalidSpec}, code: quire.SpecParseError, message: "info"},
		{name: "invalid url", src: store.OpenAPISource{URL: srv.URL + "/invalid.yaml"}, code: quire.SpecParseError, message: "info"},
		{name: "unreachable", src: store.OpenAPISource{URL: unreachableURL(t)}, code: quire.SpecFetchError, message: "could not be fetched"},
		{name: "not found", src: store.OpenAPISource{URL: srv.URL + "/nothing.yaml"}, code: quire.SpecFetchError, message: "404"},
		{name: "slow", src: store.OpenAPISource{URL: srv.URL + "/slow"}, code: quire.SpecFetchTimeout, message: "in time"},
		{name: "too large", src: store.OpenAPISource{URL: srv.URL + "/big"}, timeout: time.Minute, code: quire.SpecFetchError, message: "larger than"},
		{name: "private address refused", src: store.OpenAPISource{URL: srv.URL + "/petstore.yaml"}, refusePrivate: true,
			code: quire.SpecFetchError, message: "not public"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db, org, clock := specOrg(t)
			created, err := db.CreateOpenAPISpec(t.Context(), org, "spec", tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if created.State != quire.SpecPending {
				t.Fatalf("new spec in state %q, want pending", created.State)
			}
			*clock = clock.Add(time.Second)
			f := testFetcher
			f.AllowPrivate = !tc.refusePrivate
			if tc.timeout != 0 {
				f.Timeout = tc.timeout
			}
			process(t, db, f, 1)
			got := getSpec(t, db, org, "spec")
			if got.State != quire.SpecComplete || got.LastErrorCode != tc.code || !got.LastProcessedAt.Equal(*clock) {
				t.Fatalf("processed spec: state %q, code %q (%q), processed at %v; want complete, %q, %v",
					got.State, got.LastErrorCode, got.LastErrors, got.LastProcessedAt, tc.code, *clock)
			}
			versions, err := db.OpenAPISpecVersions(t.Context(), got.ID)
			if err != nil {
				t.Fatal(err)
			}
			if tc.code != "" {
				if got.LastVersion != "" || len(versions) != 0 || got.LastErrorCount == 0 || !strings.Contains(got.LastErrors[0], tc.message) {
					t.Errorf("failed processing: version %q (%d stored), errors %q (%d); want none, and a message about %q",
						got.LastVersion, len(versions), got.LastErrors, got.LastErrorCount, tc.message)
				}
				return
			}
			if len(versions) != 1 || got.LastVersion != versions[0].ID || versions[0].Format != tc.format || got.LastErrorCount != 0 {
				t.Fatalf("processed spec: lastVersion %q, versions %+v, %d errors; want one version of format %q", got.LastVersion, versions, got.LastErrorCount, tc.format)
			}
			v, err := db.OpenAPISpecVersion(t.Context(), got.ID, got.LastVersion)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.src.Text; want != "" && v.Document != want {
				t.Errorf("version document %q, want the text given", v.Document)
			}
			if len(v.Hash) != 64 {
				t.Errorf("version hash %q, want hex SHA-256", v.Hash)
			}
			process(t, db, f, 0) // nothing left to do
		})
	}
}

// TestProcessSpecsKeepsLastGoodVersion: every successful processing adds a
// version; a failed one records its error and keeps the last good version,
// which the next success replaces.
func TestProcessSpecsKeepsLastGoodVersion(t *testing.T) {
	t.Parallel()
	db, org, clock := specOrg(t)
	ctx := t.Context()
	put := func(src store.OpenAPISource) {
		t.Helper()
		*clock = clock.Add(time.Minute)
		if _, _, err := db.PutOpenAPISpec(ctx, org, "spec", src); err != nil {
			t.Fatal(err)
		}
		process(t, db, testFetcher, 1)
	}
	put(store.OpenAPISource{Text: petstore30})
	first := getSpec(t, db, org, "spec")
	put(store.OpenAPISource{Text: petstore30}) // the same document again is a new version
	second := getSpec(t, db, org, "spec")
	if second.LastVersion == first.LastVersion {
		t.Fatalf("reprocessing kept lastVersion %q: want a new version", first.LastVersion)
	}
	put(store.OpenAPISource{URL: unreachableURL(t)})
	failed := getSpec(t, db, org, "spec")
	if failed.LastVersion != second.LastVersion || failed.LastErrorCode != quire.SpecFetchError || failed.SourceURL == "" {
		t.Fatalf("after a failed fetch: lastVersion %q, code %q, sourceURL %q; want %q kept, FETCH_ERROR, the URL",
			failed.LastVersion, failed.LastErrorCode, failed.SourceURL, second.LastVersion)
	}
	put(store.OpenAPISource{Text: petstoreSwagger})
	third := getSpec(t, db, org, "spec")
	if third.LastErrorCode != "" || len(third.LastErrors) != 0 || third.LastErrorCount != 0 || third.SourceURL != "" {
		t.Fatalf("after a success: code %q, errors %q (%d), sourceURL %q; want them cleared", third.LastErrorCode, third.LastErrors, third.LastErrorCount, third.SourceURL)
	}
	versions, err := db.OpenAPISpecVersions(ctx, third.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) != 3 || versions[0].ID != third.LastVersion || versions[1].ID != second.LastVersion || versions[2].ID != first.LastVersion {
		t.Fatalf("versions %+v: want 3, newest first, the newest being lastVersion", versions)
	}
	if versions[1].Hash != versions[2].Hash || versions[0].Hash == versions[1].Hash {
		t.Errorf("hashes %q, %q, %q: want equal for equal documents only", versions[0].Hash, versions[1].Hash, versions[2].Hash)
	}
}

// TestProcessSpecsAfterRestart: a worker claims a job and dies with it (the
// server stops without finishing). After a restart the job waits out its
// lease, then a new worker completes it.
func TestProcessSpecsAfterRestart(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	url, dir := storetest.URL(t), t.TempDir()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	db, err := store.Open(ctx, url, dir)
	if err != nil {
		t.Fatal(err)
	}
	db.Now = clock
	b, err := db.InitOrganization(ctx, "Org", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	org := b.Organization.ID
	if _, err := db.CreateOpenAPISpec(ctx, org, "spec", store.OpenAPISource{Text: petstore30}); err != nil {
		t.Fatal(err)
	}
	job, err := db.ClaimOpenAPIJob(ctx, jobs.SpecLease)
	if err != nil || job == nil || job.Attempts != 1 {
		t.Fatalf("claim = %+v, %v; want the job, first attempt", job, err)
	}
	if got := getSpec(t, db, org, "spec"); got.State != quire.SpecProgress {
		t.Fatalf("claimed spec in state %q, want progress", got.State)
	}
	db.Close() // the server stops; its worker never finishes

	db, err = store.Open(ctx, url, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Now = clock
	now = now.Add(jobs.SpecLease / 2)
	process(t, db, testFetcher, 0) // the lease still holds
	if got := getSpec(t, db, org, "spec"); got.State != quire.SpecProgress {
		t.Fatalf("spec in state %q while its lease holds, want progress", got.State)
	}
	now = now.Add(jobs.SpecLease)
	process(t, db, testFetcher, 1)
	got := getSpec(t, db, org, "spec")
	if got.State != quire.SpecComplete || got.LastVersion == "" || got.LastErrorCode != "" {
		t.Fatalf("after the restart: state %q, lastVersion %q, code %q; want complete with a version", got.State, got.LastVersion, got.LastErrorCode)
	}
	// The dead worker's claim no longer holds: its late result changes nothing.
	if ok, err := db.FinishOpenAPIJob(ctx, job, store.OpenAPIResult{ErrorCode: quire.SpecParseError, Errors: []string{"late"}}); ok || err != nil {
		t.Fatalf("finishing the dead worker's claim = %v, %v; want false", ok, err)
	}
	if again := getSpec(t, db, org, "spec"); again.LastErrorCode != "" {
		t.Errorf("a stale claim overwrote the result with %q", again.LastErrorCode)
	}
}

// TestProcessSpecsSupersededJob: a new source while a job is in progress
// drops that job's result and queues the new source.
func TestProcessSpecsSupersededJob(t *testing.T) {
	t.Parallel()
	db, org, _ := specOrg(t)
	ctx := t.Context()
	if _, err := db.CreateOpenAPISpec(ctx, org, "spec", store.OpenAPISource{Text: invalidSpec}); err != nil {
		t.Fatal(err)
	}
	job, err := db.ClaimOpenAPIJob(ctx, jobs.SpecLease)
	if err != nil || job == nil {
		t.Fatalf("claim = %+v, %v", job, err)
	}
	p, created, err := db.PutOpenAPISpec(ctx, org, "spec", store.OpenAPISource{Text: petstore30})
	if err != nil || created || p.State != quire.SpecPending {
		t.Fatalf("put = %+v, created %v, %v; want an update back to pending", p, created, err)
	}
	if ok, err := db.FinishOpenAPIJob(ctx, job, jobs.ParseSpec(ctx, []byte(job.Source.Text))); ok || err != nil {
		t.Fatalf("finishing the superseded job = %v, %v; want false", ok, err)
	}
	process(t, db, testFetcher, 1)
	if got := getSpec(t, db, org, "spec"); got.LastErrorCode != "" || got.LastVersion == "" {
		t.Fatalf("spec: code %q, lastVersion %q; want the new source's version", got.LastErrorCode, got.LastVersion)
	}
	// Deleting a spec whose job is claimed leaves the job nothing to finish.
	if _, _, err := db.PutOpenAPISpec(ctx, org, "spec", store.OpenAPISource{Text: petstore30}); err != nil {
		t.Fatal(err)
	}
	if job, err = db.ClaimOpenAPIJob(ctx, jobs.SpecLease); err != nil || job == nil {
		t.Fatalf("claim = %+v, %v", job, err)
	}
	if deleted, err := db.DeleteOpenAPISpec(ctx, org, "spec"); !deleted || err != nil {
		t.Fatalf("delete = %v, %v", deleted, err)
	}
	if ok, err := db.FinishOpenAPIJob(ctx, job, jobs.ParseSpec(ctx, []byte(job.Source.Text))); ok || err != nil {
		t.Fatalf("finishing the deleted spec's job = %v, %v; want false", ok, err)
	}
}

// TestProcessSpecsGivesUp: a job whose workers keep dying is failed after
// jobs.MaxSpecAttempts claims, not retried forever.
func TestProcessSpecsGivesUp(t *testing.T) {
	t.Parallel()
	db, org, clock := specOrg(t)
	ctx := t.Context()
	if _, err := db.CreateOpenAPISpec(ctx, org, "spec", store.OpenAPISource{Text: petstore30}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= jobs.MaxSpecAttempts; i++ {
		job, err := db.ClaimOpenAPIJob(ctx, jobs.SpecLease)
		if err != nil || job == nil || job.Attempts != i {
			t.Fatalf("claim %d = %+v, %v", i, job, err)
		}
		*clock = clock.Add(jobs.SpecLease)
	}
	process(t, db, testFetcher, 1)
	got := getSpec(t, db, org, "spec")
	if got.State != quire.SpecComplete || got.LastErrorCode != quire.SpecParseError || !strings.Contains(got.LastErrors[0], "interrupted") {
		t.Fatalf("spec: state %q, code %q, errors %q; want complete, PARSE_ERROR, interrupted", got.State, got.LastErrorCode, got.LastErrors)
	}
}

// TestProcessSpecsReleasesOnStop: a worker stopped in the middle of a job
// gives it back unfinished and uncounted, for the next worker to redo.
func TestProcessSpecsReleasesOnStop(t *testing.T) {
	t.Parallel()
	db, org, _ := specOrg(t)
	srv := specServer(t, nil)
	if _, err := db.CreateOpenAPISpec(t.Context(), org, "spec", store.OpenAPISource{URL: srv.URL + "/slow"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	n, err := jobs.ProcessSpecs(ctx, db, outbound.Fetcher{AllowPrivate: true, Timeout: time.Minute})
	if n != 0 || err == nil {
		t.Fatalf("ProcessSpecs stopped mid-job = %d, %v; want 0 and the context's error", n, err)
	}
	got := getSpec(t, db, org, "spec")
	if got.State != quire.SpecPending || got.LastProcessedAt != (time.Time{}) {
		t.Fatalf("spec: state %q, processed at %v; want pending again, never processed", got.State, got.LastProcessedAt)
	}
	job, err := db.ClaimOpenAPIJob(t.Context(), jobs.SpecLease)
	if err != nil || job == nil || job.Attempts != 1 {
		t.Fatalf("claim after release = %+v, %v; want the job at once, first attempt", job, err)
	}
}

// TestRunSpecProcessor: the worker processes due jobs on its own and stops
// when its context ends.
func TestRunSpecProcessor(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	b, err := db.InitOrganization(ctx, "Org", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		jobs.RunSpecProcessor(runCtx, db, testFetcher, 10*time.Millisecond, slog.New(slog.DiscardHandler))
	}()
	if _, err := db.CreateOpenAPISpec(ctx, b.Organization.ID, "spec", store.OpenAPISource{Text: petstore30}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for getSpec(t, db, b.Organization.ID, "spec").State != quire.SpecComplete {
		if time.Now().After(deadline) {
			t.Fatal("the worker did not process the new spec")
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("RunSpecProcessor did not stop when its context ended")
	}
}
