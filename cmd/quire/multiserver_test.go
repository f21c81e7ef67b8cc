package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// multiPublicURL is the one address of the three servers, as behind a load
// balancer: links, SAML audiences and destinations name it, while the test
// reaches each server at its own port.
const multiPublicURL = "http://quire.test"

// TestMultiServer runs three `quire serve` processes on one PostgreSQL
// schema and checks they behave as one: a write through one is read through
// another on the next request, background jobs run once across them, a
// SAML response used on one is refused by another, and a server killed in
// the middle of writes loses nothing it acknowledged while the others go on.
func TestMultiServer(t *testing.T) {
	if os.Getenv("QUIRE_TEST_POSTGRES") == "" {
		t.Skip("QUIRE_TEST_POSTGRES is not set: several servers need PostgreSQL")
	}
	if testing.Short() {
		t.Skip("builds and runs the quire binary")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "quire")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	m := startMulti(t, bin, 3)
	a, b, c := m.srv[0], m.srv[1], m.srv[2]
	token := m.token
	org := m.call(t, a, "GET", "/v1/orgs", token, nil, http.StatusOK)["items"].([]any)[0].(map[string]any)["id"].(string)

	// Every event from here on goes to one webhook; deliveries are counted
	// at the receiver by the event's id.
	hooks := newHookReceiver(t)
	m.call(t, a, "POST", "/v1/orgs/"+org+"/webhooks", token, map[string]any{"url": hooks.url, "events": []string{"*"}}, http.StatusCreated)

	// A space created through A is read through B and C, also in a list B
	// had cached. seen allows for the NOTIFY's delivery (see maxLag).
	spaces := "/v1/orgs/" + org + "/spaces"
	m.call(t, b, "GET", spaces, token, nil, http.StatusOK)
	space := m.call(t, a, "POST", spaces, token, map[string]any{"title": "Shared"}, http.StatusCreated)["id"].(string)
	sp := "/v1/spaces/" + space
	m.seen(t, b, "the space created through A", func() bool { return m.status(t, b, "GET", sp, token) == http.StatusOK })
	m.seen(t, c, "the space created through A", func() bool { return m.status(t, c, "GET", sp, token) == http.StatusOK })
	m.seen(t, b, "the space created through A in its list", func() bool {
		return slices.Contains(ids(m.call(t, b, "GET", spaces, token, nil, http.StatusOK)), space)
	})

	// Content merged through A is read through B and C, whose page lists
	// were cached before the merge.
	m.call(t, b, "GET", sp+"/content/pages", token, nil, http.StatusOK)
	m.call(t, c, "GET", sp+"/content/pages", token, nil, http.StatusOK)
	cr := m.call(t, a, "POST", sp+"/change-requests", token, nil, http.StatusCreated)["id"].(string)
	edit := m.call(t, a, "POST", sp+"/change-requests/"+cr+"/content?compat=false", token, map[string]any{"changes": []any{map[string]any{
		"operation": "insert_page", "title": "Failover", "document": map[string]any{"markdown": "The quokkaflux keeps every server in step."},
	}}}, http.StatusOK)
	page := edit["changes"].([]any)[0].(map[string]any)["page"].(map[string]any)["id"].(string)
	m.call(t, a, "POST", sp+"/change-requests/"+cr+"/merge", token, nil, http.StatusOK)
	m.seen(t, b, "the page merged through A in its page list", func() bool {
		return bytes.Contains(m.raw(t, b, "GET", sp+"/content/pages", token, nil, http.StatusOK), []byte(page))
	})
	m.seen(t, c, "the text of the page merged through A", func() bool {
		return bytes.Contains(m.raw(t, c, "GET", sp+"/content/page/"+page, token, nil, http.StatusOK), []byte("quokkaflux"))
	})
	// Indexed once, whichever server indexed it: one hit, not one per server.
	if got := m.call(t, c, "GET", sp+"/search?query=quokkaflux", token, nil, http.StatusOK); got["count"] != 1.0 {
		t.Errorf("search through C after the merge: %v, want one hit", got)
	}

	// A comment posted through B is listed through C and A, which had the
	// list cached.
	comments := sp + "/comments"
	m.call(t, c, "GET", comments, token, nil, http.StatusOK)
	m.call(t, a, "GET", comments, token, nil, http.StatusOK)
	comment := m.call(t, b, "POST", comments, token, map[string]any{"body": map[string]any{"markdown": "Seen everywhere?"}}, http.StatusOK)["id"].(string)
	for _, s := range []*server{c, a} {
		m.seen(t, s, "the comment posted through B", func() bool { return slices.Contains(m.commentIDs(t, s, comments, token), comment) })
	}

	// A site published through C, renamed through A: B's published
	// structure and C's site pages show the new title.
	site := m.call(t, c, "POST", "/v1/orgs/"+org+"/sites", token, map[string]any{"title": "Docs", "spaces": []string{space}}, http.StatusCreated)["id"].(string)
	sitePath := "/v1/orgs/" + org + "/sites/" + site
	m.call(t, c, "PATCH", sitePath, token, map[string]any{"published": true}, http.StatusOK)
	m.call(t, b, "GET", sitePath+"/published", token, nil, http.StatusOK)
	m.raw(t, c, "GET", "/sites/"+site+"/", "", nil, http.StatusOK)
	m.call(t, a, "PATCH", sitePath, token, map[string]any{"title": "Docs renamed"}, http.StatusOK)
	m.seen(t, b, "the site's new title in its published structure", func() bool {
		return m.call(t, b, "GET", sitePath+"/published", token, nil, http.StatusOK)["site"].(map[string]any)["title"] == "Docs renamed"
	})
	m.seen(t, c, "the site's new title on the published site", func() bool {
		return bytes.Contains(m.raw(t, c, "GET", "/sites/"+site+"/", "", nil, http.StatusOK), []byte("Docs renamed"))
	})

	// A token revoked through one server is refused by the others, though
	// each had it cached (for 10 s without a notification).
	for i, via := range m.srv {
		extra := m.newToken(t)
		for _, s := range m.srv {
			m.call(t, s, "GET", "/v1/user", extra, nil, http.StatusOK)
		}
		m.call(t, via, "DELETE", "/v1/user/tokens/"+tokenID(t, m, via, extra), extra, nil, http.StatusNoContent)
		for j, s := range m.srv {
			if j != i {
				m.seen(t, s, "the token revoked through "+m.name(via)+" refused", func() bool {
					return m.status(t, s, "GET", "/v1/user", extra) == http.StatusUnauthorized
				})
			}
		}
	}

	// API specifications fetched from URLs, created through each server
	// in turn: each document is fetched once, and each makes one version.
	specSrv := newSpecServer(t)
	const nSpecs = 6
	for i := range nSpecs {
		m.call(t, m.srv[i%3], "POST", "/v1/orgs/"+org+"/openapi", token,
			map[string]any{"slug": fmt.Sprintf("spec-%d", i), "source": map[string]any{"url": fmt.Sprintf("%s/spec/%d.json", specSrv.url, i)}}, http.StatusCreated)
	}
	waitFor(t, 30*time.Second, "every specification processed", func() bool {
		for i := range nSpecs {
			if m.call(t, m.srv[(i+1)%3], "GET", fmt.Sprintf("/v1/orgs/%s/openapi/spec-%d", org, i), token, nil, http.StatusOK)["processingState"] != "complete" {
				return false
			}
		}
		return true
	})
	for i := range nSpecs {
		if n := specSrv.hits(fmt.Sprintf("/spec/%d.json", i)); n != 1 {
			t.Errorf("spec %d was fetched %d times, want once", i, n)
		}
		if got := m.call(t, c, "GET", fmt.Sprintf("/v1/orgs/%s/openapi/spec-%d/versions", org, i), token, nil, http.StatusOK); got["count"] != 1.0 {
			t.Errorf("spec %d has %v versions, want 1", i, got["count"])
		}
	}

	m.checkWebhooks(t, hooks, org, token)
	m.checkSAMLReplay(t, org, token)
	m.checkKilledMidWrite(t, space, token)
	t.Logf("reads after a write through another server: %d of %d right on the next request; the others within %v",
		m.fresh, m.checks, m.maxLag)
}

