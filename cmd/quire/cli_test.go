package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// runCLI runs the CLI in-process and returns what it printed.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(t.Context(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// testStore is a fresh store for the CLI: a data folder and a database URL
// ("" for SQLite in the folder, or a fresh PostgreSQL schema when
// QUIRE_TEST_POSTGRES is set).
type testStore struct {
	data, db string
}

func newTestStore(t *testing.T) testStore {
	t.Helper()
	return testStore{data: t.TempDir(), db: storetest.URL(t)}
}

// args appends --data and --db to a command line. --db is always given, so a
// QUIRE_DB in the environment cannot point a test at another database.
func (s testStore) args(args ...string) []string {
	return append(args, "--data", s.data, "--db="+s.db)
}

// open opens the store the CLI wrote to, for checks through the API.
func (s testStore) open(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), s.db, s.data)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// apiServer serves the API over the store the CLI wrote to.
func (s testStore) apiServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(api.New(s.open(t), api.Config{PublicURL: "http://quire.test"}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// admin runs an admin command that must succeed and decodes the one JSON
// line it prints into out, refusing fields the documentation does not name.
func (s testStore) admin(t *testing.T, out any, args ...string) {
	t.Helper()
	stdout, stderr, err := runCLI(t, s.args(append([]string{"admin"}, args...)...)...)
	if err != nil {
		t.Fatalf("quire admin %s: %v\nstderr: %s", strings.Join(args, " "), err, stderr)
	}
	decodeStrict(t, stdout, out)
}

// decodeStrict decodes one line of JSON with exactly the fields of out.
func decodeStrict(t *testing.T, line string, out any) {
	t.Helper()
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Fatalf("output is not one line: %q", line)
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("decode %q: %v", line, err)
	}
}

type idJSONOut struct {
	ID string `json:"id"`
}

// initOut, addUserOut and tokenOut are the documented outputs of the admin commands.
type initOut struct {
	Organization idJSONOut `json:"organization"`
	User         idJSONOut `json:"user"`
	Token        string    `json:"token"`
}

type addUserOut struct {
	User  idJSONOut `json:"user"`
	Token string    `json:"token"`
}

type tokenOut struct {
	Token string `json:"token"`
}

// do calls the API over HTTP and decodes a JSON answer.
func do(t *testing.T, method, url, token string, body any) (*http.Response, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, url, err)
	}
	var got map[string]any
	if len(b) > 0 {
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s %s: %d, body is not JSON: %q", method, url, resp.StatusCode, b)
		}
	}
	return resp, got
}

// get calls the API and fails unless it answers 200.
func get(t *testing.T, url, token string) map[string]any {
	t.Helper()
	resp, got := do(t, http.MethodGet, url, token, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, want 200: %v", url, resp.StatusCode, got)
	}
	return got
}

