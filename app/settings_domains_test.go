package app_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var txtRecord = regexp.MustCompile(`_quire\.([a-z0-9.-]+)\. TXT "(quire-verification=[0-9a-f]+)"`)

// TestEmailDomainSettings: the settings page shows the record that proves
// each e-mail domain of the organization, and any other asked about; the
// check records a domain once its record is there, refuses it before,
// naming the field and the record; only admins verify or remove domains.
func TestEmailDomainSettings(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	settings := "/o/" + tm.org + "/settings"
	tm.api(t, tm.token, "PATCH", "/v1/orgs/"+tm.org, map[string]any{"emailDomains": []string{"example.com"}}, http.StatusOK, nil)
	b := tm.as(t, admin)
	page := b.get(t, settings+"?domain=acme.example")
	records := map[string]string{}
	for _, m := range txtRecord.FindAllStringSubmatch(html.UnescapeString(page.body), -1) {
		records[m[1]] = m[2]
	}
	if len(records) != 2 || records["example.com"] == "" || records["acme.example"] == "" || records["example.com"] == records["acme.example"] ||
		!strings.Contains(page.body, "pending DNS verification") {
		t.Fatalf("pending records shown: %v", records)
	}

	check := settings + "/saml/domains"
	tm.run(t, []action{
		{"editor verifies", eddie, check, url.Values{"domain": {"example.com"}}, 403},
		{"outsider verifies", outsider, check, url.Values{"domain": {"example.com"}}, 404},
		{"no domain", admin, check, nil, 400},
		{"bad domain", admin, check, url.Values{"domain": {"exa mple"}}, 400},
	})
	a := b.post(t, check, url.Values{"domain": {"example.com"}})
	if msg := html.UnescapeString(errorMessage(a.body)); a.status != http.StatusBadRequest || !strings.HasPrefix(msg, "domain:") ||
		!strings.Contains(msg, `_quire.example.com. TXT "`+records["example.com"]+`"`) {
		t.Errorf("before the record: %d %q", a.status, msg)
	}
	// Another organization's token proves nothing here.
	tm.dns.SetTXT("_quire.example.com", "quire-verification=0123456789abcdef0123456789abcdef")
	if a := b.post(t, check, url.Values{"domain": {"example.com"}}); a.status != http.StatusBadRequest {
		t.Errorf("another token: %d", a.status)
	}
	if got, err := tm.db.VerifiedEmailDomains(t.Context(), tm.org); err != nil || len(got) != 0 {
		t.Fatalf("refused checks verified: %+v, %v", got, err)
	}
	tm.dns.SetTXT("_quire.example.com", records["example.com"])
	if a := b.post(t, check, url.Values{"domain": {"example.com"}}); a.status != http.StatusSeeOther {
		t.Fatalf("with the record: %d %s", a.status, errorMessage(a.body))
	}
	if got, err := tm.db.VerifiedEmailDomains(t.Context(), tm.org); err != nil || len(got) != 1 || got[0].Domain != "example.com" || got[0].Method != "dns" {
		t.Errorf("verified: %+v, %v", got, err)
	}
	if page := b.get(t, settings); !strings.Contains(page.body, "<strong>example.com</strong> <span class=\"badge\">verified</span>") ||
		strings.Contains(page.body, "pending DNS verification") {
		t.Errorf("the page does not show example.com verified")
	}

	remove := check + "/remove"
	tm.run(t, []action{
		{"editor removes", eddie, remove, url.Values{"domain": {"example.com"}}, 403},
		{"admin removes", admin, remove, url.Values{"domain": {"example.com"}}, 303},
	})
	if got, err := tm.db.VerifiedEmailDomains(t.Context(), tm.org); err != nil || len(got) != 0 {
		t.Errorf("after removal: %+v, %v", got, err)
	}
}

// TestSiteHostnamePending: a site's custom hostname shows "Pending DNS
// verification" with the record to add until a check finds it.
func TestSiteHostnamePending(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	var site struct{ ID string }
	tm.api(t, tm.token, "POST", "/v1/orgs/"+tm.org+"/sites", map[string]any{"title": "Docs"}, http.StatusCreated, &site)
	tm.api(t, tm.token, "PATCH", "/v1/orgs/"+tm.org+"/sites/"+site.ID, map[string]any{"hostname": "docs.example.com"}, http.StatusOK, nil)
	path := "/o/" + tm.org + "/sites/" + site.ID
	b := tm.as(t, admin)
	page := b.get(t, path)
	m := txtRecord.FindStringSubmatch(html.UnescapeString(page.body))
	if !strings.Contains(page.body, "Pending DNS verification") || m == nil || m[1] != "docs.example.com" {
		t.Fatalf("pending note: %d %s", page.status, page.body)
	}
	tm.run(t, []action{{"editor checks", eddie, path + "/hostname-check", nil, 403}})
	tm.dns.SetTXT("_quire.docs.example.com", m[2])
	if a := b.post(t, path+"/hostname-check", nil); a.status != http.StatusSeeOther {
		t.Fatalf("check: %d %s", a.status, errorMessage(a.body))
	}
	if page := b.get(t, path); strings.Contains(page.body, "Pending DNS verification") || !strings.Contains(page.body, `docs.example.com <span class="badge">verified</span>`) {
		t.Errorf("after the check: %s", page.body)
	}
}
