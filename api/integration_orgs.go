package api

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// An organization's view of integrations (issue 19): what it may install,
// what it installed and where, and the integrations reaching a space.

// listOrgIntegrations answers GET /orgs/{org}/integrations, for members:
// public integrations and those the organization publishes, with the
// filters of GET /integrations.
func (s *Server) listOrgIntegrations(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	if err := requireMember(me); err != nil {
		return err
	}
	return s.listIntegrationsWith(w, r, store.IntegrationFilter{Org: me.OrgID})
}

// requireMember refuses guests, who see only what they were granted.
func requireMember(me *quire.Member) error {
	if me.Role == quire.RoleGuest {
		return errorf(quire.CodeNotFound, "organization not found")
	}
	return nil
}

// listOrgInstallations answers GET /orgs/{org}/installations, for admins:
// the integrations installed on the organization, by name.
func (s *Server) listOrgInstallations(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	if err := requireAdmin(me); err != nil {
		return err
	}
	search := query(r).Get("search")
	if err := quire.CheckLen("search", search, 0, 200); err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.db.ListOrgInstallations(r.Context(), me.OrgID, search, p)
	if err != nil {
		return err
	}
	ints, err := s.installedIntegrations(r, list.Items)
	if err != nil {
		return err
	}
	return writeList(w, list, func(in *quire.IntegrationInstallation) wire.OrgInstallation {
		return wire.OrgInstallation{Installation: s.wire.Installation(in), Integration: ints[in.Integration]}
	})
}

// installedIntegrations shapes the integrations of installations, by name.
func (s *Server) installedIntegrations(r *http.Request, list []*quire.IntegrationInstallation) (map[string]wire.Integration, error) {
	names := make([]string, len(list))
	for i, inst := range list {
		names[i] = inst.Integration
	}
	ints, err := s.owners(r).Installed(r.Context(), names)
	if err != nil {
		return nil, err
	}
	out := make(map[string]wire.Integration, len(ints))
	for name, in := range ints {
		out[name] = s.integrationJSON(in.Integration, in.Owner)
	}
	return out, nil
}

// listOrgInstallationsStatus answers GET
// /orgs/{org}/integrations/installations-status, for members: the
// installations on the organization (target organization, the default), or
// those set up on its spaces or sites (target space or site, perhaps of one).
func (s *Server) listOrgInstallationsStatus(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	if err := requireMember(me); err != nil {
		return err
	}
	q := query(r)
	target := "organization"
	if q.Has("target") {
		target = q.Get("target")
		if err := quire.CheckOneOf("target", target, []string{"organization", "space", "site"}); err != nil {
			return err
		}
	}
	for _, f := range []string{"space", "site"} {
		if q.Has(f) && target != f {
			return errorf(quire.CodeInvalid, "%s: only with target=%s", f, f)
		}
		if err := quire.CheckLen(f, q.Get(f), 0, 100); err != nil {
			return err
		}
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if target == "organization" {
		list, err := s.db.ListOrgInstallations(ctx, me.OrgID, "", p)
		if err != nil {
			return err
		}
		ints, err := s.installedIntegrations(r, list.Items)
		if err != nil {
			return err
		}
		return writeList(w, list, func(in *quire.IntegrationInstallation) wire.InstalledIntegration {
			return wire.InstalledIntegration{Status: in.Status, Integration: ints[in.Integration],
				Target: map[string]any{"type": "organization", "organizationId": in.OrgID}}
		})
	}
	kind := contentKinds[target+"s"]
	list, err := s.db.ListContentInstallations(ctx, kind, store.ContentInstallationFilter{OrgID: me.OrgID, TargetID: q.Get(target)}, p)
	if err != nil {
		return err
	}
	insts := make([]*quire.IntegrationInstallation, len(list.Items))
	for i, c := range list.Items {
		insts[i] = &quire.IntegrationInstallation{Integration: c.Integration}
	}
	ints, err := s.installedIntegrations(r, insts)
	if err != nil {
		return err
	}
	return writeList(w, list, func(c *quire.IntegrationContentInstallation) wire.InstalledIntegration {
		return wire.InstalledIntegration{Status: c.Status, Integration: ints[c.Integration],
			Target: map[string]any{"type": target, target + "Id": c.TargetID}}
	})
}

// getOrgIntegrationStatus answers GET
// /orgs/{org}/integrations/{name}/installation_status, for members; 404
// when the integration is not installed there.
func (s *Server) getOrgIntegrationStatus(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	if err := requireMember(me); err != nil {
		return err
	}
	in, _, err := s.integration(r)
	if err != nil {
		return err
	}
	inst, err := s.db.OrgIntegrationInstallation(r.Context(), me.OrgID, in.Name)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, struct {
		Status string `json:"status"`
	}{inst.Status})
}

// listSpaceIntegrations answers GET /spaces/{spaceId}/integrations, for
// readers of the space: the integrations installed on its organization
// that reach it (all spaces, or set up on this one), one page of all.
func (s *Server) listSpaceIntegrations(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return err
	}
	search := strings.ToLower(query(r).Get("search"))
	if err := quire.CheckLen("search", search, 0, 200); err != nil {
		return err
	}
	ints, err := s.owners(r).SpaceIntegrations(r.Context(), sp, search)
	if err != nil {
		return err
	}
	items := make([]wire.Integration, len(ints))
	for i, in := range ints {
		items[i] = s.integrationJSON(in.Integration, in.Owner)
	}
	return writeJSON(w, http.StatusOK, listJSON[wire.Integration]{Items: items, Count: len(items)})
}
