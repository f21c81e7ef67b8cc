package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
)

// answer is what Quire answered a request once: the bytes the bare handler
// serves in its place.
type answer struct {
	contentType, contentEncoding string
	body                         []byte // as sent: gzipped when Quire gzipped it
}

// fetch sends GET base+uri once, as the load does (token, gzip accepted),
// and keeps the answer, which must be 200.
func fetch(ctx context.Context, c *client, uri string) (*answer, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+uri, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept-Encoding", "gzip") // set by hand: the transport leaves the body as sent
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d: %.300s", uri, resp.StatusCode, body)
	}
	return &answer{contentType: resp.Header.Get("Content-Type"), contentEncoding: resp.Header.Get("Content-Encoding"), body: body}, nil
}

// bare is a plain net/http server answering each request URI it was given
// with the very bytes Quire answered, from memory: the ceiling for a Go
// server on this machine.
type bare struct {
	mu      sync.RWMutex
	answers map[string]*answer
	srv     *http.Server
	url     string
}

func startBare() (*bare, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &bare{answers: map[string]*answer{}, url: "http://" + ln.Addr().String()}
	b.srv = &http.Server{Handler: b}
	go b.srv.Serve(ln)
	return b, nil
}

func (b *bare) set(uri string, a *answer) {
	b.mu.Lock()
	b.answers[uri] = a
	b.mu.Unlock()
}

func (b *bare) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.RLock()
	a := b.answers[r.RequestURI]
	b.mu.RUnlock()
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	if a.contentEncoding != "" {
		h.Set("Content-Encoding", a.contentEncoding)
	}
	w.Write(a.body)
}

func (b *bare) close() { b.srv.Close() }
