package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Installing integrations: the rules of what an installation may become,
// once the caller's rights on it are known (the API finds them: admins of
// the organization it is installed on, admins of the integration's
// publisher, or the installation itself through one of its tokens).

// InstallIntegration installs integration in on organization orgID for
// user, an admin there (the caller's to check). A private integration
// installs only on the organization that publishes it.
func (a *Author) InstallIntegration(ctx context.Context, in *quire.Integration, orgID, userID string) (*quire.IntegrationInstallation, error) {
	if in.Visibility == "private" && in.OrgID != orgID {
		return nil, quire.Errorf(quire.CodeForbidden, "a private integration installs only on the organization that publishes it")
	}
	return a.DB.InstallIntegration(ctx, in.Name, orgID, userID)
}

// InstallationEditor is who changes an installation: whether they
// administer the organization it is installed on, and whether they act
// through one of the installation's own tokens.
type InstallationEditor struct {
	OrgAdmin, ViaToken bool
}

// UpdateInstallation changes installation inst of integration name as u
// says. Which spaces and sites it reaches (the selections) only admins of
// the organization it is installed on change, and never through an
// installation token: an installation does not widen what it reaches.
func (a *Author) UpdateInstallation(ctx context.Context, name string, inst *quire.IntegrationInstallation, by InstallationEditor, u store.InstallationUpdate) (*quire.IntegrationInstallation, error) {
	if u.SpaceSelection != nil || u.SiteSelection != nil {
		if by.ViaToken {
			return nil, quire.Errorf(quire.CodeForbidden, "an installation token may not change space_selection or site_selection")
		}
		if err := CheckInstallingAdmin(by.OrgAdmin); err != nil {
			return nil, err
		}
	}
	return a.DB.UpdateIntegrationInstallation(ctx, name, inst.ID, u)
}

// CheckInstallingAdmin refuses (CodeForbidden) callers who do not
// administer the organization an integration is installed on: they alone
// uninstall it, set it up on content and choose what it reaches.
func CheckInstallingAdmin(orgAdmin bool) error {
	if !orgAdmin {
		return quire.Errorf(quire.CodeForbidden, "only admins of the organization the integration is installed on may do this")
	}
	return nil
}

// InstallOnContent sets installation inst up on the space or site id (as
// kind says). One of another organization, or a deleted space, is
// CodeNotFound, as what does not exist.
func (a *Author) InstallOnContent(ctx context.Context, kind store.ContentKind, inst *quire.IntegrationInstallation, id string) (*quire.IntegrationContentInstallation, error) {
	if kind == store.SiteInstallations {
		site, err := a.DB.Site(ctx, id)
		if err == nil && site.OrgID != inst.OrgID {
			err = quire.Errorf(quire.CodeNotFound, "site not found")
		}
		if err != nil {
			return nil, err
		}
	} else {
		sp, err := a.DB.Space(ctx, id)
		if err == nil && (sp.OrgID != inst.OrgID || !sp.DeletedAt.IsZero()) {
			err = quire.Errorf(quire.CodeNotFound, "space not found")
		}
		if err != nil {
			return nil, err
		}
	}
	return a.DB.InstallOnContent(ctx, kind, inst, id)
}

// InstallationToken mints a token of installation inst that works for an
// hour. Only an active installation whose installing account still exists
// has tokens: they act with that account's rights.
func (a *Author) InstallationToken(ctx context.Context, inst *quire.IntegrationInstallation) (string, error) {
	if inst.Status != "active" {
		return "", quire.Errorf(quire.CodeInvalid, "the installation is %s, not active", inst.Status)
	}
	if inst.InstalledBy == "" {
		return "", quire.Errorf(quire.CodeInvalid, "the account that installed the integration is gone: reinstall it")
	}
	return a.DB.CreateInstallationToken(ctx, inst.ID)
}

// CheckReach says whether installation inst reaches the space or site id
// (as kind says): one of its organization that it is set up on, or that its
// selection takes in (store.DB.ContentInstalled). Anything else is
// CodeNotFound, as for what does not exist.
func (a *Author) CheckReach(ctx context.Context, inst *quire.IntegrationInstallation, kind store.ContentKind, id string) error {
	what := "site"
	if kind == store.SpaceInstallations {
		what = "space"
		sp, err := a.DB.Space(ctx, id)
		if quire.ErrorCode(err) == quire.CodeNotFound || err == nil && sp.OrgID != inst.OrgID {
			return quire.Errorf(quire.CodeNotFound, "space not found")
		}
		if err != nil {
			return err
		}
	}
	ok, err := a.DB.ContentInstalled(ctx, kind, inst, id)
	if err == nil && !ok {
		err = quire.Errorf(quire.CodeNotFound, "%s not found", what)
	}
	return err
}

// InstallationGrant is what an installation token was granted: the user
// it acts as (the installer), its installation and its integration's
// scopes.
type InstallationGrant struct {
	User         *quire.User
	Installation *quire.IntegrationInstallation
	Scopes       []string
}

// TokenGrant authenticates token as an installation token.
func (a *Author) TokenGrant(ctx context.Context, token string) (*InstallationGrant, error) {
	inst, u, err := a.DB.InstallationByToken(ctx, token)
	if err != nil {
		return nil, err
	}
	in, err := a.DB.Integration(ctx, inst.Integration)
	if err != nil {
		return nil, err
	}
	return &InstallationGrant{User: u, Installation: inst, Scopes: in.Scopes}, nil
}
