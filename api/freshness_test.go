package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"testing"
	"time"

	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// twoServers opens two servers over one database, as two processes behind
// a load balancer would be; the first has an organization.
func twoServers(t *testing.T) (*env, *env) {
	t.Helper()
	url, dir := storetest.URL(t), t.TempDir()
	open := func() *store.DB {
		db, err := store.Open(t.Context(), url, dir)
		if err != nil {
			t.Fatalf("open store: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a := serverOn(t, open())
	a.initOrg(t)
	other := serverOn(t, open())
	other.org, other.admin = a.org, a.admin
	return a, other
}

// TestPermissionChangesSeenAtOnce: the servers keep callers, spaces and
// roles in memory, yet every change of who may read a space, and how, is
// seen by the very next request on the server that made it, and on another
// server over the same database as soon as it hears of the change
// (PostgreSQL NOTIFY; on SQLite, its data_version), with no expiry to wait
// for.
func TestPermissionChangesSeenAtOnce(t *testing.T) {
	t.Parallel()
	a, b := twoServers(t)
	guest := a.addUser(t, "guest", "Gwen Guest")
	member := a.addUser(t, "read", "Rita Reader")
	sp := colCreateSpace(t, a, "Handbook", "")
	col := colCreate(t, a, a.admin.token, "Granted", "")
	colGrant(t, a, "collection", col.ID, "read", []string{guest.id}, nil)
	team := colTeam(t, a, "Crew")
	colGrant(t, a, "space", sp.ID, "read", nil, []string{team})
	org2, _ := colOtherOrg(t, a)
	if _, err := a.db.AddUser(t.Context(), org2, a.admin.email, "Ada Admin", "admin"); err != nil {
		t.Fatal(err)
	}

	// sees says what a caller gets from GET S on a server: the status, and
	// whether they may edit.
	sees := func(e *env, who user) string {
		t.Helper()
		r := e.call(t, who.token, "GET", "/v1/spaces/"+sp.ID, nil)
		if r.Status != http.StatusOK {
			return http.StatusText(r.Status)
		}
		if r.JSON(t)["permissions"].(map[string]any)["edit"] == true {
			return "edit"
		}
		return "read"
	}
	steps := []struct {
		name   string
		who    *user
		change func()
		want   string
	}{
		{"grant to the user", &guest, func() { colGrant(t, a, "space", sp.ID, "read", []string{guest.id}, nil) }, "read"},
		{"grant raised", &guest, func() { colGrant(t, a, "space", sp.ID, "edit", []string{guest.id}, nil) }, "edit"},
		{"grant removed", &guest, func() { colGrant(t, a, "space", sp.ID, "", []string{guest.id}, nil) }, "Not Found"},
		{"joins a granted team", &guest, func() {
			a.call(t, a.admin.token, "PUT", colOrgPath(a, "/teams/"+team+"/members"), map[string]any{"add": []string{guest.id}}).want(t, http.StatusNoContent)
		}, "read"},
		{"leaves the team", &guest, func() {
			a.call(t, a.admin.token, "PUT", colOrgPath(a, "/teams/"+team+"/members"), map[string]any{"remove": []string{guest.id}}).want(t, http.StatusNoContent)
		}, "Not Found"},
		{"space moved into a granted collection", &guest, func() {
			a.call(t, a.admin.token, "POST", "/v1/spaces/"+sp.ID+"/move", colMoveBody(col.ID, "", "", "")).want(t, http.StatusOK)
		}, "read"},
		{"space moved out of it", &guest, func() {
			a.call(t, a.admin.token, "POST", "/v1/spaces/"+sp.ID+"/move", colMoveBody("", "", "", "")).want(t, http.StatusOK)
		}, "Not Found"},
		{"organization role raised", &member, func() {
			a.call(t, a.admin.token, "PATCH", colOrgPath(a, "/members/"+member.id), map[string]any{"role": "edit"}).want(t, http.StatusOK)
		}, "edit"},
		{"organization role lowered", &member, func() {
			a.call(t, a.admin.token, "PATCH", colOrgPath(a, "/members/"+member.id), map[string]any{"role": "read"}).want(t, http.StatusOK)
		}, "read"},
		{"default level raised", &member, func() {
			a.call(t, a.admin.token, "PATCH", "/v1/spaces/"+sp.ID, map[string]any{"defaultLevel": "edit"}).want(t, http.StatusOK)
		}, "edit"},
		{"default level back to inherit", &member, func() {
			a.call(t, a.admin.token, "PATCH", "/v1/spaces/"+sp.ID, map[string]any{"defaultLevel": "inherit"}).want(t, http.StatusOK)
		}, "read"},
		{"removed from the organization", &member, func() {
			a.call(t, a.admin.token, "DELETE", colOrgPath(a, "/members/"+member.id), nil).want(t, http.StatusNoContent)
		}, "Not Found"},
		{"token revoked", &guest, func() {
			colGrant(t, a, "space", sp.ID, "read", []string{guest.id}, nil)
			if err := a.db.RevokeToken(t.Context(), guest.id, hashOf(guest.token)); err != nil {
				t.Fatal(err)
			}
		}, "Unauthorized"},
		{"space transferred to another organization", &a.admin, func() {
			colGrant(t, a, "space", sp.ID, "", nil, []string{team})
			a.call(t, a.admin.token, "POST", "/v1/spaces/"+sp.ID+"/transfer", map[string]any{"organization": org2}).want(t, http.StatusOK)
			a.call(t, a.admin.token, "DELETE", "/v1/orgs/"+org2+"/members/"+a.admin.id, nil).want(t, http.StatusNoContent)
		}, "Not Found"},
	}
	for _, step := range steps {
		// Each server has just answered the caller, so what it keeps is warm.
		before := sees(a, *step.who)
		if got := sees(b, *step.who); got != before {
			t.Fatalf("%s: before, the servers disagree: %s and %s", step.name, before, got)
		}
		heard := b.db.Commits()
		step.change()
		if got := sees(a, *step.who); got != step.want {
			t.Errorf("%s: the next request on the same server sees %s, want %s", step.name, got, step.want)
		}
		waitHeard(t, b.db, heard)
		if got := sees(b, *step.who); got != step.want {
			t.Errorf("%s: the next request on the other server sees %s, want %s", step.name, got, step.want)
		}
	}
}

// waitHeard waits for db to hear of a change made elsewhere after its
// change count was heard.
func waitHeard(t *testing.T, db *store.DB, heard uint64) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); db.Commits() == heard; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the other server did not hear of the change within 5 s")
		}
	}
}

// hashOf names a token as the store does: its SHA-256 in hex.
func hashOf(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}
