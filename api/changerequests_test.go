package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type crOut struct {
	Object          string `json:"object"`
	ID              string `json:"id"`
	Number          int    `json:"number"`
	Status          string `json:"status"`
	Subject         string `json:"subject"`
	Space           string `json:"space"`
	Revision        string `json:"revision"`
	RevisionInitial string `json:"revisionInitial"`
	Outdated        bool   `json:"outdated"`
	CreatedBy       struct {
		ID string `json:"id"`
	} `json:"createdBy"`
	URLs struct {
		Location string `json:"location"`
	} `json:"urls"`
}

type crSpaceCounts struct {
	Revision            string `json:"revision"`
	ChangeRequests      int    `json:"changeRequests"`
	ChangeRequestsOpen  int    `json:"changeRequestsOpen"`
	ChangeRequestsDraft int    `json:"changeRequestsDraft"`
}

func (e *env) crSpace(t testing.TB) string {
	t.Helper()
	var sp struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": "Handbook"}).want(t, http.StatusCreated).Decode(t, &sp)
	return sp.ID
}

func crNumbers(t *testing.T, e *env, token, path string) []int {
	t.Helper()
	var list struct {
		Items []crOut `json:"items"`
		Count int     `json:"count"`
	}
	e.call(t, token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &list)
	nums := []int{}
	for _, c := range list.Items {
		nums = append(nums, c.Number)
	}
	if list.Count != len(nums) {
		t.Errorf("%s: count %d for %d items", path, list.Count, len(nums))
	}
	return nums
}

func TestChangeRequestLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	space := e.crSpace(t)
	base := "/v1/spaces/" + space + "/change-requests"
	editor := e.addUser(t, "edit", "Eddie Editor")

	var sp crSpaceCounts
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+space, nil).want(t, http.StatusOK).Decode(t, &sp)

	var first crOut
	res := e.call(t, e.admin.token, "POST", base, map[string]any{"subject": "Fix typos"}).want(t, http.StatusCreated)
	res.Decode(t, &first)
	want := crOut{Object: "change-request", ID: first.ID, Number: 1, Status: "draft", Subject: "Fix typos", Space: space,
		Revision: sp.Revision, RevisionInitial: sp.Revision}
	want.CreatedBy.ID = e.admin.id
	want.URLs.Location = testPublicURL + base + "/" + first.ID
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("created change request (-want +got):\n%s", diff)
	}
	if loc := res.Header.Get("Location"); loc != want.URLs.Location {
		t.Errorf("Location %q, want %q", loc, want.URLs.Location)
	}
	var second crOut
	e.call(t, editor.token, "POST", base, nil).want(t, http.StatusCreated).Decode(t, &second)
	if second.Number != 2 || second.Subject != "" {
		t.Errorf("second request: number %d subject %q, want 2 and empty", second.Number, second.Subject)
	}

	// By id or by number.
	for _, ref := range []string{first.ID, "1"} {
		var got crOut
		e.call(t, editor.token, "GET", base+"/"+ref, nil).want(t, http.StatusOK).Decode(t, &got)
		if got.ID != first.ID {
			t.Errorf("GET %s: got %s, want %s", ref, got.ID, first.ID)
		}
	}
	e.call(t, e.admin.token, "GET", base+"/3", nil).wantError(t, http.StatusNotFound)

	// Lists: open by default, newest first, contributor filter.
	if got := crNumbers(t, e, e.admin.token, base); len(got) != 0 {
		t.Errorf("open requests %v, want none: new ones are drafts", got)
	}
	if diff := cmp.Diff([]int{2, 1}, crNumbers(t, e, e.admin.token, base+"?status=draft")); diff != "" {
		t.Errorf("drafts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2}, crNumbers(t, e, e.admin.token, base+"?status=draft&contributor="+editor.id)); diff != "" {
		t.Errorf("drafts with the editor's contributions (-want +got):\n%s", diff)
	}

	// Patch subject and status.
	var patched crOut
	e.call(t, editor.token, "PATCH", base+"/1", map[string]any{"subject": "Fix all typos", "status": "open"}).want(t, http.StatusOK).Decode(t, &patched)
	if patched.Subject != "Fix all typos" || patched.Status != "open" {
		t.Errorf("patched: %+v", patched)
	}
	if diff := cmp.Diff([]int{1}, crNumbers(t, e, e.admin.token, base)); diff != "" {
		t.Errorf("open requests (-want +got):\n%s", diff)
	}
	e.call(t, e.admin.token, "PATCH", base+"/2", map[string]any{"status": "archived"}).want(t, http.StatusOK)

	e.call(t, e.admin.token, "GET", "/v1/spaces/"+space, nil).want(t, http.StatusOK).Decode(t, &sp)
	if sp.ChangeRequests != 2 || sp.ChangeRequestsOpen != 1 || sp.ChangeRequestsDraft != 0 {
		t.Errorf("space counts: %+v, want 2 in all, 1 open, 0 drafts", sp)
	}
}

func TestChangeRequestValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	space := e.crSpace(t)
	base := "/v1/spaces/" + space + "/change-requests"
	e.call(t, e.admin.token, "POST", base, map[string]any{"subject": "Start"}).want(t, http.StatusCreated)
	tests := []struct {
		method, path string
		body         any
		field        string
	}{
		{"POST", base, map[string]any{"subject": strings.Repeat("s", 101)}, "subject"},
		{"POST", base, map[string]any{"subject": 7}, "subject"},
		{"PATCH", base + "/1", map[string]any{"subject": strings.Repeat("é", 101)}, "subject"},
		{"PATCH", base + "/1", map[string]any{"status": "merged"}, "status"},
		{"PATCH", base + "/1", map[string]any{"status": "closed"}, "status"},
		{"GET", base + "?status=closed", nil, "status"},
		{"GET", base + "?limit=0", nil, "limit"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s %v", tt.method, tt.path, tt.body), func(t *testing.T) {
			e.call(t, e.admin.token, tt.method, tt.path, tt.body).wantError(t, http.StatusBadRequest, tt.field)
		})
	}
	var c crOut
	e.call(t, e.admin.token, "GET", base+"/1", nil).want(t, http.StatusOK).Decode(t, &c)
	if c.Subject != "Start" || c.Status != "draft" {
		t.Errorf("refused patches changed the request: %+v", c)
	}
	// A subject of exactly 100 characters is fine.
	e.call(t, e.admin.token, "PATCH", base+"/1", map[string]any{"subject": strings.Repeat("é", 100)}).want(t, http.StatusOK)
}

func TestChangeRequestPermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	space := e.crSpace(t)
	base := "/v1/spaces/" + space + "/change-requests"
	e.call(t, e.admin.token, "POST", base, nil).want(t, http.StatusCreated)
	reader := e.addUser(t, "read", "Rita Reader")
	guest := e.addUser(t, "guest", "Gil Guest")
	outsider := e.outsider(t)

	e.call(t, reader.token, "GET", base+"?status=draft", nil).want(t, http.StatusOK)
	e.call(t, reader.token, "GET", base+"/1", nil).want(t, http.StatusOK)
	e.call(t, reader.token, "POST", base, nil).wantError(t, http.StatusForbidden)
	e.call(t, reader.token, "PATCH", base+"/1", map[string]any{"subject": "x"}).wantError(t, http.StatusForbidden)
	for _, u := range []user{guest, outsider} {
		e.call(t, u.token, "GET", base, nil).wantError(t, http.StatusNotFound)
		e.call(t, u.token, "GET", base+"/1", nil).wantError(t, http.StatusNotFound)
		e.call(t, u.token, "POST", base, nil).wantError(t, http.StatusNotFound)
		e.call(t, u.token, "PATCH", base+"/1", map[string]any{"subject": "x"}).wantError(t, http.StatusNotFound)
	}
	// A guest granted edit on the space may propose changes.
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+space+"/permissions", map[string]any{"role": "edit", "users": []string{guest.id}}).want(t, http.StatusNoContent)
	e.call(t, guest.token, "POST", base, nil).want(t, http.StatusCreated)
	// A change request of one space is not reachable through another.
	other := e.crSpace(t)
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+other+"/change-requests/1", nil).wantError(t, http.StatusNotFound)
}

func TestChangeRequestNumbersUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	space := e.crSpace(t)
	base := "/v1/spaces/" + space + "/change-requests"
	const n = 10
	done := make(chan int, n)
	for range n {
		go func() {
			var c crOut
			res := e.call(t, e.admin.token, "POST", base, nil)
			if res.Status != http.StatusCreated || json.Unmarshal(res.Body, &c) != nil {
				t.Errorf("create: %d %s", res.Status, res.Body)
			}
			done <- c.Number
		}()
	}
	seen := map[int]bool{}
	for range n {
		seen[<-done] = true
	}
	for i := 1; i <= n; i++ {
		if !seen[i] {
			t.Errorf("numbers %v: %d missing; want 1 to %d each once", seen, i, n)
		}
	}
}
