package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

type orgSearchOut struct {
	Type  string         `json:"type"`
	ID    string         `json:"id"`
	Title string         `json:"title"`
	Score float64        `json:"score"`
	Pages []searchHitOut `json:"pages"`
}

func orgSearch(t *testing.T, e *env, token, query, extra string) listOut[orgSearchOut] {
	t.Helper()
	var out listOut[orgSearchOut]
	refCall(t, e, token, "GET", "/v1/orgs/"+e.org+"/search?query="+url.QueryEscape(query)+extra, nil).want(t, http.StatusOK).Decode(t, &out)
	return out
}

// TestSearchOrganization searches every space the caller can read: a space
// they cannot read never appears.
func TestSearchOrganization(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	open, secret := colCreateSpace(t, e, "Open", "").ID, colCreateSpace(t, e, "Secret", "").ID
	openIDs := e.cmSeed(t, open, insertPage("", "# Webhooks\n\nWebhooks call your server.\n"), insertPage("", "# Retries\n\nFailed webhooks are retried.\n"))
	secretIDs := e.cmSeed(t, secret, insertPage("", "# Webhooks inside\n\nOur webhooks keys.\n"))
	guest, outsider := e.addUser(t, "guest", "Gus Guest"), e.outsider(t)
	colGrant(t, e, "space", open, "read", []string{guest.id}, nil)

	all := orgSearch(t, e, e.admin.token, "webhooks", "")
	if all.Count != 3 || len(all.Items) != 2 || all.Next != nil {
		t.Fatalf("admin's search: %+v", all)
	}
	ranks, spaces := map[string]int{}, map[string]string{}
	for _, sp := range all.Items {
		if sp.Type != "space" || sp.Score <= 0 || len(sp.Pages) == 0 || sp.Score != sp.Pages[0].Score {
			t.Errorf("space result %+v", sp)
		}
		for _, p := range sp.Pages {
			ranks[p.ID+"@"+sp.ID], spaces[p.ID] = p.Rank, sp.ID
		}
	}
	if spaces[secretIDs["Webhooks inside"]] != secret || spaces[openIDs["Retries"]] != open || len(ranks) != 3 {
		t.Errorf("pages by space %v", spaces)
	}

	// One page at a time, each keeps its rank in the whole ranking.
	seen := map[int]bool{}
	page := ""
	for range 3 {
		got := orgSearch(t, e, e.admin.token, "webhooks", "&limit=1"+page)
		if got.Count != 3 || len(got.Items) != 1 || len(got.Items[0].Pages) != 1 {
			t.Fatalf("a page of one: %+v", got)
		}
		p := got.Items[0].Pages[0]
		if want := ranks[p.ID+"@"+got.Items[0].ID]; p.Rank != want || seen[p.Rank] {
			t.Errorf("rank %d on its own page, %d in the whole", p.Rank, want)
		}
		seen[p.Rank] = true
		if got.Next == nil {
			break
		}
		page = "&page=" + got.Next.Page
	}
	if len(seen) != 3 {
		t.Errorf("paging saw ranks %v", seen)
	}

	mine := orgSearch(t, e, guest.token, "webhooks", "")
	if mine.Count != 2 || len(mine.Items) != 1 || mine.Items[0].ID != open {
		t.Errorf("the guest's search shows what they cannot read: %+v", mine)
	}
	if none := orgSearch(t, e, e.admin.token, "zebra", ""); none.Count != 0 || len(none.Items) != 0 {
		t.Errorf("zebra: %+v", none)
	}
	base := "/v1/orgs/" + e.org + "/search"
	run(t, e, []scenario{
		{name: "outsiders see no organization", as: outsider, path: base + "?query=webhooks", status: 404},
		{name: "query is required", path: base, status: 400, errs: []string{"query"}},
		{name: "query is bounded", path: base + "?query=" + url.QueryEscape(string(make([]byte, 513))), status: 400, errs: []string{"query"}},
		{name: "a bad page", path: base + "?query=webhooks&page=nope", status: 400, errs: []string{"page"}},
	})
}

