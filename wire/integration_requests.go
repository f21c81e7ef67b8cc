package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of integration installations (Contract §4.17), named
// after the reference's schemas. Each Validate names the field and the rule
// it breaks, in the order the fields are checked.

// OrganizationTarget is the body of POST
// /integrations/{integrationName}/installations, the reference's schema of
// that name.
type OrganizationTarget struct {
	Organization *string `json:"organization"`
}

// Validate checks the organization, which is required.
func (b *OrganizationTarget) Validate() error {
	if b.Organization == nil {
		return quire.Errorf(quire.CodeInvalid, "organization: required")
	}
	return quire.CheckLen("organization", *b.Organization, 1, 100)
}

// UpdateIntegrationInstallation is the body of PATCH
// …/installations/{installationId}, the reference's schema of that name.
type UpdateIntegrationInstallation struct {
	ExternalIDs    *[]string       `json:"externalIds"`
	Configuration  json.RawMessage `json:"configuration"`
	SpaceSelection *string         `json:"space_selection"`
	SiteSelection  *string         `json:"site_selection"`
}

// Validate checks the fields given, in this order.
func (b *UpdateIntegrationInstallation) Validate() error {
	if b.ExternalIDs != nil {
		if err := quire.CheckExternalIDs("externalIds", *b.ExternalIDs); err != nil {
			return err
		}
	}
	if b.Configuration != nil {
		if err := quire.CheckConfiguration("configuration", b.Configuration); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"space_selection", b.SpaceSelection}, {"site_selection", b.SiteSelection}} {
		if f.v != nil {
			if err := quire.CheckOneOf(f.name, *f.v, quire.IntegrationSelections); err != nil {
				return err
			}
		}
	}
	return nil
}

// Update is the store's form of b.
func (b *UpdateIntegrationInstallation) Update() store.InstallationUpdate {
	return store.InstallationUpdate{ExternalIDs: b.ExternalIDs, Configuration: b.Configuration, SpaceSelection: b.SpaceSelection, SiteSelection: b.SiteSelection}
}

// InstallIntegrationOnContent is the body of POST
// …/installations/{installationId}/spaces ({"space"}, the reference's
// installIntegrationOnSpace) or …/sites ({"siteId"}). Field, set before
// reading, is the one of the two the path takes.
type InstallIntegrationOnContent struct {
	Space  *string `json:"space"`
	SiteID *string `json:"siteId"`

	Field string `json:"-"`
}

// Target is the space or site b names, nil when it names none.
func (b *InstallIntegrationOnContent) Target() *string {
	if b.Field == "space" {
		return b.Space
	}
	return b.SiteID
}

// Validate checks that b gives Field, and only it.
func (b *InstallIntegrationOnContent) Validate() error {
	if (b.Field == "space" && b.SiteID != nil) || (b.Field == "siteId" && b.Space != nil) {
		return quire.Errorf(quire.CodeInvalid, "%s: the only field", b.Field)
	}
	v := b.Target()
	if v == nil {
		return quire.Errorf(quire.CodeInvalid, "%s: required", b.Field)
	}
	return quire.CheckLen(b.Field, *v, 1, 100)
}

// UpdateIntegrationSpaceInstallation is the body of PATCH
// …/spaces/{spaceId} and …/sites/{siteId} of an installation, the
// reference's schema of that name.
type UpdateIntegrationSpaceInstallation struct {
	ExternalIDs   *[]string       `json:"externalIds"`
	Configuration json.RawMessage `json:"configuration"`
}

// Validate checks the fields given, in this order.
func (b *UpdateIntegrationSpaceInstallation) Validate() error {
	if b.ExternalIDs != nil {
		if err := quire.CheckExternalIDs("externalIds", *b.ExternalIDs); err != nil {
			return err
		}
	}
	if b.Configuration != nil {
		return quire.CheckConfiguration("configuration", b.Configuration)
	}
	return nil
}

// Update is the store's form of b.
func (b *UpdateIntegrationSpaceInstallation) Update() store.ContentInstallationUpdate {
	return store.ContentInstallationUpdate{ExternalIDs: b.ExternalIDs, Configuration: b.Configuration}
}
