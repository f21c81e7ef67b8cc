package wire

import "github.com/quiredocs/quire"

// ResolvePublishedContentByURL is the body of POST /v1/urls/published, the
// reference's resolvePublishedContentByUrl.
type ResolvePublishedContentByURL struct {
	URL             *string        `json:"url"`
	RedirectOnError bool           `json:"redirectOnError"`
	Visitor         map[string]any `json:"visitor"` // the reference's SiteVisitorPayload
}

// Validate checks the URL, which is required.
func (b *ResolvePublishedContentByURL) Validate() error {
	if b.URL == nil {
		return quire.Errorf(quire.CodeInvalid, "url: required")
	}
	return nil
}

// PublishedSiteContent is a PublishedSiteContent of the reference: where a
// URL of a published site leads.
type PublishedSiteContent struct {
	Site        string `json:"site"`
	SiteSection string `json:"siteSection,omitempty"`
	SiteSpace   string `json:"siteSpace"`
	Space       string `json:"space"`
	// ChangeRequest and Revision are set only for a preview (~/changes/…,
	// ~/revisions/…): a plain published URL shows the space's current
	// revision, which the renderer reads from the space.
	ChangeRequest string `json:"changeRequest,omitempty"`
	Revision      string `json:"revision,omitempty"`
	Pathname      string `json:"pathname"`
	BasePath      string `json:"basePath"`
	SiteBasePath  string `json:"siteBasePath"`
	// APIToken is a site token (published.SiteToken) for the site, its
	// spaces the visitor sees and the visitor's claims: the bearer the
	// renderer reads the site's content with.
	APIToken     string `json:"apiToken"`
	Organization string `json:"organization"`
	// Complete is false while further segments could name another section
	// or site space (published.Location.Complete).
	Complete     bool   `json:"complete"`
	CanonicalURL string `json:"canonicalUrl"`
	Preview      bool   `json:"preview,omitempty"`
}

// Embed is how the API shows a URL embedded in a page (the reference's
// Embed): a link card, or rich HTML to show as well.
type Embed struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Site  string `json:"site"`
	Icon  string `json:"icon,omitempty"`
	HTML  string `json:"html,omitempty"`
}
