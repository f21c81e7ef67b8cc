package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Contract §4.7 Collections, end to end through the real router, with the
// rules of docs/api/spaces-collections-and-roles.md. Identifiers declared
// here start with "col" so they cannot clash with other test files.

type colPerms struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// colCollection is a collection as the API answers it.
type colCollection struct {
	Object       string  `json:"object"`
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	Description  *string `json:"description"`
	Organization string  `json:"organization"`
	Parent       *string `json:"parent"`
	DefaultLevel *string `json:"defaultLevel"`
	URLs         struct {
		Location string `json:"location"`
		App      string `json:"app"`
	} `json:"urls"`
	Permissions colPerms `json:"permissions"`
}

// colSpacePerms are the space permission flags the tests look at.
type colSpacePerms struct {
	Access  bool `json:"access"`
	Comment bool `json:"comment"`
	Edit    bool `json:"edit"`
	Review  bool `json:"review"`
	Admin   bool `json:"admin"`
}

// colSpace is the part of a space the collection tests look at.
type colSpace struct {
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Organization string        `json:"organization"`
	Parent       *string       `json:"parent"`
	Visibility   string        `json:"visibility"`
	DeletedAt    *string       `json:"deletedAt"`
	Permissions  colSpacePerms `json:"permissions"`
}

