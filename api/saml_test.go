package api_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"encoding/xml"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"
	"github.com/google/go-cmp/cmp"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/store"
)

// testKey is an RSA key and a self-signed certificate for it.
type testKey struct {
	key     *rsa.PrivateKey
	cert    *x509.Certificate
	certPEM string
}

// testKeys are made once per run: RSA key generation is slow under -race.
var testKeys = sync.OnceValue(func() [2]testKey {
	var keys [2]testKey
	for i := range keys {
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(int64(i + 1)),
			Subject:      pkix.Name{CommonName: "Test IdP"},
			NotBefore:    time.Now().Add(-time.Hour),
			NotAfter:     time.Now().Add(24 * time.Hour),
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			panic(err)
		}
		cert, _ := x509.ParseCertificate(der)
		keys[i] = testKey{key, cert, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
	}
	return keys
})

const (
	idpEntityID = "https://idp.test/metadata"
	idpSSOURL   = "https://idp.test/sso"
)

// newTestIdP is an identity provider built with the library's own IdP code,
// signing with k. It learns Quire's service provider from its metadata URL.
func newTestIdP(t *testing.T, e *env, k testKey) *saml.IdentityProvider {
	t.Helper()
	md, _ := url.Parse(idpEntityID)
	sso, _ := url.Parse(idpSSOURL)
	return &saml.IdentityProvider{
		Key: k.key, Certificate: k.cert, MetadataURL: *md, SSOURL: *sso,
		SignatureMethod:         dsig.RSASHA256SignatureMethod,
		ServiceProviderProvider: spMetadata{t, e},
	}
}

// spMetadata reads a service provider's metadata from Quire: its entity id
// is the URL of its metadata.
type spMetadata struct {
	t *testing.T
	e *env
}

func (m spMetadata) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
	res := m.e.call(m.t, "", "GET", strings.TrimPrefix(id, testPublicURL), nil)
	if res.Status != http.StatusOK {
		return nil, os.ErrNotExist
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/samlmetadata+xml" {
		m.t.Errorf("metadata Content-Type %q", ct)
	}
	var ed saml.EntityDescriptor
	if err := xml.Unmarshal(res.Body, &ed); err != nil {
		return nil, err
	}
	return &ed, nil
}

// createProvider creates a SAML provider of the env's organization trusting
// cert, as the admin, and returns it decoded.
func createProvider(t *testing.T, e *env, body map[string]any) samlProvider {
	t.Helper()
	var p samlProvider
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/saml", body).want(t, http.StatusCreated).Decode(t, &p)
	return p
}

type samlProvider struct {
	ID          string  `json:"id"`
	Label       string  `json:"label"`
	SSOURL      string  `json:"ssoURL"`
	EntityID    string  `json:"entityID"`
	Certificate string  `json:"certificate"`
	DefaultRole *string `json:"defaultRole"`
	DefaultTeam *struct {
		ID string `json:"id"`
	} `json:"defaultTeam"`
	Status  string `json:"status"`
	Service struct {
		ACSURL   string `json:"acsURL"`
		StartURL string `json:"startURL"`
		EntityID string `json:"entityID"`
	} `json:"service"`
	URLs struct {
		Location string `json:"location"`
	} `json:"urls"`
}

