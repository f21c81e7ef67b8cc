package wire

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/sso"
)

// SAMLProvider is how the API shows an organization's SAML identity
// provider.
type SAMLProvider struct {
	Object      string      `json:"object"`
	ID          string      `json:"id"`
	Label       string      `json:"label"`
	SSOURL      string      `json:"ssoURL"`
	EntityID    string      `json:"entityID"`
	Certificate string      `json:"certificate"`
	DefaultTeam *Team       `json:"defaultTeam,omitempty"`
	DefaultRole *string     `json:"defaultRole"`
	CreatedAt   string      `json:"createdAt"`
	Status      string      `json:"status"`
	Service     SAMLService `json:"service"`
	URLs        URLs        `json:"urls"`
}

// SAMLService is what an identity provider needs to know of Quire.
type SAMLService struct {
	ACSURL   string `json:"acsURL"`
	StartURL string `json:"startURL"`
	EntityID string `json:"entityID"`
}

// SAMLServiceOf returns Quire's own SAML endpoints for a provider: its entity
// id is the URL of its metadata.
func (l Links) SAMLServiceOf(p *quire.SAMLProvider) SAMLService {
	e := sso.EndpointsOf(l.PublicURL, p)
	return SAMLService{ACSURL: e.ACS, StartURL: e.Start, EntityID: e.EntityID}
}

// SAMLProvider shows an organization's SAML identity provider as the API
// answers it.
func (l Links) SAMLProvider(p *quire.SAMLProvider, me *quire.Member) SAMLProvider {
	j := SAMLProvider{
		Object: "saml-provider", ID: p.ID, Label: p.Label, SSOURL: p.SSOURL, EntityID: p.EntityID,
		Certificate: p.Certificate, DefaultRole: Role(p.DefaultRole), CreatedAt: Time(p.CreatedAt),
		Status: "pending", Service: l.SAMLServiceOf(p),
		URLs: URLs{Location: l.API("/orgs/" + p.OrgID + "/saml/" + p.ID)},
	}
	if j.SSOURL == "" {
		j.SSOURL = sso.UnsetURL
	}
	if p.Active() {
		j.Status = "active"
	}
	if p.DefaultTeam != nil {
		t := l.Team(p.DefaultTeam, me, "")
		j.DefaultTeam = &t
	}
	return j
}

// SSOLogin is how the API shows a SAML provider as a sign-in page offers
// it.
type SSOLogin struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	StartURL string `json:"startURL"`
}
