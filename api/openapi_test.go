package api_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
)

// Contract §4.16 API specifications, end to end through the real router,
// with processing run one pass at a time (jobs.ProcessSpecs). Identifiers
// declared here start with "specs".

// specsSpec is an API specification as the API answers it.
type specsSpec struct {
	Object               string `json:"object"`
	ID                   string `json:"id"`
	CreatedAt            string `json:"createdAt"`
	UpdatedAt            string `json:"updatedAt"`
	Slug                 string `json:"slug"`
	SourceURL            string `json:"sourceURL"`
	ProcessingState      string `json:"processingState"`
	LastVersion          string `json:"lastVersion"`
	LastProcessedAt      string `json:"lastProcessedAt"`
	LastProcessErrorCode string `json:"lastProcessErrorCode"`
	LastProcessedErrors  []struct {
		Message string `json:"message"`
	} `json:"lastProcessedErrors"`
	LastProcessedErrorCount int `json:"lastProcessedErrorCount"`
	Permissions             struct {
		View bool `json:"view"`
		Edit bool `json:"edit"`
	} `json:"permissions"`
	URLs struct {
		Location string `json:"location"`
		App      string `json:"app"`
	} `json:"urls"`
}

const (
	specsValid = `openapi: 3.0.3
info: {title: Petstore, version: 1.0.0}
paths:
  /pets:
    get:
      responses:
        "200": {description: Pets}
`
	// specsInvalid has the form of OpenAPI, but no info.
	specsInvalid = `openapi: 3.0.3
paths: {}
`
)

// specsFetcher reaches the test servers on loopback and gives up quickly.
var specsFetcher = outbound.Fetcher{AllowPrivate: true, Timeout: 500 * time.Millisecond}

func specsURL(e *env, rest ...string) string {
	return "/v1/orgs/" + e.org + "/openapi" + strings.Join(rest, "")
}

func specsText(text string) map[string]any {
	return map[string]any{"source": map[string]any{"text": text}}
}

// specsGet reads a spec as the admin.
func specsGet(t *testing.T, e *env, slug string) specsSpec {
	t.Helper()
	var p specsSpec
	e.call(t, e.admin.token, "GET", specsURL(e, "/", slug), nil).want(t, http.StatusOK).Decode(t, &p)
	return p
}

// specsPut creates or updates a spec as the admin.
func specsPut(t *testing.T, e *env, slug string, source any, status int) specsSpec {
	t.Helper()
	var p specsSpec
	e.call(t, e.admin.token, "PUT", specsURL(e, "/", slug), map[string]any{"source": source}).want(t, status).Decode(t, &p)
	return p
}

// specsProcess runs one processing pass and checks how many jobs it did.
func specsProcess(t *testing.T, e *env, want int) {
	t.Helper()
	n, err := jobs.ProcessSpecs(t.Context(), e.db, specsFetcher)
	if err != nil || n != want {
		t.Fatalf("ProcessSpecs = %d, %v; want %d processed", n, err, want)
	}
}

func TestSpecsOperationsServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, op := range []string{"GET /openapi", "POST /openapi", "GET /openapi/s1", "PUT /openapi/s1", "DELETE /openapi/s1"} {
		method, path, _ := strings.Cut(op, " ")
		e.call(t, "", method, "/v1/orgs/o1"+path, nil).wantError(t, http.StatusUnauthorized, "Authorization")
	}
}

func TestSpecsCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	creator := e.addUser(t, "create", "Cora Create")
	reviewer := e.addUser(t, "review", "Rex Review")
	guest := e.addUser(t, "guest", "Gus Guest")
	outsider := e.outsider(t)

	res := e.call(t, creator.token, "POST", specsURL(e), map[string]any{"slug": "petstore", "source": map[string]any{"url": "https://example.com/openapi.yaml"}})
	var got specsSpec
	res.want(t, http.StatusCreated).Decode(t, &got)
	want := specsSpec{
		Object: "openapi-spec", ID: got.ID, CreatedAt: got.CreatedAt, UpdatedAt: got.CreatedAt, Slug: "petstore",
		SourceURL: "https://example.com/openapi.yaml", ProcessingState: "pending",
	}
	want.Permissions.View, want.Permissions.Edit = true, true
	want.URLs.Location = testPublicURL + "/v1/orgs/" + e.org + "/openapi/petstore"
	want.URLs.App = testPublicURL + "/o/" + e.org + "/openapi/petstore"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("created spec (-want +got):\n%s", diff)
	}
	if got.ID == "" || got.CreatedAt == "" {
		t.Errorf("created spec without id or createdAt: %+v", got)
	}
	if loc := res.Header.Get("Location"); loc != want.URLs.Location {
		t.Errorf("Location %q, want %q", loc, want.URLs.Location)
	}
	// A text source; the contract's "a text string" also reads as a bare string.
	var text specsSpec
	e.call(t, e.admin.token, "POST", specsURL(e), map[string]any{"slug": "text-1", "source": map[string]any{"text": specsValid}}).
		want(t, http.StatusCreated).Decode(t, &text)
	if text.SourceURL != "" || text.ProcessingState != "pending" {
		t.Errorf("text spec: sourceURL %q, state %q; want none, pending", text.SourceURL, text.ProcessingState)
	}
	e.call(t, e.admin.token, "POST", specsURL(e), map[string]any{"slug": "text-2", "source": specsValid}).want(t, http.StatusCreated)

	for _, tc := range []struct {
		name   string
		token  string
		body   any
		status int
		parts  []string
	}{
		{"slug taken", creator.token, map[string]any{"slug": "petstore", "source": specsValid}, http.StatusConflict, []string{"slug", "petstore"}},
		{"no slug", creator.token, map[string]any{"source": specsValid}, http.StatusBadRequest, []string{"slug: is required"}},
		{"capitals", creator.token, map[string]any{"slug": "PetStore", "source": specsValid}, http.StatusBadRequest, []string{"slug:", "lowercase"}},
		{"double hyphen", creator.token, map[string]any{"slug": "pet--store", "source": specsValid}, http.StatusBadRequest, []string{"slug:"}},
		{"empty slug", creator.token, map[string]any{"slug": "", "source": specsValid}, http.StatusBadRequest, []string{"slug:", "1 to 100"}},
		{"long slug", creator.token, map[string]any{"slug": strings.Repeat("a", 101), "source": specsValid}, http.StatusBadRequest, []string{"slug:", "1 to 100"}},
		{"slug not a string", creator.token, map[string]any{"slug": 7, "source": specsValid}, http.StatusBadRequest, []string{"slug"}},
		{"no source", creator.token, map[string]any{"slug": "a"}, http.StatusBadRequest, []string{"source: is required"}},
		{"null source", creator.token, map[string]any{"slug": "a", "source": nil}, http.StatusBadRequest, []string{"source: is required"}},
		{"empty source", creator.token, map[string]any{"slug": "a", "source": map[string]any{}}, http.StatusBadRequest, []string{"source: must have url or text"}},
		{"both", creator.token, map[string]any{"slug": "a", "source": map[string]any{"url": "https://example.com/a", "text": "x"}}, http.StatusBadRequest, []string{"not both"}},
		{"source a number", creator.token, map[string]any{"slug": "a", "source": 3}, http.StatusBadRequest, []string{"source:"}},
		{"empty text", creator.token, map[string]any{"slug": "a", "source": map[string]any{"text": ""}}, http.StatusBadRequest, []string{"source.text:"}},
		{"NUL in text", creator.token, map[string]any{"slug": "a", "source": map[string]any{"text": "a\x00b"}}, http.StatusBadRequest, []string{"source.text:", "NUL"}},
		{"relative url", creator.token, map[string]any{"slug": "a", "source": map[string]any{"url": "/openapi.yaml"}}, http.StatusBadRequest, []string{"source.url:"}},
		{"ftp url", creator.token, map[string]any{"slug": "a", "source": map[string]any{"url": "ftp://example.com/a"}}, http.StatusBadRequest, []string{"source.url:"}},
		{"url with credentials", creator.token, map[string]any{"slug": "a", "source": map[string]any{"url": "https://u:p@example.com/a"}}, http.StatusBadRequest, []string{"source.url:"}},
		{"long url", creator.token, map[string]any{"slug": "a", "source": map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2048)}}, http.StatusBadRequest, []string{"source.url:", "2048"}},
		{"not JSON", creator.token, "{", http.StatusBadRequest, []string{"malformed JSON"}},
		{"reviewer", reviewer.token, map[string]any{"slug": "a", "source": specsValid}, http.StatusForbidden, []string{"create or admin"}},
		{"guest", guest.token, map[string]any{"slug": "a", "source": specsValid}, http.StatusForbidden, []string{"guests"}},
		{"outsider", outsider.token, map[string]any{"slug": "a", "source": specsValid}, http.StatusNotFound, []string{"organization not found"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.call(t, tc.token, "POST", specsURL(e), tc.body).wantError(t, tc.status, tc.parts...)
		})
	}
	var list struct {
		Count int `json:"count"`
	}
	e.call(t, e.admin.token, "GET", specsURL(e), nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 3 {
		t.Errorf("after the refused requests the organization has %d specs, want 3", list.Count)
	}
}