// multi is several `quire serve` on one database.
type multi struct {
	srv   []*server
	db    string
	data  string // the data folder of the server that made the first start
	token string // the first-start token

	// What seen measured: reads after a write through another server, how
	// many of them saw it on the very next request, and the longest wait.
	checks, fresh int
	maxLag        time.Duration
}

// maxLag bounds how long after a write's answer another server may still
// answer as before it: the time PostgreSQL takes to deliver the write's
// NOTIFY to that server (a few milliseconds on a busy machine). It is well
// below every cache's own expiry (the shortest, published sites', is 1 s),
// so a server that never heard of the write fails.
const maxLag = 500 * time.Millisecond

// seen checks that server s reflects a write made through another server:
// ok is tried at once and, while false, again every 2 ms for up to maxLag.
func (m *multi) seen(t *testing.T, s *server, what string, ok func() bool) {
	t.Helper()
	m.checks++
	if ok() {
		m.fresh++
		return
	}
	start := time.Now()
	for time.Since(start) < maxLag {
		time.Sleep(2 * time.Millisecond)
		if ok() {
			m.maxLag = max(m.maxLag, time.Since(start))
			return
		}
	}
	t.Errorf("%s does not show %s %v after the write's answer", m.name(s), what, maxLag)
}

// status sends a request without a body and returns the status.
func (m *multi) status(t *testing.T, s *server, method, path, token string) int {
	t.Helper()
	status, _, err := send(s.base, method, path, token, nil)
	if err != nil {
		t.Fatalf("%s %s on %s: %v", method, path, m.name(s), err)
	}
	return status
}

