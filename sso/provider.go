package sso

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// UnsetURL stands for an ssoURL not given yet: the reference requires the
// field and a URI in it, and about:blank (RFC 6694) is the URI of nothing.
// Clients may send it back, or "", to leave the ssoURL unset.
const UnsetURL = "about:blank"

// ProviderChange is what a client asks of a SAML provider, on create or
// update: every field may be left out; text fields may be "" to unset them,
// DefaultTeam and DefaultRole null (or DefaultTeam "") for none. The API
// decodes it from JSON and the app from a form; both validate it here.
type ProviderChange struct {
	Label       quire.Optional[string]
	EntityID    quire.Optional[string]
	Certificate quire.Optional[string]
	SSOURL      quire.Optional[string]
	DefaultTeam quire.Optional[string]
	DefaultRole quire.Optional[string]
}

// Update validates c into the changes it asks for; errors name the field
// as the API does (label, entityID, certificate, ssoURL, defaultRole).
func (c ProviderChange) Update() (u store.SAMLProviderUpdate, err error) {
	line := func(field string, min, max int) func(string) error {
		return func(v string) error { return quire.CheckLen(field, v, min, max) }
	}
	if u.Label, err = quire.CheckOptional("label", c.Label, line("label", 1, 30)); err != nil {
		return u, err
	}
	if u.EntityID, err = quire.CheckOptional("entityID", c.EntityID, line("entityID", 0, quire.MaxSAMLEntityID)); err != nil {
		return u, err
	}
	text := func(v string) error { return quire.CheckText("certificate", v, 0, quire.MaxSAMLCertificate) }
	if u.Certificate, err = quire.CheckOptional("certificate", c.Certificate, text); err != nil {
		return u, err
	}
	if u.Certificate != nil && *u.Certificate != "" {
		if _, err := quire.ParseSAMLCertificates("certificate", *u.Certificate); err != nil {
			return u, err
		}
	}
	if u.SSOURL, err = quire.CheckOptional("ssoURL", c.SSOURL, line("ssoURL", 0, quire.MaxSAMLSSOURL)); err != nil {
		return u, err
	}
	if u.SSOURL != nil && *u.SSOURL == UnsetURL {
		*u.SSOURL = ""
	}
	if u.SSOURL != nil && *u.SSOURL != "" {
		if err := quire.CheckAbsoluteURL("ssoURL", *u.SSOURL, quire.MaxSAMLSSOURL); err != nil {
			return u, err
		}
	}
	if c.DefaultTeam.Set {
		u.DefaultTeam = &c.DefaultTeam.Value // null or "": no default team
	}
	if c.DefaultRole.Set {
		role, err := quire.ParseRoleOrNull("defaultRole", c.DefaultRole)
		if err != nil {
			return u, err
		}
		u.DefaultRole = &role
	}
	return u, nil
}

// Endpoints are Quire's own SAML addresses for one provider, under the
// API at publicURL: what its identity provider needs to know of Quire. The
// entity id is the URL of the metadata.
type Endpoints struct{ ACS, Start, EntityID string }

// EndpointsOf returns the endpoints of provider p.
func EndpointsOf(publicURL string, p *quire.SAMLProvider) Endpoints {
	base := publicURL + "/v1/orgs/" + p.OrgID + "/saml/" + p.ID
	return Endpoints{ACS: base + "/acs", Start: base + "/start", EntityID: base + "/metadata"}
}