type colList[T any] struct {
	Items []T `json:"items"`
	Count int `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

// Expected permission flags by role ("" for none).
var (
	colAdminPerms  = colPerms{View: true, Admin: true, ViewInviteLinks: true, Create: true}
	colCreatePerms = colPerms{View: true, Create: true}
	colReadPerms   = colPerms{View: true}
)

func colStr(s string) *string { return &s }

func colOrgPath(e *env, rest string) string { return "/v1/orgs/" + e.org + rest }

// colCreate creates a collection as token's holder ("" parent: top level).
func colCreate(t *testing.T, e *env, token, title, parent string) colCollection {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	var c colCollection
	e.call(t, token, "POST", colOrgPath(e, "/collections"), body).want(t, http.StatusCreated).Decode(t, &c)
	return c
}

// colCreateSpace creates a space as the admin.
func colCreateSpace(t *testing.T, e *env, title, parent string) colSpace {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	var s colSpace
	e.call(t, e.admin.token, "POST", colOrgPath(e, "/spaces"), body).want(t, http.StatusCreated).Decode(t, &s)
	return s
}

func colGet(t *testing.T, e *env, token, id string) colCollection {
	t.Helper()
	var c colCollection
	e.call(t, token, "GET", "/v1/collections/"+id, nil).want(t, http.StatusOK).Decode(t, &c)
	return c
}

func colGetSpace(t *testing.T, e *env, token, id string) colSpace {
	t.Helper()
	var s colSpace
	e.call(t, token, "GET", "/v1/spaces/"+id, nil).want(t, http.StatusOK).Decode(t, &s)
	return s
}

// colAll fetches every page of a list with the given page size, checking
// that the pages agree on count and hold count items in all.
func colAll[T any](t *testing.T, e *env, token, path string, limit int) []T {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var all []T
	count, page := -1, ""
	for i := 0; ; i++ {
		if i > 200 {
			t.Fatalf("%s: more than 200 pages", path)
		}
		q := fmt.Sprintf("%s%slimit=%d", path, sep, limit)
		if page != "" {
			q += "&page=" + url.QueryEscape(page)
		}
		var list colList[T]
		e.call(t, token, "GET", q, nil).want(t, http.StatusOK).Decode(t, &list)
		if count == -1 {
			count = list.Count
		} else if list.Count != count {
			t.Errorf("%s page %d: count %d, first page said %d", path, i, list.Count, count)
		}
		if len(list.Items) > limit {
			t.Errorf("%s page %d: %d items, limit %d", path, i, len(list.Items), limit)
		}
		all = append(all, list.Items...)
		if list.Next == nil {
			break
		}
		if len(list.Items) == 0 {
			t.Fatalf("%s page %d: empty page with a next page", path, i)
		}
		page = list.Next.Page
	}
	if len(all) != count {
		t.Errorf("%s limit %d: %d items over all pages, count %d", path, limit, len(all), count)
	}
	return all
}

func colCollectionIDs(t *testing.T, e *env, token, path string) []string {
	t.Helper()
	var ids []string
	for _, c := range colAll[colCollection](t, e, token, path, 1000) {
		ids = append(ids, c.ID)
	}
	return ids
}

func colSpaceIDs(t *testing.T, e *env, token, path string) []string {
	t.Helper()
	var ids []string
	for _, s := range colAll[colSpace](t, e, token, path, 1000) {
		ids = append(ids, s.ID)
	}
	return ids
}

// colGrant grants role ("" for null) on a space or collection as the admin.
func colGrant(t *testing.T, e *env, kind, id, role string, users, teams []string) {
	t.Helper()
	body := map[string]any{"role": nil}
	if role != "" {
		body["role"] = role
	}
	if users != nil {
		body["users"] = users
	}
	if teams != nil {
		body["teams"] = teams
	}
	e.call(t, e.admin.token, "POST", "/v1/"+kind+"s/"+id+"/permissions", body).want(t, http.StatusNoContent)
}

// colTeam creates a team with members as the admin.
func colTeam(t *testing.T, e *env, title string, members ...string) string {
	t.Helper()
	var team struct {
		ID string `json:"id"`
	}
	e.call(t, e.admin.token, "PUT", colOrgPath(e, "/teams"), map[string]any{"title": title, "members": members}).
		want(t, http.StatusCreated).Decode(t, &team)
	return team.ID
}

// colOtherOrg creates another organization and returns its id and admin.
func colOtherOrg(t *testing.T, e *env) (string, user) {
	t.Helper()
	b, err := e.db.InitOrganization(t.Context(), "Second Org", uniqueEmail("second"), "Sam Second")
	if err != nil {
		t.Fatalf("init organization: %v", err)
	}
	return b.Organization.ID, user{id: b.User.ID, email: b.User.Email, token: b.Token}
}

// colFixClock fixes the store's clock; the returned function moves it.
func colFixClock(e *env, at time.Time) func(time.Time) {
	now := at
	e.db.Now = func() time.Time { return now }
	return func(t time.Time) { now = t }
}

// colPeople are callers of every kind, for permission tables.
type colPeople struct {
	create, review, edit, comment, read, guest, outsider user
}

func colAddPeople(t *testing.T, e *env) colPeople {
	t.Helper()
	return colPeople{
		create: e.addUser(t, "create", "Cary Create"), review: e.addUser(t, "review", "Rita Review"),
		edit: e.addUser(t, "edit", "Eddie Edit"), comment: e.addUser(t, "comment", "Cora Comment"),
		read: e.addUser(t, "read", "Reed Read"), guest: e.addUser(t, "guest", "Gus Guest"), outsider: e.outsider(t),
	}
}

func TestCollectionCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	grantee := e.addUser(t, "read", "Greta Grantee")
	editor := e.addUser(t, "read", "Edna Editor")
	guestCreator := e.addUser(t, "guest", "Gil Guest")
	parent := colCreate(t, e, e.admin.token, "Parent", "")
	colGrant(t, e, "collection", parent.ID, "create", []string{grantee.id, guestCreator.id}, nil)
	colGrant(t, e, "collection", parent.ID, "edit", []string{editor.id}, nil)
	gone := colCreate(t, e, e.admin.token, "Gone", "")
	e.call(t, e.admin.token, "DELETE", "/v1/collections/"+gone.ID, nil).want(t, http.StatusNoContent)
	otherOrg, otherAdmin := colOtherOrg(t, e)
	var foreign colCollection
	e.call(t, otherAdmin.token, "POST", "/v1/orgs/"+otherOrg+"/collections", map[string]any{"title": "Theirs"}).
		want(t, http.StatusCreated).Decode(t, &foreign)

	ok := []struct {
		name      string
		caller    user
		body      any
		wantTitle string
		parent    string
		perms     colPerms
	}{
		{"admin, top level", e.admin, map[string]any{"title": "Guides"}, "Guides", "", colAdminPerms},
		{"no body", e.admin, nil, "Untitled", "", colAdminPerms},
		{"50 characters", e.admin, map[string]any{"title": strings.Repeat("é", 50)}, strings.Repeat("é", 50), "", colAdminPerms},
		{"in a collection", e.admin, map[string]any{"title": "Child", "parent": parent.ID}, "Child", parent.ID, colAdminPerms},
		{"create member, top level", p.create, map[string]any{"title": "Mine"}, "Mine", "", colCreatePerms},
		{"read member with a create grant on the parent", grantee, map[string]any{"title": "Granted", "parent": parent.ID}, "Granted", parent.ID, colCreatePerms},
		{"guest with a create grant on the parent", guestCreator, map[string]any{"parent": parent.ID}, "Untitled", parent.ID, colCreatePerms},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			r := e.call(t, tt.caller.token, "POST", colOrgPath(e, "/collections"), tt.body).want(t, http.StatusCreated)
			var got colCollection
			r.Decode(t, &got)
			want := colCollection{Object: "collection", ID: got.ID, Title: tt.wantTitle, Organization: e.org, DefaultLevel: colStr("inherit"), Permissions: tt.perms}
			want.URLs.Location = testPublicURL + "/v1/collections/" + got.ID
			want.URLs.App = got.URLs.App
			if tt.parent != "" {
				want.Parent = colStr(tt.parent)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("created collection (-want +got):\n%s", diff)
			}
			if loc := r.Header.Get("Location"); loc != want.URLs.Location {
				t.Errorf("Location %q, want %q", loc, want.URLs.Location)
			}
			if !strings.HasPrefix(got.URLs.App, testPublicURL+"/") {
				t.Errorf("urls.app %q is not under the public URL", got.URLs.App)
			}
			if diff := cmp.Diff(got, colGet(t, e, tt.caller.token, got.ID)); diff != "" {
				t.Errorf("GET after create (-created +read):\n%s", diff)
			}
		})
	}

	bad := []struct {
		name   string
		caller user
		body   any
		status int
		parts  []string
	}{
		{"51 characters", e.admin, map[string]any{"title": strings.Repeat("a", 51)}, 400, []string{"title"}},
		{"title not a string", e.admin, map[string]any{"title": 5}, 400, []string{"title"}},
		{"unknown parent", e.admin, map[string]any{"parent": "nosuchcollection"}, 400, []string{"parent"}},
		{"deleted parent", e.admin, map[string]any{"parent": gone.ID}, 400, []string{"parent"}},
		{"parent in another organization", e.admin, map[string]any{"parent": foreign.ID}, 400, []string{"parent"}},
		{"parent the guest cannot see", p.guest, map[string]any{"parent": parent.ID}, 400, []string{"parent"}},
		{"review member, top level", p.review, map[string]any{"title": "x"}, 403, []string{"create"}},
		{"read member, top level", p.read, map[string]any{"title": "x"}, 403, []string{"create"}},
		{"create grant does not reach the top level", grantee, map[string]any{"title": "x"}, 403, []string{"create"}},
		{"edit grant on the parent is not enough", editor, map[string]any{"parent": parent.ID}, 403, []string{"create"}},
		{"read member in a collection", p.read, map[string]any{"parent": parent.ID}, 403, []string{"create"}},
		{"guest, top level", p.guest, map[string]any{"title": "x"}, 403, nil},
		{"outsider", p.outsider, map[string]any{"title": "x"}, 404, nil},
		{"not JSON", e.admin, "title=x", 400, []string{"JSON"}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			e.call(t, tt.caller.token, "POST", colOrgPath(e, "/collections"), tt.body).wantError(t, tt.status, tt.parts...)
		})
	}
	if got, want := len(colCollectionIDs(t, e, e.admin.token, colOrgPath(e, "/collections"))), 1+len(ok); got != want {
		t.Errorf("%d live collections after the failed creations, want %d", got, want)
	}
}

func TestCollectionCreateOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := colCreate(t, e, e.admin.token, "A", "")
	s := colCreateSpace(t, e, "S", "")
	b := colCreate(t, e, e.admin.token, "B", "")
	a1 := colCreate(t, e, e.admin.token, "A1", a.ID)
	a2 := colCreate(t, e, e.admin.token, "A2", a.ID)
	// A new collection goes to the end of its parent, after spaces too.
	s2 := colCreateSpace(t, e, "S2", "")
	c := colCreate(t, e, e.admin.token, "C", "")
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+s2.ID+"/move", map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection", "collection": c.ID}}}).want(t, http.StatusOK)
	if diff := cmp.Diff([]string{s.ID, s2.ID}, colSpaceIDs(t, e, e.admin.token, colOrgPath(e, "/spaces"))); diff != "" {
		t.Errorf("spaces (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{a.ID, b.ID, c.ID, a1.ID, a2.ID}, colCollectionIDs(t, e, e.admin.token, colOrgPath(e, "/collections"))); diff != "" {
		t.Errorf("collections (-want +got):\n%s", diff)
	}
}

func TestCollectionGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	guestRead := e.addUser(t, "guest", "Gwen Granted")
	guestAdmin := e.addUser(t, "guest", "Gary Granted")
	guestTeam := e.addUser(t, "guest", "Tina Team")
	readAdmin := e.addUser(t, "read", "Rory Raised")
	top := colCreate(t, e, e.admin.token, "Top", "")
	c := colCreate(t, e, e.admin.token, "Inner", top.ID)
	colGrant(t, e, "collection", c.ID, "read", []string{guestRead.id}, nil)
	colGrant(t, e, "collection", top.ID, "admin", []string{guestAdmin.id, readAdmin.id}, nil)
	team := colTeam(t, e, "Writers", guestTeam.id)
	colGrant(t, e, "collection", c.ID, "create", nil, []string{team})

	tests := []struct {
		name   string
		caller user
		status int
		perms  colPerms
	}{
		{"admin", e.admin, 200, colAdminPerms},
		{"create", p.create, 200, colCreatePerms},
		{"review", p.review, 200, colReadPerms},
		{"edit", p.edit, 200, colReadPerms},
		{"comment", p.comment, 200, colReadPerms},
		{"read", p.read, 200, colReadPerms},
		{"read member with admin granted on the parent", readAdmin, 200, colAdminPerms},
		{"guest without a grant", p.guest, 404, colPerms{}},
		{"guest with a read grant", guestRead, 200, colReadPerms},
		{"guest with admin granted on the parent", guestAdmin, 200, colAdminPerms},
		{"guest in a team with a create grant", guestTeam, 200, colCreatePerms},
		{"outsider", p.outsider, 404, colPerms{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.call(t, tt.caller.token, "GET", "/v1/collections/"+c.ID, nil)
			if tt.status != 200 {
				r.wantError(t, tt.status, "collection")
				return
			}
			var got colCollection
			r.want(t, 200).Decode(t, &got)
			if got.ID != c.ID || got.Title != "Inner" || got.Parent == nil || *got.Parent != top.ID || got.Organization != e.org {
				t.Errorf("got %+v", got)
			}
			if diff := cmp.Diff(tt.perms, got.Permissions); diff != "" {
				t.Errorf("permissions (-want +got):\n%s", diff)
			}
		})
	}
	e.call(t, e.admin.token, "GET", "/v1/collections/nosuchcollection", nil).wantError(t, 404, "collection")
	e.call(t, "", "GET", "/v1/collections/"+c.ID, nil).wantError(t, 401)
}

func TestCollectionUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	guestAdmin := e.addUser(t, "guest", "Gary Granted")
	c := colCreate(t, e, e.admin.token, "Docs", "")
	colGrant(t, e, "collection", c.ID, "admin", []string{guestAdmin.id}, nil)

	steps := []struct {
		name   string
		caller user
		body   any
		status int
		parts  []string
		title  string
		desc   *string
		level  *string
	}{
		{"title", e.admin, map[string]any{"title": "Handbook"}, 200, nil, "Handbook", nil, colStr("inherit")},
		{"50-character title", e.admin, map[string]any{"title": strings.Repeat("ü", 50)}, 200, nil, strings.Repeat("ü", 50), nil, colStr("inherit")},
		{"51-character title", e.admin, map[string]any{"title": strings.Repeat("ü", 51)}, 400, []string{"title", "50"}, "", nil, nil},
		{"null title", e.admin, map[string]any{"title": nil}, 400, []string{"title"}, "", nil, nil},
		{"description", e.admin, map[string]any{"title": "Handbook", "description": "All about us"}, 200, nil, "Handbook", colStr("All about us"), colStr("inherit")},
		{"100-character description", e.admin, map[string]any{"description": strings.Repeat("d", 100)}, 200, nil, "Handbook", colStr(strings.Repeat("d", 100)), colStr("inherit")},
		{"101-character description", e.admin, map[string]any{"description": strings.Repeat("d", 101)}, 400, []string{"description", "100"}, "", nil, nil},
		{"description not a string", e.admin, map[string]any{"description": 3}, 400, []string{"description"}, "", nil, nil},
		{"null clears the description", e.admin, map[string]any{"description": nil}, 200, nil, "Handbook", nil, colStr("inherit")},
		{"defaultLevel edit", e.admin, map[string]any{"defaultLevel": "edit"}, 200, nil, "Handbook", nil, colStr("edit")},
		{"defaultLevel null", e.admin, map[string]any{"defaultLevel": nil}, 200, nil, "Handbook", nil, nil},
		{"defaultLevel inherit", e.admin, map[string]any{"defaultLevel": "inherit"}, 200, nil, "Handbook", nil, colStr("inherit")},
		{"defaultLevel owner", e.admin, map[string]any{"defaultLevel": "owner"}, 400, []string{"defaultLevel"}, "", nil, nil},
		{"defaultLevel empty", e.admin, map[string]any{"defaultLevel": ""}, 400, []string{"defaultLevel"}, "", nil, nil},
		{"empty body changes nothing", e.admin, map[string]any{}, 200, nil, "Handbook", nil, colStr("inherit")},
		{"guest with an admin grant", guestAdmin, map[string]any{"title": "Guest's"}, 200, nil, "Guest's", nil, colStr("inherit")},
		{"create member", p.create, map[string]any{"title": "x"}, 403, []string{"admin"}, "", nil, nil},
		{"read member", p.read, map[string]any{"title": "x"}, 403, []string{"admin"}, "", nil, nil},
		{"guest without a grant", p.guest, map[string]any{"title": "x"}, 404, nil, "", nil, nil},
		{"outsider", p.outsider, map[string]any{"title": "x"}, 404, nil, "", nil, nil},
	}
	last := colGet(t, e, e.admin.token, c.ID)
	for _, st := range steps {
		// Steps depend on each other: stop at the first failure.
		r := e.call(t, st.caller.token, "PATCH", "/v1/collections/"+c.ID, st.body)
		if st.status != 200 {
			r.wantError(t, st.status, st.parts...)
			if diff := cmp.Diff(last, colGet(t, e, e.admin.token, c.ID)); diff != "" {
				t.Fatalf("%s: refused PATCH changed the collection (-before +after):\n%s", st.name, diff)
			}
			continue
		}
		var got colCollection
		r.want(t, 200).Decode(t, &got)
		want := last
		want.Title, want.Description, want.DefaultLevel = st.title, st.desc, st.level
		want.Permissions = got.Permissions
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", st.name, diff)
		}
		if got.Permissions != colAdminPerms {
			t.Errorf("%s: permissions %+v for an admin", st.name, got.Permissions)
		}
		if diff := cmp.Diff(got, colGet(t, e, st.caller.token, c.ID)); diff != "" {
			t.Fatalf("%s: GET after PATCH (-patched +read):\n%s", st.name, diff)
		}
		last = colGet(t, e, e.admin.token, c.ID)
	}
}

// TestCollectionDefaultLevel: a collection's defaultLevel raises members'
// roles on it and on what inherits from it; guests get nothing from it.
func TestCollectionDefaultLevel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Reed Read")
	editor := e.addUser(t, "edit", "Eddie Edit")
	guest := e.addUser(t, "guest", "Gus Guest")
	outer := colCreate(t, e, e.admin.token, "Outer", "")
	inner := colCreate(t, e, e.admin.token, "Inner", outer.ID)
	sp := colCreateSpace(t, e, "Space", inner.ID)
	colGrant(t, e, "collection", inner.ID, "comment", []string{guest.id}, nil)
	patch := func(id string, level any) {
		t.Helper()
		e.call(t, e.admin.token, "PATCH", "/v1/collections/"+id, map[string]any{"defaultLevel": level}).want(t, 200)
	}
	check := func(step string, who user, wantInner colPerms, wantSpace colSpacePerms) {
		t.Helper()
		if got := colGet(t, e, who.token, inner.ID).Permissions; got != wantInner {
			t.Errorf("%s: inner collection permissions %+v, want %+v", step, got, wantInner)
		}
		if got := colGetSpace(t, e, who.token, sp.ID).Permissions; got != wantSpace {
			t.Errorf("%s: space permissions %+v, want %+v", step, got, wantSpace)
		}
	}
	readSp := colSpacePerms{Access: true}
	commentSp := colSpacePerms{Access: true, Comment: true}
	editSp := colSpacePerms{Access: true, Comment: true, Edit: true}
	reviewSp := colSpacePerms{Access: true, Comment: true, Edit: true, Review: true}

	check("all inherit", reader, colReadPerms, readSp)
	patch(outer.ID, "review")
	check("outer review, reader", reader, colReadPerms, reviewSp)
	check("outer review, editor", editor, colReadPerms, reviewSp)
	check("outer review, guest", guest, colReadPerms, commentSp)
	patch(inner.ID, "create")
	check("inner create, reader", reader, colCreatePerms, reviewSp) // create also reviews
	patch(inner.ID, nil)
	check("inner null, reader", reader, colReadPerms, readSp)
	check("inner null, editor", editor, colReadPerms, editSp)
	patch(inner.ID, "inherit")
	patch(outer.ID, "admin")
	check("outer admin, reader", reader, colAdminPerms, colSpacePerms{Access: true, Comment: true, Edit: true, Review: true, Admin: true})
	check("outer admin, guest", guest, colReadPerms, commentSp)
}

func TestCollectionListSpaces(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	guestC := e.addUser(t, "guest", "Gwen Granted")
	guestS := e.addUser(t, "guest", "Sid Space")
	c := colCreate(t, e, e.admin.token, "C", "")
	d := colCreate(t, e, e.admin.token, "D", c.ID)
	other := colCreate(t, e, e.admin.token, "Other", "")
	a := colCreateSpace(t, e, "a", c.ID)
	b := colCreateSpace(t, e, "b", c.ID)
	colCreateSpace(t, e, "top", "")
	colCreateSpace(t, e, "in D", d.ID)
	colCreateSpace(t, e, "elsewhere", other.ID)
	x := colCreateSpace(t, e, "x", c.ID)
	gone := colCreateSpace(t, e, "gone", c.ID)
	e.call(t, e.admin.token, "DELETE", "/v1/spaces/"+gone.ID, nil).want(t, http.StatusNoContent)
	colGrant(t, e, "collection", c.ID, "read", []string{guestC.id}, nil)
	colGrant(t, e, "space", a.ID, "edit", []string{guestS.id}, nil)
	path := "/v1/collections/" + c.ID + "/spaces"

	want := []string{a.ID, b.ID, x.ID}
	for _, who := range []user{e.admin, p.read, p.comment, guestC} {
		if diff := cmp.Diff(want, colSpaceIDs(t, e, who.token, path)); diff != "" {
			t.Errorf("%s: spaces of C (-want +got):\n%s", who.email, diff)
		}
	}
	// Pages of one and two hold the same, once each.
	for _, limit := range []int{1, 2} {
		var ids []string
		for _, s := range colAll[colSpace](t, e, e.admin.token, path, limit) {
			ids = append(ids, s.ID)
		}
		if diff := cmp.Diff(want, ids); diff != "" {
			t.Errorf("limit %d (-want +got):\n%s", limit, diff)
		}
	}
	// Moves change the order.
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+x.ID+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": a.ID}}}).want(t, 200)
	if diff := cmp.Diff([]string{x.ID, a.ID, b.ID}, colSpaceIDs(t, e, e.admin.token, path)); diff != "" {
		t.Errorf("after moving x first (-want +got):\n%s", diff)
	}
	// Each listed space carries the caller's own permissions.
	for _, s := range colAll[colSpace](t, e, guestC.token, path, 10) {
		if s.Permissions != (colSpacePerms{Access: true}) || s.Parent == nil || *s.Parent != c.ID {
			t.Errorf("guest's listed space %+v", s)
		}
	}
	e.call(t, guestS.token, "GET", path, nil).wantError(t, 404, "collection")
	e.call(t, p.guest.token, "GET", path, nil).wantError(t, 404, "collection")
	e.call(t, p.outsider.token, "GET", path, nil).wantError(t, 404, "collection")
	e.call(t, e.admin.token, "GET", "/v1/collections/nosuch/spaces", nil).wantError(t, 404)
	e.call(t, e.admin.token, "GET", path+"?limit=0", nil).wantError(t, 400, "limit")
	e.call(t, e.admin.token, "GET", path+"?page=notacursor", nil).wantError(t, 400, "page")
	if got := colSpaceIDs(t, e, e.admin.token, "/v1/collections/"+d.ID+"/spaces"); len(got) != 1 {
		t.Errorf("D lists %v, want its one space", got)
	}
}

// colTreeCheck checks a list of items (id → parent, in list order) against
// the wanted children of each parent ("" the top level): tree order means
// the top level first, then each parent's children together in their order,
// every item exactly once.
func colTreeCheck(t *testing.T, what string, got [][2]string, want map[string][]string) {
	t.Helper()
	var runs []string
	children := map[string][]string{}
	for i, it := range got {
		if i == 0 || got[i-1][1] != it[1] {
			runs = append(runs, it[1])
		}
		children[it[1]] = append(children[it[1]], it[0])
	}
	nonEmpty := 0
	for parent, ids := range want {
		if len(ids) == 0 {
			continue
		}
		nonEmpty++
		if diff := cmp.Diff(ids, children[parent]); diff != "" {
			t.Errorf("%s: children of %q (-want +got):\n%s", what, parent, diff)
		}
	}
	if len(runs) != nonEmpty {
		t.Errorf("%s: the children of one parent are not listed together: parents in list order %q", what, runs)
	}
	if len(want[""]) > 0 && (len(runs) == 0 || runs[0] != "") {
		t.Errorf("%s: the top level is not listed first: parents in list order %q", what, runs)
	}
}

func colCollectionTree(t *testing.T, e *env, token, path string, limit int) [][2]string {
	t.Helper()
	var out [][2]string
	for _, c := range colAll[colCollection](t, e, token, path, limit) {
		parent := ""
		if c.Parent != nil {
			parent = *c.Parent
		}
		out = append(out, [2]string{c.ID, parent})
	}
	return out
}

func colSpaceTree(t *testing.T, e *env, token, path string, limit int) [][2]string {
	t.Helper()
	var out [][2]string
	for _, s := range colAll[colSpace](t, e, token, path, limit) {
		parent := ""
		if s.Parent != nil {
			parent = *s.Parent
		}
		out = append(out, [2]string{s.ID, parent})
	}
	return out
}

func TestCollectionList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	guest := e.addUser(t, "guest", "Gwen Granted")
	a := colCreate(t, e, e.admin.token, "A", "")
	b := colCreate(t, e, e.admin.token, "B", "")
	a1 := colCreate(t, e, e.admin.token, "A1", a.ID)
	b1 := colCreate(t, e, e.admin.token, "B1", b.ID)
	a2 := colCreate(t, e, e.admin.token, "A2", a.ID)
	a1x := colCreate(t, e, e.admin.token, "A1x", a1.ID)
	gone := colCreate(t, e, e.admin.token, "Gone", a.ID)
	colCreate(t, e, e.admin.token, "Inside gone", gone.ID)
	e.call(t, e.admin.token, "DELETE", "/v1/collections/"+gone.ID, nil).want(t, http.StatusNoContent)
	colGrant(t, e, "collection", a1.ID, "read", []string{guest.id}, nil)
	// Reorder: B before A, A2 before A1.
	e.call(t, e.admin.token, "POST", "/v1/collections/"+b.ID+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "collection", "collection": a.ID}}}).want(t, 200)
	e.call(t, e.admin.token, "POST", "/v1/collections/"+a2.ID+"/move", map[string]any{"parent": a.ID, "position": map[string]any{"before": map[string]any{"type": "collection", "collection": a1.ID}}}).want(t, 200)
	tree := map[string][]string{"": {b.ID, a.ID}, a.ID: {a2.ID, a1.ID}, b.ID: {b1.ID}, a1.ID: {a1x.ID}}
	base := colOrgPath(e, "/collections")

	for _, path := range []string{base, base + "?nested=true"} {
		for _, limit := range []int{1, 2, 1000} {
			colTreeCheck(t, fmt.Sprintf("%s limit %d", path, limit), colCollectionTree(t, e, p.read.token, path, limit), tree)
		}
	}
	for _, limit := range []int{1, 1000} {
		if diff := cmp.Diff([]string{b.ID, a.ID}, colIDsOf(colCollectionTree(t, e, e.admin.token, base+"?nested=false", limit))); diff != "" {
			t.Errorf("nested=false limit %d (-want +got):\n%s", limit, diff)
		}
	}
	// A guest sees what is granted, with what is below it.
	colTreeCheck(t, "guest", colCollectionTree(t, e, guest.token, base, 1000), map[string][]string{a.ID: {a1.ID}, a1.ID: {a1x.ID}})
	if got := colCollectionTree(t, e, guest.token, base+"?nested=false", 1000); len(got) != 0 {
		t.Errorf("guest, nested=false: %v, want none", got)
	}
	if got := colCollectionTree(t, e, p.guest.token, base, 1000); len(got) != 0 {
		t.Errorf("guest without grants: %v, want none", got)
	}
	// Each item carries the caller's permissions.
	for _, c := range colAll[colCollection](t, e, p.create.token, base, 1000) {
		if c.Permissions != colCreatePerms {
			t.Errorf("create member: %s permissions %+v", c.Title, c.Permissions)
		}
	}
	e.call(t, e.admin.token, "GET", base+"?nested=abc", nil).wantError(t, 400, "nested")
	e.call(t, e.admin.token, "GET", base+"?nested=", nil).wantError(t, 400, "nested")
	e.call(t, e.admin.token, "GET", base+"?limit=1001", nil).wantError(t, 400, "limit")
	e.call(t, p.outsider.token, "GET", base, nil).wantError(t, 404)
	e.call(t, e.admin.token, "GET", "/v1/orgs/nosuchorg/collections", nil).wantError(t, 404)
}

func colIDsOf(items [][2]string) []string {
	var ids []string
	for _, it := range items {
		ids = append(ids, it[0])
	}
	return ids
}

// colMoveBody builds a move body: parent "-" leaves it out, "" is null.
func colMoveBody(parent, where, kind, anchor string) map[string]any {
	body := map[string]any{}
	switch parent {
	case "-":
	case "":
		body["parent"] = nil
	default:
		body["parent"] = parent
	}
	if where != "" {
		body["position"] = map[string]any{where: map[string]any{"type": kind, kind: anchor}}
	}
	return body
}

func TestCollectionMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	p1 := colCreate(t, e, e.admin.token, "P1", "")
	p2 := colCreate(t, e, e.admin.token, "P2", "")
	d := colCreate(t, e, e.admin.token, "D", p1.ID)
	dd := colCreate(t, e, e.admin.token, "DD", d.ID)
	s1 := colCreateSpace(t, e, "s1", p2.ID)
	s2 := colCreateSpace(t, e, "s2", p2.ID)
	s3 := colCreateSpace(t, e, "s3", "")
	sd := colCreateSpace(t, e, "in DD", dd.ID)
	move := func(who user, id string, body any) *response {
		t.Helper()
		return e.call(t, who.token, "POST", "/v1/collections/"+id+"/move", body)
	}
	parentOf := func(id string) string {
		t.Helper()
		c := colGet(t, e, e.admin.token, id)
		if c.Parent == nil {
			return ""
		}
		return *c.Parent
	}

	// To the top level: parent null, at the end.
	var got colCollection
	move(e.admin, d.ID, colMoveBody("", "", "", "")).want(t, 200).Decode(t, &got)
	if got.Parent != nil || got.ID != d.ID || got.Permissions != colAdminPerms {
		t.Errorf("moved to the top: %+v", got)
	}
	if diff := cmp.Diff([]string{p1.ID, p2.ID, d.ID}, colIDsOf(colCollectionTree(t, e, e.admin.token, colOrgPath(e, "/collections?nested=false"), 10))); diff != "" {
		t.Errorf("top level (-want +got):\n%s", diff)
	}
	// Into P2 between its two spaces: a space moved after D lands there too.
	move(e.admin, d.ID, colMoveBody(p2.ID, "before", "space", s2.ID)).want(t, 200).Decode(t, &got)
	if got.Parent == nil || *got.Parent != p2.ID {
		t.Errorf("moved into P2: parent %v", got.Parent)
	}
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+s3.ID+"/move", colMoveBody(p2.ID, "after", "collection", d.ID)).want(t, 200)
	if diff := cmp.Diff([]string{s1.ID, s3.ID, s2.ID}, colSpaceIDs(t, e, e.admin.token, "/v1/collections/"+p2.ID+"/spaces")); diff != "" {
		t.Errorf("P2 after placing s3 after D (-want +got):\n%s", diff)
	}
	// Within the same parent, without naming it.
	move(e.admin, d.ID, colMoveBody("-", "after", "space", s2.ID)).want(t, 200)
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+s1.ID+"/move", colMoveBody("-", "after", "collection", d.ID)).want(t, 200)
	if diff := cmp.Diff([]string{s3.ID, s2.ID, s1.ID}, colSpaceIDs(t, e, e.admin.token, "/v1/collections/"+p2.ID+"/spaces")); diff != "" {
		t.Errorf("P2 after reordering (-want +got):\n%s", diff)
	}
	// An empty body moves to the end of the same parent.
	move(e.admin, d.ID, map[string]any{}).want(t, 200)
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+s3.ID+"/move", colMoveBody("-", "after", "collection", d.ID)).want(t, 200)
	if diff := cmp.Diff([]string{s2.ID, s1.ID, s3.ID}, colSpaceIDs(t, e, e.admin.token, "/v1/collections/"+p2.ID+"/spaces")); diff != "" {
		t.Errorf("P2 after moving D to its end (-want +got):\n%s", diff)
	}
	// Spaces inside a moved collection stay inside it.
	if diff := cmp.Diff([]string{sd.ID}, colSpaceIDs(t, e, e.admin.token, "/v1/collections/"+dd.ID+"/spaces")); diff != "" {
		t.Errorf("DD's spaces (-want +got):\n%s", diff)
	}

	bad := []struct {
		name   string
		caller user
		id     string
		body   any
		status int
		parts  []string
	}{
		{"into itself", e.admin, d.ID, colMoveBody(d.ID, "", "", ""), 400, []string{"parent", "itself"}},
		{"into its child", e.admin, d.ID, colMoveBody(dd.ID, "", "", ""), 400, []string{"parent", "descendants"}},
		{"P2 into its grandchild", e.admin, p2.ID, colMoveBody(dd.ID, "", "", ""), 400, []string{"parent"}},
		{"anchor not in the target", e.admin, d.ID, colMoveBody(p1.ID, "before", "space", s1.ID), 400, []string{"position.before", "not in the target"}},
		{"anchor of the wrong kind", e.admin, d.ID, colMoveBody("-", "after", "collection", s1.ID), 400, []string{"position.after"}},
		{"anchor is the item", e.admin, d.ID, colMoveBody("-", "after", "collection", d.ID), 400, []string{"position.after"}},
		{"unknown anchor", e.admin, d.ID, colMoveBody("-", "before", "space", "nosuchspace"), 400, []string{"position.before"}},
		{"anchor without id", e.admin, d.ID, map[string]any{"position": map[string]any{"before": map[string]any{"type": "space"}}}, 400, []string{"position.before"}},
		{"both before and after", e.admin, d.ID, map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "space", "space": s1.ID}, "after": map[string]any{"type": "space", "space": s2.ID}}}, 400, []string{"position"}},
		{"unknown parent", e.admin, d.ID, colMoveBody("nosuchcollection", "", "", ""), 400, []string{"parent"}},
		{"parent not a string", e.admin, d.ID, map[string]any{"parent": 7}, 400, []string{"parent"}},
		{"create member", p.create, d.ID, colMoveBody("", "", "", ""), 403, []string{"admin"}},
		{"read member", p.read, d.ID, colMoveBody("-", "", "", ""), 403, []string{"admin"}},
		{"guest", p.guest, d.ID, colMoveBody("", "", "", ""), 404, nil},
		{"outsider", p.outsider, d.ID, colMoveBody("", "", "", ""), 404, nil},
		{"unknown collection", e.admin, "nosuchcollection", colMoveBody("", "", "", ""), 404, nil},
	}
	before := colCollectionTree(t, e, e.admin.token, colOrgPath(e, "/collections"), 1000)
	beforeSpaces := colSpaceTree(t, e, e.admin.token, colOrgPath(e, "/spaces"), 1000)
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			move(tt.caller, tt.id, tt.body).wantError(t, tt.status, tt.parts...)
		})
	}
	if diff := cmp.Diff(before, colCollectionTree(t, e, e.admin.token, colOrgPath(e, "/collections"), 1000)); diff != "" {
		t.Errorf("refused moves changed the collections (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeSpaces, colSpaceTree(t, e, e.admin.token, colOrgPath(e, "/spaces"), 1000)); diff != "" {
		t.Errorf("refused moves changed the spaces (-before +after):\n%s", diff)
	}

	// An admin of the collection who is a read member: may reorder it in
	// place, may not take it to the top (needs create there), may move it
	// into a collection where they may create.
	mover := e.addUser(t, "read", "Mo Mover")
	colGrant(t, e, "collection", d.ID, "admin", []string{mover.id}, nil)
	move(mover, d.ID, colMoveBody("-", "before", "space", s2.ID)).want(t, 200)
	move(mover, d.ID, colMoveBody("", "", "", "")).wantError(t, 403, "create")
	move(mover, d.ID, colMoveBody(p1.ID, "", "", "")).wantError(t, 403, "create")
	colGrant(t, e, "collection", p1.ID, "create", []string{mover.id}, nil)
	move(mover, d.ID, colMoveBody(p1.ID, "", "", "")).want(t, 200)
	if parentOf(d.ID) != p1.ID {
		t.Errorf("D's parent %q, want P1", parentOf(d.ID))
	}
}

// TestCollectionMoveInheritance: what is inside a moved collection takes its
// roles from the new ancestors.
func TestCollectionMoveInheritance(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Reed Read")
	guest := e.addUser(t, "guest", "Gwen Granted")
	teamGuest := e.addUser(t, "guest", "Tom Team")
	team := colTeam(t, e, "Crew", teamGuest.id)
	p1 := colCreate(t, e, e.admin.token, "P1", "")
	p2 := colCreate(t, e, e.admin.token, "P2", "")
	d := colCreate(t, e, e.admin.token, "D", p1.ID)
	dd := colCreate(t, e, e.admin.token, "DD", d.ID)
	sp := colCreateSpace(t, e, "deep", dd.ID)
	colGrant(t, e, "collection", p1.ID, "review", []string{guest.id}, nil)
	colGrant(t, e, "collection", p2.ID, "edit", nil, []string{team})
	e.call(t, e.admin.token, "PATCH", "/v1/collections/"+p2.ID, map[string]any{"defaultLevel": "comment"}).want(t, 200)

	check := func(step string, who user, want colSpacePerms, wantDD colPerms) {
		t.Helper()
		r := e.call(t, who.token, "GET", "/v1/spaces/"+sp.ID, nil)
		if want == (colSpacePerms{}) {
			r.wantError(t, 404)
			e.call(t, who.token, "GET", "/v1/collections/"+dd.ID, nil).wantError(t, 404)
			return
		}
		var s colSpace
		r.want(t, 200).Decode(t, &s)
		if s.Permissions != want {
			t.Errorf("%s: space permissions %+v, want %+v", step, s.Permissions, want)
		}
		if got := colGet(t, e, who.token, dd.ID).Permissions; got != wantDD {
			t.Errorf("%s: DD permissions %+v, want %+v", step, got, wantDD)
		}
	}
	review := colSpacePerms{Access: true, Comment: true, Edit: true, Review: true}
	edit := colSpacePerms{Access: true, Comment: true, Edit: true}
	comment := colSpacePerms{Access: true, Comment: true}
	read := colSpacePerms{Access: true}

	check("in P1, guest", guest, review, colReadPerms)
	check("in P1, team guest", teamGuest, colSpacePerms{}, colPerms{})
	check("in P1, reader", reader, read, colReadPerms)
	e.call(t, e.admin.token, "POST", "/v1/collections/"+d.ID+"/move", colMoveBody(p2.ID, "", "", "")).want(t, 200)
	check("in P2, guest", guest, colSpacePerms{}, colPerms{})
	check("in P2, team guest", teamGuest, edit, colReadPerms)
	check("in P2, reader", reader, comment, colReadPerms)
	e.call(t, e.admin.token, "POST", "/v1/collections/"+d.ID+"/move", colMoveBody("", "", "", "")).want(t, 200)
	check("top, guest", guest, colSpacePerms{}, colPerms{})
	check("top, team guest", teamGuest, colSpacePerms{}, colPerms{})
	check("top, reader", reader, read, colReadPerms)
	e.call(t, e.admin.token, "POST", "/v1/collections/"+d.ID+"/move", colMoveBody(p1.ID, "", "", "")).want(t, 200)
	check("back in P1, guest", guest, review, colReadPerms)
	// The guest's lists follow too.
	if diff := cmp.Diff([]string{sp.ID}, colSpaceIDs(t, e, guest.token, colOrgPath(e, "/spaces"))); diff != "" {
		t.Errorf("guest's spaces (-want +got):\n%s", diff)
	}
	if got := colSpaceIDs(t, e, teamGuest.token, colOrgPath(e, "/spaces")); len(got) != 0 {
		t.Errorf("team guest's spaces %v, want none", got)
	}
}

func TestCollectionDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	guestAdmin := e.addUser(t, "guest", "Gary Granted")
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	setClock := colFixClock(e, t0)
	c := colCreate(t, e, e.admin.token, "C", "")
	d := colCreate(t, e, e.admin.token, "D", c.ID)
	keep := colCreate(t, e, e.admin.token, "Keep", "")
	s0 := colCreateSpace(t, e, "top", "")
	s1 := colCreateSpace(t, e, "in C", c.ID)
	s2 := colCreateSpace(t, e, "in D", d.ID)
	s3 := colCreateSpace(t, e, "also in C", c.ID)
	sk := colCreateSpace(t, e, "in Keep", keep.ID)
	colGrant(t, e, "collection", c.ID, "admin", []string{guestAdmin.id}, nil)

	for _, who := range []user{p.create, p.read} {
		e.call(t, who.token, "DELETE", "/v1/collections/"+c.ID, nil).wantError(t, 403, "admin")
	}
	e.call(t, p.guest.token, "DELETE", "/v1/collections/"+c.ID, nil).wantError(t, 404)
	e.call(t, p.outsider.token, "DELETE", "/v1/collections/"+c.ID, nil).wantError(t, 404)
	e.call(t, e.admin.token, "DELETE", "/v1/collections/nosuchcollection", nil).wantError(t, 404)
	colGet(t, e, e.admin.token, c.ID)

	setClock(t0.Add(time.Hour))
	r := e.call(t, guestAdmin.token, "DELETE", "/v1/collections/"+c.ID, nil).want(t, http.StatusNoContent)
	if len(r.Body) != 0 {
		t.Errorf("204 with body %q", r.Body)
	}
	for _, id := range []string{c.ID, d.ID} {
		for _, op := range []struct{ method, path string }{
			{"GET", ""}, {"GET", "/spaces"}, {"PATCH", ""}, {"DELETE", ""}, {"POST", "/move"}, {"GET", "/permissions/users"},
		} {
			var body any
			if op.method == "PATCH" || op.method == "POST" {
				body = map[string]any{}
			}
			e.call(t, e.admin.token, op.method, "/v1/collections/"+id+op.path, body).wantError(t, 404, "collection")
		}
	}
	for _, id := range []string{s1.ID, s2.ID, s3.ID} {
		e.call(t, e.admin.token, "GET", "/v1/spaces/"+id, nil).wantError(t, 404, "space")
	}
	if diff := cmp.Diff([]string{keep.ID}, colCollectionIDs(t, e, e.admin.token, colOrgPath(e, "/collections"))); diff != "" {
		t.Errorf("collections after delete (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{s0.ID, sk.ID}, colSpaceIDs(t, e, e.admin.token, colOrgPath(e, "/spaces"))); diff != "" {
		t.Errorf("spaces after delete (-want +got):\n%s", diff)
	}
	// Nothing can be put in a deleted collection.
	e.call(t, e.admin.token, "POST", colOrgPath(e, "/collections"), map[string]any{"parent": c.ID}).wantError(t, 400, "parent")
	e.call(t, e.admin.token, "POST", colOrgPath(e, "/spaces"), map[string]any{"parent": d.ID}).wantError(t, 400, "parent")
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+s0.ID+"/move", colMoveBody(c.ID, "", "", "")).wantError(t, 400, "parent")
	e.call(t, e.admin.token, "POST", "/v1/collections/"+keep.ID+"/move", colMoveBody(d.ID, "", "", "")).wantError(t, 400, "parent")

	// A space of the deleted collection comes back at the top level, at the
	// end, within 7 days; after that it is gone.
	setClock(t0.Add(time.Hour + 7*24*time.Hour - time.Minute))
	var back colSpace
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+s2.ID+"/restore", nil).want(t, 200).Decode(t, &back)
	if back.Parent != nil || back.DeletedAt != nil || back.ID != s2.ID {
		t.Errorf("restored space %+v, want it at the top level and not deleted", back)
	}
	if diff := cmp.Diff(back, colGetSpace(t, e, e.admin.token, s2.ID)); diff != "" {
		t.Errorf("GET after restore (-restored +read):\n%s", diff)
	}
	colTreeCheck(t, "spaces after restore", colSpaceTree(t, e, e.admin.token, colOrgPath(e, "/spaces"), 1000),
		map[string][]string{"": {s0.ID, s2.ID}, keep.ID: {sk.ID}})
	e.call(t, e.admin.token, "GET", "/v1/collections/"+d.ID, nil).wantError(t, 404)
	setClock(t0.Add(time.Hour + 7*24*time.Hour + time.Minute))
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+s1.ID+"/restore", nil).wantError(t, 404)
	if diff := cmp.Diff([]string{s0.ID, s2.ID, sk.ID}, colSpaceIDs(t, e, e.admin.token, colOrgPath(e, "/spaces"))); diff != "" {
		t.Errorf("spaces at the end (-want +got):\n%s", diff)
	}
}

func TestCollectionTransfer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := colAddPeople(t, e)
	guest := e.addUser(t, "guest", "Gwen Granted")
	guestAdmin := e.addUser(t, "guest", "Gary Granted")
	team := colTeam(t, e, "Crew", p.read.id)
	org2, admin2 := colOtherOrg(t, e)
	org3, _ := colOtherOrg(t, e)
	// e.admin is admin of org2 and a read member of org3.
	if _, err := e.db.AddUser(t.Context(), org2, e.admin.email, "Ada Admin", "admin"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.AddUser(t.Context(), org3, e.admin.email, "Ada Admin", "read"); err != nil {
		t.Fatal(err)
	}
	outer := colCreate(t, e, e.admin.token, "Outer", "")
	c := colCreate(t, e, e.admin.token, "C", outer.ID)
	d := colCreate(t, e, e.admin.token, "D", c.ID)
	s1 := colCreateSpace(t, e, "in C", c.ID)
	s2 := colCreateSpace(t, e, "in D", d.ID)
	s0 := colCreateSpace(t, e, "in Outer", outer.ID)
	colGrant(t, e, "collection", c.ID, "edit", []string{guest.id}, nil)
	colGrant(t, e, "collection", c.ID, "admin", []string{guestAdmin.id}, nil)
	colGrant(t, e, "space", s2.ID, "read", []string{guest.id}, []string{team})
	colGrant(t, e, "collection", d.ID, "comment", nil, []string{team})
	// org2 already has content: the collection goes to the end of its top level.
	var theirs colCollection
	e.call(t, admin2.token, "POST", "/v1/orgs/"+org2+"/collections", map[string]any{"title": "Theirs"}).want(t, 201).Decode(t, &theirs)
	transfer := func(who user, id string, body any) *response {
		t.Helper()
		return e.call(t, who.token, "POST", "/v1/collections/"+id+"/transfer", body)
	}

	bad := []struct {
		name   string
		caller user
		body   any
		status int
		parts  []string
	}{
		{"create member", p.create, map[string]any{"organization": org2}, 403, []string{"admin"}},
		{"guest with an admin grant is no org admin", guestAdmin, map[string]any{"organization": org2}, 403, []string{"admin"}},
		{"read member of the target", e.admin, map[string]any{"organization": org3}, 403, []string{"admin"}},
		{"admin of the target only", admin2, map[string]any{"organization": org2}, 404, nil},
		{"create member, unknown target", p.create, map[string]any{"organization": "nosuchorg"}, 403, nil},
		{"unknown target", e.admin, map[string]any{"organization": "nosuchorg"}, 404, []string{"organization"}},
		{"same organization", e.admin, map[string]any{"organization": e.org}, 400, []string{"organization"}},
		{"no organization", e.admin, map[string]any{}, 400, []string{"organization"}},
		{"organization not a string", e.admin, map[string]any{"organization": 1}, 400, []string{"organization"}},
		{"guest", p.guest, map[string]any{"organization": org2}, 404, nil},
		{"outsider", p.outsider, map[string]any{"organization": org2}, 404, nil},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			transfer(tt.caller, c.ID, tt.body).wantError(t, tt.status, tt.parts...)
		})
	}
	if got := colGet(t, e, e.admin.token, c.ID); got.Organization != e.org {
		t.Fatalf("refused transfers moved the collection to %s", got.Organization)
	}

	var got colCollection
	transfer(e.admin, c.ID, map[string]any{"organization": org2}).want(t, 200).Decode(t, &got)
	if got.Organization != org2 || got.Parent != nil || got.ID != c.ID || got.Title != "C" || got.Permissions != colAdminPerms {
		t.Errorf("transferred collection %+v", got)
	}
	if dd := colGet(t, e, e.admin.token, d.ID); dd.Organization != org2 || dd.Parent == nil || *dd.Parent != c.ID {
		t.Errorf("D after transfer: organization %s, parent %v", dd.Organization, dd.Parent)
	}
	for _, id := range []string{s1.ID, s2.ID} {
		if s := colGetSpace(t, e, e.admin.token, id); s.Organization != org2 {
			t.Errorf("space %s in organization %s, want %s", id, s.Organization, org2)
		}
	}
	// Lists of both organizations.
	if diff := cmp.Diff([]string{outer.ID}, colCollectionIDs(t, e, e.admin.token, colOrgPath(e, "/collections"))); diff != "" {
		t.Errorf("old organization's collections (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{s0.ID}, colSpaceIDs(t, e, e.admin.token, colOrgPath(e, "/spaces"))); diff != "" {
		t.Errorf("old organization's spaces (-want +got):\n%s", diff)
	}
	colTreeCheck(t, "new organization's collections", colCollectionTree(t, e, admin2.token, "/v1/orgs/"+org2+"/collections", 1000),
		map[string][]string{"": {theirs.ID, c.ID}, c.ID: {d.ID}})
	colTreeCheck(t, "new organization's spaces", colSpaceTree(t, e, admin2.token, "/v1/orgs/"+org2+"/spaces", 1000),
		map[string][]string{c.ID: {s1.ID}, d.ID: {s2.ID}})
	if diff := cmp.Diff([]string{s1.ID}, colSpaceIDs(t, e, admin2.token, "/v1/collections/"+c.ID+"/spaces")); diff != "" {
		t.Errorf("C's spaces (-want +got):\n%s", diff)
	}
	// Grants belonged to the old organization: all dropped.
	for _, path := range []string{
		"/v1/collections/" + c.ID + "/permissions/users", "/v1/collections/" + d.ID + "/permissions/teams",
		"/v1/spaces/" + s2.ID + "/permissions/users", "/v1/spaces/" + s2.ID + "/permissions/teams",
	} {
		var list colList[map[string]any]
		e.call(t, admin2.token, "GET", path, nil).want(t, 200).Decode(t, &list)
		if list.Count != 0 || len(list.Items) != 0 {
			t.Errorf("%s after transfer: %d grants %v", path, list.Count, list.Items)
		}
	}
	for _, who := range []user{guest, guestAdmin, p.read, p.create} {
		e.call(t, who.token, "GET", "/v1/collections/"+c.ID, nil).wantError(t, 404)
		e.call(t, who.token, "GET", "/v1/spaces/"+s2.ID, nil).wantError(t, 404)
	}
	// Members of the new organization get their roles there.
	if got := colGet(t, e, admin2.token, d.ID).Permissions; got != colAdminPerms {
		t.Errorf("new organization's admin on D: %+v", got)
	}
	// The outer collection of the old organization is left as it was.
	if diff := cmp.Diff([]string{s0.ID}, colSpaceIDs(t, e, e.admin.token, "/v1/collections/"+outer.ID+"/spaces")); diff != "" {
		t.Errorf("Outer's spaces (-want +got):\n%s", diff)
	}
	// And it can be moved in its new organization.
	transfer(e.admin, c.ID, map[string]any{"organization": org2}).wantError(t, 400, "organization")
	e.call(t, admin2.token, "POST", "/v1/collections/"+c.ID+"/move", colMoveBody(theirs.ID, "", "", "")).want(t, 200)
}

// colModel is the test's own account of the tree: each parent's children
// ("" the top level) in order, and each item's parent and kind.
type colModel struct {
	children map[string][]string
	parent   map[string]string
	kind     map[string]string
}

func (m *colModel) add(kind, id, parent string) {
	m.children[parent] = append(m.children[parent], id)
	m.parent[id], m.kind[id] = parent, kind
}

// within reports whether id is target or below it.
func (m *colModel) within(id, target string) bool {
	for at := target; at != ""; at = m.parent[at] {
		if at == id {
			return true
		}
	}
	return false
}

func (m *colModel) move(id, parent, where, anchor string) {
	old := m.parent[id]
	m.children[old] = slices.DeleteFunc(m.children[old], func(s string) bool { return s == id })
	kids := m.children[parent]
	at := len(kids)
	if where != "" {
		at = slices.Index(kids, anchor)
		if where == "after" {
			at++
		}
	}
	m.children[parent] = slices.Insert(kids, at, id)
	m.parent[id] = parent
}

// of returns each parent's children of one kind.
func (m *colModel) of(kind string) map[string][]string {
	out := map[string][]string{}
	for parent, kids := range m.children {
		for _, id := range kids {
			if m.kind[id] == kind {
				out[parent] = append(out[parent], id)
			}
		}
	}
	return out
}

// TestCollectionMoveProperty moves spaces and collections at random among a
// few parents, with the API, and checks every list against a model after
// each step: each parent's children in the model's order, each item exactly
// once. Moves the rules refuse (into itself or below, an anchor not in the
// target) must change nothing.
func TestCollectionMoveProperty(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const seed = 20250601
	rng := rand.New(rand.NewPCG(seed, 7))
	m := &colModel{children: map[string][]string{}, parent: map[string]string{}, kind: map[string]string{}}
	var cols, items []string
	for i, parent := range []string{"", "", "", "0", "1"} {
		if parent != "" {
			parent = cols[parent[0]-'0']
		}
		c := colCreate(t, e, e.admin.token, fmt.Sprintf("c%d", i), parent)
		m.add("collection", c.ID, parent)
		cols, items = append(cols, c.ID), append(items, c.ID)
	}
	for i := range 9 {
		parent := ""
		if i%3 != 0 {
			parent = cols[i%len(cols)]
		}
		s := colCreateSpace(t, e, fmt.Sprintf("s%d", i), parent)
		m.add("space", s.ID, parent)
		items = append(items, s.ID)
	}
	check := func(step int) {
		t.Helper()
		limit := 1 + step%4
		what := fmt.Sprintf("seed %d step %d", seed, step)
		colTreeCheck(t, what+": org spaces", colSpaceTree(t, e, e.admin.token, colOrgPath(e, "/spaces"), limit), m.of("space"))
		colTreeCheck(t, what+": org collections", colCollectionTree(t, e, e.admin.token, colOrgPath(e, "/collections"), limit), m.of("collection"))
		if diff := cmp.Diff(m.of("collection")[""], colIDsOf(colCollectionTree(t, e, e.admin.token, colOrgPath(e, "/collections?nested=false"), 1000))); diff != "" {
			t.Errorf("%s: top-level collections (-want +got):\n%s", what, diff)
		}
		for _, c := range cols {
			if diff := cmp.Diff(m.of("space")[c], colSpaceIDs(t, e, e.admin.token, "/v1/collections/"+c+"/spaces")); diff != "" {
				t.Errorf("%s: spaces of %s (-want +got):\n%s", what, c, diff)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	check(0)
	refused := 0
	for step := 1; step <= 50; step++ {
		id := items[rng.IntN(len(items))]
		parent := ""
		if k := rng.IntN(len(cols) + 1); k < len(cols) {
			parent = cols[k]
		}
		where, anchor, ok := "", "", true
		if m.kind[id] == "collection" && m.within(id, parent) {
			ok = false
		}
		switch rng.IntN(4) {
		case 1, 2:
			where = []string{"before", "after"}[rng.IntN(2)]
			kids := slices.DeleteFunc(slices.Clone(m.children[parent]), func(s string) bool { return s == id })
			if len(kids) == 0 || rng.IntN(8) == 0 {
				// An anchor that is not among the target's other children.
				others := slices.DeleteFunc(slices.Clone(items), func(s string) bool { return slices.Contains(kids, s) })
				anchor, ok = others[rng.IntN(len(others))], false
			} else {
				anchor = kids[rng.IntN(len(kids))]
			}
		}
		bodyParent := parent
		if parent == m.parent[id] && rng.IntN(2) == 0 {
			bodyParent = "-"
		}
		body := colMoveBody(bodyParent, where, m.kind[anchor], anchor)
		r := e.call(t, e.admin.token, "POST", "/v1/"+m.kind[id]+"s/"+id+"/move", body)
		desc := fmt.Sprintf("seed %d step %d: move %s %s into %q %s %s %s", seed, step, m.kind[id], id, parent, where, m.kind[anchor], anchor)
		if !ok {
			refused++
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 400; body %s", desc, r.Status, r.Body)
			}
			check(step)
			continue
		}
		if r.Status != http.StatusOK {
			t.Fatalf("%s: status %d; body %s", desc, r.Status, r.Body)
		}
		var moved struct {
			Parent *string `json:"parent"`
		}
		r.Decode(t, &moved)
		if (moved.Parent == nil) != (parent == "") || (moved.Parent != nil && *moved.Parent != parent) {
			t.Fatalf("%s: answered parent %v", desc, moved.Parent)
		}
		m.move(id, parent, where, anchor)
		check(step)
	}
	if refused == 0 || refused > 25 {
		t.Errorf("%d of 50 moves refused: the sequence does not test both kinds", refused)
	}
}
