package app_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// testCertificate is a self-signed certificate in PEM, its lines ended by
// CRLF as a browser sends a textarea's.
func testCertificate(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test IdP"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), "\n", "\r\n")
}

// samlProviderJSON is what the API answers of a provider, in part.
type samlProviderJSON struct {
	Label, EntityID, SSOURL, Certificate, Status string
	DefaultRole                                  *string
	DefaultTeam                                  *struct{ ID string }
	Service                                      struct{ ACSURL, StartURL, EntityID string }
}

func TestSSOSettings(t *testing.T) {
	t.Parallel()
	tm := newTeam(t)
	base := "/o/" + tm.org + "/settings/saml"
	cert := testCertificate(t)
	okta := url.Values{"label": {"Okta"}, "ssoURL": {"https://idp.example.com/sso/saml"}, "entityID": {"http://www.okta.com/exk1"},
		"certificate": {cert}, "defaultRole": {"read"}, "defaultTeam": {tm.teamID}}
	tm.run(t, []action{
		{"editor creates", eddie, base, okta, 403},
		{"guest creates", gus, base, okta, 403},
		{"outsider creates", outsider, base, okta, 404},
		{"bad csrf", admin, base, url.Values{"label": {"Okta"}, "csrf": {"x"}}, 403},
		{"no label", admin, base, url.Values{"ssoURL": {"https://idp.example.com/sso"}}, 400},
		{"unknown role", admin, base, url.Values{"label": {"Okta"}, "defaultRole": {"boss"}}, 400},
		{"a team of no one", admin, base, url.Values{"label": {"Okta"}, "defaultTeam": {"nope"}}, 400},
	})
	b := tm.as(t, admin)
	// Refusals name the field at fault, as the API's do.
	for field, bad := range map[string]string{
		"certificate": "-----BEGIN CERTIFICATE-----\r\nAAAA\r\n-----END CERTIFICATE-----\r\n",
		"ssoURL":      "ftp://idp.example.com/sso",
		"label":       strings.Repeat("x", 31),
	} {
		form := url.Values{"label": {"Okta"}, "csrf": {b.csrf}}
		form.Set(field, bad)
		if a := b.post(t, base, form); a.status != http.StatusBadRequest || !strings.HasPrefix(errorMessage(a.body), field+":") {
			t.Errorf("bad %s: %d %q, want 400 naming the field", field, a.status, errorMessage(a.body))
		}
	}
	var list struct{ Items []samlProviderJSON }
	if tm.api(t, tm.token, "GET", "/v1/orgs/"+tm.org+"/saml", nil, http.StatusOK, &list); len(list.Items) != 0 {
		t.Fatalf("refused forms created providers: %+v", list.Items)
	}

	form := url.Values{"csrf": {b.csrf}}
	for k, v := range okta {
		form[k] = v
	}
	a := b.post(t, base, form)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, base+"/") {
		t.Fatalf("create: %d %q: %s", a.status, a.location, errorMessage(a.body))
	}
	page, id := a.location, strings.TrimPrefix(a.location, base+"/")
	var p samlProviderJSON
	tm.api(t, tm.token, "GET", "/v1/orgs/"+tm.org+"/saml/"+id, nil, http.StatusOK, &p)
	if p.Label != "Okta" || p.Status != "active" || p.EntityID != "http://www.okta.com/exk1" || p.SSOURL != "https://idp.example.com/sso/saml" ||
		p.Certificate != strings.TrimSpace(strings.ReplaceAll(cert, "\r\n", "\n")) || p.DefaultRole == nil || *p.DefaultRole != "read" ||
		p.DefaultTeam == nil || p.DefaultTeam.ID != tm.teamID {
		t.Errorf("created provider: %+v", p)
	}
	// Its page shows what the identity provider needs: the API's service block.
	shown := b.get(t, page)
	for _, want := range []string{p.Service.ACSURL, p.Service.EntityID, p.Service.StartURL, "Okta", "active"} {
		if want == "" || !strings.Contains(shown.body, want) {
			t.Errorf("provider page: no %q", want)
		}
	}
	if a := b.get(t, "/o/"+tm.org+"/settings"); !strings.Contains(a.body, page) {
		t.Errorf("settings page does not link the provider")
	}
	for who, want := range map[string]int{eddie: 403, gus: 403, outsider: 404} {
		if a := tm.as(t, who).get(t, page); a.status != want {
			t.Errorf("GET provider page as %s: %d, want %d", who, a.status, want)
		}
	}

	edit := url.Values{"label": {"Okta EU"}, "ssoURL": {""}, "entityID": {"http://www.okta.com/exk1"}, "certificate": {cert},
		"defaultRole": {"none"}, "defaultTeam": {""}}
	tm.run(t, []action{
		{"editor edits", eddie, page, edit, 403},
		{"outsider edits", outsider, page, edit, 404},
		{"bad csrf", admin, page, url.Values{"label": {"X"}, "csrf": {"x"}}, 403},
		{"invalid certificate", admin, page, url.Values{"certificate": {"not a certificate"}}, 400},
		{"unknown provider", admin, base + "/nope", edit, 404},
		{"admin edits", admin, page, edit, 303},
	})
	p = samlProviderJSON{}
	tm.api(t, tm.token, "GET", "/v1/orgs/"+tm.org+"/saml/"+id, nil, http.StatusOK, &p)
	if p.Label != "Okta EU" || p.Status != "pending" || p.SSOURL != "about:blank" || p.DefaultRole != nil || p.DefaultTeam != nil {
		t.Errorf("edited provider: %+v", p)
	}

	tm.run(t, []action{
		{"editor deletes", eddie, page + "/delete", nil, 403},
		{"outsider deletes", outsider, page + "/delete", nil, 404},
		{"bad csrf", admin, page + "/delete", url.Values{"csrf": {"x"}}, 403},
	})
	tm.api(t, tm.token, "GET", "/v1/orgs/"+tm.org+"/saml/"+id, nil, http.StatusOK, nil)
	tm.run(t, []action{
		{"admin deletes", admin, page + "/delete", nil, 303},
		{"deleted twice", admin, page + "/delete", nil, 404},
	})
	tm.api(t, tm.token, "GET", "/v1/orgs/"+tm.org+"/saml/"+id, nil, http.StatusNotFound, nil)
}
