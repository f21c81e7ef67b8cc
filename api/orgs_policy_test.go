package api_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/outbound"
)

// withOrgCreation serves the env's store with the organization-creation
// setting who.
func (e *env) withOrgCreation(t *testing.T, who api.OrgCreation) {
	t.Helper()
	e.srv = api.New(e.db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()},
		Fetcher: outbound.Fetcher{AllowPrivate: true}, OrgCreation: who})
}

// TestOrgCreationPolicy: each --org-creation setting lets its callers
// create organizations and refuses the others with 403.
func TestOrgCreationPolicy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	type caller struct {
		name string
		who  user
	}
	// callers are new users, as one who creates an organization becomes
	// its admin: the admin, a reader, a guest, a guest here who is a reader
	// in another organization, and one who belongs to no organization any more.
	callers := func(t *testing.T) []caller {
		reader := e.addUser(t, "read", "Rita Reader")
		guest := e.addUser(t, "guest", "Gus Guest")
		otherGuest := e.addUser(t, "guest", "Olga Other")
		b, err := e.db.InitOrganization(t.Context(), "Other Org", uniqueEmail("other"), "Otto Other")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.db.AddUser(t.Context(), b.Organization.ID, otherGuest.email, "Olga Other", "read"); err != nil {
			t.Fatal(err)
		}
		former := e.addUser(t, "edit", "Fred Former")
		e.call(t, e.admin.token, "DELETE", "/v1/orgs/"+e.org+"/members/"+former.id, nil).want(t, http.StatusNoContent)
		return []caller{{"admin", e.admin}, {"reader", reader}, {"guest", guest}, {"guest here, reader elsewhere", otherGuest}, {"member of none", former}}
	}

	const created, refused = http.StatusCreated, http.StatusForbidden
	for _, tc := range []struct {
		setting api.OrgCreation
		want    []int // by caller
		message string
	}{
		{"", []int{created, created, created, created, created}, ""},
		{api.OrgCreationAnyone, []int{created, created, created, created, created}, ""},
		{api.OrgCreationMembers, []int{created, created, refused, created, refused}, "only members of an organization, not guests"},
		{api.OrgCreationNone, []int{refused, refused, refused, refused, refused}, "not created through the API"},
		{"bogus", []int{refused, refused, refused, refused, refused}, "not created through the API"},
	} {
		t.Run(string(tc.setting), func(t *testing.T) {
			e.withOrgCreation(t, tc.setting)
			callers := callers(t)
			for i, c := range callers {
				res := e.call(t, c.who.token, "POST", "/v1/orgs", map[string]any{"title": "New Org"})
				if tc.want[i] == refused {
					res.wantError(t, http.StatusForbidden, tc.message)
					continue
				}
				if res.Status != tc.want[i] {
					t.Errorf("%s: status %d, want %d; body %s", c.name, res.Status, tc.want[i], res.Body)
				}
			}
			// The setting is checked before the body: a refused caller learns nothing of it.
			if tc.want[2] == refused {
				e.call(t, callers[2].who.token, "POST", "/v1/orgs", map[string]any{}).wantError(t, http.StatusForbidden)
			}
		})
	}
}

func TestParseOrgCreation(t *testing.T) {
	for in, want := range map[string]api.OrgCreation{"": api.OrgCreationAnyone, "anyone": api.OrgCreationAnyone,
		"members": api.OrgCreationMembers, "none": api.OrgCreationNone} {
		if got, err := api.ParseOrgCreation(in); got != want || err != nil {
			t.Errorf("ParseOrgCreation(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"admins", "Anyone", "everyone", " none"} {
		if _, err := api.ParseOrgCreation(in); err == nil {
			t.Errorf("ParseOrgCreation(%q) is accepted", in)
		}
	}
}

// TestOrgCreationRateLimit: a user creates at most api.MaxOrgsPerWindow
// organizations an hour; more are answered 429 with Retry-After until the
// oldest leaves the hour. Refused bodies do not count, nor do other users'.
func TestOrgCreationRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	creator := e.addUser(t, "read", "Cora Creator")
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	e.srv.SetOrgCreationClock(func() time.Time { return now })
	create := func(token string) *response {
		return e.call(t, token, "POST", "/v1/orgs", map[string]any{"title": "Org"})
	}

	for i := range api.MaxOrgsPerWindow {
		create(creator.token).want(t, http.StatusCreated)
		e.call(t, creator.token, "POST", "/v1/orgs", map[string]any{"title": ""}).wantError(t, http.StatusBadRequest, "title")
		if i == 0 {
			now = now.Add(10 * time.Minute) // the rest ten minutes after the first
		}
	}
	limited := func(retryAfter string) {
		t.Helper()
		res := create(creator.token)
		res.wantError(t, http.StatusTooManyRequests, strconv.Itoa(api.MaxOrgsPerWindow), "per hour")
		if got := res.Header.Get("Retry-After"); got != retryAfter {
			t.Errorf("Retry-After %q, want %q", got, retryAfter)
		}
	}
	limited("3000") // the first leaves the hour in 50 minutes
	create(e.admin.token).want(t, http.StatusCreated)

	now = now.Add(49*time.Minute + 59*time.Second)
	limited("1")
	now = now.Add(time.Second)
	create(creator.token).want(t, http.StatusCreated) // the first has left the hour
	limited("600")                                    // the nine of ten minutes later have not, for ten minutes

	now = now.Add(10 * time.Minute)
	for range api.MaxOrgsPerWindow - 1 {
		create(creator.token).want(t, http.StatusCreated)
	}
	limited("3000") // the one of an hour after the first leaves in 50 minutes

	var mine listOut[orgOut]
	e.call(t, creator.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &mine)
	if want := 1 + 2*api.MaxOrgsPerWindow; mine.Count != want {
		t.Errorf("creator belongs to %d organizations, want %d", mine.Count, want)
	}
}