func TestHelp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string // in stdout
	}{
		{[]string{"--help"}, []string{"quire serve", "quire admin init", "quire admin add-user", "quire admin token create", "QUIRE_DB"}},
		{[]string{"help"}, []string{"quire serve"}},
		{[]string{"serve", "-help"}, []string{"quire serve", "-addr", "-data", "-db", "-public-url", "QUIRE_ADDR", "QUIRE_DATA", "QUIRE_DB", "QUIRE_PUBLIC_URL", "127.0.0.1:8080", "./quire-data"}},
		{[]string{"serve", "--help"}, []string{"-addr"}},
		{[]string{"admin", "--help"}, []string{"quire admin init", "quire admin add-user", "quire admin token create", "quire admin login-link"}},
		{[]string{"admin", "init", "-help"}, []string{"quire admin init", "-org", "-email", "-name", "-data", "-db"}},
		{[]string{"admin", "add-user", "-help"}, []string{"quire admin add-user", "-org", "-email", "-name", "-role", "guest", "not duplicated", "-data", "-db"}},
		{[]string{"admin", "token", "create", "-help"}, []string{"quire admin token create", "-email", "-data", "-db"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, err := runCLI(t, tt.args...)
			if err != nil {
				t.Fatalf("err = %v, want nil", err)
			}
			if stderr != "" {
				t.Errorf("help went to stderr: %q", stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("help does not mention %q:\n%s", w, stdout)
				}
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string // in stderr, beside the usage
	}{
		{"no command", nil, "Usage"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"serve wrong flag", []string{"serve", "--bogus"}, "flag provided but not defined: -bogus"},
		{"serve argument", []string{"serve", "now"}, `unexpected argument "now"`},
		{"serve negative in-flight", []string{"serve", "--max-in-flight", "-1"}, "-max-in-flight: must be a whole number"},
		{"serve bad cache budget", []string{"serve", "--cache-budget", "lots"}, `-cache-budget: must be a size such as 512MiB or 2GiB, not "lots"`},
		{"serve DNS server without port", []string{"serve", "--dns-server", "127.0.0.1"}, "--dns-server (env QUIRE_DNS_SERVER): must be host:port"},
		{"verify-domain missing domain", []string{"admin", "verify-domain", "--org", "x"}, "--domain is required"},
		{"admin alone", []string{"admin"}, "quire admin init"},
		{"admin unknown", []string{"admin", "frob"}, `unknown admin command "frob"`},
		{"admin token alone", []string{"admin", "token"}, "quire admin token create"},
		{"init wrong flag", []string{"admin", "init", "--title", "Acme"}, "flag provided but not defined: -title"},
		{"init missing org", []string{"admin", "init", "--email", "a@example.com", "--name", "A"}, "--org is required"},
		{"init missing email", []string{"admin", "init", "--org", "Acme", "--name", "A"}, "--email is required"},
		{"init missing name", []string{"admin", "init", "--org", "Acme", "--email", "a@example.com"}, "--name is required"},
		{"init bad email", []string{"admin", "init", "--org", "Acme", "--email", "not-an-address", "--name", "A"}, "--email: must be an e-mail address"},
		{"init short org", []string{"admin", "init", "--org", "A", "--email", "a@example.com", "--name", "A"}, "--org: must be 2 to 255 characters"},
		{"add-user wrong flag", []string{"admin", "add-user", "--organization", "x"}, "flag provided but not defined: -organization"},
		{"add-user missing role", []string{"admin", "add-user", "--org", "x", "--email", "a@example.com", "--name", "A"}, "--role is required"},
		{"add-user bad role", []string{"admin", "add-user", "--org", "x", "--email", "a@example.com", "--name", "A", "--role", "owner"}, "--role: must be admin"},
		{"token create missing email", []string{"admin", "token", "create"}, "--email is required"},
		{"token create wrong flag", []string{"admin", "token", "create", "--user", "x"}, "flag provided but not defined: -user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := filepath.Join(t.TempDir(), "data")
			args := tt.args
			if len(args) > 0 && (args[0] == "serve" || len(args) > 1) {
				args = append(args, "--data", data) // a command that wrongly went on would write here
			}
			stdout, stderr, err := runCLI(t, args...)
			if !errors.Is(err, errUsage) {
				t.Fatalf("err = %v, want errUsage", err)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr does not mention %q:\n%s", tt.want, stderr)
			}
			if !strings.Contains(stderr, "Usage") && !strings.Contains(stderr, "usage") {
				t.Errorf("stderr has no usage:\n%s", stderr)
			}
			if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a wrong command line touched the data folder (stat: %v)", err)
			}
		})
	}
}

