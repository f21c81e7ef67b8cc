package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The SAML 2.0 service provider, after github.com/crewjam/saml: startURL
// sends the browser to the identity provider with an AuthnRequest (HTTP
// redirect binding); the identity provider posts its signed response to
// acsURL, which checks it (signature, issuer, audience, destination, time
// bounds, the request it answers, replay) and signs the user in; entityID is
// the URL of Quire's metadata. These routes take no token.

// samlKeyName names the server secret that holds the service provider's key
// and certificate (PEM), made once and shared by every server on the database.
const samlKeyName = "saml-sp"

// samlRequestTTL is how long an AuthnRequest may wait for its answer: the
// time to sign in at the identity provider.
const samlRequestTTL = 10 * time.Minute

// serviceProvider builds the SAML service provider of one identity provider.
func (s *Server) serviceProvider(ctx context.Context, p *quire.SAMLProvider) (*saml.ServiceProvider, error) {
	key, cert, err := s.samlKeyPair(ctx)
	if err != nil {
		return nil, err
	}
	svc := s.samlService(p)
	sp := &saml.ServiceProvider{
		EntityID:          svc.EntityID,
		Key:               key,
		Certificate:       cert,
		AuthnNameIDFormat: saml.EmailAddressNameIDFormat,
		SignatureMethod:   dsig.RSASHA256SignatureMethod, // AuthnRequests are signed
		IDPMetadata:       &saml.EntityDescriptor{EntityID: p.EntityID},
	}
	metadataURL, err := url.Parse(svc.EntityID)
	if err != nil {
		return nil, fmt.Errorf("service provider entity id: %w", err)
	}
	acsURL, err := url.Parse(svc.ACSURL)
	if err != nil {
		return nil, fmt.Errorf("service provider ACS URL: %w", err)
	}
	sp.MetadataURL, sp.AcsURL = *metadataURL, *acsURL
	if !p.Active() {
		return sp, nil
	}
	certs, err := quire.ParseSAMLCertificates("certificate", p.Certificate)
	if err != nil {
		return nil, err // validated when stored: not expected
	}
	var keys []saml.KeyDescriptor
	for _, c := range certs {
		keys = append(keys, saml.KeyDescriptor{Use: "signing", KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
			X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(c.Raw)}},
		}}})
	}
	sp.IDPMetadata.IDPSSODescriptors = []saml.IDPSSODescriptor{{
		SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
			ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
			KeyDescriptors:             keys,
		}},
		SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.SSOURL}},
	}}
	return sp, nil
}

// samlKeyPair returns the service provider's RSA key and certificate.
func (s *Server) samlKeyPair(ctx context.Context) (*rsa.PrivateKey, *x509.Certificate, error) {
	s.saml.mu.Lock()
	defer s.saml.mu.Unlock()
	if s.saml.key != nil {
		return s.saml.key, s.saml.cert, nil
	}
	b, err := s.db.ServerSecret(ctx, samlKeyName, func() ([]byte, error) { return newSAMLKeyPair(s.db.Now()) })
	if err != nil {
		return nil, nil, err
	}
	var key *rsa.PrivateKey
	var cert *x509.Certificate
	for block, rest := pem.Decode(b); block != nil; block, rest = pem.Decode(rest) {
		switch block.Type {
		case "PRIVATE KEY":
			k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("SAML service provider key: %w", err)
			}
			key, _ = k.(*rsa.PrivateKey)
		case "CERTIFICATE":
			if cert, err = x509.ParseCertificate(block.Bytes); err != nil {
				return nil, nil, fmt.Errorf("SAML service provider certificate: %w", err)
			}
		}
	}
	if key == nil || cert == nil {
		return nil, nil, errors.New("SAML service provider key: stored secret lacks an RSA key or a certificate")
	}
	s.saml.key, s.saml.cert = key, cert
	return key, cert, nil
}

// newSAMLKeyPair makes an RSA key (RSA, for identity providers that encrypt
// assertions) and a self-signed certificate for it, in PEM. SAML uses the
// certificate only to carry the key, so it lives long.
func newSAMLKeyPair(now time.Time) ([]byte, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "Quire SAML service provider"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(30, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	pem.Encode(&buf, &pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})
	pem.Encode(&buf, &pem.Block{Type: "CERTIFICATE", Bytes: der})
	return buf.Bytes(), nil
}

