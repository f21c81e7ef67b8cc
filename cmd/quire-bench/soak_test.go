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
	// About 20 authoring steps, one every 100 ms: some change requests went
	// all the way.
	var merged struct{ Count int }
	if err := c.call(t.Context(), "GET", "/v1/spaces/"+firstSpace(t, c)+"/change-requests?status=merged", nil, http.StatusOK, &merged); err != nil {
		t.Fatal(err)
	}
	if merged.Count < 2 { // the seed's, and at least one of the soak's
		t.Errorf("%d merged change requests, want the soak's too", merged.Count)
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

// firstSpace is the id of the first space of the caller's organization.
func firstSpace(t *testing.T, c *client) string {
	t.Helper()
	var orgs, spaces struct{ Items []idJSON }
	if err := c.call(t.Context(), "GET", "/v1/orgs", nil, http.StatusOK, &orgs); err != nil {
		t.Fatal(err)
	}
	if err := c.call(t.Context(), "GET", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", nil, http.StatusOK, &spaces); err != nil {
		t.Fatal(err)
	}
	return spaces.Items[0].ID
}