func TestAdminCommands(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)

	var acme initOut
	s.admin(t, &acme, "init", "--org", "Acme", "--email", "Alice@Example.com", "--name", "Alice")
	if acme.Organization.ID == "" || acme.User.ID == "" || acme.Token == "" {
		t.Fatalf("admin init printed empty fields: %+v", acme)
	}
	var bob addUserOut
	s.admin(t, &bob, "add-user", "--org", acme.Organization.ID, "--email", "bob@example.com", "--name", "Bob", "--role", "edit")
	if bob.User.ID == "" || bob.Token == "" || bob.User.ID == acme.User.ID {
		t.Fatalf("admin add-user printed %+v after init's user %s", bob, acme.User.ID)
	}
	var aliceAgain tokenOut
	s.admin(t, &aliceAgain, "token", "create", "--email", "alice@example.com")
	if aliceAgain.Token == "" || aliceAgain.Token == acme.Token {
		t.Fatalf("admin token create printed %q, want a new token", aliceAgain.Token)
	}

	base := s.apiServer(t)
	for name, tc := range map[string]struct{ token, userID, email string }{
		"init token":         {acme.Token, acme.User.ID, "alice@example.com"},
		"add-user token":     {bob.Token, bob.User.ID, "bob@example.com"},
		"token create token": {aliceAgain.Token, acme.User.ID, "alice@example.com"},
	} {
		got := get(t, base+"/v1/user", tc.token)
		if got["id"] != tc.userID || got["email"] != tc.email {
			t.Errorf("%s: GET /v1/user = %v, want user %s <%s>", name, got, tc.userID, tc.email)
		}
	}
	orgs := get(t, base+"/v1/orgs", acme.Token)
	if items, _ := orgs["items"].([]any); len(items) != 1 || items[0].(map[string]any)["title"] != "Acme" {
		t.Errorf("GET /v1/orgs = %v, want Acme alone", orgs)
	}
	roles := map[string]any{}
	members := get(t, base+"/v1/orgs/"+acme.Organization.ID+"/members", acme.Token)
	for _, it := range members["items"].([]any) {
		m := it.(map[string]any)
		roles[m["id"].(string)] = m["role"]
	}
	if diff := cmp.Diff(map[string]any{acme.User.ID: "admin", bob.User.ID: "edit"}, roles); diff != "" {
		t.Errorf("member roles (-want +got):\n%s", diff)
	}
}

func TestAdminAddUserExisting(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	var acme, globex initOut
	s.admin(t, &acme, "init", "--org", "Acme", "--email", "alice@example.com", "--name", "Alice")
	s.admin(t, &globex, "init", "--org", "Globex", "--email", "bob@example.com", "--name", "Bob")

	// Alice, under another spelling of her address and another name, joins
	// Globex as herself; adding her again changes her role, not her count.
	var added, again addUserOut
	s.admin(t, &added, "add-user", "--org", globex.Organization.ID, "--email", " ALICE@example.com", "--name", "Alice Two", "--role", "read")
	s.admin(t, &again, "add-user", "--org", globex.Organization.ID, "--email", "alice@example.com", "--name", "Alice", "--role", "review")
	if added.User.ID != acme.User.ID || again.User.ID != acme.User.ID {
		t.Fatalf("add-user of an existing e-mail gave users %s and %s, want %s", added.User.ID, again.User.ID, acme.User.ID)
	}

	// Alice is in Acme too: a token Globex's admin is handed would work
	// there, so none is issued; she uses her own.
	if added.Token != "" || again.Token != "" {
		t.Errorf("add-user of a member of another organization issued a token")
	}
	base := s.apiServer(t)
	if me := get(t, base+"/v1/user", acme.Token); me["displayName"] != "Alice" {
		t.Errorf("existing user renamed to %v", me["displayName"])
	}
	if orgs := get(t, base+"/v1/orgs", acme.Token); orgs["count"] != 2.0 {
		t.Errorf("Alice's organizations: count %v, want 2: %v", orgs["count"], orgs)
	}
	members := get(t, base+"/v1/orgs/"+globex.Organization.ID+"/members", globex.Token)
	if members["count"] != 2.0 {
		t.Errorf("Globex members: count %v, want 2: %v", members["count"], members)
	}
	m := get(t, base+"/v1/orgs/"+globex.Organization.ID+"/members/"+acme.User.ID, globex.Token)
	if m["role"] != "review" {
		t.Errorf("Alice's role in Globex = %v, want review", m["role"])
	}
}

