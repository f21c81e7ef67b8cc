package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/quiredocs/quire/api"
)

// zoneResolver answers DNS lookups from records the test sets: the DNS
// check sends nothing anywhere in tests.
type zoneResolver struct {
	mu    sync.Mutex
	cname map[string]string
	hosts map[string][]string
}

func (z *zoneResolver) LookupCNAME(_ context.Context, host string) (string, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if c, ok := z.cname[host]; ok {
		return c + ".", nil
	}
	if _, ok := z.hosts[host]; ok {
		return host + ".", nil
	}
	return "", errors.New("no such host")
}

func (z *zoneResolver) LookupHost(_ context.Context, host string) ([]string, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if c, ok := z.cname[host]; ok {
		host = c
	}
	if a, ok := z.hosts[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

func (z *zoneResolver) set(fn func()) {
	z.mu.Lock()
	defer z.mu.Unlock()
	fn()
}

// TestCustomHostnames: a site's hostname is shown with its DNS status and
// the record to add; PATCH checks again; DELETE takes it off the site;
// members who may not change the site may not change it, and others see
// nothing of it.
func TestCustomHostnames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	zone := &zoneResolver{cname: map[string]string{}, hosts: map[string][]string{"quire.test": {"192.0.2.10"}}}
	e.srv = api.New(e.db, api.Config{PublicURL: testPublicURL, Resolver: zone})
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
		DNS              struct{ Type, Name, Value, Message string }
	}
	get := func(token string) hostnameOut {
		t.Helper()
		var out hostnameOut
		urlCall(t, e, token, "GET", path, nil, http.StatusOK).Decode(t, &out)
		return out
	}
	got := get(e.admin.token)
	if got.Hostname != "docs.example.com" || got.Target.Type != "site" || got.Target.Site != site.ID || !got.IsActive ||
		got.Status != "dns_no_cname" || got.DNS.Type != "CNAME" || got.DNS.Value != "quire.test" ||
		!strings.Contains(got.DNS.Message, "docs.example.com. CNAME quire.test.") {
		t.Errorf("before the record: %+v", got)
	}

	// A wrong CNAME, then the right one: the stored status changes on PATCH.
	zone.set(func() { zone.cname["docs.example.com"] = "elsewhere.example.net" })
	if got := get(e.admin.token); got.Status != "dns_no_cname" {
		t.Errorf("GET checked again by itself: %+v", got)
	}
	urlCall(t, e, e.admin.token, "PATCH", path, nil, http.StatusNoContent)
	if got := get(e.admin.token); got.Status != "dns_wrong_cname" || !strings.Contains(got.DNS.Message, "elsewhere.example.net") {
		t.Errorf("wrong CNAME: %+v", got)
	}
	zone.set(func() { zone.cname["docs.example.com"] = "quire.test" })
	urlCall(t, e, e.admin.token, "PATCH", path, nil, http.StatusNoContent)
	if got := get(reader.token); got.Status != "dns_passed" {
		t.Errorf("right CNAME: %+v", got)
	}
	// No CNAME, but an address of the server's: fine too.
	zone.set(func() {
		delete(zone.cname, "docs.example.com")
		zone.hosts["docs.example.com"] = []string{"192.0.2.10"}
	})
	urlCall(t, e, e.admin.token, "PATCH", path, nil, http.StatusNoContent)
	if got := get(e.admin.token); got.Status != "dns_passed" {
		t.Errorf("same address: %+v", got)
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
