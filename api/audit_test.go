package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
)

// auditCall calls an audit operation as token's holder, checks the answer
// against the whole reference and wants status.
func auditCall(t *testing.T, e *env, token, path string, status int) *response {
	t.Helper()
	res := e.call(t, token, "GET", path, nil)
	if ref := fullReference(t); ref != nil {
		u, _ := url.Parse(path)
		if err := ref.Check("GET", strings.TrimPrefix(u.Path, "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res.want(t, status)
}

type auditEventOut struct {
	ID, Action, Source, OccurredAt string
	Actor, Target                  struct{ Type, ID, Label string }
	ExecutionID                    string
	Payload                        map[string]any
}

type auditListOut struct {
	Items []auditEventOut
	Count int
	Next  *struct{ Page string }
}

func (e *env) auditEvents(t *testing.T, query string) auditListOut {
	t.Helper()
	var out auditListOut
	auditCall(t, e, e.admin.token, "/v1/orgs/"+e.org+"/audit-events"+query, http.StatusOK).Decode(t, &out)
	return out
}

// TestAuditEvents: representative writes (space create, content merge,
// member role change, site publish) are recorded with their actor, action,
// target and address; refused writes are not; filters and pages work; only
// admins read the log; another organization's events never show.
func TestAuditEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writer := e.addUser(t, "edit", "Wes Writer")
	other := e.outsider(t)

	// Another organization's writes, which must not show.
	var otherOrg struct{ Items []struct{ ID string } }
	e.call(t, other.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &otherOrg)
	e.call(t, other.token, "POST", "/v1/orgs/"+otherOrg.Items[0].ID+"/spaces", map[string]any{"title": "Theirs"}).want(t, http.StatusCreated)

	var sp struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": "Handbook"}).want(t, http.StatusCreated).Decode(t, &sp)
	crPath := e.cmNewCR(t, writer.token, sp.ID)
	e.author(t, writer.token, crPath, insertPage("", "# Guide\n\nHello.")).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, crPath)
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org+"/members/"+writer.id, map[string]any{"role": "read"}).want(t, http.StatusOK)
	var site struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": "Docs", "spaces": []string{sp.ID}}).want(t, http.StatusCreated).Decode(t, &site)
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org+"/sites/"+site.ID, map[string]any{"published": true}).want(t, http.StatusOK)
	// Refused and invalid writes commit nothing and record nothing.
	e.call(t, writer.token, "PATCH", "/v1/orgs/"+e.org+"/members/"+e.admin.id, map[string]any{"role": "read"}).want(t, http.StatusForbidden)
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": strings.Repeat("x", 1000)}).want(t, http.StatusBadRequest)

	all := e.auditEvents(t, "?limit=100")
	find := func(action, targetID string) auditEventOut {
		t.Helper()
		for _, ev := range all.Items {
			if ev.Action == action && ev.Target.ID == targetID {
				return ev
			}
		}
		t.Fatalf("no %s event of %s in %+v", action, targetID, all.Items)
		return auditEventOut{}
	}
	created := find("space.create", sp.ID)
	if created.Actor.Type != "user" || created.Actor.ID != e.admin.id || created.Actor.Label != "Ada Admin" ||
		created.Target.Type != "space" || created.Target.Label != "Handbook" || created.Source != "api" {
		t.Errorf("space.create event %+v", created)
	}
	crID := crPath[strings.LastIndexByte(crPath, '/')+1:]
	if ev := find("change-request.content", crID); ev.Actor.ID != writer.id || ev.Target.Type != "change-request" {
		t.Errorf("content event %+v", ev)
	}
	if ev := find("change-request.merge", crID); ev.Actor.ID != e.admin.id {
		t.Errorf("merge event %+v", ev)
	}
	if ev := find("member.update", writer.id); ev.Target.Type != "member" {
		t.Errorf("role change event %+v", ev)
	}
	find("site.create", site.ID)
	find("site.update", site.ID)
	for _, ev := range all.Items {
		if ev.Target.ID == e.admin.id || strings.Contains(ev.Target.Label, "Theirs") || strings.Contains(ev.Target.Label, "xxx") {
			t.Errorf("a refused write or another organization's is in the log: %+v", ev)
		}
	}
	if all.Count != len(all.Items) || all.Count != 7 {
		t.Errorf("count %d, %d items, want the 7 writes: %+v", all.Count, len(all.Items), all.Items)
	}

	// Newest first, and the details of one.
	for i := 1; i < len(all.Items); i++ {
		if all.Items[i-1].OccurredAt < all.Items[i].OccurredAt {
			t.Errorf("events not newest first: %s before %s", all.Items[i-1].OccurredAt, all.Items[i].OccurredAt)
		}
	}
	var one auditEventOut
	auditCall(t, e, e.admin.token, "/v1/orgs/"+e.org+"/audit-events/"+created.ID, http.StatusOK).Decode(t, &one)
	if one.ExecutionID == "" || one.Payload["method"] != "POST" || one.Payload["path"] != "/v1/orgs/"+e.org+"/spaces" || one.Payload["ip"] == "" {
		t.Errorf("details %+v", one)
	}

	// Filters and pages.
	if got := e.auditEvents(t, "?action=space.create"); got.Count != 1 || got.Items[0].ID != created.ID {
		t.Errorf("by action: %+v", got)
	}
	if got := e.auditEvents(t, "?actor="+writer.id); got.Count != 2 {
		t.Errorf("by actor: %+v", got)
	}
	if got := e.auditEvents(t, "?target="+crID); got.Count != 3 { // created, edited, merged
		t.Errorf("by target: %+v", got)
	}
	future := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	if got := e.auditEvents(t, "?from="+future); got.Count != 0 {
		t.Errorf("from the future: %+v", got)
	}
	if got := e.auditEvents(t, "?to="+future); got.Count != 7 {
		t.Errorf("to the future: %+v", got)
	}
	seen := map[string]bool{}
	for page := ""; ; {
		got := e.auditEvents(t, "?limit=3"+page)
		for _, ev := range got.Items {
			if seen[ev.ID] {
				t.Fatalf("event %s on two pages", ev.ID)
			}
			seen[ev.ID] = true
		}
		if got.Next == nil {
			break
		}
		page = "&page=" + got.Next.Page
	}
	if len(seen) != 7 {
		t.Errorf("pages gave %d events, want 7", len(seen))
	}
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/audit-events?from=yesterday", nil).wantError(t, http.StatusBadRequest, "from")
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/audit-events?limit=101", nil).wantError(t, http.StatusBadRequest, "limit")

	// The actions, with labels.
	var actions struct {
		Items []struct{ Object, ID, Label string }
	}
	auditCall(t, e, e.admin.token, "/v1/orgs/"+e.org+"/audit-event-actions", http.StatusOK).Decode(t, &actions)
	labels := map[string]string{}
	for _, a := range actions.Items {
		labels[a.ID] = a.Label
	}
	if labels["space.create"] != "Create space" || labels["change-request.merge"] != "Merge change request" || labels["member.update"] == "" {
		t.Errorf("actions %+v", actions.Items)
	}

	// Only admins; outsiders see no organization and no event.
	auditCall(t, e, writer.token, "/v1/orgs/"+e.org+"/audit-events", http.StatusForbidden)
	auditCall(t, e, writer.token, "/v1/orgs/"+e.org+"/audit-event-actions", http.StatusForbidden)
	auditCall(t, e, other.token, "/v1/orgs/"+e.org+"/audit-events", http.StatusNotFound)
	auditCall(t, e, other.token, "/v1/orgs/"+e.org+"/audit-events/"+created.ID, http.StatusNotFound)
	auditCall(t, e, other.token, "/v1/orgs/"+otherOrg.Items[0].ID+"/audit-events/"+created.ID, http.StatusNotFound)
	var theirs auditListOut
	auditCall(t, e, other.token, "/v1/orgs/"+otherOrg.Items[0].ID+"/audit-events", http.StatusOK).Decode(t, &theirs)
	if theirs.Count != 1 || theirs.Items[0].Action != "space.create" || theirs.Items[0].Actor.ID != other.id {
		t.Errorf("the other organization's log: %+v", theirs)
	}
}