func TestAdminAddUserGuest(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	var acme initOut
	var guest addUserOut
	s.admin(t, &acme, "init", "--org", "Acme", "--email", "alice@example.com", "--name", "Alice")
	s.admin(t, &guest, "add-user", "--org", acme.Organization.ID, "--email", "gus@example.com", "--name", "Gus", "--role", "guest")

	base := s.apiServer(t)
	m := get(t, base+"/v1/orgs/"+acme.Organization.ID+"/members/"+guest.User.ID, acme.Token)
	if role, ok := m["role"]; !ok || role != nil {
		t.Errorf("guest member role = %v (present %v), want null", role, ok)
	}
	if me := get(t, base+"/v1/user", guest.Token); me["id"] != guest.User.ID {
		t.Errorf("guest token: GET /v1/user = %v", me)
	}
}

// TestAdminVerifyDomain: the operator vouches for an organization's e-mail
// domain and can take it back; a bad domain or organization changes nothing.
func TestAdminVerifyDomain(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	var acme initOut
	s.admin(t, &acme, "init", "--org", "Acme", "--email", "alice@example.com", "--name", "Alice")
	type out struct {
		Organization    struct{ ID string }
		VerifiedDomains []string
	}
	var got out
	s.admin(t, &got, "verify-domain", "--org", acme.Organization.ID, "--domain", "Example.com")
	s.admin(t, &got, "verify-domain", "--org", acme.Organization.ID, "--domain", "acme.example")
	if got.Organization.ID != acme.Organization.ID || !slices.Equal(got.VerifiedDomains, []string{"acme.example", "example.com"}) {
		t.Errorf("after verifying two: %+v", got)
	}
	db := s.open(t)
	if d, err := db.VerifiedEmailDomains(t.Context(), acme.Organization.ID); err != nil || len(d) != 2 || d[1].Method != store.VerifiedByOperator {
		t.Errorf("stored: %+v, %v", d, err)
	}
	s.admin(t, &got, "verify-domain", "--org", acme.Organization.ID, "--domain", "acme.example", "--remove")
	if !slices.Equal(got.VerifiedDomains, []string{"example.com"}) {
		t.Errorf("after removing one: %+v", got)
	}
	if _, _, err := runCLI(t, s.args("admin", "verify-domain", "--org", acme.Organization.ID, "--domain", "not a domain")...); !errors.Is(err, errUsage) {
		t.Errorf("bad domain: %v, want a usage error", err)
	}
	if _, _, err := runCLI(t, s.args("admin", "verify-domain", "--org", "nosuchorg", "--domain", "example.org")...); err == nil || !strings.Contains(err.Error(), "organization not found") {
		t.Errorf("unknown organization: %v", err)
	}
	if d, err := db.VerifiedEmailDomains(t.Context(), acme.Organization.ID); err != nil || len(d) != 1 {
		t.Errorf("after refusals: %+v, %v", d, err)
	}
}

func TestAdminFailures(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	var acme initOut
	s.admin(t, &acme, "init", "--org", "Acme", "--email", "alice@example.com", "--name", "Alice")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"add-user unknown org", []string{"admin", "add-user", "--org", "nosuchorg", "--email", "b@example.com", "--name", "B", "--role", "read"}, "organization not found"},
		{"token for unknown e-mail", []string{"admin", "token", "create", "--email", "nobody@example.com"}, "user not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, _, err := runCLI(t, s.args(tt.args...)...)
			if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want an error mentioning %q (not a usage error)", err, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
	t.Run("bad database URL", func(t *testing.T) {
		_, _, err := runCLI(t, "admin", "token", "create", "--email", "alice@example.com", "--data", t.TempDir(), "--db", "mysql://x")
		if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), "database URL") {
			t.Fatalf("err = %v, want an error about the database URL", err)
		}
	})
}

