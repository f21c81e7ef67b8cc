package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
)

// Contract §4.6 Spaces, POST and GET O/spaces, and the permission model of
// spaces (docs/api/spaces-collections-and-roles.md), end to end through the
// real router. Package-level names start with "sp" so they cannot clash with
// other test files of the package.

// spSpace is a space as the API answers it.
type spSpace struct {
	Object              string  `json:"object"`
	ID                  string  `json:"id"`
	Title               string  `json:"title"`
	Emoji               string  `json:"emoji"`
	Visibility          string  `json:"visibility"`
	CreatedAt           string  `json:"createdAt"`
	UpdatedAt           string  `json:"updatedAt"`
	DeletedAt           string  `json:"deletedAt"`
	EditMode            string  `json:"editMode"`
	URLs                spURLs  `json:"urls"`
	Organization        string  `json:"organization"`
	Parent              string  `json:"parent"`
	Revision            string  `json:"revision"`
	DefaultLevel        *string `json:"defaultLevel"`
	Comments            int     `json:"comments"`
	ChangeRequests      int     `json:"changeRequests"`
	ChangeRequestsOpen  int     `json:"changeRequestsOpen"`
	ChangeRequestsDraft int     `json:"changeRequestsDraft"`
	Permissions         spPerms `json:"permissions"`
}

type spURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

// spPerms are the space flags of Contract §5.4 (and view).
type spPerms struct {
	View    bool `json:"view"`
	Access  bool `json:"access"`
	Comment bool `json:"comment"`
	Edit    bool `json:"edit"`
	Review  bool `json:"review"`
	Merge   bool `json:"merge"`
	Admin   bool `json:"admin"`
}

// spPermsOf is what the flags must be for a role ("" for none): read →
// access; comment → +comment; edit → +edit; review → +review, +merge;
// admin → all.
func spPermsOf(role string) spPerms {
	switch role {
	case "admin":
		return spPerms{View: true, Access: true, Comment: true, Edit: true, Review: true, Merge: true, Admin: true}
	case "create", "review":
		return spPerms{View: true, Access: true, Comment: true, Edit: true, Review: true, Merge: true}
	case "edit":
		return spPerms{View: true, Access: true, Comment: true, Edit: true}
	case "comment":
		return spPerms{View: true, Access: true, Comment: true}
	case "read":
		return spPerms{View: true, Access: true}
	}
	return spPerms{}
}

