package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/internal/llm"
)

// TestSlowBodyCutOff: a client sending its body a byte at a time is cut off
// once the read deadline passes, instead of holding the connection.
func TestSlowBodyCutOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.SetTimeouts(time.Second, time.Second)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)

	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/orgs/%s/spaces HTTP/1.1\r\nHost: quire.test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", e.org, e.admin.token)
	start := time.Now()
	closed := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(conn) // until the server closes the connection
		closed <- string(b)
	}()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case answer := <-closed:
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("connection held %v, want about the 1 s read deadline", d)
			}
			if !strings.HasPrefix(answer, "HTTP/1.1 400") {
				t.Errorf("answer %q, want a 400", answer)
			}
			return
		case <-tick.C:
			if time.Since(start) > 5*time.Second {
				t.Fatal("a body sent a byte every 200 ms was still being read after 5 s")
			}
			conn.Write([]byte(" "))
		}
	}
}

// TestEventStreamOutlivesWriteDeadline: an event stream that keeps writing
// lives past the write deadline of ordinary answers.
func TestEventStreamOutlivesWriteDeadline(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	askSpace(t, e)
	endpoint := httptest.NewServer(&slowModel{fakeModel: fakeModel{answer: "Run it as root [1]."}, delay: 2500 * time.Millisecond})
	t.Cleanup(endpoint.Close)
	srv := api.New(e.db, api.Config{PublicURL: testPublicURL, Model: &llm.Model{URL: endpoint.URL + "/v1", Name: "m"}})
	srv.SetKeepAlive(200 * time.Millisecond)
	srv.SetTimeouts(time.Second, time.Second)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	req, _ := http.NewRequestWithContext(t.Context(), "GET", ts.URL+"/v1/orgs/"+e.org+"/ask/stream?query=installer", nil)
	req.Header.Set("Authorization", "Bearer "+e.admin.token)
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(bufio.NewReader(res.Body))
	if err != nil {
		t.Fatalf("stream cut after %v: %v (read %q)", time.Since(start), err, body)
	}
	if d := time.Since(start); d < 2*time.Second {
		t.Errorf("stream took %v, want past the model's delay", d)
	}
	if !strings.Contains(string(body), ": keep-alive\n\n") || !strings.Contains(string(body), "Run it as root [1].") {
		t.Errorf("stream %q: want keep-alives, then the answer", body)
	}
}