// flowProvider loads the provider in the path of a sign-in route, which has
// no caller: a missing organization or provider is 404 alike.
func (s *Server) flowProvider(r *http.Request, active bool) (*quire.SAMLProvider, *saml.ServiceProvider, error) {
	p, err := s.db.SAMLProvider(r.Context(), r.PathValue("organizationId"), r.PathValue("samlProviderId"))
	if err != nil {
		return nil, nil, err
	}
	if active && !p.Active() {
		return nil, nil, errorf(quire.CodeConflict, "SAML provider %q is pending: it needs an entityID, an ssoURL and a certificate", p.Label)
	}
	sp, err := s.serviceProvider(r.Context(), p)
	return p, sp, err
}

// startSAML sends the browser to the identity provider with an AuthnRequest,
// whose id the browser keeps (saml_state.go) so that its answer is expected
// there.
func (s *Server) startSAML(w http.ResponseWriter, r *http.Request) error {
	p, sp, err := s.flowProvider(r, true)
	if err != nil {
		return err
	}
	req, err := sp.MakeAuthenticationRequest(p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return err
	}
	if err := s.setSAMLState(w, r, p, req.ID, s.db.Now().Add(samlRequestTTL)); err != nil {
		return err
	}
	to, err := req.Redirect("", sp)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to.String(), http.StatusFound)
	return nil
}

// samlMetadata serves Quire's service provider metadata, at its entity id,
// for identity providers that read it.
func (s *Server) samlMetadata(w http.ResponseWriter, r *http.Request) error {
	_, sp, err := s.flowProvider(r, false)
	if err != nil {
		return err
	}
	md := sp.Metadata()
	for i := range md.SPSSODescriptors {
		// Responses come by HTTP POST only: Quire does not resolve artifacts.
		acs := md.SPSSODescriptors[i].AssertionConsumerServices[:0]
		for _, e := range md.SPSSODescriptors[i].AssertionConsumerServices {
			if e.Binding == saml.HTTPPostBinding {
				acs = append(acs, e)
			}
		}
		md.SPSSODescriptors[i].AssertionConsumerServices = acs
	}
	b, err := xml.MarshalIndent(md, "", "  ")
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	_, err = w.Write(append([]byte(xml.Header), b...))
	return err
}

// samlACS takes the identity provider's response (HTTP POST binding), checks
// it and signs its subject in: the answer is a page showing a new API token.
func (s *Server) samlACS(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	p, sp, err := s.flowProvider(r, true)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return errorf(quire.CodeTooLarge, "body: must be at most %d bytes", MaxBodyBytes)
		}
		return errorf(quire.CodeInvalid, "body: must be a form (application/x-www-form-urlencoded)")
	}
	encoded := r.PostForm.Get("SAMLResponse")
	if encoded == "" {
		return errorf(quire.CodeInvalid, "SAMLResponse: is required")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(encoded), ""))
	if err != nil {
		return errorf(quire.CodeInvalid, "SAMLResponse: must be base64")
	}
	// The request it answers must be the one this browser started: the
	// library checks that the response and its assertion claim it;
	// SignInWithSAML uses it up. Unsolicited (IdP-initiated) responses are
	// refused.
	st, err := s.readSAMLState(r, p)
	if err != nil {
		return err
	}
	var head struct {
		InResponseTo string `xml:"InResponseTo,attr"`
	}
	if xml.Unmarshal(raw, &head) == nil && head.InResponseTo != st.requestID {
		return errNoSAMLState
	}
	assertion, err := parseSAMLResponse(sp, raw, []string{st.requestID})
	if err != nil {
		return samlRefusal(err)
	}
	email, name := samlIdentity(assertion)
	if quire.CheckEmail("email", email) != nil {
		return errorf(quire.CodeInvalid, "SAML response refused: it gives no e-mail address (send the NameID in the emailAddress format, or an email attribute)")
	}
	sess, err := s.db.SignInWithSAML(r.Context(), store.SAMLSignIn{
		OrgID: p.OrgID, ProviderID: p.ID, RequestID: st.requestID, RequestExpires: st.expires, AssertionID: assertion.ID,
		Expires: samlExpiry(assertion), Email: email, DisplayName: name,
	})
	if err != nil {
		return err
	}
	org, err := s.db.Organization(r.Context(), p.OrgID)
	if err != nil {
		return err
	}
	s.clearSAMLState(w, r, p)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	return signedInPage.Execute(w, map[string]any{
		"Org": org.Title, "Email": sess.Member.User.Email, "Joined": sess.Joined, "Token": sess.Token,
		"Header": "Authorization: Bearer " + sess.Token,
	})
}