// TestAuditActionNames pins how routes name their actions and targets.
func TestAuditActionNames(t *testing.T) {
	for _, c := range []struct{ method, pattern, action, target string }{
		{"POST", "/v1/orgs/{organizationId}/spaces", "space.create", "organization"},
		{"PATCH", "/v1/spaces/{spaceId}", "space.update", "space"},
		{"POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", "change-request.merge", "change-request"},
		{"PATCH", "/v1/orgs/{organizationId}/members/{userId}", "member.update", "member"},
		{"PUT", "/v1/orgs/{organizationId}/teams", "team.create", "organization"},
		{"DELETE", "/v1/spaces/{spaceId}/git", "git.delete", "space"},
		{"POST", "/v1/orgs", "organization.create", ""},
		{"POST", "/v1/orgs/{organizationId}/fonts/{fontId}", "font.update", "font"},
		{"POST", "/tokens", "token.create", ""},
		{"POST", "/o/{organizationId}/sites/{siteId}/publish", "site.publish", "site"},
		{"POST", "/s/{spaceId}/changes/{changeRequestId}/merge", "change-request.merge", "change-request"},
	} {
		if got := quire.AuditActionOf(c.method, c.pattern); got != c.action {
			t.Errorf("%s %s: action %q, want %q", c.method, c.pattern, got, c.action)
		}
		if typ, _ := quire.AuditTargetOf(c.pattern, func(string) string { return "x" }); typ != c.target {
			t.Errorf("%s %s: target %q, want %q", c.method, c.pattern, typ, c.target)
		}
	}
}
