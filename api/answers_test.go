package api_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// getGzip GETs path as token's holder, taking gzip.
func (e *env) getGzip(t *testing.T, token, path string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept-Encoding", "br;q=1.0, gzip;q=0.8")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return rec
}

// gunzip decodes b, or reports an error and is nil; safe from any goroutine.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Errorf("gzip: %v", err)
		return nil
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Errorf("gunzip: %v", err)
		return nil
	}
	return out
}

// TestListPagesCached holds the cached page lists (space, change request and
// revision, each format, with and without metadata, plain and gzipped) to
// the bytes the uncached path builds, and checks that a merge shows at once
// and that cached bytes reach no one who may not read.
func TestListPagesCached(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	long := strings.Repeat("Words to make the answer worth compressing. ", 20)
	e.author(t, e.admin.token, cr,
		insertPage("guide", "# Guide\n\nSee [install](./install.md) and [the web](https://example.com/).\n\n"+long+"\n"),
		insertPage("install", "---\ndescription: Set it up\n---\n# Install\n\nRun it. <b>&</b>\n\n"+long+"\n", "into", "guide"),
	).want(t, http.StatusOK)
	merged := e.readMerge(t, cr)
	_, cr2 := e.readNewCR(t, spaceID, "Next")
	e.author(t, e.admin.token, cr2, insertPage("next", "# Next\n\nMore.\n")).want(t, http.StatusOK)
	var crRev struct{ ID string }
	e.readGet(t, e.admin.token, cr2+"/content", &crRev)

	queries := []struct {
		query              string
		document, metadata bool
	}{
		{"", false, true},
		{"?format=markdown&metadata=false", false, false},
		{"?format=document", true, true},
		{"?format=document&metadata=false", true, false},
	}
	for _, list := range []struct{ path, revision string }{
		{sp + "/content/pages", merged},
		{cr2 + "/content/pages", crRev.ID},
		{sp + "/revisions/" + merged + "/pages", merged},
	} {
		for _, q := range queries {
			path := list.path + q.query
			want, err := e.srv.PageListUncached(t.Context(), spaceID, list.revision, q.document, q.metadata)
			if err != nil {
				t.Fatal(err)
			}
			for _, round := range []string{"built", "cached"} {
				r := e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK)
				if !bytes.Equal(r.Body, want) {
					t.Errorf("GET %s (%s) differs from the uncached answer:\n%s\nwant\n%s", path, round, r.Body, want)
				}
				if r.Header.Get("Content-Encoding") != "" || r.Header.Get("Vary") != "Accept-Encoding" {
					t.Errorf("GET %s (%s): Content-Encoding %q, Vary %q", path, round, r.Header.Get("Content-Encoding"), r.Header.Get("Vary"))
				}
			}
			rec := e.getGzip(t, e.admin.token, path)
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" {
				t.Fatalf("GET %s gzipped: status %d, Content-Encoding %q, Vary %q", path, rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"))
			}
			if got := gunzip(t, rec.Body.Bytes()); !bytes.Equal(got, want) {
				t.Errorf("GET %s gzipped decodes to\n%s\nwant\n%s", path, got, want)
			}
		}
	}

	// Cached bytes are for readers only.
	reader := e.addUser(t, "read", "Rita Reader")
	guest := e.addUser(t, "guest", "Gil Guest")
	outsider := e.outsider(t)
	for _, path := range []string{sp + "/content/pages", cr2 + "/content/pages", sp + "/revisions/" + merged + "/pages?format=document"} {
		admin := e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Body
		if got := e.call(t, reader.token, "GET", path, nil).want(t, http.StatusOK).Body; !bytes.Equal(got, admin) {
			t.Errorf("GET %s: the reader sees %s, the admin %s", path, got, admin)
		}
		for _, u := range []user{guest, outsider} {
			e.call(t, u.token, "GET", path, nil).wantError(t, http.StatusNotFound)
			if rec := e.getGzip(t, u.token, path); rec.Code != http.StatusNotFound || rec.Header().Get("Content-Encoding") != "" {
				t.Errorf("GET %s gzipped as %s: status %d, Content-Encoding %q", path, u.email, rec.Code, rec.Header().Get("Content-Encoding"))
			}
		}
		e.call(t, "", "GET", path, nil).wantError(t, http.StatusUnauthorized)
	}

	// A merge makes a new revision, whose list shows at once.
	before := e.call(t, e.admin.token, "GET", sp+"/content/pages", nil).want(t, http.StatusOK).Body
	if bytes.Contains(before, []byte(`"title":"Next"`)) {
		t.Fatalf("the space lists the change request's page before the merge: %s", before)
	}
	merged2 := e.readMerge(t, cr2)
	after := e.call(t, e.admin.token, "GET", sp+"/content/pages", nil).want(t, http.StatusOK).Body
	want, err := e.srv.PageListUncached(t.Context(), spaceID, merged2, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, want) || !bytes.Contains(after, []byte(`"title":"Next"`)) {
		t.Errorf("after the merge the space lists\n%s\nwant\n%s", after, want)
	}
	if got := gunzip(t, e.getGzip(t, e.admin.token, sp+"/content/pages").Body.Bytes()); !bytes.Equal(got, want) {
		t.Errorf("after the merge the gzipped list decodes to\n%s\nwant\n%s", got, want)
	}
	// The old revision's list is still itself.
	if got := e.call(t, e.admin.token, "GET", sp+"/revisions/"+merged+"/pages", nil).want(t, http.StatusOK).Body; !bytes.Equal(got, before) {
		t.Errorf("the merged revision now lists\n%s\nwant\n%s", got, before)
	}
}

