package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Installing integrations (issue 19). An admin of an organization installs
// an integration there, then sets it up on spaces and sites; each change is
// recorded as an event of the integration (integration_events.go). Quire
// runs no integration script: installing records what was granted, which
// installation tokens (installation_tokens.go) are then held to.
//
// Who may do what: admins of the organization it is installed on read and
// change an installation; admins of the integration's organization (its
// publisher, who acts as "the integration") read it, change its
// configuration and external ids, and mint its tokens. Anyone else gets 404.

// installationAccess is an installation with what the caller may do to it.
type installationAccess struct {
	in         *quire.Integration
	inst       *quire.IntegrationInstallation
	orgAdmin   bool // admin of the organization it is installed on
	ownerAdmin bool // admin of the integration's organization
}

// installation loads the installation named in the path and the caller's
// rights on it; 404 when the caller has none.
func (s *Server) installation(r *http.Request) (*installationAccess, error) {
	in, owner, err := s.integration(r)
	if err != nil {
		return nil, err
	}
	inst, err := s.db.IntegrationInstallationByID(r.Context(), in.Name, r.PathValue("installationId"))
	if err != nil {
		return nil, err
	}
	a := &installationAccess{in: in, inst: inst, ownerAdmin: owner.Admin()}
	me, err := s.db.Membership(r.Context(), inst.OrgID, caller(r.Context()).ID)
	if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
		return nil, err
	}
	a.orgAdmin = err == nil && me.Role == quire.RoleAdmin
	if !a.orgAdmin && !a.ownerAdmin {
		return nil, errorf(quire.CodeNotFound, "installation not found")
	}
	return a, nil
}

// requireOrgAdmin refuses callers who do not administer the organization
// the integration is installed on.
func (a *installationAccess) requireOrgAdmin() error {
	return authoring.CheckInstallingAdmin(a.orgAdmin)
}

// installIntegration answers POST /integrations/{name}/installations: an
// admin of the target organization installs an integration they can see;
// a private one only on its own organization.
func (s *Server) installIntegration(w http.ResponseWriter, r *http.Request) error {
	in, _, err := s.integration(r)
	if err != nil {
		return err
	}
	var body wire.OrganizationTarget
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	me, err := s.db.Membership(ctx, *body.Organization, caller(ctx).ID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return errorf(quire.CodeNotFound, "organization not found")
	}
	if err != nil {
		return err
	}
	if err := requireAdmin(me); err != nil {
		return err
	}
	inst, err := s.author.InstallIntegration(ctx, in, me.OrgID, caller(ctx).ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, s.wire.Installation(inst))
}

func (s *Server) getIntegrationInstallation(w http.ResponseWriter, r *http.Request) error {
	a, err := s.installation(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Installation(a.inst))
}

// updateIntegrationInstallation answers PATCH …/installations/{id}: the
// publisher may set configuration and external ids, the installing
// organization's admins also which spaces and sites it reaches.
func (s *Server) updateIntegrationInstallation(w http.ResponseWriter, r *http.Request) error {
	a, err := s.installation(r)
	if err != nil {
		return err
	}
	var body wire.UpdateIntegrationInstallation
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	inst, err := s.author.UpdateInstallation(r.Context(), a.in.Name, a.inst, authoring.InstallationEditor{OrgAdmin: a.orgAdmin, ViaToken: viaInstallation(r)}, body.Update())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Installation(inst))
}

// uninstallIntegration answers DELETE …/installations/{id} with 205 once
// it uninstalled (the reference's two answers, as unpublishing).
func (s *Server) uninstallIntegration(w http.ResponseWriter, r *http.Request) error {
	a, err := s.installation(r)
	if err != nil {
		return err
	}
	if err := a.requireOrgAdmin(); err != nil {
		return err
	}
	deleted, err := s.db.UninstallIntegration(r.Context(), a.in.Name, a.inst.ID)
	if err != nil {
		return err
	}
	return resetOrNoContent(w, deleted)
}

