package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/store/storetest"
)

// TestMeasure runs the benchmark's core end to end, briefly, against the
// real API in this process (SQLite, or PostgreSQL with QUIRE_TEST_POSTGRES):
// two spaces seeded through the API, each request loaded against Quire and
// the bare handler, and the tables printed.
func TestMeasure(t *testing.T) {
	db := storetest.Open(t)
	boot, err := db.InitIfEmpty(t.Context(), "Bench", "owner@example.com", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(nil)
	defer srv.Close()
	srv.Config.Handler = api.New(db, api.Config{PublicURL: srv.URL, Blobs: blob.Dir{Path: t.TempDir()}})
	b, err := startBare()
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()

	c := &client{base: srv.URL, token: boot.Token, http: srv.Client()}
	o := options{conns: 4, duration: 150 * time.Millisecond, rounds: 1, query: "replication", readGoal: 0.5}
	var rs []*result
	for _, n := range []int{20, 60} { // 60: two batches
		r, err := measure(t.Context(), c, b, db.Dialect(), n, o)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
		for _, q := range r.requests {
			if q.quire.rate == 0 || q.bare.rate == 0 || q.quire.errs+q.bare.errs > 0 {
				t.Errorf("%d pages, %s: Quire %+v, bare %+v", n, q.name, q.quire, q.bare)
			}
			// The bare handler answers Quire's bytes.
			quire, err := fetch(t.Context(), c, q.uri)
			if err != nil {
				t.Fatal(err)
			}
			bareAnswer, err := fetch(t.Context(), &client{base: b.url, http: http.DefaultClient}, q.uri)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(quire.body, bareAnswer.body) || quire.contentType != bareAnswer.contentType || quire.contentEncoding != bareAnswer.contentEncoding {
				t.Errorf("%s: the bare handler answers other bytes or headers than Quire", q.name)
			}
		}
		rare := r.searches[1].query
		if got := mustFetch(t, c, searchURI(r.requests[0].uri, rare)); !bytes.Contains(got, []byte(`"count":1`)) {
			t.Errorf("%d pages: the rare word %q is not in one page: %s", n, rare, got)
		}
	}
	var out strings.Builder
	writeResult(&out, rs[0], o)
	writeScale(&out, rs)
	t.Log("\n" + out.String())
	for _, want := range []string{"### " + db.Dialect() + ", 20 pages", "| `GET /v1/spaces/{id}/content/page/{pageId}` |", "| `query=server` |", "### " + db.Dialect() + ": 20, 60 pages side by side", "| a rare word, one at a time |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// mustFetch answers the body of GET uri, gunzipped when it came gzipped
// (fetch asks for gzip, as the load does).
func mustFetch(t *testing.T, c *client, uri string) []byte {
	t.Helper()
	a, err := fetch(t.Context(), c, uri)
	if err != nil {
		t.Fatal(err)
	}
	if a.contentEncoding != "gzip" {
		return a.body
	}
	zr, err := gzip.NewReader(bytes.NewReader(a.body))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// TestRoundTrip reads the answers Quire does not send today: chunked, and
// ended by closing the connection.
func TestRoundTrip(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/close" {
			w.Header().Set("Connection", "close")
		}
		w.Write([]byte("first"))
		w.(http.Flusher).Flush() // no Content-Length: chunked
		w.Write([]byte(" second"))
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	for _, c := range []struct {
		path string
		keep bool
	}{{"/", true}, {"/", true}, {"/close", false}} {
		status, keep, err := roundTrip(conn, br, []byte("GET "+c.path+" HTTP/1.1\r\nHost: x\r\n\r\n"))
		if err != nil || status != 200 || keep != c.keep {
			t.Errorf("GET %s: status %d, keep %v, err %v; want 200, %v", c.path, status, keep, err, c.keep)
		}
	}
}