// TestListPagesConcurrent asks for a list not yet built from many requests
// at once, plain and gzipped: each answer is the uncached one.
func TestListPagesConcurrent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr, insertPage("", "# Guide\n\n"+strings.Repeat("Some words. ", 100)+"\n")).want(t, http.StatusOK)
	merged := e.readMerge(t, cr)
	want, err := e.srv.PageListUncached(t.Context(), spaceID, merged, true, true)
	if err != nil {
		t.Fatal(err)
	}
	path := "/v1/spaces/" + spaceID + "/content/pages?format=document"
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil)
			req.Header.Set("Authorization", "Bearer "+e.admin.token)
			if i%2 == 0 {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			rec := httptest.NewRecorder()
			e.srv.ServeHTTP(rec, req)
			got := rec.Body.Bytes()
			if rec.Header().Get("Content-Encoding") == "gzip" {
				got = gunzip(t, got)
			} else if i%2 == 0 {
				t.Errorf("request %d took gzip and got Content-Encoding %q", i, rec.Header().Get("Content-Encoding"))
			}
			if rec.Code != http.StatusOK || !bytes.Equal(got, want) {
				t.Errorf("request %d: status %d, body\n%s\nwant\n%s", i, rec.Code, got, want)
			}
		})
	}
	wg.Wait()
}

