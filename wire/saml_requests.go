package wire

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/sso"
	"github.com/quiredocs/quire/store"
)

// SAMLProviderFields are the fields of the bodies of POST and PATCH
// O/saml…: every field may be left out (but label on create); text fields
// may be "" to unset them. They are sso.ProviderChange's, so the API's
// bodies are checked as the app's forms are.
type SAMLProviderFields struct {
	Label       quire.Optional[string] `json:"label"`
	EntityID    quire.Optional[string] `json:"entityID"`
	Certificate quire.Optional[string] `json:"certificate"`
	SSOURL      quire.Optional[string] `json:"ssoURL"`
	DefaultTeam quire.Optional[string] `json:"defaultTeam"`
	DefaultRole quire.Optional[string] `json:"defaultRole"`
}

// UpdateOrganizationSAMLProvider is the body of PATCH
// O/saml/{samlProviderId}, the reference's updateOrganizationSAMLProvider.
type UpdateOrganizationSAMLProvider struct {
	SAMLProviderFields

	update store.SAMLProviderUpdate // set by Validate
}

// Validate checks the fields given (sso.ProviderChange.Update).
func (b *UpdateOrganizationSAMLProvider) Validate() (err error) {
	b.update, err = sso.ProviderChange(b.SAMLProviderFields).Update()
	return err
}

// Update is the store's form of a validated b.
func (b *UpdateOrganizationSAMLProvider) Update() store.SAMLProviderUpdate { return b.update }

// CreateOrganizationSAMLProvider is the body of POST O/saml, the
// reference's createOrganizationSAMLProvider: as an update, with a label.
type CreateOrganizationSAMLProvider struct {
	UpdateOrganizationSAMLProvider
}

// Validate checks the label, which is required, then the fields given.
func (b *CreateOrganizationSAMLProvider) Validate() error {
	if err := quire.CheckRequired("label", b.Label.Set); err != nil {
		return err
	}
	return b.UpdateOrganizationSAMLProvider.Validate()
}

// Provider is the provider a validated b creates.
func (b *CreateOrganizationSAMLProvider) Provider() quire.SAMLProvider { return b.update.Provider() }
