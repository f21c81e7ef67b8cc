package api_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

type memberOut struct {
	Object     string  `json:"object"`
	ID         string  `json:"id"`
	Role       *string `json:"role"`
	User       userOut `json:"user"`
	Disabled   bool    `json:"disabled"`
	JoinedAt   string  `json:"joinedAt"`
	LastSeenAt string  `json:"lastSeenAt"`
	SSO        bool    `json:"sso"`
	Spaces     int     `json:"spaces"`
	Teams      int     `json:"teams"`
}

func (e *env) membersPath(rest string) string { return "/v1/orgs/" + e.org + "/members" + rest }

func (e *env) fetchMember(t *testing.T, token, userID string) memberOut {
	t.Helper()
	var m memberOut
	e.call(t, token, "GET", e.membersPath("/"+userID), nil).want(t, http.StatusOK).Decode(t, &m)
	return m
}

// fetchMembers gets one page of the member list with the query q.
func (e *env) fetchMembers(t *testing.T, token string, q url.Values) listOut[memberOut] {
	t.Helper()
	var l listOut[memberOut]
	e.call(t, token, "GET", e.membersPath("?"+q.Encode()), nil).want(t, http.StatusOK).Decode(t, &l)
	return l
}

// walkMembers follows next from the first page to the last, calling between
// after each page that has a next one, and returns every page.
func (e *env) walkMembers(t *testing.T, token string, q url.Values, between func()) []listOut[memberOut] {
	t.Helper()
	var pages []listOut[memberOut]
	q = cloneQuery(q)
	for {
		if len(pages) > 10000 {
			t.Fatal("the member list does not end")
		}
		page := e.fetchMembers(t, token, q)
		pages = append(pages, page)
		if page.Next == nil {
			return pages
		}
		if page.Next.Page == "" {
			t.Fatal("next without a page token")
		}
		q.Set("page", page.Next.Page)
		if between != nil {
			between()
		}
	}
}

func cloneQuery(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

func memberQuery(kv ...string) url.Values {
	q := url.Values{}
	for i := 0; i < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return q
}

func displayNames(ms []memberOut) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.User.DisplayName)
	}
	return out
}

// seedTeam creates a team through the API with the given members.
func (e *env) seedTeam(t *testing.T, orgID, title string, members ...string) string {
	t.Helper()
	if members == nil {
		members = []string{}
	}
	var team struct {
		ID string `json:"id"`
	}
	e.call(t, e.admin.token, "PUT", "/v1/orgs/"+orgID+"/teams", map[string]any{"title": title, "members": members}).
		want(t, http.StatusCreated).Decode(t, &team)
	return team.ID
}

func parseTime(t *testing.T, field, v string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339, v)
	if err != nil {
		t.Fatalf("%s %q: %v", field, v, err)
	}
	return ts
}

func TestMemberGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tickClock(e)
	reader := e.addUser(t, "read", "Rita Reader")
	guest := e.addUser(t, "guest", "Gus Guest")

	admin := e.fetchMember(t, e.admin.token, e.admin.id)
	got := e.fetchMember(t, e.admin.token, reader.id)
	want := memberOut{Object: "member", ID: reader.id, Role: ptrTo("read"), JoinedAt: got.JoinedAt,
		User: userOut{Object: "user", ID: reader.id, DisplayName: "Rita Reader", Email: reader.email}}
	want.User.URLs.Location = testPublicURL + "/v1/users/" + reader.id
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GET member (-want +got):\n%s", diff)
	}
	if !parseTime(t, "joinedAt", got.JoinedAt).After(parseTime(t, "joinedAt", admin.JoinedAt)) {
		t.Errorf("reader joined at %s, not after the admin (%s)", got.JoinedAt, admin.JoinedAt)
	}
	if admin.Role == nil || *admin.Role != "admin" {
		t.Errorf("admin's role %v", admin.Role)
	}

	// Members see each other the same way; a guest's role is null.
	if diff := cmp.Diff(got, e.fetchMember(t, reader.token, reader.id)); diff != "" {
		t.Errorf("member seen by themself (-by admin +by themself):\n%s", diff)
	}
	if g := e.fetchMember(t, reader.token, guest.id); g.Role != nil || g.User.DisplayName != "Gus Guest" {
		t.Errorf("guest: role %v, name %q; want null role", g.Role, g.User.DisplayName)
	}
	if a := e.fetchMember(t, guest.token, e.admin.id); a.ID != e.admin.id {
		t.Errorf("guest sees %q as the admin", a.ID)
	}

	out := e.outsider(t)
	e.call(t, e.admin.token, "GET", e.membersPath("/nosuchuser"), nil).wantError(t, http.StatusNotFound, "member not found")
	e.call(t, e.admin.token, "GET", e.membersPath("/"+out.id), nil).wantError(t, http.StatusNotFound, "member not found")
	e.call(t, out.token, "GET", e.membersPath("/"+e.admin.id), nil).wantError(t, http.StatusNotFound, "organization not found")
}

