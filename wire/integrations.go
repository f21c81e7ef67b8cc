package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// IntegrationEvent is how the API shows an event sent to an integration.
type IntegrationEvent struct {
	ID             string          `json:"id"`
	IntegrationID  string          `json:"integrationId"`
	InstallationID string          `json:"installationId"`
	CreatedAt      string          `json:"createdAt"`
	Payload        json.RawMessage `json:"payload"`
	Status         string          `json:"status"`
}

// IntegrationEventOf shows an event sent to an integration as the API
// answers it.
func IntegrationEventOf(ev *quire.IntegrationEvent) IntegrationEvent {
	return IntegrationEvent{ID: ev.ID, IntegrationID: ev.Integration, InstallationID: ev.InstallationID,
		CreatedAt: Time(ev.CreatedAt), Payload: ev.Payload, Status: "success"}
}

// ContentInstallation is how the API shows an integration's installation on
// a space or a site.
type ContentInstallation struct {
	Integration   string                  `json:"integration"`
	Installation  string                  `json:"installation"`
	Space         string                  `json:"space,omitempty"`
	Site          string                  `json:"site,omitempty"`
	Status        string                  `json:"status"`
	Configuration json.RawMessage         `json:"configuration"`
	ExternalIDs   []string                `json:"externalIds"`
	URLs          ContentInstallationURLs `json:"urls"`
}

// ContentInstallationURLs is how the API shows the addresses of a content
// installation.
type ContentInstallationURLs struct {
	Location              string `json:"location"`
	PublicEndpoint        string `json:"publicEndpoint"`
	PublicContentEndpoint string `json:"publicContentEndpoint"`
}

// ContentInstallation shows an integration's installation on a space or a
// site as the API answers it.
func (l Links) ContentInstallation(k store.ContentKind, c *quire.IntegrationContentInstallation) ContentInstallation {
	segment := "spaces"
	j := ContentInstallation{Integration: c.Integration, Installation: c.InstallationID, Status: c.Status,
		Configuration: c.Configuration, ExternalIDs: c.ExternalIDs}
	if k == store.SiteInstallations {
		segment, j.Site = "sites", c.TargetID
	} else {
		j.Space = c.TargetID
	}
	loc := l.API("/integrations/" + c.Integration + "/installations/" + c.InstallationID + "/" + segment + "/" + c.TargetID)
	j.URLs = ContentInstallationURLs{Location: loc, PublicEndpoint: loc + "/public", PublicContentEndpoint: loc + "/public"}
	if j.ExternalIDs == nil {
		j.ExternalIDs = []string{}
	}
	return j
}

// OrgInstallation is how the API shows an installation on an organization,
// with its integration.
type OrgInstallation struct {
	Installation Installation `json:"installation"`
	Integration  Integration  `json:"integration"`
}

// InstalledIntegration is how the API shows an integration as an
// organization's installation lists it.
type InstalledIntegration struct {
	Status      string         `json:"status"`
	Integration Integration    `json:"integration"`
	Target      map[string]any `json:"target"`
}

// Integration is how the API shows an integration.
type Integration struct {
	Object                string                 `json:"object"`
	Name                  string                 `json:"name"`
	Version               int                    `json:"version"`
	Title                 string                 `json:"title"`
	Description           string                 `json:"description"`
	Summary               string                 `json:"summary"`
	PreviewImages         []string               `json:"previewImages"`
	Target                string                 `json:"target"`
	Verified              bool                   `json:"verified"`
	Visibility            string                 `json:"visibility"`
	Scopes                []string               `json:"scopes"`
	Categories            []string               `json:"categories"`
	Blocks                json.RawMessage        `json:"blocks"`
	ContentSources        json.RawMessage        `json:"contentSources"`
	Configurations        json.RawMessage        `json:"configurations"`
	ExternalLinks         json.RawMessage        `json:"externalLinks"`
	Owner                 Organization           `json:"owner"`
	URLs                  IntegrationURLs        `json:"urls"`
	Permissions           IntegrationPermissions `json:"permissions"`
	ContentSecurityPolicy json.RawMessage        `json:"contentSecurityPolicy,omitempty"`
}

