package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProcess builds the real binary and runs it as an operator would:
// admin commands as processes, serve on a free port, real HTTP, signals.
func TestProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the quire binary")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "quire")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	t.Run("first start", func(t *testing.T) {
		t.Parallel()
		s := newTestStore(t)
		srv := startServer(t, bin, s)
		token := firstStartToken(t, s.data, srv.stdout.String(), srv.base)

		resp, me := do(t, http.MethodGet, srv.base+"/v1/user", token, nil)
		if resp.StatusCode != http.StatusOK || me["email"] != "owner@localhost" {
			t.Fatalf("GET /v1/user with the first-start token: %d %v", resp.StatusCode, me)
		}
		requestLine(t, &srv.stderr, srv.done, resp, "/v1/user", http.StatusOK)
		orgs := get(t, srv.base+"/v1/orgs", token)
		items, _ := orgs["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["title"] != "My Organization" {
			t.Fatalf("GET /v1/orgs = %v, want My Organization alone", orgs)
		}
		orgID := items[0].(map[string]any)["id"].(string)

		// Admin commands work on the data of a running server.
		var bob addUserOut
		decodeStrict(t, runQuire(t, bin, s.args("admin", "add-user", "--org", orgID, "--email", "bob@example.com", "--name", "Bob", "--role", "edit")...), &bob)
		if m := get(t, srv.base+"/v1/orgs/"+orgID+"/members/"+bob.User.ID, token); m["role"] != "edit" {
			t.Errorf("Bob's membership = %v, want role edit", m)
		}
		if me := get(t, srv.base+"/v1/user", bob.Token); me["id"] != bob.User.ID {
			t.Errorf("Bob's token: GET /v1/user = %v", me)
		}
		var again tokenOut
		decodeStrict(t, runQuire(t, bin, s.args("admin", "token", "create", "--email", "owner@localhost")...), &again)
		if me := get(t, srv.base+"/v1/user", again.Token); me["email"] != "owner@localhost" {
			t.Errorf("new owner token: GET /v1/user = %v", me)
		}

		// A request in flight when SIGTERM comes is answered before the exit.
		inFlight := startTeamRequest(t, srv.addr, orgID, token)
		srv.signal(t, syscall.SIGTERM)
		srv.stderr.waitJSON(t, srv.done, func(m map[string]any) bool { return strings.HasPrefix(fmt.Sprint(m["msg"]), "shutting down") })
		if status := inFlight(); status != http.StatusCreated {
			t.Errorf("request in flight at SIGTERM: status %d, want 201", status)
		}
		srv.wait(t)

		// A second start finds the store in use: no new organization or
		// token, and the old tokens still work. SIGINT stops it too.
		srv = startServer(t, bin, s)
		if out := srv.stdout.String(); out != "" {
			t.Errorf("second start printed %q, want nothing", out)
		}
		if orgs := get(t, srv.base+"/v1/orgs", token); orgs["count"] != 1.0 {
			t.Errorf("after a restart GET /v1/orgs = %v, want one organization", orgs)
		}
		if teams := get(t, srv.base+"/v1/orgs/"+orgID+"/teams", bob.Token); teams["count"] != 1.0 {
			t.Errorf("the team created while draining is missing: %v", teams)
		}
		srv.signal(t, os.Interrupt)
		srv.wait(t)
	})

	t.Run("admin then serve", func(t *testing.T) {
		t.Parallel()
		s := newTestStore(t)
		var acme initOut
		decodeStrict(t, runQuire(t, bin, s.args("admin", "init", "--org", "Acme", "--email", "alice@example.com", "--name", "Alice")...), &acme)
		var carol addUserOut
		decodeStrict(t, runQuire(t, bin, s.args("admin", "add-user", "--org", acme.Organization.ID, "--email", "carol@example.com", "--name", "Carol", "--role", "guest")...), &carol)

		srv := startServer(t, bin, s)
		if out := srv.stdout.String(); out != "" {
			t.Errorf("serve on an initialized store printed %q, want nothing", out)
		}
		if _, err := os.Stat(filepath.Join(s.data, "initial-token")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("serve on an initialized store wrote initial-token (stat: %v)", err)
		}

		resp, me := do(t, http.MethodGet, srv.base+"/v1/user", acme.Token, nil)
		if resp.StatusCode != http.StatusOK || me["id"] != acme.User.ID {
			t.Fatalf("GET /v1/user with the init token: %d %v", resp.StatusCode, me)
		}
		requestLine(t, &srv.stderr, srv.done, resp, "/v1/user", http.StatusOK)

		resp, m := do(t, http.MethodGet, srv.base+"/v1/orgs/"+acme.Organization.ID+"/members/"+carol.User.ID, acme.Token, nil)
		if role, ok := m["role"]; resp.StatusCode != http.StatusOK || !ok || role != nil {
			t.Errorf("GET guest member: %d %v, want role null", resp.StatusCode, m)
		}
		requestLine(t, &srv.stderr, srv.done, resp, "/v1/orgs/"+acme.Organization.ID+"/members/"+carol.User.ID, http.StatusOK)

		resp, _ = do(t, http.MethodGet, srv.base+"/v1/user", "not-a-token", nil)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET /v1/user with a bad token: %d, want 401", resp.StatusCode)
		}
		requestLine(t, &srv.stderr, srv.done, resp, "/v1/user", http.StatusUnauthorized)

		srv.signal(t, syscall.SIGTERM)
		srv.wait(t)
	})
}