// TestOrganizationChangeRequests lists the change requests of every space
// the caller can read, with the reference's filters.
func TestOrganizationChangeRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tick := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	e.db.Now = func() time.Time { tick = tick.Add(time.Second); return tick }
	open, secret := colCreateSpace(t, e, "Open", "").ID, colCreateSpace(t, e, "Secret", "").ID
	editor, guest, outsider := e.addUser(t, "edit", "Ed Editor"), e.addUser(t, "guest", "Gus Guest"), e.outsider(t)
	colGrant(t, e, "space", open, "read", []string{guest.id}, nil)
	a, b, c, d, x := seedOrgChangeRequests(t, e, editor, open, secret)
	site := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{secret}})
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+open+"/change-requests/"+a+"/requested-reviewers", map[string]any{"users": []string{editor.id}}).want(t, http.StatusOK)

	list := func(token, query string) []string {
		t.Helper()
		var out listOut[crOut]
		refCall(t, e, token, "GET", "/v1/orgs/"+e.org+"/change-requests"+query, nil).want(t, http.StatusOK).Decode(t, &out)
		ids := []string{}
		for _, c := range out.Items {
			ids = append(ids, c.ID)
		}
		if out.Count != len(ids) && out.Next == nil && !strings.Contains(query, "page=") {
			t.Errorf("%s: count %d for %d items", query, out.Count, len(ids))
		}
		return ids
	}
	for _, tc := range []struct {
		name, query string
		as          user
		want        []string
	}{
		{"open ones by default, last updated first", "", e.admin, []string{a, c, b}},
		{"by creation", "?orderBy=createdAt", e.admin, []string{c, b, a}},
		{"several statuses", "?status=draft&status=archived", e.admin, []string{x, d}},
		{"several statuses, comma-separated", "?status=open,draft&orderBy=createdAt", e.admin, []string{d, c, b, a}},
		{"by creator", "?creator=" + editor.id, e.admin, []string{c, b}},
		{"by contributor", "?contributor=" + e.admin.id, e.admin, []string{a}},
		{"by requested reviewer", "?requestedReviewer=" + editor.id, e.admin, []string{a}},
		{"by space", "?space=" + secret + "&status=open,archived", e.admin, []string{x, c}},
		{"by site", "?site=" + site.ID, e.admin, []string{c}},
		{"a guest sees the spaces granted", "", guest, []string{a, b}},
		{"a guest asking for a secret space", "?space=" + secret, guest, []string{}},
		{"no site topic in Quire", "?topic=t1", e.admin, []string{}},
		{"finding changes nothing", "?finding=all", e.admin, []string{a, c, b}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := list(tc.as.token, tc.query)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}

	// Pages follow one another without repeats.
	var first listOut[crOut]
	refCall(t, e, e.admin.token, "GET", "/v1/orgs/"+e.org+"/change-requests?limit=2", nil).want(t, http.StatusOK).Decode(t, &first)
	if first.Count != 3 || len(first.Items) != 2 || first.Next == nil || first.Items[0].ID != a {
		t.Fatalf("first page %+v", first)
	}
	if rest := list(e.admin.token, "?limit=2&page="+first.Next.Page); len(rest) != 1 || rest[0] != b {
		t.Errorf("second page %v", rest)
	}

	base := "/v1/orgs/" + e.org + "/change-requests"
	run(t, e, []scenario{
		{name: "outsiders see no organization", as: outsider, path: base, status: 404},
		{name: "a bad status", path: base + "?status=closed", status: 400, errs: []string{"status"}},
		{name: "a bad order", path: base + "?orderBy=title", status: 400, errs: []string{"orderBy"}},
		{name: "a bad finding", path: base + "?finding=some", status: 400, errs: []string{"finding"}},
	})
}

// seedOrgChangeRequests opens change requests in two spaces, a second
// apart: a (open, the admin's, updated last), b and c (open, the editor's),
// d (a draft) and x (archived).
func seedOrgChangeRequests(t *testing.T, e *env, editor user, open, secret string) (a, b, c, d, x string) {
	t.Helper()
	cr := func(token, spaceID, status string) string {
		t.Helper()
		path := e.cmNewCR(t, token, spaceID)
		if status != "draft" {
			e.call(t, token, "PATCH", path, map[string]any{"status": status}).want(t, http.StatusOK)
		}
		var got crOut
		e.call(t, token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &got)
		return got.ID
	}
	a = cr(e.admin.token, open, "open")
	b = cr(editor.token, open, "open")
	c = cr(editor.token, secret, "open")
	d = cr(editor.token, open, "draft")
	x = cr(e.admin.token, secret, "archived")
	// Updating a, last, puts it first by update but not by creation.
	e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+open+"/change-requests/"+a, map[string]any{"subject": "Renamed"}).want(t, http.StatusOK)
	return a, b, c, d, x
}