// IntegrationURLs is how the API shows the addresses of an integration: in
// the API and the app, its assets and public endpoints.
type IntegrationURLs struct {
	Location              string `json:"location"`
	Icon                  string `json:"icon,omitempty"`
	App                   string `json:"app"`
	Assets                string `json:"assets"`
	PublicEndpoint        string `json:"publicEndpoint"`
	PublicContentEndpoint string `json:"publicContentEndpoint"`
}

// IntegrationPermissions is how the API shows what the caller may do with
// an integration.
type IntegrationPermissions struct {
	Admin   bool `json:"admin"`
	Install bool `json:"install"`
}

// Installation is how the API shows an integration's installation on an
// organization.
type Installation struct {
	Object         string             `json:"object"`
	ID             string             `json:"id"`
	Status         string             `json:"status"`
	SpaceSelection string             `json:"space_selection"`
	SiteSelection  string             `json:"site_selection"`
	Spaces         int                `json:"spaces"`
	Configuration  json.RawMessage    `json:"configuration"`
	ExternalIDs    []string           `json:"externalIds"`
	Target         InstallationTarget `json:"target"`
	CreatedAt      string             `json:"createdAt"`
	UpdatedAt      string             `json:"updatedAt"`
	URLs           InstallationURLs   `json:"urls"`
}

// InstallationURLs is how the API shows the addresses of an installation.
type InstallationURLs struct {
	Location              string `json:"location"`
	App                   string `json:"app"`
	PublicEndpoint        string `json:"publicEndpoint"`
	PublicContentEndpoint string `json:"publicContentEndpoint"`
}

// Installation shows an integration's installation on an organization as
// the API answers it.
func (l Links) Installation(in *quire.IntegrationInstallation) Installation {
	loc := l.API("/integrations/" + in.Integration + "/installations/" + in.ID)
	return Installation{
		Object: "integration-installation", ID: in.ID, Status: in.Status, SpaceSelection: in.SpaceSelection,
		SiteSelection: in.SiteSelection, Spaces: in.Spaces, Configuration: in.Configuration, ExternalIDs: in.ExternalIDs,
		Target: InstallationTarget{Organization: in.OrgID}, CreatedAt: Time(in.CreatedAt), UpdatedAt: Time(in.UpdatedAt),
		URLs: InstallationURLs{
			Location: loc, App: quire.AppInstallationURL(l.PublicURL, in.OrgID, in.Integration),
			PublicEndpoint: loc + "/public", PublicContentEndpoint: loc + "/public",
		},
	}
}

// InstallationTarget is where an integration is installed.
type InstallationTarget struct {
	Organization string `json:"organization"`
}

// Integration renders integration in, published by org, for a caller whose
// membership there is me (nil if none). Its images are served under
// urls.assets.
func (l Links) Integration(in *quire.Integration, org *quire.Organization, me *quire.Member) Integration {
	base := l.API("/integrations/" + in.Name)
	j := Integration{
		Object: "integration", Name: in.Name, Version: in.Version, Title: in.Title, Description: in.Description,
		Summary: in.Summary, PreviewImages: make([]string, len(in.PreviewImages)), Target: in.Target,
		Visibility: in.Visibility, Scopes: in.Scopes, Categories: in.Categories, Blocks: in.Blocks,
		ContentSources: in.ContentSources, Configurations: in.Configurations, ExternalLinks: in.ExternalLinks,
		Owner: l.Organization(org, me),
		URLs: IntegrationURLs{
			Location: base, App: quire.AppIntegrationURL(l.PublicURL, in.Name), Assets: base + "/assets",
			PublicEndpoint: base + "/public", PublicContentEndpoint: base + "/public",
		},
		// install: the publisher's admins can install it on their organization
		// (whether others can depends on which organization they administer).
		Permissions:           IntegrationPermissions{Admin: quire.PermissionsOf(me).Admin, Install: quire.PermissionsOf(me).Admin},
		ContentSecurityPolicy: in.ContentSecurityPolicy,
	}
	if me == nil {
		// Who may join an organization is for its members to know.
		j.Owner.EmailDomains = []string{}
	}
	if j.Configurations == nil {
		j.Configurations = json.RawMessage(`{}`)
	}
	if in.Icon != nil {
		j.URLs.Icon = j.URLs.Assets + "/" + in.Icon.Blob
	}
	for i, a := range in.PreviewImages {
		j.PreviewImages[i] = j.URLs.Assets + "/" + a.Blob
	}
	return j
}
