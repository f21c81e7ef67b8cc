package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/webhook"
)

// renderer stands in for GitBook's renderer's POST /~gitbook/revalidate:
// it checks the signature as the renderer does (hex HMAC-SHA256 of the raw
// body with its GITBOOK_SECRET), answering 401 when it does not match, and
// hands each verified call's tags to calls.
type renderer struct {
	*httptest.Server
	secret string
	calls  chan []string
	mu     sync.Mutex
	seen   int // requests, verified or not
}

const rendererSecret = "renderer-secret-0123456789"

func newRenderer(t *testing.T, tls bool) *renderer {
	rd := &renderer{secret: rendererSecret, calls: make(chan []string, 16)}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rd.mu.Lock()
		rd.seen++
		rd.mu.Unlock()
		mac := hmac.New(sha256.New, []byte(rd.secret))
		mac.Write(body)
		if r.URL.Path != "/~gitbook/revalidate" || r.Method != "POST" || r.Header.Get("X-Gitbook-Signature") != hex.EncodeToString(mac.Sum(nil)) {
			http.Error(w, `{"error":"Invalid signature"}`, http.StatusUnauthorized)
			return
		}
		var got struct{ Tags []string }
		if err := json.Unmarshal(body, &got); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		rd.calls <- got.Tags
		w.Write([]byte(`{"success":true}`))
	})
	if tls {
		rd.Server = httptest.NewTLSServer(h)
	} else {
		rd.Server = httptest.NewServer(h)
	}
	t.Cleanup(rd.Close)
	return rd
}

func (rd *renderer) requests() int {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return rd.seen
}

// next waits for the renderer's next verified call.
func (rd *renderer) next(t *testing.T) []string {
	t.Helper()
	select {
	case tags := <-rd.calls:
		slices.Sort(tags)
		return tags
	case <-time.After(20 * time.Second):
		t.Fatal("no revalidation call came")
		return nil
	}
}

type revalidationOut struct {
	Object   string `json:"object"`
	Site     string `json:"site"`
	URL      string `json:"url"`
	Secret   string `json:"secret"`
	Pending  int    `json:"pending"`
	LastCall *struct {
		At     string `json:"at"`
		Status int    `json:"status"`
		Error  string `json:"error"`
	} `json:"lastCall"`
}

// revalidator is a worker over db for tests: short waits, few attempts.
func revalidator(db *store.DB, allowPrivate bool) *jobs.Revalidator {
	return &jobs.Revalidator{DB: db, Sealer: &webhook.Sealer{DB: db}, Fetcher: outbound.Fetcher{AllowPrivate: allowPrivate, Timeout: 5 * time.Second},
		Poll: 5 * time.Millisecond, FirstRetry: time.Millisecond, MaxRetryDelay: time.Millisecond, MaxAttempts: 3}
}

// revalidationSite is a published site of a space with content, and the
// space.
func revalidationSite(t *testing.T, e *env) (siteID, spaceID string) {
	t.Helper()
	spaceID = siteNewSpace(t, e, "Guide")
	e.cmSeed(t, spaceID, insertPage("intro", "# Intro\n\nHello.\n"))
	s := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{spaceID}})
	e.call(t, e.admin.token, "PATCH", sitePath(e, s.ID, ""), map[string]any{"published": true}).want(t, http.StatusOK)
	return s.ID, spaceID
}

func (e *env) putRevalidation(t *testing.T, siteID, url string) revalidationOut {
	t.Helper()
	var out revalidationOut
	e.call(t, e.admin.token, "PUT", sitePath(e, siteID, "/revalidation"), map[string]any{"url": url, "secret": rendererSecret}).
		want(t, http.StatusOK).Decode(t, &out)
	return out
}

func (e *env) revalidation(t *testing.T, siteID string) revalidationOut {
	t.Helper()
	var out revalidationOut
	e.call(t, e.admin.token, "GET", sitePath(e, siteID, "/revalidation"), nil).want(t, http.StatusOK).Decode(t, &out)
	return out
}