// startMulti starts n servers at once on one fresh PostgreSQL schema, each
// with its own data folder, and finds the first-start token, which one of
// them alone must have made.
func startMulti(t *testing.T, bin string, n int) *multi {
	t.Helper()
	m := &multi{db: newTestStore(t).db}
	env := append(childEnv(), "QUIRE_ALLOW_PRIVATE_FETCH=1") // the webhook receiver and spec server are on loopback
	var dirs []string
	for range n {
		dir := t.TempDir()
		dirs = append(dirs, dir)
		cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", dir, "--db="+m.db, "--public-url", multiPublicURL, "--max-conns-per-ip", "0")
		cmd.Env = env
		m.srv = append(m.srv, launchServer(t, cmd))
	}
	for _, s := range m.srv {
		s.waitServing(t)
	}
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "initial-token"))
		if err == nil {
			if m.token != "" {
				t.Fatalf("two servers made the first start")
			}
			m.token, m.data = strings.TrimSpace(string(b)), dir
		}
	}
	if m.token == "" {
		t.Fatal("no server made the first start")
	}
	return m
}

func (m *multi) name(s *server) string {
	return string(rune('A' + slices.Index(m.srv, s)))
}

// raw calls path on server s and fails unless it answers want; it returns
// the body.
func (m *multi) raw(t *testing.T, s *server, method, path, token string, body any, want int) []byte {
	t.Helper()
	status, got, err := send(s.base, method, path, token, body)
	if err != nil {
		t.Fatalf("%s on %s: %v", method+" "+path, m.name(s), err)
	}
	if status != want {
		t.Fatalf("%s %s on %s: status %d, want %d: %.500s", method, path, m.name(s), status, want, got)
	}
	return got
}

// call is raw for a JSON answer (or none).
func (m *multi) call(t *testing.T, s *server, method, path, token string, body any, want int) map[string]any {
	t.Helper()
	b := m.raw(t, s, method, path, token, body, want)
	var out map[string]any
	if len(b) > 0 {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s %s on %s: not JSON: %.300s", method, path, m.name(s), b)
		}
	}
	return out
}