// TestPageReadsCached holds cached page reads (of the space, a change
// request, a revision and by path; each format, with and without metadata,
// plain and gzipped) to the bytes the uncached path builds, and checks
// that a merge shows at once.
func TestPageReadsCached(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	long := strings.Repeat("Words to make the answer worth compressing. ", 20)
	e.author(t, e.admin.token, cr,
		insertPage("guide", "# Guide\n\nSee [install](./install.md).\n\n"+long+"\n"),
		insertPage("install", "# Install\n\nRun it. <b>&</b>\n\n"+long+"\n", "into", "guide"),
	).want(t, http.StatusOK)
	merged := e.readMerge(t, cr)
	var list struct {
		Pages []struct {
			ID    string
			Pages []struct{ ID string }
		}
	}
	e.readGet(t, e.admin.token, sp+"/content/pages", &list)
	guide, install := list.Pages[0].ID, list.Pages[0].Pages[0].ID
	_, cr2 := e.readNewCR(t, spaceID, "Next")
	e.author(t, e.admin.token, cr2, insertPage("next", "# Next\n\nMore.\n")).want(t, http.StatusOK)
	var crRev struct{ ID string }
	e.readGet(t, e.admin.token, cr2+"/content", &crRev)

	for _, read := range []struct{ path, revision, page string }{
		{sp + "/content/page/" + guide, merged, guide},
		{sp + "/content/page/" + install, merged, install},
		{sp + "/content/path/guide/install", merged, install},
		{cr2 + "/content/page/" + install, crRev.ID, install},
		{sp + "/revisions/" + merged + "/page/" + guide, merged, guide},
	} {
		for _, q := range []struct {
			query              string
			document, metadata bool
		}{
			{"", false, true},
			{"?metadata=false", false, false},
			{"?format=document", true, true},
		} {
			path := read.path + q.query
			want, err := e.srv.PageUncached(t.Context(), spaceID, read.revision, read.page, q.document, q.metadata)
			if err != nil {
				t.Fatal(err)
			}
			for _, round := range []string{"built", "cached"} {
				if r := e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK); !bytes.Equal(r.Body, want) {
					t.Errorf("GET %s (%s) differs from the uncached answer:\n%s\nwant\n%s", path, round, r.Body, want)
				}
			}
			rec := e.getGzip(t, e.admin.token, path)
			if got := gunzip(t, rec.Body.Bytes()); rec.Code != http.StatusOK || !bytes.Equal(got, want) {
				t.Errorf("GET %s gzipped: status %d, decodes to\n%s\nwant\n%s", path, rec.Code, got, want)
			}
		}
	}

	// A merge that changes a page shows at once.
	e.author(t, e.admin.token, cr2, map[string]any{"operation": "update_page", "page": install, "document": map[string]any{"markdown": "# Install\n\nChanged.\n"}}).want(t, http.StatusOK)
	merged2 := e.readMerge(t, cr2)
	want, err := e.srv.PageUncached(t.Context(), spaceID, merged2, install, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.call(t, e.admin.token, "GET", sp+"/content/page/"+install, nil).want(t, http.StatusOK).Body; !bytes.Equal(got, want) || !bytes.Contains(got, []byte("Changed.")) {
		t.Errorf("after the merge the page reads\n%s\nwant\n%s", got, want)
	}
}

// TestSearchAnswersCached: a space search answers the same bytes to every
// reader, plain and gzipped, and a merge shows in the next search.
func TestSearchAnswersCached(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	search := "/v1/spaces/" + spaceID + "/search?query=zebra"
	e.author(t, e.admin.token, cr, insertPage("one", "# One\n\nA zebra crossing.\n")).want(t, http.StatusOK)
	e.readMerge(t, cr)
	first := e.call(t, e.admin.token, "GET", search, nil).want(t, http.StatusOK).Body
	if !bytes.Contains(first, []byte("One")) {
		t.Fatalf("search finds %s", first)
	}
	reader := e.addUser(t, "read", "Rita Reader")
	if again := e.call(t, reader.token, "GET", search, nil).want(t, http.StatusOK).Body; !bytes.Equal(again, first) {
		t.Errorf("the reader's search answers\n%s\nthe admin's\n%s", again, first)
	}
	if got := gunzip(t, e.getGzip(t, e.admin.token, search).Body.Bytes()); !bytes.Equal(got, first) {
		t.Errorf("gzipped search decodes to\n%s\nwant\n%s", got, first)
	}
	e.call(t, e.outsider(t).token, "GET", search, nil).wantError(t, http.StatusNotFound)

	_, cr2 := e.readNewCR(t, spaceID, "Two")
	e.author(t, e.admin.token, cr2, insertPage("two", "# Two\n\nAnother zebra.\n")).want(t, http.StatusOK)
	e.readMerge(t, cr2)
	if after := e.call(t, e.admin.token, "GET", search, nil).want(t, http.StatusOK).Body; !bytes.Contains(after, []byte(`"title":"Two"`)) {
		t.Errorf("after the merge the search answers %s", after)
	}
}