func TestSpecsPut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Reed Read")
	outsider := e.outsider(t)

	res := e.call(t, e.admin.token, "PUT", specsURL(e, "/petstore"), map[string]any{"source": map[string]any{"text": specsValid}})
	var created specsSpec
	res.want(t, http.StatusCreated).Decode(t, &created)
	if loc := res.Header.Get("Location"); loc != created.URLs.Location || created.Slug != "petstore" || created.ProcessingState != "pending" {
		t.Errorf("PUT created %+v with Location %q", created, loc)
	}
	specsProcess(t, e, 1)
	done := specsGet(t, e, "petstore")
	if done.ProcessingState != "complete" {
		t.Fatalf("state %q after processing, want complete", done.ProcessingState)
	}

	updated := specsPut(t, e, "petstore", map[string]any{"url": "https://example.com/v2.json"}, http.StatusOK)
	if updated.ID != created.ID || updated.CreatedAt != created.CreatedAt || updated.SourceURL != "https://example.com/v2.json" ||
		updated.ProcessingState != "pending" || updated.LastVersion != done.LastVersion {
		t.Errorf("PUT updated %+v: want the same spec with the new URL, pending again, the last version kept (%q)", updated, done.LastVersion)
	}
	back := specsPut(t, e, "petstore", specsValid, http.StatusOK) // back to text: the URL goes
	if back.SourceURL != "" {
		t.Errorf("sourceURL %q after a text source, want none", back.SourceURL)
	}

	e.call(t, e.admin.token, "PUT", specsURL(e, "/Pet_Store"), specsText(specsValid)).wantError(t, http.StatusBadRequest, "specSlug:")
	e.call(t, e.admin.token, "PUT", specsURL(e, "/petstore"), map[string]any{}).wantError(t, http.StatusBadRequest, "source: is required")
	e.call(t, e.admin.token, "PUT", specsURL(e, "/petstore"), nil).wantError(t, http.StatusBadRequest, "source: is required")
	e.call(t, reader.token, "PUT", specsURL(e, "/petstore"), specsText(specsValid)).wantError(t, http.StatusForbidden)
	e.call(t, reader.token, "PUT", specsURL(e, "/other"), specsText(specsValid)).wantError(t, http.StatusForbidden)
	e.call(t, outsider.token, "PUT", specsURL(e, "/petstore"), specsText(specsValid)).wantError(t, http.StatusNotFound, "organization not found")
	req := httptest.NewRequestWithContext(t.Context(), "PUT", specsURL(e, "/petstore"), strings.NewReader(`{"source":"x"}`))
	req.Header.Set("Authorization", "Bearer "+e.admin.token)
	req.Header.Set("Content-Type", "text/yaml")
	e.do(t, req).wantError(t, http.StatusUnsupportedMediaType)

	// Two PUTs of a new slug at once: one creates, the other updates.
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = e.call(t, e.admin.token, "PUT", specsURL(e, "/racing"), specsText(specsValid)).Status
		})
	}
	wg.Wait()
	if !(statuses[0] == 201 && statuses[1] == 200 || statuses[0] == 200 && statuses[1] == 201) {
		t.Errorf("concurrent PUTs of a new slug answered %v, want one 201 and one 200", statuses)
	}
}

