package wire

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/store"
)

// CustomHostname is a CustomHostname of the reference, with what the
// operator needs to do besides (dns).
type CustomHostname struct {
	Object   string            `json:"object"`
	Hostname string            `json:"hostname"`
	Target   map[string]string `json:"target"`
	IsActive bool              `json:"isActive"`
	Status   string            `json:"status"`
	URLs     map[string]string `json:"urls"`
	DNS      HostnameDNS       `json:"dns"`
}

// CustomHostname shows hostname of site: the TXT record that proves it
// (whose value is token), its latest check, verified since verifiedAt (zero:
// not verified), and the CNAME to target that brings its visitors here. It is
// active once verified on a published site.
func (l Links) CustomHostname(site *quire.Site, hostname, token string, check *store.HostnameCheck, verifiedAt time.Time, target string) CustomHostname {
	dns := HostnameDNS{Type: "TXT", Name: dnscheck.RecordName(hostname), Value: dnscheck.RecordValue(token),
		Verified: !verifiedAt.IsZero(), Message: check.Detail, CheckedAt: Time(check.CheckedAt),
		CNAME: HostnameCNAME{Name: hostname, Value: target}}
	if dns.Verified {
		dns.VerifiedAt = Time(verifiedAt)
	}
	return CustomHostname{
		Object: "custom-hostname", Hostname: hostname, Target: map[string]string{"type": "site", "site": site.ID},
		IsActive: site.Published && dns.Verified, Status: check.Status, URLs: map[string]string{"location": l.API("/custom-hostnames/" + hostname)},
		DNS: dns,
	}
}

// HostnameDNS is the record that proves the hostname (type, name,
// value), whether the sites serve it (verified, since verifiedAt), the last
// check, and the CNAME that brings its visitors here.
type HostnameDNS struct {
	Type       string        `json:"type"`
	Name       string        `json:"name"`
	Value      string        `json:"value"`
	Verified   bool          `json:"verified"`
	VerifiedAt string        `json:"verifiedAt,omitempty"`
	Message    string        `json:"message"`
	CheckedAt  string        `json:"checkedAt"`
	CNAME      HostnameCNAME `json:"cname"`
}

// HostnameCNAME is how the API shows the CNAME record a custom hostname
// points by.
type HostnameCNAME struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Font is how the API shows a custom font of an organization.
type Font struct {
	ID          string            `json:"id"`
	Custom      bool              `json:"custom"`
	FontFamily  string            `json:"fontFamily"`
	FontFaces   []FontFace        `json:"fontFaces"`
	Permissions map[string]bool   `json:"permissions"`
	URLs        map[string]string `json:"urls,omitempty"`
}

// FontFace is how the API shows a weight of a custom font and its files.
type FontFace struct {
	Weight  int          `json:"weight"`
	Sources []FontSource `json:"sources"`
}

// FontSource is how the API shows a file of a font face.
type FontSource struct {
	URL    string `json:"url"`
	Format string `json:"format"`
}

// Font shows a custom font of an organization as the API answers it.
func (l Links) Font(f *store.Font, me *quire.Member) Font {
	out := Font{ID: f.ID, Custom: true, FontFamily: f.Family, FontFaces: []FontFace{},
		Permissions: map[string]bool{"edit": me.Role == quire.RoleAdmin}}
	for _, face := range f.Faces {
		// The blob in the URL makes a changed face a new URL, so files
		// are cached for good.
		u := l.API(fmt.Sprintf("/orgs/%s/fonts/%s/files/%d?v=%.16s", f.OrgID, f.ID, face.Weight, face.Blob))
		out.FontFaces = append(out.FontFaces, FontFace{Weight: face.Weight, Sources: []FontSource{{URL: u, Format: face.Format}}})
	}
	return out
}

// SiteExternalLink is how the API shows a site's external link.
type SiteExternalLink struct {
	Object       string `json:"object"`
	ID           string `json:"id"`
	Title        string `json:"title"`
	Description  string `json:"description,omitempty"`
	Icon         string `json:"icon,omitempty"`
	URL          string `json:"url"`
	SectionGroup string `json:"sectionGroup,omitempty"`
	Draft        bool   `json:"draft"`
	Condition    string `json:"condition,omitempty"`
}

// SiteExternalLinkOf shows a site's external link as the API answers it.
func SiteExternalLinkOf(l *quire.SiteExternalLink) SiteExternalLink {
	return SiteExternalLink{Object: "site-external-link", ID: l.ID, Title: l.Title, Description: l.Description, Icon: l.Icon,
		URL: l.URL, SectionGroup: l.GroupID, Draft: l.Draft, Condition: l.Condition}
}

