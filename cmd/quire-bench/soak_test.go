package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/store/storetest"
)

// TestSoak runs the soak briefly against the real API in this process
// (SQLite, or PostgreSQL with QUIRE_TEST_POSTGRES), over two handlers of
// one store as two servers: every kind of request is sent, none fails,
// change requests are made, edited and merged, and the table is printed.
func TestSoak(t *testing.T) {
	db := storetest.Open(t)
	boot, err := db.InitIfEmpty(t.Context(), "Bench", "owner@example.com", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	var bases []string
	for range 2 {
		srv := httptest.NewServer(nil)
		defer srv.Close()
		srv.Config.Handler = api.New(db, api.Config{PublicURL: srv.URL, Blobs: blob.Dir{Path: t.TempDir()}})
		bases = append(bases, srv.URL)
	}
	c := &client{base: bases[0], token: boot.Token, http: &http.Client{Timeout: time.Minute}}
	// No cap on requests in flight: on a busy machine a slow answer must
	// not count as an error here.
	o := soakOptions{rate: 100, duration: 2 * time.Second, pages: 20, maxBusy: 1 << 20}
	seeded := false
	r, err := soak(t.Context(), c, bases, o, io.Discard, func() { seeded = true })
	if err != nil {
		t.Fatal(err)
	}
	r.name = db.Dialect()
	if !seeded || r.sent != 200 || r.all.count() != r.sent {
		t.Errorf("seeded %v, sent %d, answered %d; want 200 answered", seeded, r.sent, r.all.count())
	}
	for _, k := range soakKinds {
		if s := r.kinds[k]; len(s.lat) == 0 || s.errs > 0 {
			t.Errorf("%s: %d answered, %d errors (first: %s)", k, len(s.lat), s.errs, s.firstErr)
		}
	}
	var out strings.Builder
	writeSoak(&out, r)
	t.Log("\n" + out.String())
	for _, want := range []string{"### Soak: " + db.Dialect() + ", 2 servers, round robin", "| Search | ", "| **All** | 100% | 200 | 0 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestSoakAuthoring takes the soak's authoring steps one after the other:
// a change request is made, edited and merged, through the server that made
// it. (In TestSoak, on a slow machine, answers may come too late for a
// change request to get that far.)
func TestSoakAuthoring(t *testing.T) {
	db := storetest.Open(t)
	boot, err := db.InitIfEmpty(t.Context(), "Bench", "owner@example.com", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	var bases []string
	for range 2 {
		srv := httptest.NewServer(nil)
		defer srv.Close()
		srv.Config.Handler = api.New(db, api.Config{PublicURL: srv.URL, Blobs: blob.Dir{Path: t.TempDir()}})
		bases = append(bases, srv.URL)
	}
	c := &client{base: bases[0], token: boot.Token, http: &http.Client{Timeout: time.Minute}}
	co, err := seed(t.Context(), c, 3)
	if err != nil {
		t.Fatal(err)
	}
	w := &workload{co: co, bases: bases, token: c.token, http: c.http}
	for i, want := range soakLabels[6:] {
		q := w.author(bases[1]) // the edit and merge go where the change request was made
		if q.label != want || !strings.HasPrefix(q.uri, bases[1]) {
			t.Fatalf("step %d: %s %s, want %s on the second server", i, q.label, q.uri, want)
		}
		status, body, err := w.send(t.Context(), q.method, q.uri, q.body)
		if err != nil || status/100 != 2 {
			t.Fatalf("step %d, %s: %d %v %s", i, q.label, status, err, body)
		}
		if q.after != nil {
			q.after(status, body)
		}
	}
	var crs struct {
		Items []struct{ Status string }
	}
	if err := c.call(t.Context(), "GET", "/v1/spaces/"+co.spaceID+"/change-requests?status=merged", nil, http.StatusOK, &crs); err != nil {
		t.Fatal(err)
	}
	if len(crs.Items) != 2 { // the seed's and the soak's
		t.Errorf("merged change requests: %+v, want the seed's and the soak's", crs.Items)
	}
	if page := mustFetch(t, c, "/v1/spaces/"+co.spaceID+"/content/page/"+co.pageIDs[1]); !strings.Contains(string(page), "Edited by the soak.") {
		t.Errorf("the page the soak edited does not hold its edit")
	}
}