// TestSpecsLargeText: a text source may be larger than other bodies (up to
// quire.MaxSpecBytes), and no larger.
func TestSpecsLargeText(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := specsValid + "x-padding: " + strings.Repeat("a", api.MaxBodyBytes) + "\n"
	specsPut(t, e, "big", big, http.StatusCreated)
	specsProcess(t, e, 1)
	if got := specsGet(t, e, "big"); got.ProcessingState != "complete" || got.LastVersion == "" {
		t.Errorf("a spec over 1 MiB: state %q, lastVersion %q; want complete with a version (errors %+v)", got.ProcessingState, got.LastVersion, got.LastProcessedErrors)
	}
	tooBig := `{"source":{"text":"` + strings.Repeat("a", quire.MaxSpecBytes+1) + `"}}` // built by hand: marshalling is slow under -race
	e.call(t, e.admin.token, "PUT", specsURL(e, "/big"), tooBig).wantError(t, http.StatusBadRequest, "source.text:")
}

func TestSpecsReadListDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Reed Read")
	creator := e.addUser(t, "create", "Cora Create")
	guest := e.addUser(t, "guest", "Gus Guest")
	outsider := e.outsider(t)
	var slugs []string
	for _, slug := range []string{"zeta", "alpha", "mid-1"} {
		specsPut(t, e, slug, specsValid, http.StatusCreated)
		slugs = append(slugs, slug)
	}

	// Everyone in the organization but guests reads; only create and admin edit.
	for _, u := range []struct {
		name  string
		token string
		edit  bool
	}{{"admin", e.admin.token, true}, {"create", creator.token, true}, {"read", reader.token, false}} {
		var p specsSpec
		e.call(t, u.token, "GET", specsURL(e, "/alpha"), nil).want(t, http.StatusOK).Decode(t, &p)
		if p.Slug != "alpha" || !p.Permissions.View || p.Permissions.Edit != u.edit {
			t.Errorf("%s reads %q with permissions %+v; want view, edit %v", u.name, p.Slug, p.Permissions, u.edit)
		}
	}
	e.call(t, e.admin.token, "GET", specsURL(e, "/nothing"), nil).wantError(t, http.StatusNotFound, "API specification not found")
	e.call(t, e.admin.token, "GET", specsURL(e, "/NOT_A_SLUG"), nil).wantError(t, http.StatusNotFound)
	e.call(t, guest.token, "GET", specsURL(e, "/alpha"), nil).wantError(t, http.StatusForbidden, "guests")
	e.call(t, guest.token, "GET", specsURL(e), nil).wantError(t, http.StatusForbidden, "guests")
	e.call(t, outsider.token, "GET", specsURL(e, "/alpha"), nil).wantError(t, http.StatusNotFound, "organization not found")
	e.call(t, outsider.token, "GET", specsURL(e), nil).wantError(t, http.StatusNotFound, "organization not found")

	// Pages, oldest first.
	var seen []string
	page := ""
	for range 3 {
		var list struct {
			Items []specsSpec `json:"items"`
			Count int         `json:"count"`
			Next  *struct {
				Page string `json:"page"`
			} `json:"next"`
		}
		path := specsURL(e) + "?limit=2"
		if page != "" {
			path += "&page=" + page
		}
		e.call(t, reader.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &list)
		if list.Count != 3 {
			t.Errorf("count %d, want 3", list.Count)
		}
		for _, p := range list.Items {
			seen = append(seen, p.Slug)
		}
		if list.Next == nil {
			break
		}
		page = list.Next.Page
	}
	if diff := cmp.Diff(slugs, seen); diff != "" {
		t.Errorf("listed slugs (-want +got):\n%s", diff)
	}
	e.call(t, e.admin.token, "GET", specsURL(e)+"?page=nope", nil).wantError(t, http.StatusBadRequest, "page:")
	e.call(t, e.admin.token, "GET", specsURL(e)+"?limit=0", nil).wantError(t, http.StatusBadRequest, "limit:")

	// Delete: 205 when deleted, 204 when there was nothing (the reference's statuses).
	e.call(t, reader.token, "DELETE", specsURL(e, "/alpha"), nil).wantError(t, http.StatusForbidden)
	e.call(t, guest.token, "DELETE", specsURL(e, "/alpha"), nil).wantError(t, http.StatusForbidden)
	e.call(t, outsider.token, "DELETE", specsURL(e, "/alpha"), nil).wantError(t, http.StatusNotFound)
	if res := e.call(t, creator.token, "DELETE", specsURL(e, "/alpha"), nil).want(t, http.StatusResetContent); len(res.Body) != 0 {
		t.Errorf("DELETE answered a body: %q", res.Body)
	}
	e.call(t, creator.token, "DELETE", specsURL(e, "/alpha"), nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "GET", specsURL(e, "/alpha"), nil).wantError(t, http.StatusNotFound)
	// The slug is free again.
	e.call(t, e.admin.token, "POST", specsURL(e), map[string]any{"slug": "alpha", "source": specsValid}).want(t, http.StatusCreated)
	// Another organization's specs, and its slugs, are its own.
	other := e.outsider(t)
	var orgs struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	e.call(t, other.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &orgs)
	otherSpecs := "/v1/orgs/" + orgs.Items[0].ID + "/openapi"
	e.call(t, other.token, "POST", otherSpecs, map[string]any{"slug": "alpha", "source": specsValid}).want(t, http.StatusCreated)
	e.call(t, other.token, "GET", otherSpecs+"/zeta", nil).wantError(t, http.StatusNotFound)
	e.call(t, other.token, "DELETE", otherSpecs+"/zeta", nil).want(t, http.StatusNoContent)
	specsGet(t, e, "zeta")
}

