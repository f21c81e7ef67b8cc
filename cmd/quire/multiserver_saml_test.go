package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"encoding/xml"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"
)

// The identity provider of checkSAMLReplay, played by crewjam/saml's own
// IdP code as in api/saml_test.go (whose helpers live in package api_test).
const (
	multiIdPEntityID = "https://idp.test/metadata"
	multiIdPSSOURL   = "https://idp.test/sso"
)

var multiTokenInPage = regexp.MustCompile(`<pre id="token">([^<]+)</pre>`)

// checkSAMLReplay signs a user in with SAML through the first server, then
// posts the very same response, with the browser's pending sign-in, to each
// other server: each must refuse it as already used.
func (m *multi) checkSAMLReplay(t *testing.T, org, token string) {
	t.Helper()
	a := m.srv[0]
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test IdP"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	p := m.call(t, m.srv[1], "POST", "/v1/orgs/"+org+"/saml", token, map[string]any{
		"label": "Corporate IdP", "entityID": multiIdPEntityID, "ssoURL": multiIdPSSOURL, "defaultRole": "read",
		"certificate": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
	}, http.StatusCreated)
	// Its identity provider signs in addresses at a domain the operator
	// vouched it owns.
	if _, _, err := runCLI(t, "admin", "verify-domain", "--org", org, "--domain", "example.com", "--data", m.data, "--db="+m.db); err != nil {
		t.Fatalf("verify-domain: %v", err)
	}
	svc := p["service"].(map[string]any)
	path := func(u any) string { return strings.TrimPrefix(u.(string), multiPublicURL) }

	mdURL, _ := url.Parse(multiIdPEntityID)
	ssoURL, _ := url.Parse(multiIdPSSOURL)
	idp := &saml.IdentityProvider{Key: key, Certificate: cert, MetadataURL: *mdURL, SSOURL: *ssoURL,
		SignatureMethod: dsig.RSASHA256SignatureMethod, ServiceProviderProvider: multiSPMetadata{t, m}}

	// The browser starts on A, which keeps the pending sign-in in a cookie.
	req, _ := http.NewRequest("GET", a.base+path(svc["startURL"]), nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	var pending *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "quire_saml" {
			pending = c
		}
	}
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc, multiIdPSSOURL+"?") || pending == nil {
		t.Fatalf("SAML start on A: status %d, Location %q, cookie %v", resp.StatusCode, loc, pending)
	}

	// The identity provider answers.
	ar, err := saml.NewIdpAuthnRequest(idp, httptest.NewRequest("GET", loc, nil))
	if err != nil {
		t.Fatalf("IdP reads the request: %v", err)
	}
	if err := ar.Validate(); err != nil {
		t.Fatalf("IdP validates the request: %v", err)
	}
	email := "sam.single@example.com"
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(ar, &saml.Session{
		ID: "s1", CreateTime: time.Now(), ExpireTime: time.Now().Add(time.Hour), Index: "1",
		NameID: email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: email, UserGivenName: "Sam", UserSurname: "Single",
	}); err != nil {
		t.Fatal(err)
	}
	form, err := ar.PostBinding()
	if err != nil {
		t.Fatal(err)
	}
	body := url.Values{"SAMLResponse": {form.SAMLResponse}, "RelayState": {form.RelayState}}.Encode()
	post := func(s *server) (int, string) {
		req, _ := http.NewRequest("POST", s.base+path(svc["acsURL"]), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(pending)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("post the SAML response to %s: %v", m.name(s), err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b)
	}

	status, page := post(a)
	match := multiTokenInPage.FindStringSubmatch(page)
	if status != http.StatusOK || match == nil {
		t.Fatalf("SAML sign-in on A: status %d: %.500s", status, page)
	}
	if me := m.call(t, m.srv[2], "GET", "/v1/user", match[1], nil, http.StatusOK); me["email"] != email {
		t.Errorf("the SAML sign-in's token on C: %v", me)
	}
	for _, s := range m.srv[1:] {
		status, page := post(s)
		if status != http.StatusUnauthorized || !strings.Contains(page, "already used") {
			t.Errorf("the SAML response used on A, replayed on %s: status %d: %.300s; want 401 already used", m.name(s), status, page)
		}
	}
}

// multiSPMetadata reads Quire's service provider metadata from the second
// server: its entity id is the URL of its metadata under the shared public
// URL.
type multiSPMetadata struct {
	t *testing.T
	m *multi
}

func (p multiSPMetadata) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
	status, body, err := send(p.m.srv[1].base, "GET", strings.TrimPrefix(id, multiPublicURL), "", nil)
	if err != nil || status != http.StatusOK {
		return nil, os.ErrNotExist
	}
	var ed saml.EntityDescriptor
	if err := xml.Unmarshal(body, &ed); err != nil {
		return nil, err
	}
	return &ed, nil
}