func TestSAMLProviderCRUD(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	k := testKeys()[0]
	team := e.call(t, e.admin.token, "PUT", "/v1/orgs/"+e.org+"/teams", map[string]any{"title": "SSO people"}).want(t, http.StatusCreated).JSON(t)["id"].(string)
	base := "/v1/orgs/" + e.org + "/saml"

	// Only a label is required; such a provider is pending.
	res := e.call(t, e.admin.token, "POST", base, map[string]any{"label": "Okta"}).want(t, http.StatusCreated)
	var pending samlProvider
	res.Decode(t, &pending)
	if res.Header.Get("Location") != pending.URLs.Location || pending.URLs.Location != testPublicURL+base+"/"+pending.ID {
		t.Errorf("Location %q, urls.location %q", res.Header.Get("Location"), pending.URLs.Location)
	}
	wantSvc := testPublicURL + base + "/" + pending.ID
	if pending.Status != "pending" || pending.DefaultRole != nil || pending.DefaultTeam != nil || pending.SSOURL != "about:blank" ||
		pending.Service.ACSURL != wantSvc+"/acs" || pending.Service.StartURL != wantSvc+"/start" || pending.Service.EntityID != wantSvc+"/metadata" {
		t.Errorf("pending provider: %+v", pending)
	}

	full := createProvider(t, e, map[string]any{
		"label": "Corporate IdP", "entityID": idpEntityID, "ssoURL": idpSSOURL, "certificate": k.certPEM,
		"defaultTeam": team, "defaultRole": "edit",
	})
	if full.Status != "active" || full.DefaultRole == nil || *full.DefaultRole != "edit" || full.DefaultTeam == nil || full.DefaultTeam.ID != team ||
		full.Certificate != k.certPEM || full.EntityID != idpEntityID || full.SSOURL != idpSSOURL {
		t.Errorf("full provider: %+v", full)
	}

	var got samlProvider
	decode := func(res *response) samlProvider {
		t.Helper()
		var p samlProvider
		res.want(t, http.StatusOK).Decode(t, &p)
		return p
	}
	got = decode(e.call(t, e.admin.token, "GET", base+"/"+full.ID, nil))
	if diff := cmp.Diff(full, got); diff != "" {
		t.Errorf("GET (-created +got):\n%s", diff)
	}

	// PATCH: any field, null role for guests, null or "" team for none.
	got = decode(e.call(t, e.admin.token, "PATCH", base+"/"+full.ID, map[string]any{"label": "Renamed", "defaultRole": nil, "defaultTeam": nil}))
	if got.Label != "Renamed" || got.DefaultRole != nil || got.DefaultTeam != nil || got.Status != "active" || got.Certificate != k.certPEM {
		t.Errorf("after PATCH: %+v", got)
	}
	got = decode(e.call(t, e.admin.token, "PATCH", base+"/"+full.ID, map[string]any{"defaultTeam": team, "defaultRole": "read", "ssoURL": ""}))
	if got.DefaultTeam == nil || got.DefaultRole == nil || *got.DefaultRole != "read" || got.Status != "pending" || got.SSOURL != "about:blank" {
		t.Errorf("after second PATCH: %+v", got)
	}
	got = decode(e.call(t, e.admin.token, "PATCH", base+"/"+full.ID, map[string]any{"ssoURL": idpSSOURL}))
	if got.Status != "active" {
		t.Errorf("after third PATCH: %+v", got)
	}

	// Deleting the default team leaves the provider without one.
	e.call(t, e.admin.token, "DELETE", "/v1/orgs/"+e.org+"/teams/"+team, nil).want(t, http.StatusNoContent)
	got = decode(e.call(t, e.admin.token, "GET", base+"/"+full.ID, nil))
	if got.DefaultTeam != nil {
		t.Errorf("default team still set after the team was deleted: %+v", got.DefaultTeam)
	}

	// Lists page by creation.
	createProvider(t, e, map[string]any{"label": "Third"})
	var page struct {
		Items []samlProvider `json:"items"`
		Count int            `json:"count"`
		Next  *struct {
			Page string `json:"page"`
		} `json:"next"`
	}
	e.call(t, e.admin.token, "GET", base+"?limit=2", nil).want(t, http.StatusOK).Decode(t, &page)
	if page.Count != 3 || len(page.Items) != 2 || page.Items[0].ID != pending.ID || page.Items[1].ID != full.ID || page.Next == nil {
		t.Fatalf("first page: %+v", page)
	}
	next := page.Next.Page
	page.Next = nil
	e.call(t, e.admin.token, "GET", base+"?limit=2&page="+next, nil).want(t, http.StatusOK).Decode(t, &page)
	if page.Count != 3 || len(page.Items) != 1 || page.Items[0].Label != "Third" || page.Next != nil {
		t.Errorf("second page: %+v", page)
	}

	// GET O/sso needs no token and lists every provider's sign-in link.
	var logins struct {
		Items []struct{ ID, Label, StartURL string } `json:"items"`
	}
	e.call(t, "", "GET", "/v1/orgs/"+e.org+"/sso", nil).want(t, http.StatusOK).Decode(t, &logins)
	if len(logins.Items) != 3 || logins.Items[1].ID != full.ID || logins.Items[1].Label != "Renamed" || logins.Items[1].StartURL != full.Service.StartURL {
		t.Errorf("sso logins: %+v", logins)
	}
	e.call(t, "", "GET", "/v1/orgs/nope/sso", nil).wantError(t, http.StatusNotFound, "organization")

	e.call(t, e.admin.token, "DELETE", base+"/"+full.ID, nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "GET", base+"/"+full.ID, nil).wantError(t, http.StatusNotFound, "SAML provider")
	e.call(t, e.admin.token, "DELETE", base+"/"+full.ID, nil).wantError(t, http.StatusNotFound, "SAML provider")
	e.call(t, e.admin.token, "PATCH", base+"/"+full.ID, map[string]any{"label": "x"}).wantError(t, http.StatusNotFound, "SAML provider")
}

func TestSAMLProviderValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	base := "/v1/orgs/" + e.org + "/saml"
	otherOrg := e.outsider(t)
	var otherTeam string
	{
		orgs := e.call(t, otherOrg.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).JSON(t)["items"].([]any)
		org := orgs[0].(map[string]any)["id"].(string)
		otherTeam = e.call(t, otherOrg.token, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Theirs"}).want(t, http.StatusCreated).JSON(t)["id"].(string)
	}
	key := testKeys()[0].key
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	for _, tc := range []struct {
		name string
		body any
		want string
	}{
		{"no label", map[string]any{"entityID": "x"}, "label: is required"},
		{"empty label", map[string]any{"label": ""}, "label: must be 1 to 30"},
		{"null label", map[string]any{"label": nil}, "label: must be a string"},
		{"long label", map[string]any{"label": strings.Repeat("é", 31)}, "label: must be 1 to 30"},
		{"long entityID", map[string]any{"label": "x", "entityID": strings.Repeat("a", 1025)}, "entityID: must be at most 1024"},
		{"entityID type", map[string]any{"label": "x", "entityID": 3}, "entityID: must be a string"},
		{"certificate garbage", map[string]any{"label": "x", "certificate": "hello"}, "certificate: must be one or more X.509"},
		{"certificate bad body", map[string]any{"label": "x", "certificate": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"}, "certificate:"},
		{"certificate is a key", map[string]any{"label": "x", "certificate": keyPEM}, "certificate:"},
		{"certificate trailing junk", map[string]any{"label": "x", "certificate": testKeys()[0].certPEM + "junk"}, "certificate:"},
		{"certificate too long", map[string]any{"label": "x", "certificate": testKeys()[0].certPEM + strings.Repeat("\n", 10000)}, "certificate: must be at most 10000"},
		{"ssoURL relative", map[string]any{"label": "x", "ssoURL": "/sso"}, "ssoURL: must be an absolute"},
		{"ssoURL scheme", map[string]any{"label": "x", "ssoURL": "javascript:alert(1)"}, "ssoURL: must be an absolute"},
		{"ssoURL long", map[string]any{"label": "x", "ssoURL": "https://idp.test/" + strings.Repeat("a", 2040)}, "ssoURL: must be at most 2048"},
		{"unknown team", map[string]any{"label": "x", "defaultTeam": "nope"}, "defaultTeam: not a team of the organization"},
		{"another org's team", map[string]any{"label": "x", "defaultTeam": otherTeam}, "defaultTeam: not a team of the organization"},
		{"bad role", map[string]any{"label": "x", "defaultRole": "owner"}, "defaultRole: must be one of"},
		{"role guest", map[string]any{"label": "x", "defaultRole": "guest"}, "defaultRole: must be one of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.call(t, e.admin.token, "POST", base, tc.body).wantError(t, http.StatusBadRequest, tc.want)
		})
	}
	p := createProvider(t, e, map[string]any{"label": "Okta"})
	e.call(t, e.admin.token, "PATCH", base+"/"+p.ID, map[string]any{"certificate": "nope"}).wantError(t, http.StatusBadRequest, "certificate:")
	e.call(t, e.admin.token, "PATCH", base+"/"+p.ID, map[string]any{"label": nil}).wantError(t, http.StatusBadRequest, "label:")
	e.call(t, e.admin.token, "PATCH", base+"/"+p.ID, map[string]any{"defaultTeam": "nope"}).wantError(t, http.StatusBadRequest, "defaultTeam:")
	e.call(t, e.admin.token, "POST", base, "label=x").wantError(t, http.StatusBadRequest)
	var got samlProvider
	e.call(t, e.admin.token, "GET", base+"/"+p.ID, nil).want(t, http.StatusOK).Decode(t, &got)
	if got.Label != "Okta" {
		t.Errorf("a refused PATCH changed the provider: %+v", got)
	}
}

func TestSAMLProviderAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := createProvider(t, e, map[string]any{"label": "Okta"})
	base := "/v1/orgs/" + e.org + "/saml"
	member := e.addUser(t, "create", "Carl Create")
	outsider := e.outsider(t)
	for _, op := range []struct {
		method, path string
		body         any
	}{
		{"GET", base, nil},
		{"POST", base, map[string]any{"label": "Mine"}},
		{"GET", base + "/" + p.ID, nil},
		{"PATCH", base + "/" + p.ID, map[string]any{"label": "Mine"}},
		{"DELETE", base + "/" + p.ID, nil},
	} {
		e.call(t, member.token, op.method, op.path, op.body).wantError(t, http.StatusForbidden, "admins")
		e.call(t, outsider.token, op.method, op.path, op.body).wantError(t, http.StatusNotFound, "organization not found")
		e.call(t, "", op.method, op.path, op.body).wantError(t, http.StatusUnauthorized)
	}
	// Sign-in routes need no token, and know nothing of other organizations' providers.
	e.call(t, "", "GET", "/v1/orgs/"+e.org+"/saml/nope/start", nil).wantError(t, http.StatusNotFound, "SAML provider")
	e.call(t, "", "GET", "/v1/orgs/nope/saml/"+p.ID+"/start", nil).wantError(t, http.StatusNotFound, "SAML provider")
	e.call(t, "", "GET", "/v1/orgs/"+e.org+"/saml/"+p.ID+"/start", nil).wantError(t, http.StatusConflict, "pending")
	e.call(t, "", "GET", "/v1/orgs/"+e.org+"/saml/"+p.ID+"/metadata", nil).want(t, http.StatusOK)
}