// TestMemberList covers the filters, sorts and orders of GET O/members.
func TestMemberList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tickClock(e)
	// In order of joining; the admin, Ada Admin, joined first.
	bob := e.addUser(t, "read", "Bob Builder")
	carol := e.addUser(t, "edit", "carol chen")
	e.addUser(t, "guest", "Dave Doe")
	e.addUser(t, "admin", "Eve Example")
	e.addUser(t, "comment", "Émile Zola")
	e.addUser(t, "read", "100% Pat")
	e.addUser(t, "read", "under_score")
	// Seen: carol, then Bob, then Ada.
	for _, u := range []user{carol, bob, e.admin} {
		e.call(t, u.token, "POST", "/v1/orgs/"+e.org+"/ping", nil).want(t, http.StatusOK)
	}

	joined := []string{"Ada Admin", "Bob Builder", "carol chen", "Dave Doe", "Eve Example", "Émile Zola", "100% Pat", "under_score"}
	byName := []string{"100% Pat", "Ada Admin", "Bob Builder", "carol chen", "Dave Doe", "Eve Example", "under_score", "Émile Zola"}
	rev := func(s []string) []string { s = slices.Clone(s); slices.Reverse(s); return s }

	for _, tc := range []struct {
		query url.Values
		want  []string
	}{
		{memberQuery(), rev(joined)},
		{memberQuery("order", "desc"), rev(joined)},
		{memberQuery("order", "asc"), joined},
		{memberQuery("sort", "joinedAt", "order", "asc"), joined},
		{memberQuery("role", "admin"), []string{"Eve Example", "Ada Admin"}},
		{memberQuery("role", "read", "order", "asc"), []string{"Bob Builder", "100% Pat", "under_score"}},
		{memberQuery("role", "edit"), []string{"carol chen"}},
		{memberQuery("role", "comment"), []string{"Émile Zola"}},
		{memberQuery("role", "guest"), []string{"Dave Doe"}},
		{memberQuery("role", "create"), []string{}},
		{memberQuery("search", "bob"), []string{"Bob Builder"}},
		{memberQuery("search", "BUILDER"), []string{"Bob Builder"}},
		{memberQuery("search", "Chen"), []string{"carol chen"}},
		{memberQuery("search", "ÉMILE"), []string{"Émile Zola"}},
		{memberQuery("search", "émile zola"), []string{"Émile Zola"}},
		{memberQuery("search", strings.ToUpper(carol.email)), []string{"carol chen"}},
		{memberQuery("search", "@EXAMPLE.com"), rev(joined)},
		{memberQuery("search", "%"), []string{"100% Pat"}},
		{memberQuery("search", "_"), []string{"under_score"}},
		{memberQuery("search", `\`), []string{}},
		{memberQuery("search", "nobody"), []string{}},
		{memberQuery("role", "read", "search", "b"), []string{"Bob Builder"}},
		{memberQuery("sort", "name", "order", "asc"), byName},
		{memberQuery("sort", "name"), rev(byName)},
		{memberQuery("sort", "lastSeenAt"), []string{"Ada Admin", "Bob Builder", "carol chen"}},
		{memberQuery("sort", "lastSeenAt", "order", "asc"), []string{"carol chen", "Bob Builder", "Ada Admin"}},
		{memberQuery("sort", "lastSeenAt", "role", "read"), []string{"Bob Builder"}},
		{memberQuery("role", "admin", "sort", "name", "order", "asc"), []string{"Ada Admin", "Eve Example"}},
	} {
		t.Run(tc.query.Encode(), func(t *testing.T) {
			got := e.fetchMembers(t, bob.token, tc.query)
			if diff := cmp.Diff(tc.want, displayNames(got.Items)); diff != "" {
				t.Errorf("members (-want +got):\n%s", diff)
			}
			if got.Count != len(tc.want) || got.Next != nil {
				t.Errorf("count %d, next %v; want %d and no next page", got.Count, got.Next, len(tc.want))
			}
			// Two at a time, the pages add up to the same list.
			q := cloneQuery(tc.query)
			q.Set("limit", "2")
			var paged []memberOut
			for i, page := range e.walkMembers(t, bob.token, q, nil) {
				if page.Count != len(tc.want) {
					t.Errorf("page %d: count %d, want %d", i, page.Count, len(tc.want))
				}
				if page.Next != nil && len(page.Items) != 2 {
					t.Errorf("page %d: %d items before the last page, want 2", i, len(page.Items))
				}
				paged = append(paged, page.Items...)
			}
			if diff := cmp.Diff(tc.want, displayNames(paged)); diff != "" {
				t.Errorf("members two by two (-want +got):\n%s", diff)
			}
		})
	}

	// lastSeenAt shows who was seen, in the order they were.
	list := e.fetchMembers(t, bob.token, memberQuery("sort", "lastSeenAt"))
	for i := 1; i < len(list.Items); i++ {
		if !parseTime(t, "lastSeenAt", list.Items[i-1].LastSeenAt).After(parseTime(t, "lastSeenAt", list.Items[i].LastSeenAt)) {
			t.Errorf("lastSeenAt %s then %s: want newest first", list.Items[i-1].LastSeenAt, list.Items[i].LastSeenAt)
		}
	}
}

// TestMemberListInvalid: bad query parameters are 400s naming the parameter.
func TestMemberListInvalid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b64 := base64.RawURLEncoding.EncodeToString
	for _, tc := range []struct {
		query string
		field string
	}{
		{"limit=0", "limit"},
		{"limit=1001", "limit"},
		{"limit=abc", "limit"},
		{"limit=-1", "limit"},
		{"limit=2.5", "limit"},
		{"limit=", "limit"},
		{"page=not-a-page-token", "page"},
		{"page=", "page"},
		{"page=" + b64([]byte("hello")), "page"},
		{"page=" + b64([]byte(`{"n":5}`)), "page"},
		{"page=" + strings.Repeat("A", 3000), "page"},
		{"role=owner", "role"},
		{"role=Admin", "role"},
		{"sort=email", "sort"},
		{"order=up", "order"},
		{"search=" + strings.Repeat("s", 257), "search"},
		{"search=" + url.QueryEscape(strings.Repeat("é", 257)), "search"},
	} {
		t.Run(tc.query[:min(len(tc.query), 40)], func(t *testing.T) {
			e.call(t, e.admin.token, "GET", e.membersPath("?"+tc.query), nil).wantError(t, http.StatusBadRequest, tc.field)
		})
	}
	// The edges of the valid ranges.
	for _, q := range []string{"limit=1", "limit=1000", "search=" + strings.Repeat("s", 256), "search=" + url.QueryEscape(strings.Repeat("é", 256)),
		"role=guest", "sort=name&order=asc"} {
		e.call(t, e.admin.token, "GET", e.membersPath("?"+q), nil).want(t, http.StatusOK)
	}
}

// TestMemberPagination lists thousands of members in pages of 1000 while
// others join between pages: everyone who was there from the start is listed
// exactly once, pages are full until the last, the last has no next, and
// count is the total at the time of each page.
func TestMemberPagination(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const seeded = 2500
	roles := []quire.Role{quire.RoleRead, quire.RoleEdit, quire.RoleGuest, quire.RoleComment, quire.RoleCreate}
	// One transaction: every seeded member shares one joinedAt, so the order
	// among them rests on the id tie-breaker; names repeat for the same reason.
	// present: who is a member when a walk starts.
	var present map[string]bool
	err := e.db.Tx(t.Context(), func(tx *store.Tx) error {
		present = map[string]bool{e.admin.id: true} // afresh if the transaction is retried
		for i := range seeded {
			u, err := tx.EnsureUser(t.Context(), fmt.Sprintf("seed%04d@example.com", i), fmt.Sprintf("Seed %02d", i%40))
			if err != nil {
				return err
			}
			if err := tx.AddMember(t.Context(), e.org, u.ID, roles[i%len(roles)]); err != nil {
				return err
			}
			present[u.ID] = true
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed members: %v", err)
	}

	total := seeded + 1
	for _, tc := range []struct {
		sort, order string
		// lateListed: whether members who join mid-walk are listed.
		lateListed bool
	}{
		{"joinedAt", "desc", false}, // they sort before the pages already read
		{"joinedAt", "asc", true},   // they sort after every page read so far
		{"name", "asc", false},      // "Late …" sorts before "Seed …"
		{"name", "desc", true},
	} {
		t.Run(tc.sort+" "+tc.order, func(t *testing.T) {
			late := map[string]bool{}
			wantCounts := []int{total}
			pages := e.walkMembers(t, e.admin.token, memberQuery("sort", tc.sort, "order", tc.order, "limit", "1000"), func() {
				for range 3 {
					late[e.addUser(t, "read", fmt.Sprintf("Late %d", total)).id] = true
					total++
				}
				wantCounts = append(wantCounts, total)
			})
			seen := map[string]int{}
			var items []memberOut
			var counts []int
			for i, p := range pages {
				counts = append(counts, p.Count)
				if p.Next != nil && len(p.Items) != 1000 {
					t.Errorf("page %d has %d items and a next page; want 1000", i, len(p.Items))
				}
				for _, it := range p.Items {
					seen[it.ID]++
					items = append(items, it)
				}
			}
			if len(pages) < 3 {
				t.Errorf("%d pages, want at least 3", len(pages))
			}
			if diff := cmp.Diff(wantCounts, counts); diff != "" {
				t.Errorf("count of each page, the total at that time (-want +got):\n%s", diff)
			}
			for id, n := range seen {
				if n != 1 {
					t.Errorf("member %s listed %d times", id, n)
				}
				if !present[id] && !late[id] {
					t.Errorf("member %s listed, but nobody by that id joined", id)
				}
			}
			for id := range present {
				if seen[id] != 1 {
					t.Errorf("member %s, there from the start, listed %d times", id, seen[id])
				}
			}
			for id := range late {
				present[id] = true // there from the start of the next walk
			}
			lateSeen := 0
			for id := range late {
				lateSeen += seen[id]
			}
			if tc.lateListed && lateSeen != len(late) {
				t.Errorf("%d of %d late members listed, want all", lateSeen, len(late))
			}
			if !tc.lateListed && lateSeen != 0 {
				t.Errorf("%d late members listed in pages already read, want none", lateSeen)
			}
			// The walk is in order across page boundaries.
			for i := 1; i < len(items); i++ {
				a, b := items[i-1], items[i]
				var ka, kb string
				if tc.sort == "name" {
					ka, kb = strings.ToLower(a.User.DisplayName), strings.ToLower(b.User.DisplayName)
				} else {
					ka, kb = a.JoinedAt, b.JoinedAt
				}
				if (tc.order == "asc" && ka > kb) || (tc.order == "desc" && ka < kb) {
					t.Fatalf("items %d and %d out of %s %s order: %q then %q", i-1, i, tc.sort, tc.order, ka, kb)
				}
			}
		})
	}
}

func TestMemberUpdateRole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.addUser(t, "read", "Rita Reader")
	creator := e.addUser(t, "create", "Cory Create")
	path := e.membersPath("/" + m.id)

	for _, tc := range []struct {
		body string
		want *string
	}{
		{`{"role":"edit"}`, ptrTo("edit")},
		{`{"role":"comment"}`, ptrTo("comment")},
		{`{"role":null}`, nil},
		{`{}`, nil}, // absent: unchanged
		{`{"role":"review"}`, ptrTo("review")},
		{`{"role":"create"}`, ptrTo("create")},
		{`{"role":"admin"}`, ptrTo("admin")},
		{`{"role":"read"}`, ptrTo("read")},
	} {
		t.Run(tc.body, func(t *testing.T) {
			var got memberOut
			e.call(t, e.admin.token, "PATCH", path, tc.body).want(t, http.StatusOK).Decode(t, &got)
			if diff := cmp.Diff(tc.want, got.Role); diff != "" || got.ID != m.id {
				t.Errorf("member %s role (-want +got):\n%s", got.ID, diff)
			}
			if diff := cmp.Diff(got, e.fetchMember(t, e.admin.token, m.id)); diff != "" {
				t.Errorf("GET after PATCH (-patched +got):\n%s", diff)
			}
			// The role filter agrees.
			role := "guest"
			if tc.want != nil {
				role = *tc.want
			}
			if l := e.fetchMembers(t, e.admin.token, memberQuery("role", role)); !slices.ContainsFunc(l.Items, func(x memberOut) bool { return x.ID == m.id }) {
				t.Errorf("role=%s does not list the member", role)
			}
		})
	}

	t.Run("invalid", func(t *testing.T) {
		for _, body := range []string{`{"role":"owner"}`, `{"role":"guest"}`, `{"role":"ADMIN"}`, `{"role":""}`, `{"role":3}`, `{"role":["read"]}`} {
			e.call(t, e.admin.token, "PATCH", path, body).wantError(t, http.StatusBadRequest, "role")
		}
		e.call(t, e.admin.token, "PATCH", e.membersPath("/nosuchuser"), `{"role":"read"}`).wantError(t, http.StatusNotFound)
		if r := e.fetchMember(t, e.admin.token, m.id).Role; r == nil || *r != "read" {
			t.Errorf("role %v after refused changes, want read", r)
		}
	})

	t.Run("not admin", func(t *testing.T) {
		// Nobody but an admin changes roles, their own included.
		e.call(t, m.token, "PATCH", path, `{"role":"admin"}`).wantError(t, http.StatusForbidden, "admin")
		e.call(t, creator.token, "PATCH", path, `{"role":"admin"}`).wantError(t, http.StatusForbidden, "admin")
		e.call(t, creator.token, "PATCH", e.membersPath("/"+creator.id), `{"role":"admin"}`).wantError(t, http.StatusForbidden, "admin")
		e.call(t, m.token, "PATCH", e.membersPath("/"+e.admin.id), `{"role":null}`).wantError(t, http.StatusForbidden, "admin")
		if r := e.fetchMember(t, e.admin.token, m.id).Role; r == nil || *r != "read" {
			t.Errorf("role %v after a member tried to promote themself", r)
		}
		if r := e.fetchMember(t, e.admin.token, e.admin.id).Role; r == nil || *r != "admin" {
			t.Errorf("admin's role %v after a member tried to demote them", r)
		}
		e.call(t, e.outsider(t).token, "PATCH", path, `{"role":"admin"}`).wantError(t, http.StatusNotFound)
	})

	t.Run("last admin", func(t *testing.T) {
		self := e.membersPath("/" + e.admin.id)
		e.call(t, e.admin.token, "PATCH", self, `{"role":"edit"}`).wantError(t, http.StatusConflict, "admin")
		e.call(t, e.admin.token, "PATCH", self, `{"role":null}`).wantError(t, http.StatusConflict, "admin")
		e.call(t, e.admin.token, "PATCH", self, `{"role":"admin"}`).want(t, http.StatusOK) // no change, no conflict

		// With a second admin, the first may step down, and then loses admin rights.
		e.call(t, e.admin.token, "PATCH", path, `{"role":"admin"}`).want(t, http.StatusOK)
		var got memberOut
		e.call(t, e.admin.token, "PATCH", self, `{"role":"edit"}`).want(t, http.StatusOK).Decode(t, &got)
		if got.Role == nil || *got.Role != "edit" {
			t.Errorf("former admin's role %v, want edit", got.Role)
		}
		e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"title": "Mine"}).wantError(t, http.StatusForbidden)
		e.call(t, e.admin.token, "PATCH", path, `{"role":"read"}`).wantError(t, http.StatusForbidden)
		// The remaining admin is now the last.
		e.call(t, m.token, "PATCH", path, `{"role":"read"}`).wantError(t, http.StatusConflict, "admin")
		if l := e.fetchMembers(t, m.token, memberQuery("role", "admin")); l.Count != 1 || l.Items[0].ID != m.id {
			t.Errorf("admins: %v", displayNames(l.Items))
		}
	})
}

// TestMemberLastAdminConcurrent: two admins demoting or removing each other
// at the same moment must not leave the organization without an admin.
func TestMemberLastAdminConcurrent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.addUser(t, "admin", "Abe Admin")
	admins := []user{e.admin, other}
	for round := range 20 {
		method, body := "PATCH", any(`{"role":"read"}`)
		if round%2 == 1 {
			method, body = "DELETE", nil
		}
		// Both are admins, members again if removed last round.
		for _, a := range admins {
			if _, err := e.db.AddUser(t.Context(), e.org, a.email, "", quire.RoleAdmin); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		statuses := make([]int, 2)
		for i, a := range admins {
			target := admins[1-i]
			wg.Go(func() {
				<-start
				statuses[i] = e.call(t, a.token, method, e.membersPath("/"+target.id), body).Status
			})
		}
		close(start)
		wg.Wait()
		admin := quire.RoleAdmin
		l, err := e.db.ListMembers(t.Context(), e.org, store.MemberFilter{Role: &admin}, store.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if l.Count < 1 {
			t.Fatalf("round %d: %s of each other answered %v and left no admin", round, method, statuses)
		}
		slices.Sort(statuses)
		if statuses[1] >= 500 || statuses[0] >= 500 {
			t.Fatalf("round %d: statuses %v", round, statuses)
		}
	}
}

func TestMemberRemove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rita Reader")
	leaver := e.addUser(t, "edit", "Lee Leaver")
	guest := e.addUser(t, "guest", "Gus Guest")
	bystander := e.addUser(t, "comment", "Bea Bystander")
	team := e.seedTeam(t, e.org, "Writers", reader.id, bystander.id)
	count := func() int { return e.fetchMembers(t, e.admin.token, nil).Count }
	if n := count(); n != 5 {
		t.Fatalf("%d members, want 5", n)
	}

	// A member may not remove others.
	e.call(t, bystander.token, "DELETE", e.membersPath("/"+reader.id), nil).wantError(t, http.StatusForbidden, "admin")
	e.call(t, guest.token, "DELETE", e.membersPath("/"+e.admin.id), nil).wantError(t, http.StatusForbidden, "admin")
	e.call(t, e.outsider(t).token, "DELETE", e.membersPath("/"+reader.id), nil).wantError(t, http.StatusNotFound)
	if n := count(); n != 5 {
		t.Fatalf("%d members after refused removals, want 5", n)
	}

	// An admin removes a member: 204 and no body; they are gone, from the
	// organization and its teams, and see nothing of it any more.
	res := e.call(t, e.admin.token, "DELETE", e.membersPath("/"+reader.id), nil).want(t, http.StatusNoContent)
	if len(res.Body) != 0 {
		t.Errorf("204 with body %q", res.Body)
	}
	e.call(t, e.admin.token, "GET", e.membersPath("/"+reader.id), nil).wantError(t, http.StatusNotFound)
	e.call(t, reader.token, "GET", "/v1/orgs/"+e.org, nil).wantError(t, http.StatusNotFound)
	e.call(t, reader.token, "GET", e.membersPath(""), nil).wantError(t, http.StatusNotFound)
	var tm struct {
		Members int `json:"members"`
	}
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/teams/"+team, nil).want(t, http.StatusOK).Decode(t, &tm)
	if tm.Members != 1 {
		t.Errorf("team has %d members after one of two left the organization, want 1", tm.Members)
	}
	e.call(t, e.admin.token, "DELETE", e.membersPath("/"+reader.id), nil).wantError(t, http.StatusNotFound)

	// Members and guests may leave.
	e.call(t, leaver.token, "DELETE", e.membersPath("/"+leaver.id), nil).want(t, http.StatusNoContent)
	e.call(t, guest.token, "DELETE", e.membersPath("/"+guest.id), nil).want(t, http.StatusNoContent)
	e.call(t, leaver.token, "GET", "/v1/orgs/"+e.org, nil).wantError(t, http.StatusNotFound)
	if got := displayNames(e.fetchMembers(t, e.admin.token, memberQuery("order", "asc")).Items); !cmp.Equal(got, []string{"Ada Admin", "Bea Bystander"}) {
		t.Errorf("members left: %v", got)
	}

	// The last admin stays; with another admin, either may go.
	e.call(t, e.admin.token, "DELETE", e.membersPath("/"+e.admin.id), nil).wantError(t, http.StatusConflict, "admin")
	e.call(t, e.admin.token, "PATCH", e.membersPath("/"+bystander.id), `{"role":"admin"}`).want(t, http.StatusOK)
	e.call(t, e.admin.token, "DELETE", e.membersPath("/"+e.admin.id), nil).want(t, http.StatusNoContent)
	e.call(t, bystander.token, "DELETE", e.membersPath("/"+bystander.id), nil).wantError(t, http.StatusConflict, "admin")
	if n := e.fetchMembers(t, bystander.token, nil).Count; n != 1 {
		t.Errorf("%d members, want the last admin alone", n)
	}
}

// TestMemberTeamCount: a member's teams is the true number of the
// organization's teams they belong to.
func TestMemberTeamCount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.addUser(t, "read", "Rita Reader")
	other := e.addUser(t, "read", "Otis Other")
	teams := func(id string) (byGet, inList int) {
		t.Helper()
		byGet = e.fetchMember(t, e.admin.token, id).Teams
		for _, it := range e.fetchMembers(t, e.admin.token, nil).Items {
			if it.ID == id {
				inList = it.Teams
			}
		}
		return byGet, inList
	}
	want := func(id string, n int) {
		t.Helper()
		if byGet, inList := teams(id); byGet != n || inList != n {
			t.Errorf("member %s: teams %d (GET), %d (list), want %d", id, byGet, inList, n)
		}
	}
	want(m.id, 0)
	a := e.seedTeam(t, e.org, "Alpha", m.id, other.id)
	e.seedTeam(t, e.org, "Beta", m.id)
	e.seedTeam(t, e.org, "Gamma", other.id)
	e.seedTeam(t, e.org, "Empty")
	want(m.id, 2)
	want(other.id, 2)
	want(e.admin.id, 0)

	// Teams of another organization the member also belongs to do not count here.
	second := e.createOrg(t, e.admin.token, "Second Org")
	if _, err := e.db.AddUser(t.Context(), second.ID, m.email, "", quire.RoleRead); err != nil {
		t.Fatal(err)
	}
	e.seedTeam(t, second.ID, "Elsewhere", m.id)
	want(m.id, 2)

	e.call(t, e.admin.token, "DELETE", "/v1/orgs/"+e.org+"/teams/"+a, nil).want(t, http.StatusNoContent)
	want(m.id, 1)
	want(other.id, 1)
}

func TestPing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tickClock(e)
	reader := e.addUser(t, "read", "Rita Reader")
	guest := e.addUser(t, "guest", "Gus Guest")
	path := "/v1/orgs/" + e.org + "/ping"

	if got := e.fetchMember(t, e.admin.token, reader.id).LastSeenAt; got != "" {
		t.Errorf("lastSeenAt %q before any ping, want none", got)
	}
	key, err := e.db.ServerKey(t.Context(), "visitor-claims")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		who  user
		role any
	}{
		{reader, "read"},
		{guest, nil},
		{e.admin, "admin"},
	} {
		t.Run(tc.who.id, func(t *testing.T) {
			var body map[string]string
			e.call(t, tc.who.token, "POST", path, nil).want(t, http.StatusOK).Decode(t, &body)
			if body["gitbookVisitorClaims"] == "" || body["serviceVisitorClaims"] != body["gitbookVisitorClaims"] {
				t.Fatalf("claims %v: want the same JWT under both names", body)
			}
			claims := jwt.MapClaims{}
			tok, err := jwt.ParseWithClaims(body["serviceVisitorClaims"], claims, func(*jwt.Token) (any, error) { return key, nil },
				jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired())
			if err != nil || !tok.Valid {
				t.Fatalf("claims do not verify with the server's key: %v", err)
			}
			got := map[string]any{"sub": claims["sub"], "org": claims["org"], "role": claims["role"]}
			want := map[string]any{"sub": tc.who.id, "org": e.org, "role": tc.role}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("claims (-want +got):\n%s", diff)
			}
			if _, ok := claims["role"]; !ok {
				t.Error("claims have no role, want null for a guest")
			}
			// The claims are signed: another key does not verify them.
			if _, err := jwt.Parse(body["serviceVisitorClaims"], func(*jwt.Token) (any, error) { return []byte("not the key"), nil }); err == nil {
				t.Error("claims verify with a wrong key")
			}
		})
	}

	first := parseTime(t, "lastSeenAt", e.fetchMember(t, e.admin.token, reader.id).LastSeenAt)
	joined := parseTime(t, "joinedAt", e.fetchMember(t, e.admin.token, reader.id).JoinedAt)
	if !first.After(joined) {
		t.Errorf("lastSeenAt %v is not after joinedAt %v", first, joined)
	}
	e.call(t, reader.token, "POST", path, nil).want(t, http.StatusOK)
	if again := parseTime(t, "lastSeenAt", e.fetchMember(t, e.admin.token, reader.id).LastSeenAt); !again.After(first) {
		t.Errorf("lastSeenAt %v after a second ping, want later than %v", again, first)
	}
	// Pinging only tells about the caller.
	if got := e.fetchMember(t, e.admin.token, guest.id).LastSeenAt; got == "" {
		t.Error("guest's ping did not set lastSeenAt")
	}
	if got := displayNames(e.fetchMembers(t, e.admin.token, memberQuery("sort", "lastSeenAt")).Items); !cmp.Equal(got, []string{"Rita Reader", "Ada Admin", "Gus Guest"}) {
		t.Errorf("lastSeenAt order %v", got)
	}

	e.call(t, e.outsider(t).token, "POST", path, nil).wantError(t, http.StatusNotFound)
	e.call(t, "", "POST", path, nil).wantError(t, http.StatusUnauthorized)
	e.call(t, reader.token, "GET", path, nil).wantError(t, http.StatusMethodNotAllowed)
}

func TestMemberSSO(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.addUser(t, "read", "Rita Reader")
	path := e.membersPath("/" + m.id + "/sso")
	for range 2 { // marking twice is harmless
		var got memberOut
		e.call(t, e.admin.token, "POST", path, nil).want(t, http.StatusOK).Decode(t, &got)
		if !got.SSO || got.ID != m.id || got.Role == nil || *got.Role != "read" {
			t.Errorf("after POST sso: %+v, want the reader with sso", got)
		}
	}
	if !e.fetchMember(t, m.token, m.id).SSO {
		t.Error("GET does not show sso")
	}
	if e.fetchMember(t, e.admin.token, e.admin.id).SSO {
		t.Error("sso set on the admin too")
	}
	e.call(t, m.token, "POST", e.membersPath("/"+e.admin.id+"/sso"), nil).wantError(t, http.StatusForbidden, "admin")
	e.call(t, m.token, "POST", path, nil).wantError(t, http.StatusForbidden, "admin")
	e.call(t, e.admin.token, "POST", e.membersPath("/nosuchuser/sso"), nil).wantError(t, http.StatusNotFound)
	e.call(t, e.outsider(t).token, "POST", path, nil).wantError(t, http.StatusNotFound)
}

func TestMemberSpaces(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.addUser(t, "read", "Rita Reader")
	for _, tc := range []struct {
		name   string
		token  string
		target string
		query  string
		status int
	}{
		{"admin lists a member's", e.admin.token, m.id, "", http.StatusOK},
		{"member lists their own", m.token, m.id, "?order=asc&limit=10", http.StatusOK},
		{"member lists another's", m.token, e.admin.id, "", http.StatusForbidden},
		{"unknown member", e.admin.token, "nosuchuser", "", http.StatusNotFound},
		{"bad limit", e.admin.token, m.id, "?limit=0", http.StatusBadRequest},
		{"bad order", e.admin.token, m.id, "?order=sideways", http.StatusBadRequest},
		{"bad page", e.admin.token, m.id, "?page=zzz", http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := e.call(t, tc.token, "GET", e.membersPath("/"+tc.target+"/spaces"+tc.query), nil)
			if tc.status != http.StatusOK {
				res.wantError(t, tc.status)
				return
			}
			var got listOut[map[string]any]
			res.want(t, http.StatusOK).Decode(t, &got)
			if got.Items == nil || len(got.Items) != 0 || got.Count != 0 || got.Next != nil {
				t.Errorf("spaces %s: want an empty list (no spaces exist)", res.Body)
			}
		})
	}
}

func TestMemberTeams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.addUser(t, "read", "Rita Reader")
	other := e.addUser(t, "read", "Otis Other")
	docs := e.seedTeam(t, e.org, "Docs Writers", m.id, other.id)
	reviewers := e.seedTeam(t, e.org, "API Reviewers", m.id)
	e.seedTeam(t, e.org, "Support", other.id)
	e.call(t, e.admin.token, "PUT", "/v1/orgs/"+e.org+"/teams/"+reviewers+"/members/"+m.id, map[string]any{"role": "owner"}).want(t, http.StatusNoContent)

	type item struct {
		Team struct {
			ID      string `json:"id"`
			Title   string `json:"title"`
			Members int    `json:"members"`
		} `json:"team"`
		Member struct {
			Role string `json:"role"`
		} `json:"member"`
	}
	type row struct {
		ID, Title string
		Members   int
		Role      string
	}
	rows := func(items []item) []row {
		out := []row{}
		for _, it := range items {
			out = append(out, row{it.Team.ID, it.Team.Title, it.Team.Members, it.Member.Role})
		}
		return out
	}
	path := e.membersPath("/" + m.id + "/teams")
	docsRow, apiRow := row{docs, "Docs Writers", 2, "member"}, row{reviewers, "API Reviewers", 1, "owner"}

	for _, tc := range []struct {
		name  string
		token string
		query string
		want  []row
	}{
		{"all", e.admin.token, "", []row{docsRow, apiRow}},
		{"seen by another member", other.token, "", []row{docsRow, apiRow}},
		{"seen by themself", m.token, "", []row{docsRow, apiRow}},
		{"title", e.admin.token, "?title=docs", []row{docsRow}},
		{"title any case", e.admin.token, "?title=REVIEW", []row{apiRow}},
		{"title inner words", e.admin.token, "?title=s+w", []row{docsRow}},
		{"title not among theirs", e.admin.token, "?title=support", []row{}},
		{"title wildcard is literal", e.admin.token, "?title=%25", []row{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got listOut[item]
			e.call(t, tc.token, "GET", path+tc.query, nil).want(t, http.StatusOK).Decode(t, &got)
			if diff := cmp.Diff(tc.want, rows(got.Items)); diff != "" {
				t.Errorf("teams (-want +got):\n%s", diff)
			}
			if got.Count != len(tc.want) || got.Next != nil {
				t.Errorf("count %d, next %v; want %d and no next", got.Count, got.Next, len(tc.want))
			}
		})
	}

	t.Run("one per page", func(t *testing.T) {
		var all []item
		p := path + "?limit=1"
		for range 3 {
			var page listOut[item]
			e.call(t, e.admin.token, "GET", p, nil).want(t, http.StatusOK).Decode(t, &page)
			if page.Count != 2 || len(page.Items) != 1 {
				t.Fatalf("count %d with %d items, want 2 with 1", page.Count, len(page.Items))
			}
			all = append(all, page.Items...)
			if page.Next == nil {
				break
			}
			p = path + "?limit=1&page=" + page.Next.Page
		}
		if diff := cmp.Diff([]row{docsRow, apiRow}, rows(all)); diff != "" {
			t.Errorf("teams one per page (-want +got):\n%s", diff)
		}
	})

	e.call(t, e.admin.token, "GET", e.membersPath("/nosuchuser/teams"), nil).wantError(t, http.StatusNotFound)
	e.call(t, e.outsider(t).token, "GET", path, nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", path+"?limit=1001", nil).wantError(t, http.StatusBadRequest, "limit")
}

// TestMemberPermissionMatrix: what a read-only member, a guest and an
// outsider get from each operation on the organization and its members.
// Members see (200) or are refused (403); outsiders see nothing (404).
func TestMemberPermissionMatrix(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rita Reader")
	guest := e.addUser(t, "guest", "Gus Guest")
	target := e.addUser(t, "edit", "Ted Target")
	out := e.outsider(t)
	o := "/v1/orgs/" + e.org
	tm := o + "/members/" + target.id

	callers := []struct {
		name string
		user user
	}{{"reader", reader}, {"guest", guest}, {"outsider", out}}
	for _, tc := range []struct {
		method, path string
		body         any
		want         [3]int // reader, guest, outsider
	}{
		{"GET", "/v1/users/" + target.id, nil, [3]int{200, 200, 404}},
		{"GET", o, nil, [3]int{200, 200, 404}},
		{"PATCH", o, map[string]any{"title": "Taken Over"}, [3]int{403, 403, 404}},
		{"GET", o + "/members", nil, [3]int{200, 200, 404}},
		{"GET", o + "/members?role=admin&sort=name", nil, [3]int{200, 200, 404}},
		{"GET", tm, nil, [3]int{200, 200, 404}},
		{"PATCH", tm, map[string]any{"role": "admin"}, [3]int{403, 403, 404}},
		{"DELETE", tm, nil, [3]int{403, 403, 404}},
		{"POST", tm + "/sso", nil, [3]int{403, 403, 404}},
		{"GET", tm + "/spaces", nil, [3]int{403, 403, 404}},
		{"GET", tm + "/teams", nil, [3]int{200, 200, 404}},
		{"POST", o + "/ping", nil, [3]int{200, 200, 404}},
	} {
		for i, c := range callers {
			t.Run(c.name+" "+tc.method+" "+strings.ReplaceAll(tc.path, e.org, "O"), func(t *testing.T) {
				res := e.call(t, c.user.token, tc.method, tc.path, tc.body)
				if tc.want[i] >= 400 {
					res.wantError(t, tc.want[i])
				} else {
					res.want(t, tc.want[i])
				}
			})
		}
	}
	// Nothing was changed by the refused calls.
	got := e.fetchMember(t, e.admin.token, target.id)
	if got.Role == nil || *got.Role != "edit" || got.SSO {
		t.Errorf("target is now %+v, want unchanged", got)
	}
	if title := e.fetchOrg(t, e.admin.token, e.org).Title; title != "Test Org" {
		t.Errorf("organization title %q", title)
	}
}

// TestMemberRequestErrors covers each class of request error on the member
// endpoints.
func TestMemberRequestErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.addUser(t, "read", "Rita Reader")
	path := e.membersPath("/" + m.id)
	for _, tc := range []struct {
		name        string
		token       string
		method      string
		path        string
		contentType string // "-" for none
		body        string
		status      int
		parts       []string
	}{
		{"no token", "", "GET", e.membersPath(""), "-", "", http.StatusUnauthorized, []string{"Authorization"}},
		{"bad token", "quire_wrong", "PATCH", path, "application/json", `{"role":"edit"}`, http.StatusUnauthorized, nil},
		{"body too large", e.admin.token, "PATCH", path, "application/json", `{"role":"edit","pad":"` + strings.Repeat("p", 1<<20) + `"}`, http.StatusRequestEntityTooLarge, []string{"body"}},
		{"text body", e.admin.token, "PATCH", path, "text/plain", `{"role":"edit"}`, http.StatusUnsupportedMediaType, []string{"Content-Type"}},
		{"no content type", e.admin.token, "PATCH", path, "-", `{"role":"edit"}`, http.StatusUnsupportedMediaType, []string{"Content-Type"}},
		{"malformed", e.admin.token, "PATCH", path, "application/json", `{"role":`, http.StatusBadRequest, []string{"malformed JSON"}},
		{"not an object", e.admin.token, "PATCH", path, "application/json", `"edit"`, http.StatusBadRequest, []string{"body"}},
		{"wrong type", e.admin.token, "PATCH", path, "application/json", `{"role":true}`, http.StatusBadRequest, []string{"role"}},
		{"wrong method", e.admin.token, "PUT", path, "application/json", `{"role":"edit"}`, http.StatusMethodNotAllowed, []string{"PUT"}},
		{"forbidden", m.token, "PATCH", path, "application/json", `{"role":"admin"}`, http.StatusForbidden, []string{"admin"}},
		{"not found", e.outsider(t).token, "PATCH", path, "application/json", `{"role":"edit"}`, http.StatusNotFound, []string{"organization not found"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "-" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			e.do(t, req).wantError(t, tc.status, tc.parts...)
		})
	}
	if r := e.fetchMember(t, e.admin.token, m.id).Role; r == nil || *r != "read" {
		t.Errorf("role %v after refused requests, want read", r)
	}
}