// resetOrNoContent answers 205 when something was deleted, else 204.
func resetOrNoContent(w http.ResponseWriter, deleted bool) error {
	if !deleted {
		return noContent(w)
	}
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusResetContent)
	return nil
}

// createInstallationToken answers POST …/installations/{id}/tokens: a
// token that works for an hour, with the installer's rights narrowed to
// the installation's scopes and targets.
func (s *Server) createInstallationToken(w http.ResponseWriter, r *http.Request) error {
	a, err := s.installation(r)
	if err != nil {
		return err
	}
	token, err := s.author.InstallationToken(r.Context(), a.inst)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, struct {
		Token string `json:"token"`
	}{token})
}

// Space and site installations.

// contentKinds maps the path segment to the kind of content installation.
var contentKinds = map[string]store.ContentKind{"spaces": store.SpaceInstallations, "sites": store.SiteInstallations}

// contentHandlers are the handlers of …/installations/{id}/spaces and
// …/sites, for one kind.
type contentHandlers struct {
	s    *Server
	kind store.ContentKind
	path string // the path wildcard naming the space or site
	body string // the field of the install body naming it
}

func (h contentHandlers) list(w http.ResponseWriter, r *http.Request) error {
	a, err := h.s.installation(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx2 context.Context, p store.Page) (*store.List[*quire.IntegrationContentInstallation], error) {
		return h.s.db.ListContentInstallations(ctx2, h.kind, store.ContentInstallationFilter{Integration: a.in.Name, InstallationID: a.inst.ID}, p)
	}, h.json)
}

func (h contentHandlers) json(c *quire.IntegrationContentInstallation) wire.ContentInstallation {
	return h.s.wire.ContentInstallation(h.kind, c)
}

func (h contentHandlers) install(w http.ResponseWriter, r *http.Request) error {
	a, err := h.s.installation(r)
	if err != nil {
		return err
	}
	if err := a.requireOrgAdmin(); err != nil {
		return err
	}
	body := wire.InstallIntegrationOnContent{Field: h.body}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	c, err := h.s.author.InstallOnContent(r.Context(), h.kind, a.inst, *body.Target())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, h.json(c))
}

func (h contentHandlers) get(w http.ResponseWriter, r *http.Request) error {
	a, err := h.s.installation(r)
	if err != nil {
		return err
	}
	c, err := h.s.db.ContentInstallation(r.Context(), h.kind, a.inst.ID, r.PathValue(h.path))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, h.json(c))
}

func (h contentHandlers) update(w http.ResponseWriter, r *http.Request) error {
	a, err := h.s.installation(r)
	if err != nil {
		return err
	}
	var body wire.UpdateIntegrationSpaceInstallation
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	c, err := h.s.db.UpdateContentInstallation(r.Context(), h.kind, a.inst.ID, r.PathValue(h.path), body.Update())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, h.json(c))
}

func (h contentHandlers) uninstall(w http.ResponseWriter, r *http.Request) error {
	a, err := h.s.installation(r)
	if err != nil {
		return err
	}
	if err := a.requireOrgAdmin(); err != nil {
		return err
	}
	deleted, err := h.s.db.UninstallFromContent(r.Context(), h.kind, a.inst.ID, r.PathValue(h.path))
	if err != nil {
		return err
	}
	return resetOrNoContent(w, deleted)
}

// listAll answers GET /integrations/{name}/spaces and /sites: every space
// or site installation of the integration, for its publisher's admins.
func (h contentHandlers) listAll(w http.ResponseWriter, r *http.Request) error {
	in, owner, err := h.s.integration(r)
	if err != nil {
		return err
	}
	if !owner.Admin() {
		return errorf(quire.CodeForbidden, "only admins of the integration's organization may list its installations")
	}
	ext := query(r).Get("externalId")
	if err := quire.CheckLen("externalId", ext, 0, quire.MaxInstallationExternalIDBytes); err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.IntegrationContentInstallation], error) {
		return h.s.db.ListContentInstallations(ctx, h.kind, store.ContentInstallationFilter{Integration: in.Name, ExternalID: ext}, p)
	}, h.json)
}