// TestListPagesFromRuns holds page lists put together from cached runs of
// top-level pages (revision/pagelist.go) to the uncached bytes, plain and gzipped,
// across merges that change one page, the first page (README.md in Git,
// so the next one's Git paths change while its pages do not), a section's
// slug (its pages' paths) and a removal.
func TestListPagesFromRuns(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	var batch []map[string]any
	for i := range 40 { // a section and its children in one batch, refs being a batch's own
		ref := fmt.Sprintf("s%d", i)
		section := []map[string]any{insertPage(ref, fmt.Sprintf("# Section %d\n\nAbout %d. %s\n", i, i, strings.Repeat("Words. ", 30)))}
		if i < 4 {
			for j := range 10 {
				section = append(section, insertPage(fmt.Sprintf("c%d-%d", i, j), fmt.Sprintf("# Child %d of %d\n\nText.\n", j, i), "into", ref))
			}
		}
		if len(batch)+len(section) > 50 {
			e.author(t, e.admin.token, cr, batch...).want(t, http.StatusOK)
			batch = nil
		}
		batch = append(batch, section...)
	}
	e.author(t, e.admin.token, cr, batch...).want(t, http.StatusOK)
	revision := e.readMerge(t, cr)

	var list struct {
		Pages []struct {
			ID    string
			Pages []struct{ ID string }
		}
	}
	e.readGet(t, e.admin.token, sp+"/content/pages", &list)
	// Pages read one by one, kept by their content: a section, its first
	// child, a child edited below and its parent, a section removed.
	watched := []string{list.Pages[1].ID, list.Pages[1].Pages[0].ID, list.Pages[2].ID, list.Pages[2].Pages[3].ID, list.Pages[3].ID}
	check := func(step string) {
		t.Helper()
		for _, q := range []struct {
			query    string
			metadata bool
		}{{"", true}, {"?metadata=false", false}} {
			want, err := e.srv.PageListUncached(t.Context(), spaceID, revision, false, q.metadata)
			if err != nil {
				t.Fatal(err)
			}
			var wantList struct{ Pages []any }
			if err := json.Unmarshal(want, &wantList); err != nil {
				t.Fatal(err)
			}
			for _, id := range watched {
				wantPage := findListedPage(wantList.Pages, id)
				res := e.call(t, e.admin.token, "GET", sp+"/content/page/"+id+q.query, nil)
				if wantPage == nil {
					res.want(t, http.StatusNotFound)
					continue
				}
				var got any
				res.want(t, http.StatusOK).Decode(t, &got)
				if diff := cmp.Diff(wantPage, got); diff != "" {
					t.Errorf("%s: GET page %s%s (-uncached +got):\n%s", step, id, q.query, diff)
				}
			}
			if got := e.call(t, e.admin.token, "GET", sp+"/content/pages"+q.query, nil).want(t, http.StatusOK).Body; !bytes.Equal(got, want) {
				t.Errorf("%s: GET pages%s differs from the uncached answer:\n%s\nwant\n%s", step, q.query, got, want)
			}
			rec := e.getGzip(t, e.admin.token, sp+"/content/pages"+q.query)
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("%s: Content-Encoding %q", step, rec.Header().Get("Content-Encoding"))
			}
			if got := gunzip(t, rec.Body.Bytes()); !bytes.Equal(got, want) {
				t.Errorf("%s: GET pages%s gzipped decodes to\n%s\nwant\n%s", step, q.query, got, want)
			}
		}
	}
	check("seeded")

	step := func(name string, changes ...map[string]any) {
		t.Helper()
		_, cr := e.readNewCR(t, spaceID, name)
		e.author(t, e.admin.token, cr, changes...).want(t, http.StatusOK)
		revision = e.readMerge(t, cr)
		check(name)
	}
	step("one child edited", cmUpdatePage(list.Pages[2].Pages[3].ID, "document", cmMarkdown("# Edited\n\nNew words.\n")))
	step("a first page inserted", insertPage("", "# Home\n\nWelcome.\n", "at", 0))
	step("a section renamed", cmUpdatePage(list.Pages[1].ID, "slug", "renamed"))
	step("a section removed", cmDeletePage(list.Pages[3].ID))
}

// findListedPage is the page with id in a decoded page list, at any depth.
func findListedPage(pages []any, id string) any {
	for _, p := range pages {
		m := p.(map[string]any)
		if m["id"] == id {
			return m
		}
		if sub, _ := m["pages"].([]any); sub != nil {
			if found := findListedPage(sub, id); found != nil {
				return found
			}
		}
	}
	return nil
}