// TestServe runs the server in-process (so -race watches it): the first
// start creates and prints a token, the API answers with it, and cancelling
// the context stops the server cleanly.
func TestServe(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr logBuffer
	var serveErr error
	done := make(chan struct{}) // closed when serve has returned serveErr
	go func() {
		defer close(done)
		// The only test that sets the cache budget: it is the process's.
		serveErr = run(ctx, s.args("serve", "--addr", "127.0.0.1:0", "--cache-budget", "1536MiB"), &stdout, &stderr)
	}()

	serving := stderr.waitJSON(t, done, func(m map[string]any) bool { return m["msg"] == "quire serving" })
	base := "http://" + serving["addr"].(string)
	token := firstStartToken(t, s.data, stdout.String(), base)

	if got := get(t, base+"/healthz", ""); got["status"] != "ok" {
		t.Errorf("GET /healthz = %v", got)
	}
	me := get(t, base+"/v1/user", token)
	if me["email"] != "owner@localhost" {
		t.Errorf("GET /v1/user = %v, want the owner", me)
	}
	resp, _ := do(t, http.MethodGet, base+"/v1/orgs", "", nil)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /v1/orgs without a token: %d, want 401", resp.StatusCode)
	}
	requestLine(t, &stderr, done, resp, "/v1/orgs", http.StatusUnauthorized)
	metrics := getText(t, base+"/metrics")
	for _, want := range []string{"quire_cache_budget_bytes 1.610612736e+09", `quire_cache_entries{cache="store.trees"}`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("GET /metrics lacks %q", want)
		}
	}

	cancel()
	select {
	case <-done:
		if serveErr != nil {
			t.Fatalf("serve returned %v after cancel, want nil", serveErr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop after cancel")
	}
}

// getText is the body of a GET of url that answers 200.
func getText(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d, %v", url, res.StatusCode, err)
	}
	return string(b)
}

// firstStartToken checks what the first start of a server prints and writes,
// and returns the token.
func firstStartToken(t *testing.T, data, stdout, base string) string {
	t.Helper()
	path := filepath.Join(data, "initial-token")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("first start: %v", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" || string(b) != token+"\n" {
		t.Fatalf("initial-token holds %q, want one token and a newline", b)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o600 {
		t.Errorf("initial-token mode %o, want 600", mode)
	}
	for _, want := range []string{"My Organization", token, path, `curl -H "Authorization: Bearer ` + token + `" ` + base + "/v1/orgs/"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("first-start message does not mention %q:\n%s", want, stdout)
		}
	}
	return token
}

// requestLine finds the request log line of resp by its X-Request-Id and
// checks its fields.
func requestLine(t *testing.T, log *logBuffer, done <-chan struct{}, resp *http.Response, path string, status int) {
	t.Helper()
	id := resp.Header.Get("X-Request-Id")
	if id == "" {
		t.Fatalf("%s: no X-Request-Id header", path)
	}
	line := log.waitJSON(t, done, func(m map[string]any) bool { return m["msg"] == "request" && m["request_id"] == id })
	if line["method"] != resp.Request.Method || line["path"] != path || line["status"] != float64(status) {
		t.Errorf("request log line %v, want %s %s %d", line, resp.Request.Method, path, status)
	}
	if _, ok := line["duration"].(float64); !ok {
		t.Errorf("request log line has no duration: %v", line)
	}
}

// logBuffer collects what a server writes, safe for concurrent use, and lets
// a test wait for a line.
type logBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	written chan struct{} // closed and replaced at each write
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written != nil {
		close(b.written)
		b.written = nil
	}
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitJSON waits for a JSON line that match accepts and returns it. It fails
// if done is closed first (the server stopped) or after 30 seconds.
func (b *logBuffer) waitJSON(t *testing.T, done <-chan struct{}, match func(map[string]any) bool) map[string]any {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		b.mu.Lock()
		sc := bufio.NewScanner(bytes.NewReader(b.buf.Bytes()))
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && match(m) {
				b.mu.Unlock()
				return m
			}
		}
		if b.written == nil {
			b.written = make(chan struct{})
		}
		written := b.written
		b.mu.Unlock()
		select {
		case <-written:
		case <-done:
			t.Fatalf("server stopped before writing the line looked for; it wrote:\n%s", b.String())
		case <-timeout:
			t.Fatalf("timed out waiting for a log line; the server wrote:\n%s", b.String())
		}
	}
}
