package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// IntegrationOwner is the organization that publishes an integration and a
// viewer's membership of it (nil when they are not in it).
type IntegrationOwner struct {
	Org    *quire.Organization
	Member *quire.Member
}

// Admin reports whether the viewer administers the integration's
// organization: its publisher's admins act as the integration.
func (o IntegrationOwner) Admin() bool { return quire.PermissionsOf(o.Member).Admin }

// OwnedIntegration is an integration with its owner, as a viewer sees it.
type OwnedIntegration struct {
	Integration *quire.Integration
	Owner       IntegrationOwner
}

// IntegrationViewer loads integrations as one user sees them, with their
// owners, loading each owner once: it is made for one request and not
// shared.
type IntegrationViewer struct {
	db     *store.DB
	userID string
	owners map[string]IntegrationOwner
}

// IntegrationViewer returns a viewer of integrations for user userID.
func (a *Author) IntegrationViewer(userID string) *IntegrationViewer {
	return &IntegrationViewer{db: a.DB, userID: userID, owners: map[string]IntegrationOwner{}}
}

// Owner is organization orgID with the viewer's membership of it.
func (v *IntegrationViewer) Owner(ctx context.Context, orgID string) (IntegrationOwner, error) {
	if got, ok := v.owners[orgID]; ok {
		return got, nil
	}
	org, err := v.db.Organization(ctx, orgID)
	if err != nil {
		return IntegrationOwner{}, err
	}
	me, err := v.db.Member(ctx, orgID, v.userID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		me, err = nil, nil
	}
	if err != nil {
		return IntegrationOwner{}, err
	}
	v.owners[orgID] = IntegrationOwner{Org: org, Member: me}
	return v.owners[orgID], nil
}

// Integration is integration name with its owner: CodeNotFound when there
// is none or the viewer may not see it (quire.Integration.VisibleTo).
func (v *IntegrationViewer) Integration(ctx context.Context, name string) (*quire.Integration, IntegrationOwner, error) {
	in, err := v.db.Integration(ctx, name)
	if err != nil {
		return nil, IntegrationOwner{}, err
	}
	owner, err := v.Owner(ctx, in.OrgID)
	if err != nil {
		return nil, IntegrationOwner{}, err
	}
	if !in.VisibleTo(owner.Member != nil) {
		return nil, IntegrationOwner{}, quire.Errorf(quire.CodeNotFound, "integration not found")
	}
	return in, owner, nil
}

// Installed are the integrations named, by name, with their owners: those
// of a list of installations, which the viewer sees whatever their
// visibility, since they are installed where the viewer reads.
func (v *IntegrationViewer) Installed(ctx context.Context, names []string) (map[string]OwnedIntegration, error) {
	out := map[string]OwnedIntegration{}
	for _, name := range names {
		if _, ok := out[name]; ok {
			continue
		}
		in, err := v.db.Integration(ctx, name)
		if err != nil {
			return nil, err
		}
		owner, err := v.Owner(ctx, in.OrgID)
		if err != nil {
			return nil, err
		}
		out[in.Name] = OwnedIntegration{Integration: in, Owner: owner}
	}
	return out, nil
}

// SpaceIntegrations are the integrations installed on space sp's
// organization that reach sp (on every space, or set up on it), in the
// order of their installations, those search finds (quire.Integration.Matches).
func (v *IntegrationViewer) SpaceIntegrations(ctx context.Context, sp *quire.Space, search string) ([]OwnedIntegration, error) {
	insts, err := v.db.SpaceInstallations(ctx, sp.OrgID, sp.ID)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(insts))
	for i, inst := range insts {
		names[i] = inst.Integration
	}
	ints, err := v.Installed(ctx, names)
	if err != nil {
		return nil, err
	}
	out := []OwnedIntegration{}
	for _, name := range names {
		if in := ints[name]; in.Integration.Matches(search) {
			out = append(out, in)
		}
	}
	return out, nil
}