// flow is a SAML provider of a test env with its identity provider.
type flow struct {
	e      *env
	p      samlProvider
	idp    *saml.IdentityProvider
	cookie *http.Cookie // the browser's pending sign-in, set by the last start
}

// newFlow sets up a provider trusting testKeys()[0], with a default team and
// role, and an identity provider signing with signer.
func newFlow(t *testing.T, e *env, signer testKey) *flow {
	t.Helper()
	team := e.call(t, e.admin.token, "PUT", "/v1/orgs/"+e.org+"/teams", map[string]any{"title": "From SSO"}).want(t, http.StatusCreated).JSON(t)["id"].(string)
	p := createProvider(t, e, map[string]any{
		"label": "Corporate IdP", "entityID": idpEntityID, "ssoURL": idpSSOURL, "certificate": testKeys()[0].certPEM,
		"defaultTeam": team, "defaultRole": "edit",
	})
	proveDomain(t, e, e.org, "example.com") // of uniqueEmail's addresses
	return &flow{e: e, p: p, idp: newTestIdP(t, e, signer)}
}

// proveDomain records that org proved it owns an e-mail domain, as the
// operator's quire admin verify-domain does.
func proveDomain(t *testing.T, e *env, org, domain string) {
	t.Helper()
	if err := e.db.VerifyEmailDomain(t.Context(), org, domain, store.VerifiedByOperator); err != nil {
		t.Fatal(err)
	}
}

// start follows startURL to the identity provider and returns the URL the
// browser is sent to.
func (f *flow) start(t *testing.T) string {
	t.Helper()
	res := f.e.call(t, "", "GET", strings.TrimPrefix(f.p.Service.StartURL, testPublicURL), nil).want(t, http.StatusFound)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, idpSSOURL+"?SAMLRequest=") || !strings.Contains(loc, "&Signature=") || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("start redirects to %q (Cache-Control %q)", loc, res.Header.Get("Cache-Control"))
	}
	f.cookie = pendingSignIn(t, res)
	if c := f.cookie; !c.HttpOnly || c.Path != "/v1/orgs/"+f.e.org+"/saml/"+f.p.ID || c.MaxAge <= 0 || c.MaxAge > 600 {
		t.Errorf("pending sign-in cookie: %+v", c)
	}
	return loc
}