// specsServer serves a valid spec at /valid.yaml, an invalid one at
// /invalid.yaml, and at /slow nothing until the fetcher has given up.
func specsServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/valid.yaml":
			w.Write([]byte(specsValid))
		case "/invalid.yaml":
			w.Write([]byte(specsInvalid))
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSpecsProcessing follows one spec through processing: a valid
// document, an invalid one, a valid URL, an unreachable URL and a slow one.
// Each success records a version; each failure sets the error code and
// keeps the last good version.
func TestSpecsProcessing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := specsServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	unreachable := "http://" + ln.Addr().String() + "/openapi.yaml"
	ln.Close()

	type outcome struct {
		State, Code string
		NewVersion  bool
		Message     string
	}
	var lastVersion string
	for _, step := range []struct {
		name   string
		source any
		want   outcome
	}{
		{"valid text", map[string]any{"text": specsValid}, outcome{State: "complete", NewVersion: true}},
		{"invalid text", map[string]any{"text": specsInvalid}, outcome{State: "complete", Code: "PARSE_ERROR", Message: "info"}},
		{"not OpenAPI", "just words", outcome{State: "complete", Code: "PARSE_ERROR", Message: "not a JSON or YAML object"}},
		{"valid URL", map[string]any{"url": srv.URL + "/valid.yaml"}, outcome{State: "complete", NewVersion: true}},
		{"invalid URL document", map[string]any{"url": srv.URL + "/invalid.yaml"}, outcome{State: "complete", Code: "PARSE_ERROR", Message: "info"}},
		{"unreachable URL", map[string]any{"url": unreachable}, outcome{State: "complete", Code: "FETCH_ERROR", Message: "could not be fetched"}},
		{"missing URL", map[string]any{"url": srv.URL + "/gone.yaml"}, outcome{State: "complete", Code: "FETCH_ERROR", Message: "404"}},
		{"slow URL", map[string]any{"url": srv.URL + "/slow"}, outcome{State: "complete", Code: "FETCH_TIMEOUT", Message: "in time"}},
		{"valid again", map[string]any{"text": specsValid}, outcome{State: "complete", NewVersion: true}},
	} {
		before := specsPut(t, e, "petstore", step.source, map[bool]int{true: http.StatusCreated, false: http.StatusOK}[lastVersion == "" && step.name == "valid text"])
		if before.ProcessingState != "pending" {
			t.Fatalf("%s: state %q before processing, want pending", step.name, before.ProcessingState)
		}
		specsProcess(t, e, 1)
		got := specsGet(t, e, "petstore")
		msg := ""
		if len(got.LastProcessedErrors) > 0 {
			msg = got.LastProcessedErrors[0].Message
		}
		gotOutcome := outcome{State: got.ProcessingState, Code: got.LastProcessErrorCode, NewVersion: got.LastVersion != lastVersion, Message: step.want.Message}
		if step.want.Message != "" && !strings.Contains(msg, step.want.Message) {
			gotOutcome.Message = msg
		}
		if diff := cmp.Diff(step.want, gotOutcome); diff != "" {
			t.Errorf("%s (-want +got):\n%s", step.name, diff)
		}
		if got.LastProcessedAt == "" || (step.want.Code != "") != (got.LastProcessedErrorCount > 0) {
			t.Errorf("%s: lastProcessedAt %q, lastProcessedErrorCount %d", step.name, got.LastProcessedAt, got.LastProcessedErrorCount)
		}
		if step.want.Code != "" && got.LastVersion != lastVersion {
			t.Errorf("%s: a failure changed lastVersion from %q to %q", step.name, lastVersion, got.LastVersion)
		}
		lastVersion = got.LastVersion
	}
	got := specsGet(t, e, "petstore")
	versions, err := e.db.OpenAPISpecVersions(t.Context(), got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) != 3 || versions[0].ID != got.LastVersion {
		t.Errorf("%d versions, newest %q; want 3, the newest being lastVersion %q", len(versions), versions[0].ID, got.LastVersion)
	}
}

// TestSpecsRestartDuringProcessing: a worker claims the job and dies. The
// spec shows progress while the lease holds; once it has run out, a new
// worker (a restarted server, its clock later) completes it.
func TestSpecsRestartDuringProcessing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now().UTC()
	e.db.Now = func() time.Time { return now }
	specsPut(t, e, "petstore", specsValid, http.StatusCreated)
	job, err := e.db.ClaimOpenAPIJob(t.Context(), jobs.SpecLease)
	if err != nil || job == nil {
		t.Fatalf("claim = %+v, %v", job, err)
	}
	if got := specsGet(t, e, "petstore"); got.ProcessingState != "progress" {
		t.Fatalf("state %q while a worker holds the job, want progress", got.ProcessingState)
	}
	specsProcess(t, e, 0)
	now = now.Add(jobs.SpecLease + time.Second)
	specsProcess(t, e, 1)
	got := specsGet(t, e, "petstore")
	if got.ProcessingState != "complete" || got.LastVersion == "" || got.LastProcessErrorCode != "" {
		t.Fatalf("after the lease: state %q, lastVersion %q, code %q; want complete with a version", got.ProcessingState, got.LastVersion, got.LastProcessErrorCode)
	}
}