// TestRevalidationOnMerge: merging a change request into a space a site
// publishes sends the site's renderer one signed call naming the space,
// the change request and the site, made by the running worker; a site of
// the same space without an endpoint gets none.
func TestRevalidationOnMerge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	siteID, spaceID := revalidationSite(t, e)
	other := siteCreate(t, e, map[string]any{"title": "Mirror", "spaces": []string{spaceID}}) // no endpoint
	rd := newRenderer(t, false)
	set := e.putRevalidation(t, siteID, rd.URL+"/~gitbook/revalidate")
	if set.Object != "site-revalidation" || set.Site != siteID || set.URL != rd.URL+"/~gitbook/revalidate" || set.Secret != "" || set.LastCall != nil || set.Pending != 0 {
		t.Fatalf("PUT answered %+v", set)
	}
	if res := e.call(t, e.admin.token, "GET", sitePath(e, siteID, "/revalidation"), nil); strings.Contains(string(res.Body), rendererSecret) {
		t.Fatalf("GET shows the secret: %s", res.Body)
	}
	e.call(t, e.admin.token, "GET", sitePath(e, other.ID, "/revalidation"), nil).wantError(t, http.StatusNotFound, "no revalidation endpoint")

	ctx, stop := context.WithCancel(t.Context())
	var running sync.WaitGroup
	running.Go(func() { revalidator(e.db, true).Run(ctx) })
	defer func() { stop(); running.Wait() }()

	crPath := e.cmNewCR(t, e.admin.token, spaceID)
	e.author(t, e.admin.token, crPath, insertPage("", "# News\n\nFresh.\n")).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, crPath)
	cr := e.cmCR(t, crPath)
	want := []string{"site:" + siteID, "space:" + spaceID, "space:" + spaceID + ":change-request:" + cr.ID}
	slices.Sort(want)
	if got := rd.next(t); !slices.Equal(got, want) {
		t.Fatalf("tags %v, want %v", got, want)
	}
	// The worker records the outcome once the renderer has answered; a
	// worker stopped before that gives the call back, to be made again.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if got := e.revalidation(t, siteID); got.LastCall != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the call's outcome was not recorded")
		}
	}
	stop()
	running.Wait()
	// Nothing more was queued: one call for one merge.
	if n, err := revalidator(e.db, true).CallDue(t.Context()); err != nil || n != 0 || rd.requests() != 1 {
		t.Fatalf("after the call: %d more attempts (%v), %d requests", n, err, rd.requests())
	}
	got := e.revalidation(t, siteID)
	if got.Pending != 0 || got.LastCall == nil || got.LastCall.Status != http.StatusOK || got.LastCall.Error != "" {
		t.Errorf("after the call: %+v", got)
	}
}

// TestRevalidationOnSiteChanges: a change to the site itself (settings,
// visitor authentication, publishing) names the site, changes made before
// the worker runs going out together in one call; a published space's
// title names the space and the site; a new version of an API
// specification names it alone.
func TestRevalidationOnSiteChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	siteID, spaceID := revalidationSite(t, e)
	rd := newRenderer(t, false)
	e.putRevalidation(t, siteID, rd.URL+"/~gitbook/revalidate")
	rv := revalidator(e.db, true)

	e.call(t, e.admin.token, "PATCH", sitePath(e, siteID, ""), map[string]any{"title": "Better docs"}).want(t, http.StatusOK)
	if n, err := rv.CallDue(t.Context()); err != nil || n != 1 {
		t.Fatalf("CallDue = %d, %v", n, err)
	}
	if got := rd.next(t); !slices.Equal(got, []string{"site:" + siteID}) {
		t.Errorf("tags %v", got)
	}

	e.call(t, e.admin.token, "POST", sitePath(e, siteID, "/publishing/auth/regenerate"), nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "POST", sitePath(e, siteID, "/unpublish"), nil).want(t, http.StatusOK)
	if got := e.revalidation(t, siteID); got.Pending != 1 {
		t.Errorf("two changes queued %d calls, want 1", got.Pending)
	}
	if n, err := rv.CallDue(t.Context()); err != nil || n != 1 {
		t.Fatalf("CallDue = %d, %v", n, err)
	}
	if got := rd.next(t); !slices.Equal(got, []string{"site:" + siteID}) {
		t.Errorf("tags %v", got)
	}

	// A published space's title: what the site shows of it.
	e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+spaceID, map[string]any{"title": "Renamed"}).want(t, http.StatusOK)
	if n, err := rv.CallDue(t.Context()); err != nil || n != 1 {
		t.Fatalf("CallDue = %d, %v", n, err)
	}
	if got := rd.next(t); !slices.Equal(got, []string{"site:" + siteID, "space:" + spaceID}) {
		t.Errorf("tags %v", got)
	}

	// A new version of an API specification of the organization names the
	// specification alone.
	specsPut(t, e, "petstore", map[string]any{"text": specsValidJSON}, http.StatusCreated)
	specsProcess(t, e, 1)
	if n, err := rv.CallDue(t.Context()); err != nil || n != 1 {
		t.Fatalf("CallDue = %d, %v", n, err)
	}
	if got := rd.next(t); !slices.Equal(got, []string{"organization:" + e.org + ":openapi:petstore"}) {
		t.Errorf("tags %v", got)
	}
}