// assert plays the identity provider: it takes the AuthnRequest at loc and
// makes an assertion that email signed in, not yet signed.
func (f *flow) assert(t *testing.T, loc, email string) *saml.IdpAuthnRequest {
	t.Helper()
	req, err := saml.NewIdpAuthnRequest(f.idp, httptest.NewRequest("GET", loc, nil))
	if err != nil {
		t.Fatalf("IdP reads the request: %v", err)
	}
	if err := req.Validate(); err != nil {
		t.Fatalf("IdP validates the request: %v", err)
	}
	session := &saml.Session{
		ID: "s1", CreateTime: time.Now(), ExpireTime: time.Now().Add(time.Hour), Index: "1",
		NameID: email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: email,
		UserGivenName: "Sam", UserSurname: "Single",
	}
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, session); err != nil {
		t.Fatal(err)
	}
	if req.ACSEndpoint.Location != f.p.Service.ACSURL {
		t.Fatalf("IdP posts to %q, want the provider's acsURL %q", req.ACSEndpoint.Location, f.p.Service.ACSURL)
	}
	return req
}

// respond is assert, then tweak may change the assertion, then the identity
// provider signs it, encrypts it for Quire's key, signs the response and
// returns the form the browser posts to the ACS.
func (f *flow) respond(t *testing.T, loc, email string, tweak func(*saml.IdpAuthnRequest)) url.Values {
	t.Helper()
	req := f.assert(t, loc, email)
	if tweak != nil {
		tweak(req)
	}
	form, err := req.PostBinding()
	if err != nil {
		t.Fatal(err)
	}
	return url.Values{"SAMLResponse": {form.SAMLResponse}, "RelayState": {form.RelayState}}
}

// post posts a response form to the ACS of srv (the env's server when nil).
func (f *flow) post(t *testing.T, srv *api.Server, form url.Values) *response {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), "POST", strings.TrimPrefix(f.p.Service.ACSURL, testPublicURL), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if f.cookie != nil {
		req.AddCookie(f.cookie)
	}
	if srv == nil {
		return f.e.do(t, req)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return &response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// pendingSignIn returns the pending sign-in cookie an answer sets.
func pendingSignIn(t *testing.T, res *response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == "quire_saml" {
			return c
		}
	}
	t.Fatalf("start set no pending sign-in cookie: %v", res.Header)
	return nil
}

var tokenInPage = regexp.MustCompile(`<pre id="token">([^<]+)</pre>`)

// signedIn checks the page of a good sign-in and returns the token it shows.
func signedIn(t *testing.T, res *response) string {
	t.Helper()
	res.want(t, http.StatusOK)
	for h, want := range map[string]string{"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"} {
		if got := res.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	m := tokenInPage.FindSubmatch(res.Body)
	if m == nil {
		t.Fatalf("no token in the page:\n%s", res.Body)
	}
	return string(m[1])
}

func TestSAMLSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := newFlow(t, e, testKeys()[0])
	email := uniqueEmail("Sam.Single")

	res := f.post(t, nil, f.respond(t, f.start(t), email, nil))
	token := signedIn(t, res)
	if !strings.Contains(string(res.Body), "Test Org") || !strings.Contains(string(res.Body), "new member") {
		t.Errorf("page does not tell the organization and that the user joined:\n%s", res.Body)
	}

	// The token is the new member's: sso, the provider's default role and team.
	me := e.call(t, token, "GET", "/v1/user", nil).want(t, http.StatusOK).JSON(t)
	if me["email"] != strings.ToLower(email) || me["displayName"] != "Sam Single" {
		t.Errorf("signed in as %v", me)
	}
	id := me["id"].(string)
	var m struct {
		Role  *string `json:"role"`
		SSO   bool    `json:"sso"`
		Teams int     `json:"teams"`
	}
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+id, nil).want(t, http.StatusOK).Decode(t, &m)
	if m.Role == nil || *m.Role != "edit" || !m.SSO || m.Teams != 1 {
		t.Errorf("member after first sign-in: role %v, sso %v, teams %d", m.Role, m.SSO, m.Teams)
	}
	teams := e.call(t, token, "GET", "/v1/orgs/"+e.org+"/members/"+id+"/teams", nil).want(t, http.StatusOK).JSON(t)["items"].([]any)
	if len(teams) != 1 || teams[0].(map[string]any)["team"].(map[string]any)["id"] != f.p.DefaultTeam.ID {
		t.Errorf("member's teams: %v", teams)
	}

	// Signing in again gives another token and keeps the membership as it is.
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org+"/members/"+id, map[string]any{"role": "read"}).want(t, http.StatusOK)
	res = f.post(t, nil, f.respond(t, f.start(t), email, nil))
	if again := signedIn(t, res); again == token || strings.Contains(string(res.Body), "new member") {
		t.Errorf("second sign-in: same token or joined again")
	}
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+id, nil).want(t, http.StatusOK).Decode(t, &m)
	if m.Role == nil || *m.Role != "read" {
		t.Errorf("role after second sign-in: %v", m.Role)
	}

	// An existing member who was not an SSO member becomes one.
	old := e.addUser(t, "comment", "Olga Old")
	signedIn(t, f.post(t, nil, f.respond(t, f.start(t), old.email, nil)))
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+old.id, nil).want(t, http.StatusOK).Decode(t, &m)
	if m.Role == nil || *m.Role != "comment" || !m.SSO || m.Teams != 0 {
		t.Errorf("existing member after sign-in: role %v, sso %v, teams %d", m.Role, m.SSO, m.Teams)
	}
}

func TestSAMLSignInRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := newFlow(t, e, testKeys()[0])
	bad := &flow{e: e, p: f.p, idp: newTestIdP(t, e, testKeys()[1])} // signs with a key the provider does not trust
	email := uniqueEmail("mallory")

	past := func(req *saml.IdpAuthnRequest) {
		then := time.Now().Add(-10 * time.Minute)
		req.Now = then
		a := req.Assertion
		a.IssueInstant = then
		a.Conditions.NotBefore, a.Conditions.NotOnOrAfter = then.Add(-time.Minute), then.Add(time.Minute)
		a.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = then.Add(time.Minute)
	}
	for _, tc := range []struct {
		name   string
		flow   *flow
		tweak  func(*saml.IdpAuthnRequest)
		status int
		want   string
	}{
		{"wrong signature", bad, nil, http.StatusUnauthorized, "signature"},
		{"wrong audience", f, func(req *saml.IdpAuthnRequest) {
			req.Assertion.Conditions.AudienceRestrictions[0].Audience.Value = "https://other.example/sp"
		}, http.StatusUnauthorized, "AudienceRestriction"},
		{"expired", f, past, http.StatusUnauthorized, "expired"},
		{"not yet valid", f, func(req *saml.IdpAuthnRequest) {
			req.Assertion.Conditions.NotBefore = time.Now().Add(time.Hour)
		}, http.StatusUnauthorized, "not yet valid"},
		{"wrong recipient", f, func(req *saml.IdpAuthnRequest) {
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.Recipient = "https://other.example/acs"
		}, http.StatusUnauthorized, "Recipient"},
		{"wrong issuer", f, func(req *saml.IdpAuthnRequest) {
			req.Assertion.Issuer.Value = "https://evil.example/"
		}, http.StatusUnauthorized, "issuer"},
		{"unsolicited", f, func(req *saml.IdpAuthnRequest) {
			req.Request.ID = "id-never-sent"
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.InResponseTo = "id-never-sent"
		}, http.StatusUnauthorized, "no sign-in started in this browser"},
		{"no conditions", f, func(req *saml.IdpAuthnRequest) {
			req.Assertion.Conditions = nil // crewjam/saml v0.5.1 panics on these
		}, http.StatusUnauthorized, "invalid response"},
		{"no e-mail", f, func(req *saml.IdpAuthnRequest) {
			req.Assertion.Subject.NameID.Format = string(saml.TransientNameIDFormat)
			req.Assertion.AttributeStatements = nil
		}, http.StatusBadRequest, "no e-mail address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := tc.flow.respond(t, f.start(t), email, tc.tweak)
			f.post(t, nil, form).wantError(t, tc.status, "SAML response refused", tc.want)
		})
	}
	if _, err := e.db.UserByEmail(t.Context(), email); err == nil {
		t.Error("a refused response created the user")
	}

	t.Run("replayed", func(t *testing.T) {
		form := f.respond(t, f.start(t), email, nil)
		signedIn(t, f.post(t, nil, form))
		f.post(t, nil, form).wantError(t, http.StatusUnauthorized, "SAML response refused", "already used")
		// Another server on the same database refuses it too.
		other := api.New(e.db, api.Config{PublicURL: testPublicURL})
		f.post(t, other, form).wantError(t, http.StatusUnauthorized, "already used")
	})

	t.Run("request answered twice", func(t *testing.T) {
		// Two assertions for one AuthnRequest: the second finds it used.
		loc := f.start(t)
		signedIn(t, f.post(t, nil, f.respond(t, loc, email, nil)))
		f.post(t, nil, f.respond(t, loc, email, nil)).wantError(t, http.StatusUnauthorized, "already used")
	})

	t.Run("member of another organization", func(t *testing.T) {
		outsider := e.outsider(t)
		f.post(t, nil, f.respond(t, f.start(t), outsider.email, nil)).wantError(t, http.StatusForbidden, "other organizations")
		e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+outsider.id, nil).wantError(t, http.StatusNotFound)
	})

	t.Run("unsigned", func(t *testing.T) {
		req := f.assert(t, f.start(t), email)
		res := &saml.Response{
			ID: "id-unsigned", InResponseTo: req.Request.ID, IssueInstant: time.Now(), Version: "2.0",
			Destination: f.p.Service.ACSURL, Issuer: &saml.Issuer{Value: idpEntityID},
			Status: saml.Status{StatusCode: saml.StatusCode{Value: saml.StatusSuccess}},
		}
		el := res.Element()
		el.AddChild(req.Assertion.Element())
		doc := etree.NewDocument()
		doc.SetRoot(el)
		b, err := doc.WriteToBytes()
		if err != nil {
			t.Fatal(err)
		}
		form := url.Values{"SAMLResponse": {base64.StdEncoding.EncodeToString(b)}}
		f.post(t, nil, form).wantError(t, http.StatusUnauthorized, "SAML response refused", "signature")
	})

	t.Run("malformed", func(t *testing.T) {
		f.post(t, nil, url.Values{}).wantError(t, http.StatusBadRequest, "SAMLResponse: is required")
		f.post(t, nil, url.Values{"SAMLResponse": {"%%%"}}).wantError(t, http.StatusBadRequest, "base64")
		f.post(t, nil, url.Values{"SAMLResponse": {"PG5vdC1zYW1sLz4="}}).wantError(t, http.StatusUnauthorized, "SAML response refused")
	})
}

