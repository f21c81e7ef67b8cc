package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/dnscheck/dnstest"
)

// TestCustomHostnames: a site's hostname is shown with its DNS status and
// the records to add; it is pending (not active, not served) until a TXT
// record with the organization's token proves it, which PATCH checks at
// once; a record gone later leaves it served for the grace period; a new
// hostname must be proved anew; DELETE takes it off the site; members who
// may not change the site may not change it, and others see nothing of it.
func TestCustomHostnames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	zone := dnstest.Start(t)
	e.srv = api.New(e.db, api.Config{PublicURL: testPublicURL, DNS: dnscheck.New(zone.Addr)})
	reader := e.addUser(t, "read", "Rita Reader")
	spaceID := e.crSpace(t)
	var site struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": "Docs", "spaces": []string{spaceID}}).want(t, http.StatusCreated).Decode(t, &site)
	e.call(t, e.admin.token, "PATCH", sitePath(e, site.ID, ""), map[string]any{"hostname": "docs.example.com", "published": true}).want(t, http.StatusOK)
	path := "/v1/custom-hostnames/docs.example.com"

	type hostnameOut struct {
		Hostname, Status string
		IsActive         bool
		Target           struct{ Type, Site string }
		DNS              struct {
			Type, Name, Value, Message, VerifiedAt string
			Verified                               bool
			CNAME                                  struct{ Name, Value string }
		}
	}
	get := func(token string) hostnameOut {
		t.Helper()
		var out hostnameOut
		urlCall(t, e, token, "GET", path, nil, http.StatusOK).Decode(t, &out)
		return out
	}
	got := get(e.admin.token)
	record := got.DNS.Value
	if got.Hostname != "docs.example.com" || got.Target.Type != "site" || got.Target.Site != site.ID || got.IsActive || got.DNS.Verified ||
		got.Status != "dns_no_cname" || got.DNS.Type != "TXT" || got.DNS.Name != "_quire.docs.example.com" ||
		!strings.HasPrefix(record, "quire-verification=") || len(record) < len("quire-verification=")+32 ||
		!strings.Contains(got.DNS.Message, `_quire.docs.example.com. TXT "`+record+`"`) ||
		got.DNS.CNAME.Name != "docs.example.com" || got.DNS.CNAME.Value != "quire.test" {
		t.Errorf("before the record, pending: %+v", got)
	}

	// A record with another token, then the right one: the stored status
	// changes on PATCH, and the hostname is active once proved.
	zone.SetTXT("_quire.docs.example.com", "quire-verification=someone-elses")
	if got := get(e.admin.token); got.Status != "dns_no_cname" {
		t.Errorf("GET checked again by itself: %+v", got)
	}
	urlCall(t, e, e.admin.token, "PATCH", path, nil, http.StatusNoContent)
	if got := get(e.admin.token); got.Status != "dns_wrong_cname" || got.IsActive || !strings.Contains(got.DNS.Message, "another token") {
		t.Errorf("another token: %+v", got)
	}
	// A CNAME to this server proves nothing: every organization's
	// hostnames lead here.
	zone.SetCNAME("docs.example.com", "quire.test")
	zone.SetTXT("_quire.docs.example.com")
	urlCall(t, e, e.admin.token, "PATCH", path, nil, http.StatusNoContent)
	if got := get(e.admin.token); got.Status != "dns_no_cname" || got.IsActive {
		t.Errorf("a CNAME only: %+v", got)
	}
	zone.SetTXT("_quire.docs.example.com", record)
	urlCall(t, e, e.admin.token, "PATCH", path, nil, http.StatusNoContent)
	if got := get(reader.token); got.Status != "dns_passed" || !got.IsActive || !got.DNS.Verified || got.DNS.VerifiedAt == "" {
		t.Errorf("the record: %+v", got)
	}
	// The record gone: the check says so, the hostname stays active for
	// the grace period (jobs.HostnameGrace).
	zone.SetTXT("_quire.docs.example.com")
	urlCall(t, e, e.admin.token, "PATCH", path, nil, http.StatusNoContent)
	if got := get(e.admin.token); got.Status != "dns_no_cname" || !got.IsActive {
		t.Errorf("record gone, within the grace: %+v", got)
	}
	// A hostname changed and changed back must be proved anew.
	e.call(t, e.admin.token, "PATCH", sitePath(e, site.ID, ""), map[string]any{"hostname": "docs2.example.com"}).want(t, http.StatusOK)
	e.call(t, e.admin.token, "PATCH", sitePath(e, site.ID, ""), map[string]any{"hostname": "docs.example.com"}).want(t, http.StatusOK)
	if got := get(e.admin.token); got.IsActive || got.DNS.Verified {
		t.Errorf("after the hostname changed back: %+v", got)
	}

	// Who may do what.
	outsider := e.outsider(t)
	urlCall(t, e, outsider.token, "GET", path, nil, http.StatusNotFound)
	urlCall(t, e, outsider.token, "PATCH", path, nil, http.StatusNotFound)
	urlCall(t, e, outsider.token, "DELETE", path, nil, http.StatusNoContent) // as if it did not exist
	urlCall(t, e, reader.token, "PATCH", path, nil, http.StatusForbidden)
	urlCall(t, e, reader.token, "DELETE", path, nil, http.StatusForbidden)
	urlCall(t, e, e.admin.token, "GET", "/v1/custom-hostnames/nothing.example.com", nil, http.StatusNotFound)

	urlCall(t, e, e.admin.token, "DELETE", path, nil, http.StatusResetContent)
	var after struct{ Hostname string }
	e.call(t, e.admin.token, "GET", sitePath(e, site.ID, ""), nil).want(t, http.StatusOK).Decode(t, &after)
	if after.Hostname != "" {
		t.Errorf("the site keeps hostname %q", after.Hostname)
	}
	urlCall(t, e, e.admin.token, "DELETE", path, nil, http.StatusNoContent)
	urlCall(t, e, e.admin.token, "GET", path, nil, http.StatusNotFound)

	// The removal is in the site's organization's audit log, and only there.
	var log auditListOut
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/audit-events?action=custom-hostname.delete", nil).want(t, http.StatusOK).Decode(t, &log)
	if log.Count != 1 || log.Items[0].Target.ID != "docs.example.com" {
		t.Errorf("audit of the removal: %+v", log)
	}
}

