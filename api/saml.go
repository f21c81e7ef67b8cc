package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/sso"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Contract §4.15: SAML providers, managed by organization admins, and the
// sign-in choices of an organization. The service provider's own endpoints
// (start, acs, metadata) are in sso_flow.go.

// unsetURL stands for an ssoURL not given yet (sso.UnsetURL).
const unsetURL = sso.UnsetURL

// samlProvider loads the provider in the path for an organization admin.
func (s *Server) samlProvider(r *http.Request) (*quire.SAMLProvider, *quire.Member, error) {
	me, err := s.orgAdmin(r)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.db.SAMLProvider(r.Context(), me.OrgID, r.PathValue("samlProviderId"))
	return p, me, err
}

func (s *Server) listSAMLProviders(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.SAMLProvider], error) {
		return s.db.ListSAMLProviders(ctx, me.OrgID, p)
	}, func(p *quire.SAMLProvider) wire.SAMLProvider { return s.wire.SAMLProvider(p, me) })
}

func (s *Server) createSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	var body wire.CreateOrganizationSAMLProvider
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	created, err := s.db.CreateSAMLProvider(r.Context(), me.OrgID, body.Provider())
	if err != nil {
		return err
	}
	out := s.wire.SAMLProvider(created, me)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	p, me, err := s.samlProvider(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.SAMLProvider(p, me))
}

func (s *Server) updateSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	p, me, err := s.samlProvider(r)
	if err != nil {
		return err
	}
	var body wire.UpdateOrganizationSAMLProvider
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if p, err = s.db.UpdateSAMLProvider(r.Context(), me.OrgID, p.ID, body.Update()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.SAMLProvider(p, me))
}

func (s *Server) deleteSAMLProvider(w http.ResponseWriter, r *http.Request) error {
	p, me, err := s.samlProvider(r)
	if err != nil {
		return err
	}
	if err := s.db.DeleteSAMLProvider(r.Context(), me.OrgID, p.ID); err != nil {
		return err
	}
	return noContent(w)
}

// listSSOLogins lists the ways to sign in to an organization. It needs no
// token (the reference gives it no security): it is what a sign-in page
// shows to people who have none yet.
func (s *Server) listSSOLogins(w http.ResponseWriter, r *http.Request) error {
	org, err := s.db.Organization(r.Context(), r.PathValue("organizationId")) // 404 "organization not found"
	if err != nil {
		return err
	}
	providers, err := s.db.SSOLogins(r.Context(), org.ID)
	if err != nil {
		return err
	}
	items := make([]wire.SSOLogin, len(providers))
	for i, p := range providers {
		items[i] = wire.SSOLogin{ID: p.ID, Label: p.Label, StartURL: s.wire.SAMLServiceOf(p).StartURL}
	}
	return writeJSON(w, http.StatusOK, struct {
		Items []wire.SSOLogin `json:"items"`
	}{items})
}