// TestSAMLKeyKept checks that the service provider's key is made once and
// kept in the database: every server, and every request, uses the same one.
func TestSAMLKeyKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := createProvider(t, e, map[string]any{"label": "Okta"})
	path := strings.TrimPrefix(p.Service.EntityID, testPublicURL)
	first := e.call(t, "", "GET", path, nil).want(t, http.StatusOK)
	other := api.New(e.db, api.Config{PublicURL: testPublicURL})
	rec := httptest.NewRecorder()
	other.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), "GET", path, nil))
	cert := func(b []byte) string {
		var ed saml.EntityDescriptor
		if err := xml.Unmarshal(b, &ed); err != nil {
			t.Fatal(err)
		}
		if ed.EntityID != p.Service.EntityID || len(ed.SPSSODescriptors) != 1 || len(ed.SPSSODescriptors[0].AssertionConsumerServices) != 1 ||
			ed.SPSSODescriptors[0].AssertionConsumerServices[0].Location != p.Service.ACSURL {
			t.Errorf("metadata: %s", b)
		}
		return ed.SPSSODescriptors[0].KeyDescriptors[0].KeyInfo.X509Data.X509Certificates[0].Data
	}
	if a, b := cert(first.Body), cert(rec.Body.Bytes()); a == "" || a != b {
		t.Errorf("two servers publish different certificates")
	}
}

