package connlimit_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/internal/connlimit"
)

// TestPerIPCap: of N+1 connections open at once from one address, the
// last is refused with a 429 and closed; once one closes, another is let in.
func TestPerIPCap(t *testing.T) {
	t.Parallel()
	const n = 4
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := connlimit.New(inner, n)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	get := func(c net.Conn) (string, error) {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: quire.test\r\n\r\n"); err != nil {
			return "", err
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.Status + " " + string(b), nil
	}
	var conns []net.Conn
	for i := range n {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if got, err := get(c); err != nil || got != "200 OK ok" {
			t.Fatalf("connection %d: %q, %v; want 200 ok", i+1, got, err)
		}
		conns = append(conns, c)
	}
	if got := ln.Open("127.0.0.1"); got != n {
		t.Errorf("%d connections counted open, want %d", got, n)
	}

	extra, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	extra.SetDeadline(time.Now().Add(5 * time.Second))
	b, err := io.ReadAll(extra) // refused before it asks anything
	if err != nil || !strings.HasPrefix(string(b), "HTTP/1.1 429 ") || !strings.Contains(string(b), "too many connections") {
		t.Fatalf("connection %d: read %q, %v; want a 429, then closed", n+1, b, err)
	}

	conns[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for ln.Open("127.0.0.1") >= n {
		if time.Now().After(deadline) {
			t.Fatal("a closed connection still counts against the cap")
		}
		time.Sleep(10 * time.Millisecond)
	}
	again, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, err := get(again); err != nil || got != "200 OK ok" {
		t.Errorf("after one closed: %q, %v; want 200 ok", got, err)
	}
}