// SiteMCPServer is how the API shows an MCP server a site offers to AI
// tools.
type SiteMCPServer struct {
	Object    string            `json:"object"`
	ID        string            `json:"id"`
	Name      string            `json:"name"`
	URL       string            `json:"url"`
	Transport string            `json:"transport"`
	Headers   map[string]string `json:"headers"`
	Condition string            `json:"condition,omitempty"`
	URLs      struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// SiteMCPServer shows an MCP server a site offers to AI tools as the API
// answers it.
func (l Links) SiteMCPServer(site *quire.Site, m *quire.SiteMCPServer) SiteMCPServer {
	j := SiteMCPServer{Object: "site-mcp-server", ID: m.ID, Name: m.Name, URL: m.URL, Transport: m.Transport,
		Headers: m.Headers, Condition: m.Condition}
	if j.Headers == nil {
		j.Headers = map[string]string{}
	}
	j.URLs.Location = l.API("/orgs/" + site.OrgID + "/sites/" + site.ID + "/mcp-servers/" + m.ID)
	return j
}

// SiteAccess is the reference's UserSitePermission.
type SiteAccess struct {
	Permission quire.Role `json:"permission"`
	User       User       `json:"user"`
	Origin     SiteOrigin `json:"origin"`
	Disabled   bool       `json:"disabled"`
}

// SiteOrigin is where a member's role on a site comes from: the
// organization, or a grant on the site (to them, or to one of their teams).
type SiteOrigin struct {
	Type         string `json:"type"`
	Organization string `json:"organization,omitempty"`
	Site         string `json:"site,omitempty"`
	Reason       string `json:"reason,omitempty"`
}

// SiteAccess shows a's role on site siteID of organization orgID, and where
// it comes from: a grant on the site (to them: "member", or to a team of
// theirs: "team") or else the organization.
func (l Links) SiteAccess(orgID, siteID string, a *store.Access) SiteAccess {
	origin := SiteOrigin{Type: "organization", Organization: orgID}
	if a.Granted {
		origin = SiteOrigin{Type: "site", Site: siteID, Reason: "team"}
		if a.Direct {
			origin.Reason = "member"
		}
	}
	return SiteAccess{Permission: a.Role, User: l.User(&a.User), Origin: origin, Disabled: a.Disabled}
}

// SitePublishingAuth is the reference's SitePublishingAuth.
type SitePublishingAuth struct {
	Object      string `json:"object"`
	Backend     string `json:"backend"`
	PrivateKey  string `json:"privateKey"`
	FallbackURL string `json:"fallbackURL,omitempty"`
	LogoutURL   string `json:"logoutURL,omitempty"`
	Issuer      string `json:"issuer,omitempty"` // Quire's extension
}

// BackendCustom is the one visitor-auth backend Quire has: the site's own,
// which signs tokens with the site's key.
const BackendCustom = "custom"

// SitePublishingAuthOf shows a site's visitor authentication settings as
// the API answers it.
func SitePublishingAuthOf(a quire.SitePublishingAuth) SitePublishingAuth {
	return SitePublishingAuth{Object: "publishing-auth", Backend: BackendCustom, PrivateKey: a.Key,
		FallbackURL: a.FallbackURL, LogoutURL: a.LogoutURL, Issuer: a.Issuer}
}

// BulkRedirectResult is how the API shows the outcome of one redirect of a
// bulk redirect request.
type BulkRedirectResult struct {
	Status string `json:"status"`
	Source string `json:"source"`
	Draft  bool   `json:"draft"`
	ID     string `json:"id,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Site is how the API shows a site, with what the caller may do with it.
type Site struct {
	Object          string          `json:"object"`
	ID              string          `json:"id"`
	Type            string          `json:"type"`
	AppliedType     string          `json:"appliedType"`
	Title           string          `json:"title"`
	Hostname        string          `json:"hostname,omitempty"`
	Basename        string          `json:"basename,omitempty"`
	Proxy           *SiteProxy      `json:"proxy,omitempty"`
	Visibility      string          `json:"visibility"`
	DefaultLevel    string          `json:"defaultLevel"`
	Permissions     SitePermissions `json:"permissions"`
	Published       bool            `json:"published"`
	SiteSpaces      int             `json:"siteSpaces"`
	CreatedAt       string          `json:"createdAt"`
	AdaptiveContent Enabled         `json:"adaptiveContent"`
	Features        []SiteFeature   `json:"features"`
	URLs            SiteURLs        `json:"urls"`
}

// SiteProxy is how the API shows where a site is proxied from.
type SiteProxy struct {
	Origin string `json:"origin"`
	Target string `json:"target"`
}

// Enabled is how the API shows a feature switched on or off.
type Enabled struct {
	Enabled bool `json:"enabled"`
}

// SitePermissions is how the API shows what the caller may do with a site.
type SitePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Edit               bool `json:"edit"`
	Create             bool `json:"create"`
	Admin              bool `json:"admin"`
	InstallIntegration bool `json:"installIntegration"`
	ViewAdaptiveSchema bool `json:"viewAdaptiveSchema"`
	EditAdaptiveSchema bool `json:"editAdaptiveSchema"`
}

// SiteFeature is how the API shows a site feature and the plan that gives
// it.
type SiteFeature struct {
	ID     string `json:"id"`
	Plan   string `json:"plan"`
	Frozen bool   `json:"frozen"`
}

// SiteURLs is how the API shows the addresses of a site.
type SiteURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Preview   string `json:"preview"`
	Published string `json:"published,omitempty"`
}

// siteFeatures are the site features Quire implements. A self-hosted
// organization pays for nothing, so every site has all of them, under its
// own type, and none is frozen.
var siteFeatures = []string{
	"sites-sections", "sites-redirects", "sites-adaptive-content", "sites-share-links", "sites-public-visibility",
	"sites-unlisted-visibility", "sites-visitor-authentication", "sites-custom-domain", "sites-custom-subdirectory",
}

func siteFeaturesOf(t quire.SiteType) []SiteFeature {
	out := make([]SiteFeature, len(siteFeatures))
	for i, f := range siteFeatures {
		out[i] = SiteFeature{ID: f, Plan: string(t)}
	}
	return out
}

// siteAddress is where the site is served (and would be, unpublished).
func (l Links) siteAddress(site *quire.Site) string { return site.Address(l.PublicURL) }

// SitePublicURL is where visitors reach the site: through its proxy when it
// has one, else at its address.
func (l Links) SitePublicURL(site *quire.Site) string {
	if site.Proxy != "" {
		return "https://" + site.Proxy + "/"
	}
	return l.siteAddress(site)
}

// Site renders a site for a caller whose role on it is role.
func (l Links) Site(site *quire.Site, role quire.Role) Site {
	j := Site{
		Object: "site", ID: site.ID, Type: string(site.Type), AppliedType: string(site.Type), Title: site.Title,
		Hostname: site.Hostname, Basename: site.Basename, Visibility: string(site.Visibility),
		DefaultLevel: string(quire.LevelInherit), Published: site.Published, SiteSpaces: site.SiteSpaces,
		CreatedAt: Time(site.CreatedAt), AdaptiveContent: Enabled{site.AdaptiveContent},
		Features: siteFeaturesOf(site.Type),
		Permissions: SitePermissions{
			View: role.AtLeast(quire.RoleRead), Access: role.AtLeast(quire.RoleRead), Edit: role.AtLeast(quire.RoleEdit),
			Create: role.AtLeast(quire.RoleCreate), Admin: role.AtLeast(quire.RoleCreate), InstallIntegration: role == quire.RoleAdmin,
			ViewAdaptiveSchema: role.AtLeast(quire.RoleRead), EditAdaptiveSchema: role.AtLeast(quire.RoleCreate),
		},
		URLs: SiteURLs{
			Location: l.API("/orgs/" + site.OrgID + "/sites/" + site.ID),
			App:      quire.AppSiteURL(l.PublicURL, site.OrgID, site.ID),
			Preview:  l.siteAddress(site),
		},
	}
	if site.Proxy != "" {
		j.Proxy = &SiteProxy{Origin: site.Proxy, Target: l.siteAddress(site)}
	}
	if site.Published {
		j.URLs.Published = l.SitePublicURL(site)
	}
	return j
}

// AdaptiveSchema is how the API shows a site's adaptive content schema.
type AdaptiveSchema struct {
	Object     string          `json:"object"`
	JSONSchema json.RawMessage `json:"jsonSchema"`
	UpdatedAt  string          `json:"updatedAt"`
}

// SiteShareLink is how the API shows a share link of a site.
type SiteShareLink struct {
	Object    string `json:"object"`
	ID        string `json:"id"`
	CreatedAt string `json:"createdAt"`
	Name      string `json:"name"`
	Key       string `json:"key"`
	Active    bool   `json:"active"`
	URLs      struct {
		Published string `json:"published"`
	} `json:"urls"`
}

// SiteShareLink shows a share link of a site as the API answers it.
func (l Links) SiteShareLink(site *quire.Site, sl *store.ShareLink) SiteShareLink {
	j := SiteShareLink{Object: "share-link", ID: sl.ID, CreatedAt: Time(sl.CreatedAt), Name: sl.Name, Key: sl.Key, Active: sl.Active}
	j.URLs.Published = l.SitePublicURL(site) + "?shareKey=" + url.QueryEscape(sl.Key)
	return j
}

// SiteRedirect is how the API shows a redirect of a site.
type SiteRedirect struct {
	Object          string              `json:"object"`
	ID              string              `json:"id"`
	Source          string              `json:"source"`
	Draft           bool                `json:"draft"`
	CaptureWildcard bool                `json:"captureWildcard"`
	Permanent       bool                `json:"permanent"`
	Destination     RedirectDestination `json:"destination"`
	CreatedAt       string              `json:"createdAt"`
	UpdatedAt       string              `json:"updatedAt,omitempty"`
}

// RedirectDestination is the one destination the contract lists: a
// section of the site.
type RedirectDestination struct {
	Kind          string `json:"kind"`
	SiteSectionID string `json:"siteSectionId"`
}

// SiteRedirectOf shows a redirect of a site as the API answers it.
func SiteRedirectOf(rd *quire.SiteRedirect) SiteRedirect {
	return SiteRedirect{
		Object: "site-redirect", ID: rd.ID, Source: rd.Source, CreatedAt: Time(rd.CreatedAt), UpdatedAt: OptTime(rd.UpdatedAt),
		Destination: RedirectDestination{Kind: "site-section", SiteSectionID: rd.SectionID},
	}
}