// TestSAMLRogueIdentityProvider: org B's admin connects an identity provider
// of her own and has it sign for org A's addresses, at a domain B has not
// proved it owns. It is refused, saying why; it makes no account and locks
// nobody out. An account B's provider made while B proved the domain (as
// accounts squatted before domains were proved) is B's no more once the
// proof goes: A's admin and A's own provider take it in, and the token B's
// provider issued for it does not follow it into A.
func TestSAMLRogueIdentityProvider(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	mallory := a.outsider(t)
	var orgB string
	for _, o := range a.call(t, mallory.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).JSON(t)["items"].([]any) {
		orgB = o.(map[string]any)["id"].(string)
	}
	b := &env{db: a.db, srv: a.srv, org: orgB, admin: mallory}
	rogue := newFlow(t, b, testKeys()[0])
	unprove := func() {
		t.Helper()
		if removed, err := a.db.RemoveVerifiedEmailDomain(t.Context(), orgB, "example.com"); err != nil || !removed {
			t.Fatalf("B's proof of example.com: %v, %v", removed, err)
		}
	}
	unprove() // B never proved example.com: newFlow did, for the test
	space := a.call(t, a.admin.token, "POST", "/v1/orgs/"+a.org+"/spaces", map[string]any{"title": "Acme secrets"}).want(t, http.StatusCreated).JSON(t)["id"].(string)

	// A new hire's address, A's admin's, a member who left A: refused.
	newhire := uniqueEmail("newhire")
	leaver := a.addUser(t, "edit", "Lee Leaver")
	a.call(t, a.admin.token, "DELETE", "/v1/orgs/"+a.org+"/members/"+leaver.id, nil).want(t, http.StatusNoContent)
	for _, email := range []string{newhire, a.admin.email, leaver.email} {
		rogue.post(t, nil, rogue.respond(t, rogue.start(t), email, nil)).wantError(t, http.StatusForbidden,
			"cannot sign in through this organization's single sign-on", `has not verified that it owns the e-mail domain "example.com"`)
	}
	if _, err := a.db.UserByEmail(t.Context(), newhire); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Errorf("the refused sign-in made an account: %v", err)
	}
	a.call(t, a.admin.token, "GET", "/v1/orgs/"+b.org+"/members", nil).wantError(t, http.StatusNotFound)
	if _, err := a.db.AddUser(t.Context(), a.org, leaver.email, "", "edit"); err != nil {
		t.Errorf("A takes its leaver back: %v", err)
	}

	// A squatted account: made by B's provider while B proved the domain.
	proveDomain(t, b, orgB, "example.com")
	ceo := uniqueEmail("ceo")
	token := signedIn(t, rogue.post(t, nil, rogue.respond(t, rogue.start(t), ceo, nil)))
	if _, err := a.db.AddUser(t.Context(), a.org, ceo, "CEO", "edit"); err == nil || !strings.Contains(err.Error(), "managed by another organization") {
		t.Fatalf("A's admin adds the account B's provider manages: %v", err)
	}
	unprove()
	rogue.post(t, nil, rogue.respond(t, rogue.start(t), ceo, nil)).wantError(t, http.StatusForbidden, "has not verified")
	// A's own provider signs the real person in, and makes the account A's.
	own := newFlow(t, a, testKeys()[0])
	mine := signedIn(t, own.post(t, nil, own.respond(t, own.start(t), ceo, nil)))
	a.call(t, mine, "GET", "/v1/spaces/"+space, nil).want(t, http.StatusOK)
	a.call(t, token, "GET", "/v1/spaces/"+space, nil).wantError(t, http.StatusUnauthorized)
	a.call(t, token, "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized)
}

// TestSAMLStartCannotLockOut: starting a sign-in stores nothing on the
// server (no write commits), so however many anyone starts, a real user
// still signs in; and a response is taken only in the browser that started
// its sign-in.
func TestSAMLStartCannotLockOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := newFlow(t, e, testKeys()[0])
	f.start(t) // makes the server's keys
	writes := e.db.Writes()
	for range 200 {
		f.start(t)
	}
	if n := e.db.Writes() - writes; n != 0 {
		t.Errorf("200 starts wrote %d transactions", n)
	}
	email := uniqueEmail("real")
	signedIn(t, f.post(t, nil, f.respond(t, f.start(t), email, nil)))

	// A response without the browser's cookie, with another sign-in's, with
	// a forged one, or after the sign-in expired, is refused.
	loc := f.start(t)
	mine := f.cookie
	f.start(t)
	other := f.cookie
	form := f.respond(t, loc, email, nil)
	for _, c := range []*http.Cookie{
		nil, other,
		{Name: mine.Name, Value: mine.Value[:len(mine.Value)-2] + "AA"}, // forged
		{Name: mine.Name, Value: "not.a-cookie"},
	} {
		f.cookie = c
		f.post(t, nil, form).wantError(t, http.StatusUnauthorized, "no sign-in started in this browser")
	}
	f.cookie = mine
	later := time.Now().Add(11 * time.Minute)
	e.db.Now = func() time.Time { return later }
	f.post(t, nil, form).wantError(t, http.StatusUnauthorized, "no sign-in started in this browser")
	e.db.Now = time.Now
	// Another server on the database knows the cookie; the sign-in clears it.
	res := f.post(t, api.New(e.db, api.Config{PublicURL: testPublicURL}), form)
	signedIn(t, res)
	if c := pendingSignIn(t, res); c.MaxAge >= 0 {
		t.Errorf("the sign-in left its cookie: %+v", c)
	}
}
