package wire

import (
	"bytes"
	"cmp"
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of the site operations (Contract §4.8–§4.12), named
// after the reference's operations, whose request schemas are inline
// objects. Each Validate names the field and the rule it breaks, in the
// order the fields are checked, so one body has one answer.

// NewPublishedSpace makes the space a site creates to publish, titled after
// what publishes it (authoring.PublishedSpace): the request types stay
// below the services that shape it.
type NewPublishedSpace func(title string) *store.NewSpace

// NewSpace is the form of spaces (on POST O/sites) and of spaceId: null
// (on POST SITE/sections and SITE/site-spaces) that creates a space to
// publish: an object with an optional title and emoji.
type NewSpace struct {
	Title *string `json:"title"`
	Emoji *string `json:"emoji"`
}

// check checks the fields given, named below field.
func (n *NewSpace) check(field string) error {
	if n.Title != nil {
		if err := quire.CheckLen(field+".title", *n.Title, 0, 50); err != nil { // authoring.MaxSpaceTitle
			return err
		}
	}
	if n.Emoji != nil {
		return quire.CheckLen(field+".emoji", *n.Emoji, 1, 50)
	}
	return nil
}

// space is the space a checked n creates, titled title unless it says.
func (n *NewSpace) space(published NewPublishedSpace, title string) *store.NewSpace {
	out := published(title)
	if n.Title != nil {
		out.Title = *n.Title
	}
	if n.Emoji != nil {
		out.Emoji = *n.Emoji
	}
	return out
}

// CreateSite is the body of POST /v1/orgs/{organizationId}/sites, the
// reference's createSite: spaces is either a list of space ids or a
// NewSpace object.
type CreateSite struct {
	Type       *string         `json:"type"`
	Title      *string         `json:"title"`
	Visibility *string         `json:"visibility"`
	Spaces     json.RawMessage `json:"spaces"`

	site     store.NewSite // what Validate makes of the fields
	newSpace *NewSpace     // spaces as an object
}

// Validate checks the body and makes the site to create: a basic public site
// titled "Untitled site" unless told otherwise.
func (b *CreateSite) Validate() error {
	n := store.NewSite{Type: quire.SiteBasic, Title: "Untitled site", Visibility: quire.VisibilityPublic}
	if b.Type != nil {
		t, ok := quire.ParseSiteType(*b.Type)
		if !ok {
			return quire.Errorf(quire.CodeInvalid, "type: must be basic, premium, ultimate, sponsored, legacy-basic or legacy-premium")
		}
		n.Type = t
	}
	if b.Title != nil {
		if err := CheckSiteTitle(*b.Title); err != nil {
			return err
		}
		n.Title = *b.Title
	}
	var err error
	if b.Visibility != nil {
		if n.Visibility, err = ParseSiteVisibility(*b.Visibility); err != nil {
			return err
		}
	}
	const spacesErr = "spaces: must be a list of space ids or an object creating a space"
	switch raw := bytes.TrimSpace(b.Spaces); {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '[':
		if err := quire.DecodeJSON(raw, &n.SpaceIDs); err != nil {
			return quire.Errorf(quire.CodeInvalid, spacesErr)
		}
		seen := map[string]bool{}
		for i, id := range n.SpaceIDs {
			if seen[id] {
				return quire.Errorf(quire.CodeInvalid, "spaces[%d]: space %q is listed twice", i, id)
			}
			seen[id] = true
		}
	case raw[0] == '{':
		var ns NewSpace
		if err := quire.DecodeJSON(raw, &ns); err != nil {
			return quire.Errorf(quire.CodeInvalid, spacesErr)
		}
		if err := ns.check("spaces"); err != nil {
			return err
		}
		b.newSpace = &ns
	default:
		return quire.Errorf(quire.CodeInvalid, spacesErr)
	}
	b.site = n
	return nil
}

// NewSite is the site a validated b creates, with the space it creates to
// publish made by published.
func (b *CreateSite) NewSite(published NewPublishedSpace) store.NewSite {
	n := b.site
	if b.newSpace != nil {
		n.NewSpace = b.newSpace.space(published, n.Title)
	}
	return n
}

// ParseSiteVisibility is a site's visibility as a body or query gives it.
func ParseSiteVisibility(v string) (quire.Visibility, error) {
	vis, ok := quire.ParseSiteVisibility(v)
	if !ok {
		return "", quire.Errorf(quire.CodeInvalid, "visibility: must be public, unlisted, share-link or visitor-auth")
	}
	return vis, nil
}

// CheckSiteTitle: Contract §2 Site, title 2 to 128 characters.
func CheckSiteTitle(v string) error { return quire.CheckLen("title", v, 2, 128) }

// UpdateSite is the body of PATCH /v1/sites/{siteId}, the reference's
// updateSiteById, with hostname and published besides.
type UpdateSite struct {
	Title           quire.Optional[string] `json:"title"`
	Visibility      quire.Optional[string] `json:"visibility"`
	Hostname        quire.Optional[string] `json:"hostname"`
	Basename        quire.Optional[string] `json:"basename"`
	Proxy           quire.Optional[string] `json:"proxy"`
	AdaptiveContent *struct {
		Enabled *bool `json:"enabled"`
	} `json:"adaptiveContent"`
	Published          quire.Optional[bool]   `json:"published"`
	DefaultSiteSpace   quire.Optional[string] `json:"defaultSiteSpace"`
	DefaultSiteSection quire.Optional[string] `json:"defaultSiteSection"`
}

// Validate checks the fields given, in this order; null removes hostname,
// basename and proxy.
func (b *UpdateSite) Validate() error {
	if err := checkString("title", b.Title, 2, 128); err != nil {
		return err
	}
	if b.Visibility.Set {
		if _, err := ParseSiteVisibility(b.Visibility.Value); err != nil {
			return err
		}
	}
	if err := quire.FirstError(
		checkRemovable(b.Hostname, func(v string) error { return quire.CheckHostname("hostname", v) }),
		checkRemovable(b.Basename, func(v string) error { return quire.CheckLen("basename", v, 1, 100) }),
		checkRemovable(b.Proxy, func(v string) error { return quire.CheckProxy("proxy", v) }),
	); err != nil {
		return err
	}
	if a := b.AdaptiveContent; a != nil && a.Enabled == nil {
		return quire.Errorf(quire.CodeInvalid, "adaptiveContent.enabled: is required")
	}
	return quire.FirstError(
		checkBool("published", b.Published),
		checkString("defaultSiteSpace", b.DefaultSiteSpace, 1, 256),
		checkString("defaultSiteSection", b.DefaultSiteSection, 1, 256),
	)
}

// Update is the store's form of a validated b, made by actorID.
func (b *UpdateSite) Update(actorID string) store.SiteUpdate {
	u := store.SiteUpdate{
		Actor: actorID, Title: setValue(b.Title), Hostname: setValue(b.Hostname), Basename: setValue(b.Basename), Proxy: setValue(b.Proxy),
		Published: setValue(b.Published), DefaultSiteSpace: setValue(b.DefaultSiteSpace), DefaultSiteSection: setValue(b.DefaultSiteSection),
	}
	if b.Visibility.Set {
		vis, _ := quire.ParseSiteVisibility(b.Visibility.Value)
		u.Visibility = &vis
	}
	if b.AdaptiveContent != nil {
		u.AdaptiveContent = b.AdaptiveContent.Enabled
	}
	return u
}

// UpdateSiteAdaptiveSchema is the body of PUT SITE/adaptive-schema, the
// reference's updateSiteAdaptiveSchema.
type UpdateSiteAdaptiveSchema struct {
	JSONSchema json.RawMessage `json:"jsonSchema"`
}

// Validate checks that the schema is given; authoring checks the schema.
func (b *UpdateSiteAdaptiveSchema) Validate() error {
	if len(b.JSONSchema) == 0 || string(b.JSONSchema) == "null" {
		return quire.Errorf(quire.CodeInvalid, "jsonSchema: is required")
	}
	return nil
}

// SpaceSource is the spaceId of POST SITE/sections and SITE/site-spaces:
// a space id, or null to create a new space.
type SpaceSource = quire.Optional[string]

// checkSpaceSource checks spaceId: required, and null or a space id.
func checkSpaceSource(id SpaceSource) error {
	if !id.Set {
		return quire.Errorf(quire.CodeInvalid, "spaceId: is required")
	}
	if id.Null {
		return nil
	}
	return quire.CheckLen("spaceId", id.Value, 1, 256)
}

// spaceSource is a checked spaceId: a space to publish, or (null) a new
// space titled title.
func spaceSource(id SpaceSource, published NewPublishedSpace, title string) (string, *store.NewSpace) {
	if id.Null {
		return "", published(title)
	}
	return id.Value, nil
}

// checkSitePath checks a PATCH path of a section or site space: absent
// keeps it, null is refused, a value must be a site path.
func checkSitePath(o quire.Optional[string]) error {
	if err := checkString("path", o, 1, 100); err != nil || !o.HasValue() {
		return err
	}
	return quire.CheckSitePath("path", o.Value)
}

// AddSectionToSite is the body of POST SITE/sections, the reference's
// addSectionToSite: spaceId null creates a space titled after the section.
type AddSectionToSite struct {
	SpaceID SpaceSource            `json:"spaceId"`
	Title   quire.Optional[string] `json:"title"`
	Icon    quire.Optional[string] `json:"icon"`
}

// Validate checks title, icon, then spaceId.
func (b *AddSectionToSite) Validate() error {
	return quire.FirstError(
		checkGiven(b.Title, func(title string) error { return quire.CheckLen("title", title, 2, 64) }),
		checkGiven(b.Icon, checkIcon),
		checkSpaceSource(b.SpaceID),
	)
}

// NewSection is the section a validated b creates.
func (b *AddSectionToSite) NewSection(published NewPublishedSpace) store.NewSiteSection {
	n := store.NewSiteSection{Title: b.Title.Value, Icon: b.Icon.Value}
	n.SpaceID, n.NewSpace = spaceSource(b.SpaceID, published, cmp.Or(n.Title, "Untitled"))
	return n
}

// UpdateSiteSection is the body of PATCH SITE/sections/{siteSectionId}, the
// reference's updateSiteSectionById: condition, icon and description: a
// string sets, null removes, absent keeps.
type UpdateSiteSection struct {
	Title            quire.Optional[string] `json:"title"`
	Path             quire.Optional[string] `json:"path"`
	DefaultSiteSpace quire.Optional[string] `json:"defaultSiteSpace"`
	Condition        quire.Optional[string] `json:"condition"`
	Icon             quire.Optional[string] `json:"icon"`
	Description      quire.Optional[string] `json:"description"`
}

// Validate checks the fields given, in this order.
func (b *UpdateSiteSection) Validate() error {
	return quire.FirstError(
		checkString("title", b.Title, 2, 128),
		checkSitePath(b.Path),
		checkString("defaultSiteSpace", b.DefaultSiteSpace, 1, 256),
		checkRemovable(b.Condition, checkCondition),
		checkRemovable(b.Icon, checkIcon),
		checkRemovable(b.Description, func(v string) error { return quire.CheckText("description", v, 0, 256) }),
	)
}

// Update is the store's form of a validated b.
func (b *UpdateSiteSection) Update() store.SiteSectionUpdate {
	return store.SiteSectionUpdate{
		Title: setValue(b.Title), Path: setValue(b.Path), DefaultSiteSpace: setValue(b.DefaultSiteSpace),
		Condition: setValue(b.Condition), Icon: setValue(b.Icon), Description: setValue(b.Description),
	}
}

func checkGroupTitle(v string) error { return quire.CheckLen("title", v, 1, 100) }

// AddSectionGroupToSite is the body of POST SITE/section-groups, the
// reference's addSectionGroupToSite.
type AddSectionGroupToSite struct {
	Title    *string                `json:"title"`
	Icon     quire.Optional[string] `json:"icon"`
	Sections []string               `json:"sections"`
}

// Validate checks title (required), icon, and that no section is listed
// twice.
func (b *AddSectionGroupToSite) Validate() error {
	if err := quire.CheckRequired("title", b.Title != nil); err != nil {
		return err
	}
	if err := quire.FirstError(checkGroupTitle(*b.Title), checkGiven(b.Icon, checkIcon)); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, id := range b.Sections {
		if seen[id] {
			return quire.Errorf(quire.CodeInvalid, "sections[%d]: section %q is listed twice", i, id)
		}
		seen[id] = true
	}
	return nil
}

// UpdateSiteSectionGroup is the body of PATCH SITE/section-groups/{id}, the
// reference's updateSiteSectionGroupById: null removes the icon.
type UpdateSiteSectionGroup struct {
	Title quire.Optional[string] `json:"title"`
	Icon  quire.Optional[string] `json:"icon"`
}

// Validate checks the fields given.
func (b *UpdateSiteSectionGroup) Validate() error {
	return quire.FirstError(checkString("title", b.Title, 1, 100), checkRemovable(b.Icon, checkIcon))
}

// Changes are the title and icon a validated b sets (nil: kept; icon "":
// removed).
func (b *UpdateSiteSectionGroup) Changes() (title, icon *string) {
	return setValue(b.Title), setValue(b.Icon)
}

// AddSectionToSectionGroup is the body of POST
// SITE/section-groups/{id}/sections.
type AddSectionToSectionGroup struct {
	SectionID *string `json:"sectionId"`
}

// Validate checks that sectionId is given.
func (b *AddSectionToSectionGroup) Validate() error {
	return quire.CheckRequired("sectionId", b.SectionID != nil)
}

// AddSpaceToSite is the body of POST SITE/site-spaces, the reference's
// addSpaceToSite: spaceId null creates a space titled by title.
type AddSpaceToSite struct {
	SpaceID   SpaceSource            `json:"spaceId"`
	SectionID quire.Optional[string] `json:"sectionId"`
	Title     quire.Optional[string] `json:"title"`
}

// Validate checks title, then spaceId.
func (b *AddSpaceToSite) Validate() error {
	return quire.FirstError(
		checkGiven(b.Title, func(title string) error { return quire.CheckLen("title", title, 2, 128) }),
		checkSpaceSource(b.SpaceID),
	)
}

// NewSiteSpace is the site space a validated b creates.
func (b *AddSpaceToSite) NewSiteSpace(published NewPublishedSpace) store.NewSiteSpace {
	n := store.NewSiteSpace{SectionID: b.SectionID.Value} // null is ""
	n.SpaceID, n.NewSpace = spaceSource(b.SpaceID, published, cmp.Or(b.Title.Value, "Untitled"))
	return n
}

// UpdateSiteSpace is the body of PATCH SITE/site-spaces/{siteSpaceId}, the
// reference's updateSiteSpaceById: condition null removes it.
type UpdateSiteSpace struct {
	Path      quire.Optional[string] `json:"path"`
	Condition quire.Optional[string] `json:"condition"`
}

// Validate checks path, then condition.
func (b *UpdateSiteSpace) Validate() error {
	return quire.FirstError(checkSitePath(b.Path), checkRemovable(b.Condition, checkCondition))
}

// Update is the store's form of a validated b.
func (b *UpdateSiteSpace) Update() store.SiteSpaceUpdate {
	return store.SiteSpaceUpdate{Path: setValue(b.Path), Condition: setValue(b.Condition)}
}

// SiteRedirectInput is the body of the reference's createSiteRedirect (with
// Required set: both fields) and updateSiteRedirectById.
type SiteRedirectInput struct {
	Source      *string              `json:"source"`
	Destination *RedirectDestination `json:"destination"`

	Required bool `json:"-"` // both fields must be given (create)
}

// Validate checks the fields given, and that both are when required.
func (b *SiteRedirectInput) Validate() error {
	if b.Required {
		if err := quire.FirstError(quire.CheckRequired("source", b.Source != nil), quire.CheckRequired("destination", b.Destination != nil)); err != nil {
			return err
		}
	}
	if b.Source != nil {
		if err := quire.CheckRedirectSource("source", *b.Source); err != nil {
			return err
		}
	}
	if d := b.Destination; d != nil {
		if d.Kind != "site-section" || d.SiteSectionID == "" {
			return quire.Errorf(quire.CodeInvalid, `destination: must be {"kind":"site-section","siteSectionId":ID}`)
		}
	}
	return nil
}

// Section is the destination section of a validated b, nil when absent.
func (b *SiteRedirectInput) Section() *string {
	if b.Destination == nil {
		return nil
	}
	return &b.Destination.SiteSectionID
}

// DuplicateSiteSpace is the body of POST …/site-spaces/{id}/duplicate, the
// reference's duplicateSiteSpace.
type DuplicateSiteSpace struct {
	Draft *bool `json:"draft"`
}

// Validate refuses draft true: Quire sites have no drafts.
func (b *DuplicateSiteSpace) Validate() error {
	if b.Draft != nil && *b.Draft {
		return quire.Errorf(quire.CodeInvalid, "draft: Quire sites have no drafts; omit it or give false")
	}
	return nil
}

// BulkRedirect is one operation of PUT SITE/redirects: a destination
// creates or updates the redirect from source, null deletes it.
type BulkRedirect struct {
	Source          *string                             `json:"source"`
	Intent          string                              `json:"intent"`
	CaptureWildcard bool                                `json:"captureWildcard"`
	Permanent       bool                                `json:"permanent"`
	Destination     quire.Optional[RedirectDestination] `json:"destination"`
}

// BulkUpsertSiteRedirects is the body of PUT SITE/redirects, the
// reference's bulkUpsertSiteRedirects. Each operation is judged on its own
// when it runs (authoring.RedirectOps), so the body has no checks of its
// own.
type BulkUpsertSiteRedirects struct {
	Redirects []BulkRedirect `json:"redirects"`
}
