package app

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/sso"
	"github.com/quiredocs/quire/store"
)

// An organization's SAML providers, for its admins: created, changed and
// deleted as POST, PATCH and DELETE O/saml… do, validated by the same
// sso.ProviderChange and written by the same store calls. Each provider's
// page shows what the identity provider needs, as the API's service block.

// ssoSettingsRoutes registers the SAML providers' page and forms.
func (s *Server) ssoSettingsRoutes() {
	s.handleSignedIn("POST "+ssoSettingsPath, s.createSAMLProvider)
	s.handleSignedIn("GET "+ssoProviderPath, s.samlProviderPage)
	s.handleSignedIn("POST "+ssoProviderPath, s.updateSAMLProvider)
	s.handleSignedIn("POST "+ssoProviderPath+"/delete", s.deleteSAMLProvider)
	s.handleSignedIn("POST "+ssoDomainsPath, s.verifyEmailDomain)
	s.handleSignedIn("POST "+ssoDomainsPath+"/remove", s.removeEmailDomain)
}

const (
	ssoSettingsPath = orgSettingsPath + "/saml"
	ssoProviderPath = ssoSettingsPath + "/{samlProviderId}"
)

// samlView is a provider with Quire's endpoints for it, the API's service
// block: its entity id is its metadata's URL.
type samlView struct {
	Provider    *quire.SAMLProvider
	MetadataURL string // the entity id
	ACSURL      string
	StartURL    string
}

func (s *Server) samlView(p *quire.SAMLProvider) samlView {
	e := sso.EndpointsOf(s.cfg.PublicURL, p)
	return samlView{Provider: p, MetadataURL: e.EntityID, ACSURL: e.ACS, StartURL: e.Start}
}

type samlProviderData struct {
	Org   *quire.Organization
	SSO   samlView
	Roles []quire.Role
	Teams []*quire.Team
}

// samlProvider loads the provider in the path for an organization admin.
func (s *Server) samlProvider(r *http.Request) (*quire.SAMLProvider, *quire.Member, error) {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.db.SAMLProvider(r.Context(), me.OrgID, r.PathValue("samlProviderId"))
	return p, me, err
}

func (s *Server) samlProviderPage(w http.ResponseWriter, r *http.Request) error {
	p, me, err := s.samlProvider(r)
	if err != nil {
		return err
	}
	d := samlProviderData{SSO: s.samlView(p), Roles: roleChoices}
	if d.Org, err = s.db.Organization(r.Context(), me.OrgID); err != nil {
		return err
	}
	if d.Teams, err = listAll(s.db.ListTeams(r.Context(), me.OrgID, store.TeamFilter{}, store.Page{Limit: maxListed})); err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "settings-sso", p.Label+" · Single sign-on", d)
}

// providerChange reads a provider's form as the API reads its body: a field
// the form has is set; "" unsets a text field; a default role of "none" (or
// "") and a default team of "" are none. Browsers send a textarea's lines
// ended by CRLF, which the certificate takes as LF.
func providerChange(r *http.Request) sso.ProviderChange {
	field := func(name string) quire.Optional[string] {
		v, ok := r.PostForm[name]
		if !ok || len(v) == 0 {
			return quire.Optional[string]{}
		}
		return quire.Optional[string]{Set: true, Value: strings.TrimSpace(v[0])}
	}
	c := sso.ProviderChange{Label: field("label"), EntityID: field("entityID"), Certificate: field("certificate"),
		SSOURL: field("ssoURL"), DefaultTeam: field("defaultTeam"), DefaultRole: field("defaultRole")}
	c.Certificate.Value = strings.ReplaceAll(c.Certificate.Value, "\r\n", "\n")
	if c.DefaultRole.Set && (c.DefaultRole.Value == "" || c.DefaultRole.Value == "none") {
		c.DefaultRole = quire.Optional[string]{Set: true, Null: true}
	}
	return c
}

// createSAMLProvider creates a provider, as POST O/saml: a label is
// required; it leads to the provider's page, which shows what the identity
// provider needs.
func (s *Server) createSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	c := providerChange(r)
	if err := quire.CheckRequired("label", c.Label.Set); err != nil {
		return err
	}
	u, err := c.Update()
	if err != nil {
		return err
	}
	p, err := s.db.CreateSAMLProvider(r.Context(), me.OrgID, u.Provider())
	if err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID)+"/saml/"+p.ID)
}

// updateSAMLProvider changes a provider, as PATCH O/saml/{id}.
func (s *Server) updateSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	p, me, err := s.samlProvider(r)
	if err != nil {
		return err
	}
	u, err := providerChange(r).Update()
	if err != nil {
		return err
	}
	if _, err := s.db.UpdateSAMLProvider(r.Context(), me.OrgID, p.ID, u); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID)+"/saml/"+p.ID)
}

// deleteSAMLProvider deletes a provider, as DELETE O/saml/{id}.
func (s *Server) deleteSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	p, me, err := s.samlProvider(r)
	if err != nil {
		return err
	}
	if err := s.db.DeleteSAMLProvider(r.Context(), me.OrgID, p.ID); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}
