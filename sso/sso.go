// Package sso is Quire's SAML 2.0 service provider, after
// github.com/crewjam/saml: it builds the service provider of an
// organization's identity provider with a key pair the servers share, makes
// its AuthnRequests and metadata, checks the responses it gets back, and
// signs the pending sign-in a browser keeps, and signs in whom a checked
// response names. It speaks no HTTP: api reads requests and writes
// answers, cookies and pages.
package sso

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
	"math/big"
	"net/url"
	"sync"
	"time"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// keyName names the server secret that holds the service provider's key and
// certificate (PEM), made once and shared by every server on the database.
const keyName = "saml-sp"

// RequestTTL is how long an AuthnRequest may wait for its answer: the time
// to sign in at the identity provider.
const RequestTTL = 10 * time.Minute

// Keys holds the server secrets of SAML sign-ins once read: they never
// change once made, and the start URL, which takes anyone, should cost no
// database work.
type Keys struct {
	db    *store.DB
	mu    sync.Mutex
	state []byte            // signs pending sign-ins
	key   *rsa.PrivateKey   // the service provider's
	cert  *x509.Certificate // the service provider's
}

// NewKeys returns the keys kept as server secrets in db, read on first use.
func NewKeys(db *store.DB) *Keys { return &Keys{db: db} }

// URLs are Quire's own endpoints for one identity provider: its entity id is
// the URL of its metadata, and responses come to its ACS URL.
type URLs struct {
	EntityID string
	ACSURL   string
}

// ServiceProvider is Quire's service provider for one identity provider.
type ServiceProvider struct {
	sp     *saml.ServiceProvider
	ssoURL string
}

// ServiceProvider builds the service provider of identity provider p, which
// reaches Quire at urls.
func (k *Keys) ServiceProvider(ctx context.Context, p *quire.SAMLProvider, urls URLs) (*ServiceProvider, error) {
	key, cert, err := k.keyPair(ctx)
	if err != nil {
		return nil, err
	}
	sp := &saml.ServiceProvider{
		EntityID:          urls.EntityID,
		Key:               key,
		Certificate:       cert,
		AuthnNameIDFormat: saml.EmailAddressNameIDFormat,
		SignatureMethod:   dsig.RSASHA256SignatureMethod, // AuthnRequests are signed
		IDPMetadata:       &saml.EntityDescriptor{EntityID: p.EntityID},
	}
	metadataURL, err := url.Parse(urls.EntityID)
	if err != nil {
		return nil, fmt.Errorf("service provider entity id: %w", err)
	}
	acsURL, err := url.Parse(urls.ACSURL)
	if err != nil {
		return nil, fmt.Errorf("service provider ACS URL: %w", err)
	}
	sp.MetadataURL, sp.AcsURL = *metadataURL, *acsURL
	if !p.Active() {
		return &ServiceProvider{sp: sp, ssoURL: p.SSOURL}, nil
	}
	certs, err := quire.ParseSAMLCertificates("certificate", p.Certificate)
	if err != nil {
		return nil, err // validated when stored: not expected
	}
	sp.IDPMetadata.IDPSSODescriptors = []saml.IDPSSODescriptor{identityProvider(p.SSOURL, certs)}
	return &ServiceProvider{sp: sp, ssoURL: p.SSOURL}, nil
}

// identityProvider describes an identity provider's single sign-on service
// at ssoURL, whose responses are signed with one of certs.
func identityProvider(ssoURL string, certs []*x509.Certificate) saml.IDPSSODescriptor {
	var keys []saml.KeyDescriptor
	for _, c := range certs {
		keys = append(keys, saml.KeyDescriptor{Use: "signing", KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
			X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(c.Raw)}},
		}}})
	}
	return saml.IDPSSODescriptor{
		SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
			ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
			KeyDescriptors:             keys,
		}},
		SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: ssoURL}},
	}
}

// AuthnRequest is a request to sign in, sent to the identity provider by the
// HTTP redirect binding; its answer comes by HTTP POST.
type AuthnRequest struct {
	ID  string // the request's id, which its answer must name
	req *saml.AuthnRequest
	sp  *saml.ServiceProvider
}

// AuthnRequest makes a new signed request to sign in.
func (sp *ServiceProvider) AuthnRequest() (*AuthnRequest, error) {
	req, err := sp.sp.MakeAuthenticationRequest(sp.ssoURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return nil, err
	}
	return &AuthnRequest{ID: req.ID, req: req, sp: sp.sp}, nil
}

// RedirectURL is where to send the browser with the request.
func (r *AuthnRequest) RedirectURL() (string, error) {
	to, err := r.req.Redirect("", r.sp)
	if err != nil {
		return "", err
	}
	return to.String(), nil
}

// Metadata is the service provider's metadata document, in XML with its
// header, for identity providers that read it.
func (sp *ServiceProvider) Metadata() ([]byte, error) {
	md := sp.sp.Metadata()
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
		return nil, err
	}
	return append([]byte(xml.Header), b...), nil
}

// keyPair returns the service provider's RSA key and certificate.
func (k *Keys) keyPair(ctx context.Context) (*rsa.PrivateKey, *x509.Certificate, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, k.cert, nil
	}
	b, err := k.db.ServerSecret(ctx, keyName, func() ([]byte, error) { return newKeyPair(k.db.Now()) })
	if err != nil {
		return nil, nil, err
	}
	key, cert, err := parseKeyPair(b)
	if err != nil {
		return nil, nil, err
	}
	k.key, k.cert = key, cert
	return key, cert, nil
}

// parseKeyPair reads the key and certificate newKeyPair made.
func parseKeyPair(b []byte) (*rsa.PrivateKey, *x509.Certificate, error) {
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
			var err error
			if cert, err = x509.ParseCertificate(block.Bytes); err != nil {
				return nil, nil, fmt.Errorf("SAML service provider certificate: %w", err)
			}
		}
	}
	if key == nil || cert == nil {
		return nil, nil, errors.New("SAML service provider key: stored secret lacks an RSA key or a certificate")
	}
	return key, cert, nil
}

// newKeyPair makes an RSA key (RSA, for identity providers that encrypt
// assertions) and a self-signed certificate for it, in PEM. SAML uses the
// certificate only to carry the key, so it lives long.
func newKeyPair(now time.Time) ([]byte, error) {
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