// signedInPage shows the API token of a SAML sign-in, once: only its hash is
// kept. html/template escapes every value.
var signedInPage = template.Must(template.New("signed-in").Parse(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Signed in to {{.Org}}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em}pre{background:#f4f4f4;padding:1em;overflow-x:auto;user-select:all}</style></head>
<body>
<h1>Signed in to {{.Org}}</h1>
<p>You are signed in as {{.Email}}{{if .Joined}}, a new member of the organization{{end}}.</p>
<p>Your API token is below. It is shown only this once: copy it now and keep it secret.</p>
<pre id="token">{{.Token}}</pre>
<p>Send it with every API request:</p>
<pre>{{.Header}}</pre>
</body>
</html>
`))

// samlRefusal turns the library's refusal into a 401 that says why: the
// reason concerns only the response the client itself posted.
// parseSAMLResponse checks a response with the library, which panics on
// some signed ones it should refuse (an assertion without Conditions, in
// v0.5.1): a panic there is a refusal, not a server error.
func parseSAMLResponse(sp *saml.ServiceProvider, raw []byte, expected []string) (a *saml.Assertion, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = nil, fmt.Errorf("saml: response not understood: %v", p)
		}
	}()
	return sp.ParseXMLResponse(raw, expected, sp.AcsURL)
}

func samlRefusal(err error) error {
	reason := "invalid response"
	if e, ok := errors.AsType[*saml.InvalidResponseError](err); ok && e.PrivateErr != nil {
		reason = e.PrivateErr.Error()
	}
	if len(reason) > 300 {
		reason = reason[:300] + "…"
	}
	return &quire.Error{Code: quire.CodeUnauthorized, Message: "SAML response refused: " + reason, Err: err}
}

// samlExpiry is when the assertion is refused anyway, so that its id need
// not be remembered against replay: the library accepts it up to
// MaxIssueDelay after issue, and NotOnOrAfter bounds up to MaxClockSkew late.
func samlExpiry(a *saml.Assertion) time.Time {
	t := a.IssueInstant.Add(saml.MaxIssueDelay)
	later := func(u time.Time) {
		if u = u.Add(saml.MaxClockSkew); u.After(t) {
			t = u
		}
	}
	if a.Conditions != nil {
		later(a.Conditions.NotOnOrAfter)
	}
	if a.Subject != nil {
		for _, c := range a.Subject.SubjectConfirmations {
			if c.SubjectConfirmationData != nil {
				later(c.SubjectConfirmationData.NotOnOrAfter)
			}
		}
	}
	return t.Add(saml.MaxClockSkew)
}

// Attribute names identity providers use, as names or friendly names:
// plain, Azure AD / ADFS claims, and LDAP OIDs.
var (
	emailAttributes = []string{"email", "mail", "emailaddress",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "urn:oid:0.9.2342.19200300.100.1.3"}
	nameAttributes = []string{"displayName", "name", "cn", "commonName", "fullName",
		"http://schemas.microsoft.com/identity/claims/displayname", "urn:oid:2.16.840.1.113730.3.1.241", "urn:oid:2.5.4.3"}
	givenNameAttributes = []string{"givenName", "firstName",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname", "urn:oid:2.5.4.42"}
	surnameAttributes = []string{"sn", "surname", "lastName",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname", "urn:oid:2.5.4.4"}
)

// samlIdentity reads the subject's e-mail address (an email attribute, else
// a NameID that is one) and display name (a name attribute, else given name
// and surname, else the address's local part).
func samlIdentity(a *saml.Assertion) (email, name string) {
	attr := func(names []string) string {
		for _, st := range a.AttributeStatements {
			for _, at := range st.Attributes {
				for _, n := range names {
					if (strings.EqualFold(at.Name, n) || strings.EqualFold(at.FriendlyName, n)) && len(at.Values) > 0 {
						if v := strings.TrimSpace(at.Values[0].Value); v != "" {
							return v
						}
					}
				}
			}
		}
		return ""
	}
	email = attr(emailAttributes)
	if email == "" && a.Subject != nil && a.Subject.NameID != nil {
		switch a.Subject.NameID.Format {
		case "", string(saml.EmailAddressNameIDFormat), string(saml.UnspecifiedNameIDFormat):
			email = strings.TrimSpace(a.Subject.NameID.Value)
		}
	}
	name = attr(nameAttributes)
	if name == "" {
		name = strings.TrimSpace(attr(givenNameAttributes) + " " + attr(surnameAttributes))
	}
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	if utf8.RuneCountInString(name) > 100 {
		name = string([]rune(name)[:100])
	}
	return email, name
}
