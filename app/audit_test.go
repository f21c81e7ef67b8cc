package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

// TestAuditAppWrites: the app's form posts (a token made, a member's role
// changed, a site created and published) are in the organization's audit
// log as the API shows it, from the app ("ui"), with their actor and target.
func TestAuditAppWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b := e.browser(t)
	b.signIn(t, e.admin)
	member, err := e.db.AddUser(t.Context(), e.org, "mo@example.com", "Mo Member", quire.RoleEdit)
	if err != nil {
		t.Fatal(err)
	}
	b.get(t, "/tokens")
	if a := b.post(t, "/tokens", url.Values{"label": {"CI"}}); a.status != http.StatusOK {
		t.Fatalf("create token: %d", a.status)
	}
	base := "/o/" + e.org
	if a := b.post(t, base+"/settings/members/"+member.User.ID+"/role", url.Values{"role": {"review"}}); a.status != http.StatusSeeOther {
		t.Fatalf("role: %d %s", a.status, a.body)
	}
	a := b.post(t, base+"/sites", url.Values{"title": {"Product docs"}})
	if a.status != http.StatusSeeOther {
		t.Fatalf("create site: %d", a.status)
	}
	siteID := a.location[strings.LastIndexByte(a.location, '/')+1:]
	if a := b.post(t, a.location+"/publish", url.Values{"published": {"true"}}); a.status != http.StatusSeeOther {
		t.Fatalf("publish: %d", a.status)
	}
	// A refused post records nothing.
	if a := b.post(t, base+"/settings/members/"+member.User.ID+"/role", url.Values{"role": {"boss"}}); a.status != http.StatusBadRequest {
		t.Fatalf("bad role: %d", a.status)
	}

	var log struct {
		Items []struct {
			Action, Source string
			Actor, Target  struct{ Type, ID string }
		}
	}
	e.api(t, e.token, "GET", "/v1/orgs/"+e.org+"/audit-events?limit=100", nil, http.StatusOK, &log)
	want := map[string]string{"token.create": "", "member.role": member.User.ID, "site.create": e.org, "site.publish": siteID}
	for _, ev := range log.Items {
		target, ok := want[ev.Action]
		if !ok {
			t.Errorf("unexpected event %+v", ev)
			continue
		}
		if ev.Source != "ui" || ev.Actor.Type != "user" || ev.Actor.ID == "" || ev.Target.ID != target {
			t.Errorf("event %+v, want source ui and target %q", ev, target)
		}
		delete(want, ev.Action)
	}
	if len(want) > 0 {
		t.Errorf("not recorded: %v (log %+v)", want, log.Items)
	}
}