// TestRevalidationRefused: a renderer that refuses the signature (its
// secret is another) is tried up to the attempt limit, then the call is
// given up and the site's admins see why; an https endpoint at a private
// address is not called unless the operator allows private addresses; once
// removed, the endpoint is called no more.
func TestRevalidationRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var clock atomic.Int64
	clock.Store(time.Now().UnixMicro())
	e.db.Now = func() time.Time { return time.UnixMicro(clock.Load()) }
	later := func() { clock.Add(time.Hour.Microseconds()) }
	siteID, _ := revalidationSite(t, e)

	rd := newRenderer(t, false)
	rd.secret = "the renderer's own secret, another"
	e.putRevalidation(t, siteID, rd.URL+"/~gitbook/revalidate")
	e.call(t, e.admin.token, "PATCH", sitePath(e, siteID, ""), map[string]any{"title": "Refused"}).want(t, http.StatusOK)
	rv := revalidator(e.db, true)
	for range 5 {
		if _, err := rv.CallDue(t.Context()); err != nil {
			t.Fatal(err)
		}
		later()
	}
	if n := rd.requests(); n != 3 {
		t.Errorf("%d attempts, want 3 (the limit)", n)
	}
	got := e.revalidation(t, siteID)
	if got.Pending != 0 || got.LastCall == nil || got.LastCall.Status != http.StatusUnauthorized || !strings.Contains(got.LastCall.Error, "401") {
		t.Errorf("after giving up: %+v", got)
	}

	// A private address, over https: refused without the allowance.
	private := newRenderer(t, true)
	e.putRevalidation(t, siteID, private.URL+"/~gitbook/revalidate")
	e.call(t, e.admin.token, "PATCH", sitePath(e, siteID, ""), map[string]any{"title": "Private"}).want(t, http.StatusOK)
	strict := revalidator(e.db, false)
	if n, err := strict.CallDue(t.Context()); err != nil || n != 1 {
		t.Fatalf("CallDue = %d, %v", n, err)
	}
	if private.requests() != 0 {
		t.Errorf("a private address was called")
	}
	if got := e.revalidation(t, siteID); got.LastCall == nil || !strings.Contains(got.LastCall.Error, "not public") || got.Pending != 1 {
		t.Errorf("after a refused call: %+v", got)
	}

	// Removed: its waiting call goes with it.
	e.call(t, e.admin.token, "DELETE", sitePath(e, siteID, "/revalidation"), nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "DELETE", sitePath(e, siteID, "/revalidation"), nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "PATCH", sitePath(e, siteID, ""), map[string]any{"title": "Gone"}).want(t, http.StatusOK)
	later()
	if n, err := revalidator(e.db, true).CallDue(t.Context()); err != nil || n != 0 {
		t.Errorf("after removal: CallDue = %d, %v", n, err)
	}
}

// TestRevalidationSettings: only the site's admins set, read and remove
// the endpoint (others of the organization 403, outsiders 404); bad bodies
// are 400 naming the field.
func TestRevalidationSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	siteID, _ := revalidationSite(t, e)
	path := sitePath(e, siteID, "/revalidation")
	for _, tc := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"secret": rendererSecret}, "url"},
		{map[string]any{"url": "https://renderer.example/~gitbook/revalidate"}, "secret"},
		{map[string]any{"url": "ftp://renderer.example/", "secret": rendererSecret}, "url"},
		{map[string]any{"url": "/~gitbook/revalidate", "secret": rendererSecret}, "url"},
		{map[string]any{"url": "https://renderer.example/~gitbook/revalidate", "secret": "short"}, "secret"},
		{map[string]any{"url": "https://renderer.example/~gitbook/revalidate", "secret": 42}, "secret"},
	} {
		e.call(t, e.admin.token, "PUT", path, tc.body).wantError(t, http.StatusBadRequest, tc.field)
	}
	e.call(t, e.admin.token, "GET", path, nil).wantError(t, http.StatusNotFound)
	editor := e.addUser(t, "create", "Cid Creator")
	body := map[string]any{"url": "https://renderer.example/~gitbook/revalidate", "secret": rendererSecret}
	e.call(t, editor.token, "PUT", path, body).wantError(t, http.StatusForbidden)
	e.call(t, e.outsider(t).token, "PUT", path, body).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "PUT", path, body).want(t, http.StatusOK)
	e.call(t, editor.token, "GET", path, nil).wantError(t, http.StatusForbidden)
	e.call(t, editor.token, "DELETE", path, nil).wantError(t, http.StatusForbidden)
	if got := e.revalidation(t, siteID); got.URL != "https://renderer.example/~gitbook/revalidate" {
		t.Errorf("GET %+v", got)
	}
}
