package api

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestWriteDeadline: a client that does not read its answer is cut off once
// the write deadline passes; a handler that thinks longer than that before
// answering is not.
func TestWriteDeadline(t *testing.T) {
	t.Parallel()
	s := &Server{readTimeout: time.Second, writeTimeout: 500 * time.Millisecond}
	wrote := make(chan error, 1)
	ts := httptest.NewServer(s.withDeadlines(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(time.Second)
			io.WriteString(w, "ok")
			return
		}
		chunk := make([]byte, 1<<20)
		for range 256 { // more than socket buffers hold
			if _, err := w.Write(chunk); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	})))
	t.Cleanup(ts.Close)

	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /big HTTP/1.1\r\nHost: quire.test\r\n\r\n") // and never read
	start := time.Now()
	select {
	case err := <-wrote:
		if err == nil {
			t.Fatal("256 MiB written to a client that reads nothing")
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("writes blocked for %v, want about the 500 ms write deadline", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("writing to a client that reads nothing still blocked after 5 s")
	}

	res, err := ts.Client().Get(ts.URL + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if b, err := io.ReadAll(res.Body); err != nil || string(b) != "ok" {
		t.Errorf("slow handler: %q, %v; want ok", b, err)
	}
}