// childEnv is the test's environment without QUIRE_* variables, so only the
// flags a test passes configure the child.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "QUIRE_") {
			env = append(env, kv)
		}
	}
	return env
}

// runQuire runs the binary to completion, fails unless it exits 0, and
// returns its stdout.
func runQuire(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Env = childEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("quire %s: %v\nstderr: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// server is a running `quire serve` process.
type server struct {
	cmd            *exec.Cmd
	addr, base     string
	stdout, stderr logBuffer
	done           chan struct{} // closed when the process has exited with err
	err            error
}

// startServer starts `quire serve` on a port of the system's choosing and
// waits until it logs the address it serves.
func startServer(t *testing.T, bin string, s testStore) *server {
	t.Helper()
	srv := launchServer(t, exec.Command(bin, s.args("serve", "--addr", "127.0.0.1:0")...))
	srv.waitServing(t)
	return srv
}

// launchServer starts cmd (a `quire serve` with childEnv's environment
// unless cmd has its own) and kills it at the end of the test if it still
// runs; waitServing waits until it serves.
func launchServer(t *testing.T, cmd *exec.Cmd) *server {
	t.Helper()
	srv := &server{cmd: cmd, done: make(chan struct{})}
	if srv.cmd.Env == nil {
		srv.cmd.Env = childEnv()
	}
	srv.cmd.Stdout, srv.cmd.Stderr = &srv.stdout, &srv.stderr
	if err := srv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(srv.done)
		srv.err = srv.cmd.Wait()
	}()
	t.Cleanup(func() {
		select {
		case <-srv.done:
		default:
			srv.cmd.Process.Kill()
			<-srv.done
		}
	})
	return srv
}

// waitServing waits until the server logs the address it serves, and checks
// that it answers /healthz.
func (srv *server) waitServing(t *testing.T) {
	t.Helper()
	serving := srv.stderr.waitJSON(t, srv.done, func(m map[string]any) bool { return m["msg"] == "quire serving" })
	srv.addr, _ = serving["addr"].(string)
	srv.base = "http://" + srv.addr
	if got := get(t, srv.base+"/healthz", ""); got["status"] != "ok" {
		t.Fatalf("GET /healthz = %v", got)
	}
}

func (srv *server) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := srv.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %v: %v", sig, err)
	}
}

// wait fails unless the server exits 0 within 30 seconds.
func (srv *server) wait(t *testing.T) {
	t.Helper()
	select {
	case <-srv.done:
		if srv.err != nil {
			t.Fatalf("quire serve exited with %v, want 0; stderr:\n%s", srv.err, srv.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("quire serve did not exit within 30s of the signal; stderr:\n%s", srv.stderr.String())
	}
}

// startTeamRequest begins PUT /v1/orgs/{org}/teams on a raw connection and
// returns once the handler is reading the body: the server's 100 Continue
// says so. The returned function sends the body and returns the status.
func startTeamRequest(t *testing.T, addr, orgID, token string) func() int {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	body := `{"title":"Drained"}`
	fmt.Fprintf(conn, "PUT /v1/orgs/%s/teams HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", orgID, addr, token, len(body))
	rd := bufio.NewReader(conn)
	resp, err := http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatalf("read 100 Continue: %v", err)
	}
	if resp.StatusCode != http.StatusContinue {
		t.Fatalf("PUT teams before its body: status %d, want 100", resp.StatusCode)
	}
	return func() int {
		t.Helper()
		if _, err := conn.Write([]byte(body)); err != nil {
			t.Fatalf("send body: %v", err)
		}
		resp, err := http.ReadResponse(rd, nil)
		if err != nil {
			t.Fatalf("read response: %v", err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
}