// TestCustomHostnameSquatted: another organization's site claims a
// hostname first. It is not served; the owner's PATCH is a conflict that
// says which record proves it theirs, and with that record it takes the
// hostname, served at once. A claim that was proved is not taken.
func TestCustomHostnameSquatted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	zone := dnstest.Start(t)
	e.srv = api.New(e.db, api.Config{PublicURL: testPublicURL, DNS: dnscheck.New(zone.Addr)})
	squatter := e.outsider(t)
	var theirOrg string
	for _, o := range e.call(t, squatter.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).JSON(t)["items"].([]any) {
		theirOrg = o.(map[string]any)["id"].(string)
	}
	newSite := func(token, org string) string {
		t.Helper()
		var s struct{ ID string }
		e.call(t, token, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs"}).want(t, http.StatusCreated).Decode(t, &s)
		return "/v1/orgs/" + org + "/sites/" + s.ID
	}
	theirs, mine := newSite(squatter.token, theirOrg), newSite(e.admin.token, e.org)
	e.call(t, squatter.token, "PATCH", theirs, map[string]any{"hostname": "docs.acme.example", "published": true}).want(t, http.StatusOK)
	var h struct {
		IsActive bool
		DNS      struct{ Verified bool }
	}
	urlCall(t, e, squatter.token, "PATCH", "/v1/custom-hostnames/docs.acme.example", nil, http.StatusNoContent)
	urlCall(t, e, squatter.token, "GET", "/v1/custom-hostnames/docs.acme.example", nil, http.StatusOK).Decode(t, &h)
	if h.IsActive || h.DNS.Verified {
		t.Fatalf("the squatter's claim is served: %+v", h)
	}

	res := e.call(t, e.admin.token, "PATCH", mine, map[string]any{"hostname": "docs.acme.example"})
	res.wantError(t, http.StatusConflict, "hostname:", "has not proved it", `_quire.docs.acme.example. TXT "quire-verification=`)
	record := regexp.MustCompile(`quire-verification=[0-9a-f]+`).FindString(string(res.Body))
	zone.SetTXT("_quire.docs.acme.example", record)
	e.call(t, e.admin.token, "PATCH", mine, map[string]any{"hostname": "docs.acme.example"}).want(t, http.StatusOK)
	urlCall(t, e, e.admin.token, "GET", "/v1/custom-hostnames/docs.acme.example", nil, http.StatusOK).Decode(t, &h)
	if !h.DNS.Verified {
		t.Errorf("the owner's claim is not proved: %+v", h)
	}
	var site struct{ Hostname string }
	e.call(t, squatter.token, "GET", theirs, nil).want(t, http.StatusOK).Decode(t, &site)
	if site.Hostname != "" {
		t.Errorf("the squatter's site keeps %q", site.Hostname)
	}
	// Now proved, the hostname is not taken back, whatever the record.
	zone.SetTXT("_quire.docs.acme.example", record, "quire-verification=anything")
	e.call(t, squatter.token, "PATCH", theirs, map[string]any{"hostname": "docs.acme.example"}).wantError(t, http.StatusConflict, "already used by another site")
}