// spList is a list envelope.
type spList[T any] struct {
	Items []T `json:"items"`
	Count int `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

// spMemberSpace is an item of GET O/members/{userId}/spaces.
type spMemberSpace struct {
	Permission string  `json:"permission"`
	Space      spSpace `json:"space"`
}

// spUserGrant is an item of GET …/permissions/users and …/aggregate.
type spUserGrant struct {
	Permission string `json:"permission"`
	User       struct {
		ID string `json:"id"`
	} `json:"user"`
}

func spPath(id string) string { return "/v1/spaces/" + id }

func (e *env) spOrgPath(rest string) string { return "/v1/orgs/" + e.org + rest }

// spCreate creates a space as the holder of token with body.
func (e *env) spCreate(t *testing.T, token string, body map[string]any) spSpace {
	t.Helper()
	var sp spSpace
	e.call(t, token, "POST", e.spOrgPath("/spaces"), body).want(t, http.StatusCreated).Decode(t, &sp)
	return sp
}

// spNewSpace creates a space as the admin in parent ("" for the top level)
// and returns its id.
func (e *env) spNewSpace(t *testing.T, title, parent string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return e.spCreate(t, e.admin.token, body).ID
}

// spCollection creates a collection as the admin and returns its id.
func (e *env) spCollection(t *testing.T, title, parent string) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	var c struct {
		ID string `json:"id"`
	}
	e.call(t, e.admin.token, "POST", e.spOrgPath("/collections"), body).want(t, http.StatusCreated).Decode(t, &c)
	return c.ID
}

// spTeam creates a team with members and returns its id.
func (e *env) spTeam(t *testing.T, title string, members ...string) string {
	t.Helper()
	var team struct {
		ID string `json:"id"`
	}
	e.call(t, e.admin.token, "PUT", e.spOrgPath("/teams"), map[string]any{"title": title, "members": append([]string{}, members...)}).
		want(t, http.StatusCreated).Decode(t, &team)
	return team.ID
}

// spGrant grants role (nil removes) on the content at path ("/v1/spaces/ID"
// or "/v1/collections/ID") to users and teams, as the admin.
func (e *env) spGrant(t *testing.T, path string, role any, users, teams []string) {
	t.Helper()
	body := map[string]any{"role": role}
	if users != nil {
		body["users"] = users
	}
	if teams != nil {
		body["teams"] = teams
	}
	e.call(t, e.admin.token, "POST", path+"/permissions", body).want(t, http.StatusNoContent)
}

func (e *env) spGet(t *testing.T, token, id string) spSpace {
	t.Helper()
	var sp spSpace
	e.call(t, token, "GET", spPath(id), nil).want(t, http.StatusOK).Decode(t, &sp)
	return sp
}

// spItems fetches one page of a list at path (which has no query) with a
// limit large enough for every test, checking that count matches.
func spItems[T any](t *testing.T, e *env, token, path string) []T {
	t.Helper()
	var l spList[T]
	e.call(t, token, "GET", path+"?limit=1000", nil).want(t, http.StatusOK).Decode(t, &l)
	if l.Next != nil {
		t.Fatalf("GET %s: next page with limit 1000", path)
	}
	if l.Count != len(l.Items) {
		t.Errorf("GET %s: count %d, %d items", path, l.Count, len(l.Items))
	}
	return l.Items
}

// spTitles lists the titles of spaces, in order.
func spTitles(list []spSpace) []string {
	out := []string{}
	for _, s := range list {
		out = append(out, s.Title)
	}
	return out
}

// spTopTitles lists the titles of the org's top-level spaces, in list order.
func (e *env) spTopTitles(t *testing.T, token string) []string {
	t.Helper()
	var top []spSpace
	for _, s := range spItems[spSpace](t, e, token, e.spOrgPath("/spaces")) {
		if s.Parent == "" {
			top = append(top, s)
		}
	}
	return spTitles(top)
}

// spClock is an injectable clock for the store.
type spClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *spClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *spClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// spUseClock gives the env's store a clock that moves only when told.
func spUseClock(e *env) *spClock {
	c := &spClock{now: time.Now().UTC().Truncate(time.Second)}
	e.db.Now = c.Now
	return c
}

// spOtherOrg creates a second organization and makes the env's admin an
// admin there too; it returns the organization's id.
func (e *env) spOtherOrg(t *testing.T) string {
	t.Helper()
	b, err := e.db.InitOrganization(t.Context(), "Second Org", uniqueEmail("second"), "Sam Second")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	if _, err := e.db.AddUser(t.Context(), b.Organization.ID, e.admin.email, "Ada Admin", quire.RoleAdmin); err != nil {
		t.Fatalf("add admin to second org: %v", err)
	}
	return b.Organization.ID
}

func spStr(s string) *string { return &s }

// spWant checks a response's status, and the error body for errors.
func spWant(t *testing.T, res *response, status int) {
	t.Helper()
	if status >= 400 {
		res.wantError(t, status)
		return
	}
	res.want(t, status)
}

func TestSpaceCreateAndGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	col := e.spCollection(t, "Docs", "")
	creator := e.addUser(t, "create", "Cora Create")
	reader := e.addUser(t, "read", "Rita Read")
	guest := e.addUser(t, "guest", "Gil Guest")
	colCreator := e.addUser(t, "guest", "Gwen Granted")
	e.spGrant(t, "/v1/collections/"+col, "create", []string{colCreator.id}, nil)
	outsider := e.outsider(t)

	res := e.call(t, e.admin.token, "POST", e.spOrgPath("/spaces"), map[string]any{"title": "Guide", "emoji": "📘"}).want(t, http.StatusCreated)
	var got spSpace
	res.Decode(t, &got)
	if got.ID == "" || got.Revision == "" {
		t.Fatalf("id %q, revision %q: want both set", got.ID, got.Revision)
	}
	want := spSpace{
		Object: "space", ID: got.ID, Title: "Guide", Emoji: "📘", Visibility: "private", EditMode: "live",
		URLs:         spURLs{Location: testPublicURL + "/v1/spaces/" + got.ID, App: got.URLs.App},
		Organization: e.org, Revision: got.Revision, DefaultLevel: spStr("inherit"),
		Permissions: spPermsOf("admin"),
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(spSpace{}, "CreatedAt", "UpdatedAt")); diff != "" {
		t.Errorf("created space (-want +got):\n%s", diff)
	}
	if loc := res.Header.Get("Location"); loc != got.URLs.Location {
		t.Errorf("Location %q, want urls.location %q", loc, got.URLs.Location)
	}
	if got.URLs.App == "" {
		t.Error("urls.app is empty")
	}
	created, err := time.Parse(time.RFC3339, got.CreatedAt)
	if err != nil {
		t.Fatalf("createdAt %q: %v", got.CreatedAt, err)
	}
	if d := time.Since(created); d < -time.Minute || d > time.Minute {
		t.Errorf("createdAt %s is not now", got.CreatedAt)
	}
	if got.UpdatedAt != got.CreatedAt {
		t.Errorf("updatedAt %s, want createdAt %s", got.UpdatedAt, got.CreatedAt)
	}
	if again := e.spGet(t, e.admin.token, got.ID); !cmp.Equal(again, got) {
		t.Errorf("GET S differs from the created space (-created +got):\n%s", cmp.Diff(got, again))
	}

	// In a collection, and without a title or emoji.
	inCol := e.spCreate(t, e.admin.token, map[string]any{"parent": col})
	if inCol.Parent != col || inCol.Title != "Untitled" || inCol.Emoji != "" || inCol.Revision == "" || inCol.Revision == got.Revision {
		t.Errorf("space in a collection: parent %q title %q emoji %q revision %q", inCol.Parent, inCol.Title, inCol.Emoji, inCol.Revision)
	}

	tests := []struct {
		name   string
		caller user
		body   any
		status int
		parts  []string
	}{
		{"create member at the top level", creator, map[string]any{"title": "By Cora"}, http.StatusCreated, nil},
		{"read member at the top level", reader, map[string]any{"title": "x"}, http.StatusForbidden, nil},
		{"read member in a collection", reader, map[string]any{"title": "x", "parent": col}, http.StatusForbidden, nil},
		{"guest at the top level", guest, map[string]any{"title": "x"}, http.StatusForbidden, nil},
		{"guest without a grant in a collection", guest, map[string]any{"title": "x", "parent": col}, http.StatusBadRequest, []string{"parent"}},
		{"guest with create on the collection", colCreator, map[string]any{"title": "By Gwen", "parent": col}, http.StatusCreated, nil},
		{"guest with create on a collection, at the top level", colCreator, map[string]any{"title": "x"}, http.StatusForbidden, nil},
		{"member of another org", outsider, map[string]any{"title": "x"}, http.StatusNotFound, nil},
		{"title of 50 characters", e.admin, map[string]any{"title": strings.Repeat("é", 50)}, http.StatusCreated, nil},
		{"title of 51 characters", e.admin, map[string]any{"title": strings.Repeat("é", 51)}, http.StatusBadRequest, []string{"title"}},
		{"emoji of 51 characters", e.admin, map[string]any{"emoji": strings.Repeat("😀", 51)}, http.StatusBadRequest, []string{"emoji"}},
		{"unknown parent", e.admin, map[string]any{"parent": "nope"}, http.StatusBadRequest, []string{"parent"}},
		{"bad editMode", e.admin, map[string]any{"editMode": "frozen"}, http.StatusBadRequest, []string{"editMode"}},
		{"not JSON", e.admin, "{", http.StatusBadRequest, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := e.call(t, tc.caller.token, "POST", e.spOrgPath("/spaces"), tc.body)
			if tc.status >= 400 {
				res.wantError(t, tc.status, tc.parts...)
				return
			}
			res.want(t, tc.status)
		})
	}

	// The other org's admin cannot read it either.
	e.call(t, outsider.token, "GET", spPath(got.ID), nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", spPath("nope"), nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", spPath(got.ID)+"?shareKey="+strings.Repeat("k", 257), nil).wantError(t, http.StatusBadRequest, "shareKey")
	e.call(t, e.admin.token, "GET", spPath(got.ID)+"?shareKey=abc", nil).want(t, http.StatusOK)
	e.call(t, outsider.token, "GET", e.spOrgPath("/spaces"), nil).wantError(t, http.StatusNotFound)
	e.call(t, "", "GET", spPath(got.ID), nil).want(t, http.StatusUnauthorized)
}

func TestSpaceList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	outer := e.spCollection(t, "Outer", "")
	inner := e.spCollection(t, "Inner", outer)
	e.spNewSpace(t, "A", "")
	e.spNewSpace(t, "In outer", outer)
	e.spNewSpace(t, "B", "")
	e.spNewSpace(t, "In inner", inner)
	e.spNewSpace(t, "C", "")
	gone := e.spNewSpace(t, "Deleted", "")
	e.call(t, e.admin.token, "DELETE", spPath(gone), nil).want(t, http.StatusNoContent)

	guest := e.addUser(t, "guest", "Gail Guest")
	reader := e.addUser(t, "read", "Rex Read")
	e.spGrant(t, "/v1/collections/"+outer, "read", []string{guest.id}, nil)

	// Tree order: the top level first, each parent's children in order.
	wantAll := []string{"A", "B", "C", "In outer", "In inner"}
	if diff := cmp.Diff(wantAll, spTitles(spItems[spSpace](t, e, e.admin.token, e.spOrgPath("/spaces")))); diff != "" {
		t.Errorf("admin's list (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantAll, spTitles(spItems[spSpace](t, e, reader.token, e.spOrgPath("/spaces")))); diff != "" {
		t.Errorf("read member's list (-want +got):\n%s", diff)
	}
	gotGuest := spItems[spSpace](t, e, guest.token, e.spOrgPath("/spaces"))
	if diff := cmp.Diff([]string{"In outer", "In inner"}, spTitles(gotGuest)); diff != "" {
		t.Errorf("guest's list (-want +got):\n%s", diff)
	}
	for _, s := range gotGuest {
		if s.Permissions != spPermsOf("read") {
			t.Errorf("guest's flags on %q: %+v", s.Title, s.Permissions)
		}
	}
	if diff := cmp.Diff([]string{"In inner"}, spTitles(spItems[spSpace](t, e, e.admin.token, "/v1/collections/"+inner+"/spaces"))); diff != "" {
		t.Errorf("inner collection's spaces (-want +got):\n%s", diff)
	}

	// Paging through two at a time gives the same list.
	var paged []string
	query := "?limit=2"
	for i := 0; ; i++ {
		if i > 10 {
			t.Fatal("the list does not end")
		}
		var l spList[spSpace]
		e.call(t, e.admin.token, "GET", e.spOrgPath("/spaces"+query), nil).want(t, http.StatusOK).Decode(t, &l)
		if l.Count != len(wantAll) {
			t.Errorf("page %d: count %d, want %d", i, l.Count, len(wantAll))
		}
		paged = append(paged, spTitles(l.Items)...)
		if l.Next == nil {
			break
		}
		query = "?limit=2&page=" + url.QueryEscape(l.Next.Page)
	}
	if diff := cmp.Diff(wantAll, paged); diff != "" {
		t.Errorf("paged list (-want +got):\n%s", diff)
	}
}

// spWant are the statuses a caller gets for each operation of the matrix.
type spMatrixWant struct {
	get, title, level, del, moveIn, moveTop, dup, transfer, grant, grants int
}

// TestSpacePermissionMatrix: for each kind of caller, which space
// operations succeed, which are 403 and which 404, and the permission flags.
func TestSpacePermissionMatrix(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	org2 := e.spOtherOrg(t)
	outer := e.spCollection(t, "Outer", "")
	inner := e.spCollection(t, "Inner", outer)
	subject := e.addUser(t, "read", "Sue Subject") // who POST S/permissions grants to

	u := map[string]user{"admin": e.admin}
	for _, r := range []string{"create", "review", "edit", "comment", "read"} {
		u[r] = e.addUser(t, r, "Member "+r)
	}
	u["guest"] = e.addUser(t, "guest", "Guest None")
	u["guest-direct"] = e.addUser(t, "guest", "Guest Direct")
	u["guest-team"] = e.addUser(t, "guest", "Guest Team")
	u["guest-inherited"] = e.addUser(t, "guest", "Guest Inherited")
	u["guest-inherited-admin"] = e.addUser(t, "guest", "Guest Admin")
	u["outsider"] = e.outsider(t)
	team := e.spTeam(t, "Readers", u["guest-team"].id)
	e.spGrant(t, "/v1/collections/"+outer, "review", []string{u["guest-inherited"].id}, nil)
	e.spGrant(t, "/v1/collections/"+outer, "admin", []string{u["guest-inherited-admin"].id}, nil)

	// newSpace makes a fresh space inside the nested collection for each
	// case, with a direct grant and a team grant on it. It seeds through the
	// store: the API calls that do the same are tested elsewhere, and there
	// are many cases.
	newSpace := func(t *testing.T) string {
		t.Helper()
		sp, err := e.db.CreateSpace(t.Context(), e.org, store.NewSpace{Title: "Subject", ParentID: inner})
		if err != nil {
			t.Fatal(err)
		}
		c := store.Content{Kind: "space", ID: sp.ID, OrgID: e.org}
		if err := e.db.GrantRoles(t.Context(), c, []string{u["guest-direct"].id}, nil, quire.RoleEdit); err != nil {
			t.Fatal(err)
		}
		if err := e.db.GrantRoles(t.Context(), c, nil, []string{team}, quire.RoleComment); err != nil {
			t.Fatal(err)
		}
		return sp.ID
	}

	ops := []struct {
		name string
		want func(spMatrixWant) int
		do   func(t *testing.T, token, id string) *response
	}{
		{"GET S", func(w spMatrixWant) int { return w.get }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "GET", spPath(id), nil)
		}},
		{"PATCH title", func(w spMatrixWant) int { return w.title }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "PATCH", spPath(id), map[string]any{"title": "Renamed"})
		}},
		{"PATCH defaultLevel", func(w spMatrixWant) int { return w.level }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "PATCH", spPath(id), map[string]any{"defaultLevel": "comment"})
		}},
		{"DELETE", func(w spMatrixWant) int { return w.del }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "DELETE", spPath(id), nil)
		}},
		{"move within its collection", func(w spMatrixWant) int { return w.moveIn }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "POST", spPath(id)+"/move", map[string]any{"parent": inner})
		}},
		{"move to the top level", func(w spMatrixWant) int { return w.moveTop }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "POST", spPath(id)+"/move", map[string]any{"parent": nil})
		}},
		{"duplicate", func(w spMatrixWant) int { return w.dup }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "POST", spPath(id)+"/duplicate", nil)
		}},
		{"transfer", func(w spMatrixWant) int { return w.transfer }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "POST", spPath(id)+"/transfer", map[string]any{"organization": org2})
		}},
		{"POST S/permissions", func(w spMatrixWant) int { return w.grant }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "POST", spPath(id)+"/permissions", map[string]any{"role": "read", "users": []string{subject.id}})
		}},
		{"GET S/permissions/users", func(w spMatrixWant) int { return w.grants }, func(t *testing.T, tok, id string) *response {
			return e.call(t, tok, "GET", spPath(id)+"/permissions/users", nil)
		}},
	}

	const ok, created, none, forbidden, notFound = http.StatusOK, http.StatusCreated, http.StatusNoContent, http.StatusForbidden, http.StatusNotFound
	admin := spMatrixWant{ok, ok, ok, none, ok, ok, created, ok, none, ok}
	editor := spMatrixWant{ok, ok, forbidden, forbidden, forbidden, forbidden, forbidden, forbidden, forbidden, ok}
	reader := spMatrixWant{ok, forbidden, forbidden, forbidden, forbidden, forbidden, forbidden, forbidden, forbidden, ok}
	hidden := spMatrixWant{notFound, notFound, notFound, notFound, notFound, notFound, notFound, notFound, notFound, notFound}
	creator := editor
	creator.dup = created
	// A guest with admin on the collection administers the space and may
	// duplicate it into the collection, but creating at the top level and
	// transferring need organization roles.
	guestAdmin := admin
	guestAdmin.moveTop, guestAdmin.transfer = forbidden, forbidden

	cases := []struct {
		name   string
		caller string
		role   string // the caller's effective role on the space
		want   spMatrixWant
	}{
		{"org admin", "admin", "admin", admin},
		{"create member", "create", "create", creator},
		{"review member", "review", "review", editor},
		{"edit member", "edit", "edit", editor},
		{"comment member", "comment", "comment", reader},
		{"read member", "read", "read", reader},
		{"guest without a grant", "guest", "", hidden},
		{"guest with an edit grant", "guest-direct", "edit", editor},
		{"guest in a team with a comment grant", "guest-team", "comment", reader},
		{"guest with review on the outer collection", "guest-inherited", "review", editor},
		{"guest with admin on the outer collection", "guest-inherited-admin", "admin", guestAdmin},
		{"member of another org", "outsider", "", hidden},
	}
	for _, c := range cases {
		t.Run(c.name+"/flags", func(t *testing.T) {
			id := newSpace(t)
			res := e.call(t, u[c.caller].token, "GET", spPath(id), nil)
			if c.role == "" {
				res.wantError(t, http.StatusNotFound)
				return
			}
			var got spSpace
			res.want(t, http.StatusOK).Decode(t, &got)
			if diff := cmp.Diff(spPermsOf(c.role), got.Permissions); diff != "" {
				t.Errorf("permissions (-want +got):\n%s", diff)
			}
		})
		for _, op := range ops {
			t.Run(c.name+"/"+op.name, func(t *testing.T) {
				id := newSpace(t)
				spWant(t, op.do(t, u[c.caller].token, id), op.want(c.want))
			})
		}
	}
}

// TestSpaceDefaultLevel: a space's defaultLevel raises the roles of members
// who are not guests; inherit takes the nearest collection's level; it never
// applies to guests and never lowers a role.
func TestSpaceDefaultLevel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rhea Read")
	editor := e.addUser(t, "edit", "Ed Edit")
	guest := e.addUser(t, "guest", "Gia Granted")
	stranger := e.addUser(t, "guest", "Gus Nogrant")

	// Levels: "" leaves the default (inherit), "null" sets null.
	level := func(v string) any {
		if v == "null" {
			return nil
		}
		return v
	}
	tests := []struct {
		name                string
		nested              bool // space in inner, inside outer; else top level
		outer, inner, space string
		reader, editor      string // effective roles
	}{
		{"top level, inherit adds nothing", false, "", "", "", "read", "edit"},
		{"top level, edit raises read", false, "", "", "edit", "edit", "edit"},
		{"top level, admin", false, "", "", "admin", "admin", "admin"},
		{"top level, read never lowers", false, "", "", "read", "read", "edit"},
		{"top level, null", false, "", "", "null", "read", "edit"},
		{"inherit through two collections", true, "review", "", "", "review", "review"},
		{"nearest collection wins", true, "review", "comment", "", "comment", "edit"},
		{"null collection stops inheriting", true, "review", "null", "", "read", "edit"},
		{"the space's own level wins", true, "review", "", "comment", "comment", "edit"},
		{"the space's null wins", true, "admin", "", "null", "read", "edit"},
		{"inherit all the way up", true, "", "", "", "read", "edit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := ""
			if tc.nested {
				outer := e.spCollection(t, "Outer", "")
				inner := e.spCollection(t, "Inner", outer)
				for id, l := range map[string]string{outer: tc.outer, inner: tc.inner} {
					if l != "" {
						e.call(t, e.admin.token, "PATCH", "/v1/collections/"+id, map[string]any{"defaultLevel": level(l)}).want(t, http.StatusOK)
					}
				}
				parent = inner
			}
			id := e.spNewSpace(t, "Levels", parent)
			if tc.space != "" {
				e.call(t, e.admin.token, "PATCH", spPath(id), map[string]any{"defaultLevel": level(tc.space)}).want(t, http.StatusOK)
			}
			e.spGrant(t, spPath(id), "read", []string{guest.id}, nil)

			for who, want := range map[user]string{reader: tc.reader, editor: tc.editor, guest: "read", e.admin: "admin"} {
				if got := e.spGet(t, who.token, id).Permissions; got != spPermsOf(want) {
					t.Errorf("%s: permissions %+v, want those of %s", who.email, got, want)
				}
			}
			e.call(t, stranger.token, "GET", spPath(id), nil).wantError(t, http.StatusNotFound)

			// The aggregate list agrees.
			roles := map[string]string{}
			for _, g := range spItems[spUserGrant](t, e, e.admin.token, spPath(id)+"/permissions/aggregate") {
				roles[g.User.ID] = g.Permission
			}
			wantRoles := map[string]string{reader.id: tc.reader, editor.id: tc.editor, guest.id: "read", e.admin.id: "admin"}
			if diff := cmp.Diff(wantRoles, roles); diff != "" {
				t.Errorf("aggregate permissions (-want +got):\n%s", diff)
			}
		})
	}

	// A raised role is a real one: a read member with defaultLevel admin
	// may delete the space.
	id := e.spNewSpace(t, "Open", "")
	e.call(t, reader.token, "DELETE", spPath(id), nil).wantError(t, http.StatusForbidden)
	e.call(t, e.admin.token, "PATCH", spPath(id), map[string]any{"defaultLevel": "admin"}).want(t, http.StatusOK)
	e.call(t, reader.token, "DELETE", spPath(id), nil).want(t, http.StatusNoContent)
}

func TestSpacePatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	col := e.spCollection(t, "Docs", "")
	editor := e.addUser(t, "edit", "Eve Edit")
	commenter := e.addUser(t, "comment", "Cal Comment")

	set := func(f func(*spSpace)) func(*spSpace) { return f }
	unchanged := set(func(*spSpace) {})
	tests := []struct {
		name   string
		top    bool // a top-level space; else one in a collection
		locked bool
		caller user
		body   any
		status int
		change func(*spSpace) // applied to the space before, gives the wanted one
	}{
		{"title", false, false, e.admin, map[string]any{"title": "New"}, 200, set(func(s *spSpace) { s.Title = "New" })},
		{"title of 50 characters", false, false, e.admin, map[string]any{"title": strings.Repeat("界", 50)}, 200, set(func(s *spSpace) { s.Title = strings.Repeat("界", 50) })},
		{"title of 51 characters", false, false, e.admin, map[string]any{"title": strings.Repeat("界", 51)}, 400, unchanged},
		{"title null", false, false, e.admin, map[string]any{"title": nil}, 400, unchanged},
		{"emoji", false, false, e.admin, map[string]any{"emoji": "🚀"}, 200, set(func(s *spSpace) { s.Emoji = "🚀" })},
		{"emoji of 50 characters", false, false, e.admin, map[string]any{"emoji": strings.Repeat("😀", 50)}, 200, set(func(s *spSpace) { s.Emoji = strings.Repeat("😀", 50) })},
		{"emoji of 51 characters", false, false, e.admin, map[string]any{"emoji": strings.Repeat("😀", 51)}, 400, unchanged},
		{"emoji null removes it", false, false, e.admin, map[string]any{"emoji": nil}, 200, set(func(s *spSpace) { s.Emoji = "" })},
		{"defaultLevel admin", false, false, e.admin, map[string]any{"defaultLevel": "admin"}, 200, set(func(s *spSpace) { s.DefaultLevel = spStr("admin") })},
		{"defaultLevel create", false, false, e.admin, map[string]any{"defaultLevel": "create"}, 200, set(func(s *spSpace) { s.DefaultLevel = spStr("create") })},
		{"defaultLevel review", false, false, e.admin, map[string]any{"defaultLevel": "review"}, 200, set(func(s *spSpace) { s.DefaultLevel = spStr("review") })},
		{"defaultLevel edit", false, false, e.admin, map[string]any{"defaultLevel": "edit"}, 200, set(func(s *spSpace) { s.DefaultLevel = spStr("edit") })},
		{"defaultLevel comment", false, false, e.admin, map[string]any{"defaultLevel": "comment"}, 200, set(func(s *spSpace) { s.DefaultLevel = spStr("comment") })},
		{"defaultLevel read", false, false, e.admin, map[string]any{"defaultLevel": "read"}, 200, set(func(s *spSpace) { s.DefaultLevel = spStr("read") })},
		{"defaultLevel inherit", false, false, e.admin, map[string]any{"defaultLevel": "inherit"}, 200, unchanged},
		{"defaultLevel null", false, false, e.admin, map[string]any{"defaultLevel": nil}, 200, set(func(s *spSpace) { s.DefaultLevel = nil })},
		{"defaultLevel owner", false, false, e.admin, map[string]any{"defaultLevel": "owner"}, 400, unchanged},
		{"editMode locked", false, false, e.admin, map[string]any{"editMode": "locked"}, 200, set(func(s *spSpace) { s.EditMode = "locked" })},
		{"editMode live", false, true, e.admin, map[string]any{"editMode": "live"}, 200, set(func(s *spSpace) { s.EditMode = "live" })},
		{"editMode frozen", false, false, e.admin, map[string]any{"editMode": "frozen"}, 400, unchanged},
		{"editMode null", false, false, e.admin, map[string]any{"editMode": nil}, 400, unchanged},
		{"visibility public", false, false, e.admin, map[string]any{"visibility": "public"}, 200, set(func(s *spSpace) { s.Visibility = "public" })},
		{"visibility unlisted", false, false, e.admin, map[string]any{"visibility": "unlisted"}, 200, set(func(s *spSpace) { s.Visibility = "unlisted" })},
		{"visibility share-link", false, false, e.admin, map[string]any{"visibility": "share-link"}, 200, set(func(s *spSpace) { s.Visibility = "share-link" })},
		{"visibility visitor-auth", false, false, e.admin, map[string]any{"visibility": "visitor-auth"}, 200, set(func(s *spSpace) { s.Visibility = "visitor-auth" })},
		{"visibility in-collection in a collection", false, false, e.admin, map[string]any{"visibility": "in-collection"}, 200, set(func(s *spSpace) { s.Visibility = "in-collection" })},
		{"visibility private", false, false, e.admin, map[string]any{"visibility": "private"}, 200, unchanged},
		{"visibility in-collection at the top level", true, false, e.admin, map[string]any{"visibility": "in-collection"}, 400, unchanged},
		{"visibility public at the top level", true, false, e.admin, map[string]any{"visibility": "public"}, 200, set(func(s *spSpace) { s.Visibility = "public" })},
		{"visibility secret", false, false, e.admin, map[string]any{"visibility": "secret"}, 400, unchanged},
		{"visibility null", false, false, e.admin, map[string]any{"visibility": nil}, 400, unchanged},
		{"a valid title with a bad level changes nothing", false, false, e.admin, map[string]any{"title": "New", "defaultLevel": "owner"}, 400, unchanged},
		{"empty body", false, false, e.admin, nil, 200, unchanged},
		{"not JSON", false, false, e.admin, "{", 400, unchanged},
		{"edit role: title", false, false, editor, map[string]any{"title": "By Eve"}, 200, set(func(s *spSpace) { s.Title = "By Eve" })},
		{"edit role: emoji", false, false, editor, map[string]any{"emoji": "✏️"}, 200, set(func(s *spSpace) { s.Emoji = "✏️" })},
		{"edit role: defaultLevel", false, false, editor, map[string]any{"defaultLevel": "edit"}, 403, unchanged},
		{"edit role: editMode", false, false, editor, map[string]any{"editMode": "locked"}, 403, unchanged},
		{"edit role: visibility", false, false, editor, map[string]any{"visibility": "public"}, 403, unchanged},
		{"edit role: title and defaultLevel", false, false, editor, map[string]any{"title": "x", "defaultLevel": "edit"}, 403, unchanged},
		{"comment role: title", false, false, commenter, map[string]any{"title": "x"}, 403, unchanged},
		{"locked: title", false, true, e.admin, map[string]any{"title": "x"}, 403, unchanged},
		{"locked: emoji", false, true, e.admin, map[string]any{"emoji": "🔒"}, 403, unchanged},
		{"locked: emoji null", false, true, e.admin, map[string]any{"emoji": nil}, 403, unchanged},
		{"locked: edit role title", false, true, editor, map[string]any{"title": "x"}, 403, unchanged},
		{"locked: unlock and rename at once", false, true, e.admin, map[string]any{"editMode": "live", "title": "Unlocked"}, 200, set(func(s *spSpace) { s.EditMode, s.Title = "live", "Unlocked" })},
		{"locked: rename while staying locked", false, true, e.admin, map[string]any{"editMode": "locked", "title": "x"}, 403, unchanged},
		{"locked: edit role cannot unlock", false, true, editor, map[string]any{"editMode": "live", "title": "x"}, 403, unchanged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := col
			if tc.top {
				parent = ""
			}
			body := map[string]any{"title": "Before", "emoji": "📘"}
			if parent != "" {
				body["parent"] = parent
			}
			if tc.locked {
				body["editMode"] = "locked"
			}
			before := e.spCreate(t, e.admin.token, body)
			res := e.call(t, tc.caller.token, "PATCH", spPath(before.ID), tc.body)
			spWant(t, res, tc.status)

			want := before
			tc.change(&want)
			after := e.spGet(t, e.admin.token, before.ID)
			ignore := cmpopts.IgnoreFields(spSpace{}, "UpdatedAt")
			if diff := cmp.Diff(want, after, ignore); diff != "" {
				t.Errorf("space after PATCH (-want +got):\n%s", diff)
			}
			if tc.status != http.StatusOK {
				if after.UpdatedAt != before.UpdatedAt {
					t.Errorf("updatedAt moved from %s to %s on a refused PATCH", before.UpdatedAt, after.UpdatedAt)
				}
				return
			}
			var got spSpace
			res.Decode(t, &got)
			want.Permissions = e.spGet(t, tc.caller.token, before.ID).Permissions
			if diff := cmp.Diff(want, got, ignore); diff != "" {
				t.Errorf("PATCH response (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSpaceDuplicate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	col := e.spCollection(t, "Docs", "")
	guest := e.addUser(t, "guest", "Gina Guest")
	teamMate := e.addUser(t, "guest", "Tim Team")
	team := e.spTeam(t, "Writers", teamMate.id)

	long := strings.Repeat("é", 50)
	orig := e.spCreate(t, e.admin.token, map[string]any{"title": long, "emoji": "📗", "parent": col})
	after := e.spNewSpace(t, "After", col)
	e.call(t, e.admin.token, "PATCH", spPath(orig.ID), map[string]any{"defaultLevel": "edit", "visibility": "in-collection", "editMode": "locked"}).want(t, http.StatusOK)
	e.spGrant(t, spPath(orig.ID), "comment", []string{guest.id}, nil)
	e.spGrant(t, spPath(orig.ID), "review", nil, []string{team})
	orig = e.spGet(t, e.admin.token, orig.ID)

	res := e.call(t, e.admin.token, "POST", spPath(orig.ID)+"/duplicate", nil).want(t, http.StatusCreated)
	var dup spSpace
	res.Decode(t, &dup)
	if dup.ID == "" || dup.ID == orig.ID {
		t.Fatalf("copy id %q, original %q", dup.ID, orig.ID)
	}
	if dup.Revision == "" || dup.Revision == orig.Revision {
		t.Errorf("copy revision %q: want a new one (original %q)", dup.Revision, orig.Revision)
	}
	if loc := res.Header.Get("Location"); loc != testPublicURL+"/v1/spaces/"+dup.ID {
		t.Errorf("Location %q", loc)
	}
	want := orig
	want.ID, want.Revision, want.URLs = dup.ID, dup.Revision, dup.URLs
	want.Title = strings.Repeat("é", 43) + " (copy)"
	if diff := cmp.Diff(want, dup, cmpopts.IgnoreFields(spSpace{}, "CreatedAt", "UpdatedAt")); diff != "" {
		t.Errorf("copy (-want +got):\n%s", diff)
	}
	if n := len([]rune(dup.Title)); n != 50 {
		t.Errorf("copy title has %d characters, want 50", n)
	}

	// Right after the original in the collection.
	if diff := cmp.Diff([]string{orig.ID, dup.ID, after}, spSpaceIDs(spItems[spSpace](t, e, e.admin.token, "/v1/collections/"+col+"/spaces"))); diff != "" {
		t.Errorf("collection order (-want +got):\n%s", diff)
	}
	// The grants came along.
	grants := func(id string) (users, teams map[string]string) {
		users, teams = map[string]string{}, map[string]string{}
		for _, g := range spItems[spUserGrant](t, e, e.admin.token, spPath(id)+"/permissions/users") {
			users[g.User.ID] = g.Permission
		}
		var tl spList[struct {
			Permission string `json:"permission"`
			Team       struct {
				ID string `json:"id"`
			} `json:"team"`
		}]
		e.call(t, e.admin.token, "GET", spPath(id)+"/permissions/teams", nil).want(t, http.StatusOK).Decode(t, &tl)
		for _, g := range tl.Items {
			teams[g.Team.ID] = g.Permission
		}
		return users, teams
	}
	wantUsers, wantTeams := map[string]string{guest.id: "comment"}, map[string]string{team: "review"}
	gotUsers, gotTeams := grants(dup.ID)
	if diff := cmp.Diff(wantUsers, gotUsers); diff != "" {
		t.Errorf("copy's user grants (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantTeams, gotTeams); diff != "" {
		t.Errorf("copy's team grants (-want +got):\n%s", diff)
	}
	if got := e.spGet(t, teamMate.token, dup.ID).Permissions; got != spPermsOf("review") {
		t.Errorf("team member's flags on the copy: %+v", got)
	}
	// The original is untouched.
	if got := e.spGet(t, e.admin.token, orig.ID); !cmp.Equal(got, orig) {
		t.Errorf("original changed (-before +after):\n%s", cmp.Diff(orig, got))
	}

	// A short title, at the top level, right after the original.
	a := e.spNewSpace(t, "Guide", "")
	b := e.spNewSpace(t, "Other", "")
	e.spNewSpace(t, "Third", "") // the copy must land before it
	var d spSpace
	e.call(t, e.admin.token, "POST", spPath(a)+"/duplicate", nil).want(t, http.StatusCreated).Decode(t, &d)
	if d.Title != "Guide (copy)" || d.Parent != "" || d.Visibility != "private" || d.EditMode != "live" || d.DefaultLevel == nil || *d.DefaultLevel != "inherit" {
		t.Errorf("copy of a top-level space: %+v", d)
	}
	wantTop := []string{"Guide", "Guide (copy)", "Other", "Third"}
	if diff := cmp.Diff(wantTop, e.spTopTitles(t, e.admin.token)); diff != "" {
		t.Errorf("top level after duplicating (-want +got):\n%s", diff)
	}

	// A copy of a copy: 50 characters again.
	var dd spSpace
	e.call(t, e.admin.token, "POST", spPath(dup.ID)+"/duplicate", nil).want(t, http.StatusCreated).Decode(t, &dd)
	if wantTitle := strings.Repeat("é", 43) + " (copy)"; dd.Title != wantTitle {
		t.Errorf("copy of a copy: title %q, want %q", dd.Title, wantTitle)
	}

	// A deleted space cannot be duplicated.
	e.call(t, e.admin.token, "DELETE", spPath(b), nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "POST", spPath(b)+"/duplicate", nil).wantError(t, http.StatusNotFound)
}

func spSpaceIDs(list []spSpace) []string {
	out := []string{}
	for _, s := range list {
		out = append(out, s.ID)
	}
	return out
}

// TestSpaceMove runs a sequence of moves; after each, lists return every
// parent's spaces in the order the moves imply.
func TestSpaceMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := map[string]string{}
	ids["a"] = e.spNewSpace(t, "a", "")
	ids["b"] = e.spNewSpace(t, "b", "")
	ids["C"] = e.spCollection(t, "C", "")
	ids["x"] = e.spNewSpace(t, "x", ids["C"])
	ids["y"] = e.spNewSpace(t, "y", ids["C"])
	ids["d"] = e.spNewSpace(t, "d", "")
	ids["E"] = e.spCollection(t, "E", "")
	ids["Gone"] = e.spCollection(t, "Gone", "")
	e.call(t, e.admin.token, "DELETE", "/v1/collections/"+ids["Gone"], nil).want(t, http.StatusNoContent)
	deleted := e.spNewSpace(t, "deleted", "")
	e.call(t, e.admin.token, "DELETE", spPath(deleted), nil).want(t, http.StatusNoContent)

	b, err := e.db.InitOrganization(t.Context(), "Elsewhere", uniqueEmail("else"), "Elsa Else")
	if err != nil {
		t.Fatal(err)
	}
	var foreign struct {
		ID string `json:"id"`
	}
	e.call(t, b.Token, "POST", "/v1/orgs/"+b.Organization.ID+"/collections", map[string]any{"title": "Foreign"}).want(t, http.StatusCreated).Decode(t, &foreign)

	sp := func(name string) map[string]any { return map[string]any{"type": "space", "space": ids[name]} }
	col := func(name string) map[string]any { return map[string]any{"type": "collection", "collection": ids[name]} }
	steps := []struct {
		name   string
		move   string
		body   map[string]any
		status int
		top    []string // top-level spaces after the step
		inC    []string
		inE    []string
	}{
		{"before a sibling", "d", map[string]any{"position": map[string]any{"before": sp("a")}}, 200,
			[]string{"d", "a", "b"}, []string{"x", "y"}, nil},
		{"after a sibling collection", "d", map[string]any{"position": map[string]any{"after": col("C")}}, 200,
			[]string{"a", "b", "d"}, []string{"x", "y"}, nil},
		{"after a collection, past the spaces before it", "a", map[string]any{"position": map[string]any{"after": col("C")}}, 200,
			[]string{"b", "a", "d"}, []string{"x", "y"}, nil},
		{"before a collection", "d", map[string]any{"position": map[string]any{"before": col("C")}}, 200,
			[]string{"b", "d", "a"}, []string{"x", "y"}, nil},
		{"to the top level, no position: the end", "x", map[string]any{"parent": nil}, 200,
			[]string{"b", "d", "a", "x"}, []string{"y"}, nil},
		{"into a collection after a sibling", "b", map[string]any{"parent": ids["C"], "position": map[string]any{"after": sp("y")}}, 200,
			[]string{"d", "a", "x"}, []string{"y", "b"}, nil},
		{"within a collection, before a sibling", "b", map[string]any{"position": map[string]any{"before": sp("y")}}, 200,
			[]string{"d", "a", "x"}, []string{"b", "y"}, nil},
		{"no position: to the end of the same parent", "b", map[string]any{}, 200,
			[]string{"d", "a", "x"}, []string{"y", "b"}, nil},
		{"into an empty collection", "x", map[string]any{"parent": ids["E"]}, 200,
			[]string{"d", "a"}, []string{"y", "b"}, []string{"x"}},
		{"back to the top level before a sibling", "x", map[string]any{"parent": nil, "position": map[string]any{"before": sp("d")}}, 200,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"before a space of another parent", "a", map[string]any{"parent": ids["C"], "position": map[string]any{"before": sp("d")}}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"after a space of another parent", "a", map[string]any{"position": map[string]any{"after": sp("y")}}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"into an empty collection before an outside space", "a", map[string]any{"parent": ids["E"], "position": map[string]any{"before": sp("d")}}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"before itself", "a", map[string]any{"position": map[string]any{"before": sp("a")}}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"before and after", "a", map[string]any{"position": map[string]any{"before": sp("d"), "after": sp("x")}}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"a position without an id", "a", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space"}}}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"a deleted sibling", "a", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": deleted}}}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"an unknown parent", "a", map[string]any{"parent": "nope"}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"a deleted parent", "a", map[string]any{"parent": ids["Gone"]}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"another org's collection", "a", map[string]any{"parent": foreign.ID}, 400,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
		{"a deleted space", "deleted", map[string]any{"parent": nil}, 404,
			[]string{"x", "d", "a"}, []string{"y", "b"}, nil},
	}
	ids["deleted"] = deleted
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			res := e.call(t, e.admin.token, "POST", spPath(ids[st.move])+"/move", st.body)
			spWant(t, res, st.status)
			if st.status == http.StatusOK {
				var got spSpace
				res.Decode(t, &got)
				wantParent := e.spGet(t, e.admin.token, ids[st.move]).Parent
				if got.Parent != wantParent || got.ID != ids[st.move] {
					t.Errorf("moved space: id %q parent %q, want %q in %q", got.ID, got.Parent, ids[st.move], wantParent)
				}
			}
			if diff := cmp.Diff(st.top, e.spTopTitles(t, e.admin.token)); diff != "" {
				t.Errorf("top level (-want +got):\n%s", diff)
			}
			for c, want := range map[string][]string{"C": st.inC, "E": st.inE} {
				got := spTitles(spItems[spSpace](t, e, e.admin.token, "/v1/collections/"+ids[c]+"/spaces"))
				if diff := cmp.Diff(append([]string{}, want...), got); diff != "" {
					t.Errorf("spaces of %s (-want +got):\n%s", c, diff)
				}
			}
			// The org list: the top level first, then each collection's.
			all := spItems[spSpace](t, e, e.admin.token, e.spOrgPath("/spaces"))
			if diff := cmp.Diff(st.top, spTitles(all[:min(len(st.top), len(all))])); diff != "" {
				t.Errorf("org list does not start with the top level (-want +got):\n%s", diff)
			}
		})
	}

	// in-collection visibility does not survive leaving the collection.
	e.call(t, e.admin.token, "PATCH", spPath(ids["y"]), map[string]any{"visibility": "in-collection"}).want(t, http.StatusOK)
	var moved spSpace
	e.call(t, e.admin.token, "POST", spPath(ids["y"])+"/move", map[string]any{"parent": nil}).want(t, http.StatusOK).Decode(t, &moved)
	if moved.Visibility != "private" || moved.Parent != "" {
		t.Errorf("in-collection space moved to the top: visibility %q parent %q", moved.Visibility, moved.Parent)
	}
	// Other visibilities do.
	e.call(t, e.admin.token, "PATCH", spPath(ids["y"]), map[string]any{"visibility": "public"}).want(t, http.StatusOK)
	var back spSpace
	e.call(t, e.admin.token, "POST", spPath(ids["y"])+"/move", map[string]any{"parent": ids["C"]}).want(t, http.StatusOK).Decode(t, &back)
	if back.Visibility != "public" || back.Parent != ids["C"] {
		t.Errorf("public space moved into C: visibility %q parent %q", back.Visibility, back.Parent)
	}
}

func TestSpaceTransfer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	org2 := e.spOtherOrg(t)
	col := e.spCollection(t, "Docs", "")
	guest := e.addUser(t, "guest", "Gert Guest")
	member := e.addUser(t, "edit", "Emma Edit")
	team := e.spTeam(t, "Team", member.id)
	notAdminThere := e.addUser(t, "admin", "Nora Notadmin")
	if _, err := e.db.AddUser(t.Context(), org2, notAdminThere.email, "Nora Notadmin", quire.RoleEdit); err != nil {
		t.Fatal(err)
	}
	notMemberThere := e.addUser(t, "admin", "Nick Nomember")
	// A space already at the top of the target, so we see where it lands.
	var first spSpace
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+org2+"/spaces", map[string]any{"title": "Already there"}).want(t, http.StatusCreated).Decode(t, &first)

	newSpace := func(t *testing.T) string {
		id := e.spNewSpace(t, "Moving", col)
		e.call(t, e.admin.token, "PATCH", spPath(id), map[string]any{"visibility": "in-collection", "defaultLevel": "comment"}).want(t, http.StatusOK)
		e.spGrant(t, spPath(id), "edit", []string{guest.id}, nil)
		e.spGrant(t, spPath(id), "read", nil, []string{team})
		return id
	}

	tests := []struct {
		name   string
		caller user
		body   any
		status int
		parts  []string
	}{
		{"admin of both", e.admin, map[string]any{"organization": org2}, 200, nil},
		{"not admin in the target", notAdminThere, map[string]any{"organization": org2}, 403, nil},
		{"not a member of the target", notMemberThere, map[string]any{"organization": org2}, 404, nil},
		{"an unknown target", e.admin, map[string]any{"organization": "nope"}, 404, nil},
		{"the same organization", e.admin, map[string]any{"organization": e.org}, 400, []string{"organization"}},
		{"no organization", e.admin, map[string]any{}, 400, []string{"organization"}},
		{"no body", e.admin, nil, 400, []string{"organization"}},
		{"edit member", member, map[string]any{"organization": org2}, 403, nil},
		{"guest with an edit grant", guest, map[string]any{"organization": org2}, 403, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := newSpace(t)
			before := e.spGet(t, e.admin.token, id)
			res := e.call(t, tc.caller.token, "POST", spPath(id)+"/transfer", tc.body)
			if tc.status != http.StatusOK {
				res.wantError(t, tc.status, tc.parts...)
				if got := e.spGet(t, e.admin.token, id); !cmp.Equal(got, before) {
					t.Errorf("a refused transfer changed the space (-before +after):\n%s", cmp.Diff(before, got))
				}
				return
			}
			var got spSpace
			res.want(t, http.StatusOK).Decode(t, &got)
			want := before
			want.Organization, want.Parent, want.Visibility = org2, "", "private"
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(spSpace{}, "UpdatedAt")); diff != "" {
				t.Errorf("transferred space (-want +got):\n%s", diff)
			}
			// Grants belonged to the old organization.
			if n := len(spItems[spUserGrant](t, e, e.admin.token, spPath(id)+"/permissions/users")); n != 0 {
				t.Errorf("%d user grants survived the transfer", n)
			}
			if n := len(spItems[spUserGrant](t, e, e.admin.token, spPath(id)+"/permissions/teams")); n != 0 {
				t.Errorf("%d team grants survived the transfer", n)
			}
			e.call(t, guest.token, "GET", spPath(id), nil).wantError(t, http.StatusNotFound)
			e.call(t, member.token, "GET", spPath(id), nil).wantError(t, http.StatusNotFound)
			// Gone from the old org's lists, at the end of the new one's top level.
			for _, s := range spItems[spSpace](t, e, e.admin.token, e.spOrgPath("/spaces")) {
				if s.ID == id {
					t.Error("the transferred space is still listed in the old organization")
				}
			}
			for _, s := range spItems[spSpace](t, e, e.admin.token, "/v1/collections/"+col+"/spaces") {
				if s.ID == id {
					t.Error("the transferred space is still listed in its old collection")
				}
			}
			if diff := cmp.Diff([]string{first.ID, id}, spSpaceIDs(spItems[spSpace](t, e, e.admin.token, "/v1/orgs/"+org2+"/spaces"))); diff != "" {
				t.Errorf("target organization's spaces (-want +got):\n%s", diff)
			}
			// The new org's members get its defaultLevel; the old org's admins lose it.
			e.call(t, notAdminThere.token, "GET", spPath(id), nil).want(t, http.StatusOK)
			e.call(t, notMemberThere.token, "GET", spPath(id), nil).wantError(t, http.StatusNotFound)
		})
	}
}

func TestSpaceDeleteAndRestore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clock := spUseClock(e)
	col := e.spCollection(t, "Docs", "")
	editor := e.addUser(t, "edit", "Ezra Edit")
	reader := e.addUser(t, "read", "Remy Read")
	guest := e.addUser(t, "guest", "Gale Guest")

	id := e.spNewSpace(t, "Doomed", col)
	keep := e.spNewSpace(t, "Kept", col)
	e.spGrant(t, spPath(id), "read", []string{guest.id}, nil)
	before := e.spGet(t, e.admin.token, id)

	e.call(t, editor.token, "DELETE", spPath(id), nil).wantError(t, http.StatusForbidden)
	e.call(t, e.admin.token, "DELETE", spPath(id), nil).want(t, http.StatusNoContent)
	for _, c := range []struct{ method, path string }{
		{"GET", spPath(id)},
		{"PATCH", spPath(id)},
		{"DELETE", spPath(id)},
		{"POST", spPath(id) + "/move"},
		{"POST", spPath(id) + "/duplicate"},
		{"POST", spPath(id) + "/transfer"},
		{"GET", spPath(id) + "/permissions/users"},
	} {
		e.call(t, e.admin.token, c.method, c.path, map[string]any{}).wantError(t, http.StatusNotFound)
	}
	if diff := cmp.Diff([]string{keep}, spSpaceIDs(spItems[spSpace](t, e, e.admin.token, "/v1/collections/"+col+"/spaces"))); diff != "" {
		t.Errorf("collection's spaces after delete (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{keep}, spSpaceIDs(spItems[spSpace](t, e, e.admin.token, e.spOrgPath("/spaces")))); diff != "" {
		t.Errorf("org's spaces after delete (-want +got):\n%s", diff)
	}
	if n := len(spItems[spSpace](t, e, guest.token, e.spOrgPath("/spaces"))); n != 0 {
		t.Errorf("guest lists %d spaces, want 0", n)
	}

	// Restore needs admin on the space; the invisible get 404.
	e.call(t, reader.token, "POST", spPath(id)+"/restore", nil).wantError(t, http.StatusForbidden)
	e.call(t, e.outsider(t).token, "POST", spPath(id)+"/restore", nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "POST", spPath("nope")+"/restore", nil).wantError(t, http.StatusNotFound)

	clock.Advance(6 * 24 * time.Hour)
	var restored spSpace
	e.call(t, e.admin.token, "POST", spPath(id)+"/restore", nil).want(t, http.StatusOK).Decode(t, &restored)
	if diff := cmp.Diff(before, restored, cmpopts.IgnoreFields(spSpace{}, "UpdatedAt")); diff != "" {
		t.Errorf("restored space (-want +got):\n%s", diff)
	}
	if got := e.spGet(t, guest.token, id); got.Permissions != spPermsOf("read") {
		t.Errorf("guest's grant after restore: %+v", got.Permissions)
	}
	if diff := cmp.Diff([]string{id, keep}, spSpaceIDs(spItems[spSpace](t, e, e.admin.token, "/v1/collections/"+col+"/spaces"))); diff != "" {
		t.Errorf("collection's spaces after restore (-want +got):\n%s", diff)
	}
	// Restoring a live space changes nothing.
	e.call(t, e.admin.token, "POST", spPath(id)+"/restore", nil).want(t, http.StatusOK)

	// Deleted, then restored just inside the window and not just outside it.
	tests := []struct {
		name   string
		after  time.Duration
		status int
	}{
		{"a minute after deleting", time.Minute, http.StatusOK},
		{"a minute before 7 days", 7*24*time.Hour - time.Minute, http.StatusOK},
		{"a minute after 7 days", 7*24*time.Hour + time.Minute, http.StatusNotFound},
		{"30 days after", 30 * 24 * time.Hour, http.StatusNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := e.spNewSpace(t, "Restorable", "")
			e.call(t, e.admin.token, "DELETE", spPath(id), nil).want(t, http.StatusNoContent)
			clock.Advance(tc.after)
			spWant(t, e.call(t, e.admin.token, "POST", spPath(id)+"/restore", nil), tc.status)
			if tc.status == http.StatusOK {
				e.spGet(t, e.admin.token, id)
			} else {
				e.call(t, e.admin.token, "GET", spPath(id), nil).wantError(t, http.StatusNotFound)
			}
		})
	}

	// A space whose collection was deleted comes back at the top level.
	gone := e.spCollection(t, "Gone", "")
	orphan := e.spNewSpace(t, "Orphan", gone)
	e.call(t, e.admin.token, "PATCH", spPath(orphan), map[string]any{"visibility": "in-collection"}).want(t, http.StatusOK)
	e.call(t, e.admin.token, "DELETE", "/v1/collections/"+gone, nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "GET", spPath(orphan), nil).wantError(t, http.StatusNotFound)
	var back spSpace
	e.call(t, e.admin.token, "POST", spPath(orphan)+"/restore", nil).want(t, http.StatusOK).Decode(t, &back)
	if back.ID != orphan || back.Parent != "" {
		t.Errorf("space %s of a deleted collection restored into %q, want the top level", back.ID, back.Parent)
	}
	// in-collection is only for spaces in a collection.
	if back.Visibility != "private" {
		t.Errorf("space restored to the top level has visibility %q, want private", back.Visibility)
	}
	if got := e.spGet(t, e.admin.token, orphan); got.Parent != "" {
		t.Errorf("GET after restore: parent %q, want the top level", got.Parent)
	}
}

func TestSpacePurge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clock := spUseClock(e)
	old := e.spNewSpace(t, "Old", "")
	recent := e.spNewSpace(t, "Recent", "")
	live := e.spNewSpace(t, "Live", "")

	e.call(t, e.admin.token, "DELETE", spPath(old), nil).want(t, http.StatusNoContent)
	clock.Advance(24 * time.Hour)
	e.call(t, e.admin.token, "DELETE", spPath(recent), nil).want(t, http.StatusNoContent)

	// Nothing is old enough yet.
	if n, err := jobs.Purge(t.Context(), e.db); err != nil || n != 0 {
		t.Fatalf("purge after a day: %d, %v; want 0", n, err)
	}
	clock.Advance(6*24*time.Hour + time.Hour) // old: 7 days 1 hour; recent: 6 days 1 hour
	n, err := jobs.Purge(t.Context(), e.db)
	if err != nil || n != 1 {
		t.Fatalf("purge: %d, %v; want 1", n, err)
	}
	if _, err := e.db.Space(t.Context(), old); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Errorf("purged space still in the store: %v", err)
	}
	e.call(t, e.admin.token, "POST", spPath(old)+"/restore", nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", spPath(old), nil).wantError(t, http.StatusNotFound)
	if n, err := jobs.Purge(t.Context(), e.db); err != nil || n != 0 {
		t.Errorf("second purge: %d, %v; want 0", n, err)
	}
	e.call(t, e.admin.token, "POST", spPath(recent)+"/restore", nil).want(t, http.StatusOK)
	if diff := cmp.Diff([]string{recent, live}, spSpaceIDs(spItems[spSpace](t, e, e.admin.token, e.spOrgPath("/spaces")))); diff != "" {
		t.Errorf("spaces after the purge (-want +got):\n%s", diff)
	}
}

// spMemberOut is a member as the API answers it, as far as spaces go.
type spMemberOut struct {
	ID     string `json:"id"`
	Spaces int    `json:"spaces"`
}

// spMember gets a member as the admin.
func (e *env) spMember(t *testing.T, userID string) spMemberOut {
	t.Helper()
	var m spMemberOut
	e.call(t, e.admin.token, "GET", e.spOrgPath("/members/"+userID), nil).want(t, http.StatusOK).Decode(t, &m)
	return m
}

// TestSpaceCounts: member and team `spaces` counts and the member's space
// list follow grants, collections and deletions.
func TestSpaceCounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rory Read")
	guest := e.addUser(t, "guest", "Gemma Guest")
	loner := e.addUser(t, "guest", "Lone Guest")
	team := e.spTeam(t, "Team", guest.id)
	idle := e.spTeam(t, "Idle", reader.id)

	s1 := e.spNewSpace(t, "s1", "")
	s2 := e.spNewSpace(t, "s2", "")
	c := e.spCollection(t, "C", "")
	inner := e.spCollection(t, "Inner", c)
	s3 := e.spNewSpace(t, "s3", c)
	s4 := e.spNewSpace(t, "s4", inner)
	s5 := e.spNewSpace(t, "s5", "")
	s6 := e.spNewSpace(t, "s6", "")
	e.call(t, e.admin.token, "PATCH", spPath(s6), map[string]any{"defaultLevel": "edit"}).want(t, http.StatusOK)

	e.spGrant(t, spPath(s1), "read", []string{guest.id}, nil)
	e.spGrant(t, spPath(s2), "comment", nil, []string{team})
	e.spGrant(t, "/v1/collections/"+c, "edit", []string{guest.id}, nil)
	e.spGrant(t, "/v1/collections/"+c, "read", nil, []string{team})
	e.spGrant(t, spPath(s5), "admin", []string{guest.id}, nil)
	e.call(t, e.admin.token, "DELETE", spPath(s5), nil).want(t, http.StatusNoContent)

	type entry struct{ Title, Permission string }
	memberSpaces := func(t *testing.T, token, userID string) []entry {
		t.Helper()
		out := []entry{}
		for _, it := range spItems[spMemberSpace](t, e, token, e.spOrgPath("/members/"+userID+"/spaces")) {
			out = append(out, entry{it.Space.Title, it.Permission})
		}
		return out
	}
	teamSpaces := func(t *testing.T, id string) int {
		t.Helper()
		var tm struct {
			Spaces int `json:"spaces"`
		}
		e.call(t, e.admin.token, "GET", e.spOrgPath("/teams/"+id), nil).want(t, http.StatusOK).Decode(t, &tm)
		return tm.Spaces
	}
	check := func(t *testing.T, wantReader, wantGuest []entry, wantTeam int) {
		t.Helper()
		for _, m := range []struct {
			u    user
			want []entry
		}{{reader, wantReader}, {guest, wantGuest}, {loner, []entry{}}} {
			if got := e.spMember(t, m.u.id).Spaces; got != len(m.want) {
				t.Errorf("%s: member spaces %d, want %d", m.u.email, got, len(m.want))
			}
			if diff := cmp.Diff(m.want, memberSpaces(t, e.admin.token, m.u.id)); diff != "" {
				t.Errorf("%s: member's spaces as the admin (-want +got):\n%s", m.u.email, diff)
			}
			if diff := cmp.Diff(m.want, memberSpaces(t, m.u.token, m.u.id)); diff != "" {
				t.Errorf("%s: own spaces (-want +got):\n%s", m.u.email, diff)
			}
		}
		if got := teamSpaces(t, team); got != wantTeam {
			t.Errorf("team spaces %d, want %d", got, wantTeam)
		}
		if got := teamSpaces(t, idle); got != 0 {
			t.Errorf("team without grants: spaces %d, want 0", got)
		}
	}

	check(t,
		[]entry{{"s1", "read"}, {"s2", "read"}, {"s6", "edit"}, {"s3", "read"}, {"s4", "read"}},
		[]entry{{"s1", "read"}, {"s2", "comment"}, {"s3", "edit"}, {"s4", "edit"}},
		3)

	// Only admins list other members' spaces.
	e.call(t, reader.token, "GET", e.spOrgPath("/members/"+guest.id+"/spaces"), nil).wantError(t, http.StatusForbidden)

	e.call(t, e.admin.token, "DELETE", spPath(s3), nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "POST", spPath(s5)+"/restore", nil).want(t, http.StatusOK)
	check(t,
		[]entry{{"s1", "read"}, {"s2", "read"}, {"s5", "read"}, {"s6", "edit"}, {"s4", "read"}},
		[]entry{{"s1", "read"}, {"s2", "comment"}, {"s5", "admin"}, {"s4", "edit"}},
		2)

	// Moving a space out of the granted collection takes the guest's access
	// with it; removing the team grant takes the team's.
	e.call(t, e.admin.token, "POST", spPath(s4)+"/move", map[string]any{"parent": nil}).want(t, http.StatusOK)
	e.spGrant(t, spPath(s2), nil, nil, []string{team})
	check(t,
		[]entry{{"s1", "read"}, {"s2", "read"}, {"s5", "read"}, {"s6", "edit"}, {"s4", "read"}},
		[]entry{{"s1", "read"}, {"s5", "admin"}},
		0)
}

// TestSpaceGrantsOfRemovedMembersAndTeams: grants belong to members and
// teams of the organization; removing one takes its grants along, so lists
// of grants keep working and a person added again starts afresh.
func TestSpaceGrantsOfRemovedMembersAndTeams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.spNewSpace(t, "Shared", "")
	col := e.spCollection(t, "Docs", "")
	guest := e.addUser(t, "guest", "Gio Guest")
	stays := e.addUser(t, "guest", "Stan Stays")
	team := e.spTeam(t, "Gone Team", stays.id)
	kept := e.spTeam(t, "Kept Team", stays.id)
	e.spGrant(t, spPath(id), "edit", []string{guest.id, stays.id}, []string{team, kept})
	e.spGrant(t, "/v1/collections/"+col, "comment", []string{guest.id}, []string{team})

	e.call(t, e.admin.token, "DELETE", e.spOrgPath("/teams/"+team), nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "DELETE", e.spOrgPath("/members/"+guest.id), nil).want(t, http.StatusNoContent)

	for _, path := range []string{spPath(id), "/v1/collections/" + col} {
		var users []string
		for _, g := range spItems[spUserGrant](t, e, e.admin.token, path+"/permissions/users") {
			users = append(users, g.User.ID)
		}
		wantUsers := []string{stays.id}
		if path != spPath(id) {
			wantUsers = nil
		}
		if diff := cmp.Diff(wantUsers, users); diff != "" {
			t.Errorf("%s: users granted (-want +got):\n%s", path, diff)
		}
		var teams []string
		var tl spList[struct {
			Team struct {
				ID string `json:"id"`
			} `json:"team"`
		}]
		e.call(t, e.admin.token, "GET", path+"/permissions/teams", nil).want(t, http.StatusOK).Decode(t, &tl)
		for _, g := range tl.Items {
			teams = append(teams, g.Team.ID)
		}
		wantTeams := []string{kept}
		if path != spPath(id) {
			wantTeams = nil
		}
		if diff := cmp.Diff(wantTeams, teams); diff != "" {
			t.Errorf("%s: teams granted (-want +got):\n%s", path, diff)
		}
		if tl.Count != len(tl.Items) {
			t.Errorf("%s: team grants count %d, %d items", path, tl.Count, len(tl.Items))
		}
	}

	// Added again as a guest, they see nothing of what they had.
	if _, err := e.db.AddUser(t.Context(), e.org, guest.email, "Gio Guest", quire.RoleGuest); err != nil {
		t.Fatal(err)
	}
	e.call(t, guest.token, "GET", spPath(id), nil).wantError(t, http.StatusNotFound)
	if got := e.spMember(t, guest.id).Spaces; got != 0 {
		t.Errorf("guest added again: spaces %d, want 0", got)
	}
}