// client sends one request per connection at most briefly: a server killed
// in the middle must not stall the test.
var client = &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// send sends a request with a JSON body (a string body is sent as a form)
// and returns the status and body.
func send(base, method, path, token string, body any) (int, []byte, error) {
	var rd io.Reader
	ctype := ""
	switch v := body.(type) {
	case nil:
	case string:
		rd, ctype = strings.NewReader(v), "application/x-www-form-urlencoded"
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return 0, nil, err
		}
		rd, ctype = bytes.NewReader(b), "application/json"
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// ids are the ids of a list's items.
func ids(list map[string]any) []string {
	var out []string
	items, _ := list["items"].([]any)
	for _, it := range items {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

// commentIDs lists every comment at path through s, page by page.
func (m *multi) commentIDs(t *testing.T, s *server, path, token string) []string {
	t.Helper()
	var all []string
	for q := "?limit=100"; ; {
		page := m.call(t, s, "GET", path+q, token, nil, http.StatusOK)
		all = append(all, ids(page)...)
		next, _ := page["next"].(map[string]any)
		if next == nil {
			return all
		}
		q = "?limit=100&page=" + next["page"].(string)
	}
}

// newToken issues another token for the owner with `quire admin`.
func (m *multi) newToken(t *testing.T) string {
	t.Helper()
	var out tokenOut
	decodeStrict(t, runQuire(t, m.srv[0].cmd.Path, "admin", "token", "create", "--email", "owner@localhost", "--data", m.data, "--db="+m.db), &out)
	return out.Token
}

// tokenID finds token's id (its SHA-256, in hex) in its owner's list,
// through s.
func tokenID(t *testing.T, m *multi, s *server, token string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(token))
	id := hex.EncodeToString(sum[:])
	if !slices.Contains(ids(m.call(t, s, "GET", "/v1/user/tokens?limit=100", token, nil, http.StatusOK)), id) {
		t.Fatalf("the new token is not in its owner's list")
	}
	return id
}

// waitFor polls ok every 100 ms until it holds, failing after d.
func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hookReceiver is a webhook endpoint that counts what it is sent.
type hookReceiver struct {
	url    string
	mu     sync.Mutex
	events map[string]int    // event id → deliveries received
	kinds  map[string]string // event id → event name
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{events: map[string]int{}, kinds: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p struct{ ID, Event string }
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil || p.ID == "" {
			http.Error(w, "bad payload", http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		h.events[p.ID]++
		h.kinds[p.ID] = p.Event
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL + "/hook"
	return h
}

// checkWebhooks waits until the webhook's log holds no pending delivery,
// then checks the receiver got each event exactly once, though every
// server sends.
func (m *multi) checkWebhooks(t *testing.T, h *hookReceiver, org, token string) {
	t.Helper()
	hooks := m.call(t, m.srv[1], "GET", "/v1/orgs/"+org+"/webhooks", token, nil, http.StatusOK)
	deliveries := "/v1/orgs/" + org + "/webhooks/" + ids(hooks)[0] + "/deliveries"
	logged := map[string]bool{}
	waitFor(t, 30*time.Second, "every webhook delivery delivered", func() bool {
		clear(logged)
		for q := "?limit=100"; ; {
			page := m.call(t, m.srv[2], "GET", deliveries+q, token, nil, http.StatusOK)
			for _, it := range page["items"].([]any) {
				d := it.(map[string]any)
				if d["status"] != "delivered" {
					return false
				}
				logged[d["eventId"].(string)] = true
			}
			next, _ := page["next"].(map[string]any)
			if next == nil {
				return true
			}
			q = "?limit=100&page=" + next["page"].(string)
		}
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, n := range h.events {
		if n != 1 {
			t.Errorf("event %s (%s) was delivered %d times, want once", id, h.kinds[id], n)
		}
		if !logged[id] {
			t.Errorf("event %s (%s) was received but is not in the delivery log", id, h.kinds[id])
		}
	}
	if len(h.events) != len(logged) {
		t.Errorf("received %d events, the log has %d", len(h.events), len(logged))
	}
	seen := map[string]bool{}
	for _, k := range h.kinds {
		seen[k] = true
	}
	for _, want := range []string{"change_request.opened", "change_request.merged", "space.content_updated", "comment.posted", "site.published"} {
		if !seen[want] {
			t.Errorf("no %s event was delivered (got %v)", want, h.kinds)
		}
	}
}

// specServer serves a small OpenAPI document at /spec/…, counting fetches.
type specServer struct {
	url    string
	mu     sync.Mutex
	counts map[string]int
}

func newSpecServer(t *testing.T) *specServer {
	s := &specServer{counts: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.counts[r.URL.Path]++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"openapi":"3.0.3","info":{"title":"Spec %s","version":"1.0.0"},"paths":{"/ping":{"get":{"responses":{"200":{"description":"pong"}}}}}}`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

func (s *specServer) hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[path]
}

// checkKilledMidWrite sends a stream of writes (comments) to the last
// server, kills it with SIGKILL in the middle, and checks that the others
// go on serving and hold every write it acknowledged.
func (m *multi) checkKilledMidWrite(t *testing.T, space, token string) {
	t.Helper()
	victim, rest := m.srv[len(m.srv)-1], m.srv[:len(m.srv)-1]
	comments := "/v1/spaces/" + space + "/comments"
	var (
		mu      sync.Mutex
		acked   []string
		nAcked  atomic.Int32
		killed  = make(chan struct{})
		writers sync.WaitGroup
	)
	for w := range 4 {
		writers.Go(func() {
			for i := 0; ; i++ {
				status, body, err := send(victim.base, "POST", comments, token, map[string]any{"body": map[string]any{"markdown": fmt.Sprintf("write %d.%d", w, i)}})
				if err != nil {
					select {
					case <-killed:
						return // refused or cut off by the kill: not acknowledged
					default:
						t.Errorf("write before the kill: %v", err)
						return
					}
				}
				if status != http.StatusOK {
					t.Errorf("write %d.%d: status %d: %.300s", w, i, status, body)
					return
				}
				var c struct{ ID string }
				if err := json.Unmarshal(body, &c); err != nil || c.ID == "" {
					t.Errorf("write %d.%d: acknowledged without an id: %.300s", w, i, body)
					return
				}
				mu.Lock()
				acked = append(acked, c.ID)
				mu.Unlock()
				nAcked.Add(1)
			}
		})
	}
	waitFor(t, 30*time.Second, "writes acknowledged before the kill", func() bool { return nAcked.Load() >= 40 })
	close(killed)
	if err := victim.cmd.Process.Kill(); err != nil { // SIGKILL: no draining, no goodbye
		t.Fatal(err)
	}
	writers.Wait()
	<-victim.done

	listed := map[string]bool{}
	for _, s := range rest {
		clear(listed)
		for _, id := range m.commentIDs(t, s, comments, token) {
			listed[id] = true
		}
		for _, id := range acked {
			if !listed[id] {
				t.Errorf("comment %s, acknowledged by the killed server, is missing on %s", id, m.name(s))
			}
		}
	}
	t.Logf("%d writes acknowledged before SIGKILL; all present on the others", len(acked))

	// The others go on: a write through each is read through the other.
	for i, s := range rest {
		other := rest[(i+1)%len(rest)]
		id := m.call(t, s, "POST", comments, token, map[string]any{"body": map[string]any{"markdown": "after the kill"}}, http.StatusOK)["id"].(string)
		m.seen(t, other, "after the kill, the comment posted through "+m.name(s), func() bool {
			return slices.Contains(m.commentIDs(t, other, comments, token), id)
		})
	}
}
