package quire

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"net/url"
	"time"
)

// SAMLProvider is an identity provider an organization's members sign in
// with. Contract §2 SAML provider.
type SAMLProvider struct {
	ID          string
	OrgID       string
	Label       string
	EntityID    string // the identity provider's entity id, the Issuer of its responses
	SSOURL      string // where its single sign-on service takes AuthnRequests
	Certificate string // PEM: the certificates its responses may be signed with
	DefaultTeam *Team  // nil: new members join no team
	DefaultRole Role   // of new members; RoleGuest for guests
	CreatedAt   time.Time
}

// Active reports whether the provider is configured enough to sign in with;
// the reference calls the others pending.
func (p *SAMLProvider) Active() bool {
	return p.EntityID != "" && p.SSOURL != "" && p.Certificate != ""
}

// Bounds of a SAML provider's fields. Contract §4.15.
const (
	MaxSAMLEntityID    = 1024
	MaxSAMLCertificate = 10000
	MaxSAMLSSOURL      = 2048
)

// CheckAbsoluteURL validates an http or https URL with a host, of at most max
// characters.
func CheckAbsoluteURL(field, v string, max int) error {
	u, err := url.Parse(v)
	if err != nil || len(v) > max || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return Errorf(CodeInvalid, "%s: must be an absolute http or https URL of at most %d characters", field, max)
	}
	return nil
}

// ParseSAMLCertificates reads one or more PEM "CERTIFICATE" blocks, and nothing
// else, as X.509 certificates: a provider lists several while it rolls its
// signing key over.
func ParseSAMLCertificates(field, v string) ([]*x509.Certificate, error) {
	bad := Errorf(CodeInvalid, "%s: must be one or more X.509 certificates in PEM form (-----BEGIN CERTIFICATE-----), at most %d characters", field, MaxSAMLCertificate)
	if len(v) > MaxSAMLCertificate {
		return nil, bad
	}
	var certs []*x509.Certificate
	rest := bytes.TrimSpace([]byte(v))
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return nil, bad
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, bad
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 || len(bytes.TrimSpace(rest)) != 0 {
		return nil, bad
	}
	return certs, nil
}
