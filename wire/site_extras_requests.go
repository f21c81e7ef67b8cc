package wire

import (
	"slices"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of a site's external links, MCP servers, share links,
// visitor authentication and structure sort.

// maxExternalLinkURL bounds an external link's URL.
const maxExternalLinkURL = 2048

// SiteExternalLinkInput is the body of the reference's
// addExternalLinkToSite and updateSiteExternalLinkById: null removes
// description, icon and condition, and parent null moves the link to the
// root.
type SiteExternalLinkInput struct {
	Title                quire.Optional[string] `json:"title"`
	LocalizedTitle       quire.Optional[any]    `json:"localizedTitle"`
	Description          quire.Optional[string] `json:"description"`
	LocalizedDescription quire.Optional[any]    `json:"localizedDescription"`
	Icon                 quire.Optional[string] `json:"icon"`
	URL                  quire.Optional[string] `json:"url"`
	Parent               quire.Optional[string] `json:"parent"`
	Draft                quire.Optional[bool]   `json:"draft"`
	Condition            quire.Optional[string] `json:"condition"`
}

// Validate checks the fields given, in this order.
func (b *SiteExternalLinkInput) Validate() error {
	for _, f := range []struct {
		field string
		o     quire.Optional[any]
	}{{"localizedTitle", b.LocalizedTitle}, {"localizedDescription", b.LocalizedDescription}} { // in order: one answer
		if f.o.Set && !f.o.Null {
			return quire.Errorf(quire.CodeInvalid, "%s: Quire has no localized titles; set title and description", f.field)
		}
	}
	return quire.FirstError(
		checkString("title", b.Title, 2, 128),
		checkRemovable(b.Description, func(v string) error { return quire.CheckLen("description", v, 0, 256) }),
		checkRemovable(b.Icon, checkIcon),
		checkString("url", b.URL, 1, maxExternalLinkURL),
		checkAbsolute("url", b.URL, maxExternalLinkURL),
		checkRemovable(b.Parent, func(v string) error { return quire.CheckLen("parent", v, 1, 256) }),
		checkBool("draft", b.Draft),
		checkRemovable(b.Condition, checkCondition),
	)
}

// CheckCreate checks what creating a link needs besides: title and url,
// and a parent group unless it is left out.
func (b *SiteExternalLinkInput) CheckCreate() error {
	switch {
	case !b.Title.Set:
		return quire.Errorf(quire.CodeInvalid, "title: is required")
	case !b.URL.Set:
		return quire.Errorf(quire.CodeInvalid, "url: is required")
	case b.Parent.Null:
		return quire.Errorf(quire.CodeInvalid, "parent: must be a section group id; leave it out for the root")
	}
	return nil
}

// NewLink is the link of site siteID a body checked for creating makes.
func (b *SiteExternalLinkInput) NewLink(siteID string) quire.SiteExternalLink {
	return quire.SiteExternalLink{SiteID: siteID, Title: b.Title.Value, Description: b.Description.Value, Icon: b.Icon.Value,
		URL: b.URL.Value, GroupID: b.Parent.Value, Draft: b.Draft.Value, Condition: b.Condition.Value}
}

// Update is the store's form of a validated b.
func (b *SiteExternalLinkInput) Update() store.SiteExternalLinkUpdate {
	return store.SiteExternalLinkUpdate{Title: setValue(b.Title), URL: setValue(b.URL), Draft: setValue(b.Draft),
		Description: removable(b.Description), Icon: removable(b.Icon), Condition: removable(b.Condition), GroupID: removable(b.Parent)}
}

// checkAbsolute checks a given URL field is absolute, of at most max bytes.
func checkAbsolute(field string, o quire.Optional[string], max int) error {
	if !o.Set || o.Null {
		return nil
	}
	return quire.CheckAbsoluteURL(field, o.Value, max)
}

// removable is a validated removable field for the store: nil when absent,
// "" when null.
func removable(o quire.Optional[string]) *string {
	if !o.Set {
		return nil
	}
	v := o.Value
	if o.Null {
		v = ""
	}
	return &v
}

// SiteMCPServerInput is the body of the reference's createSiteMcpServer and
// updateSiteMcpServerById: condition null removes it; headers replace all.
type SiteMCPServerInput struct {
	Name      quire.Optional[string]            `json:"name"`
	URL       quire.Optional[string]            `json:"url"`
	Transport quire.Optional[string]            `json:"transport"`
	Headers   quire.Optional[map[string]string] `json:"headers"`
	Condition quire.Optional[string]            `json:"condition"`
}

// Validate checks the fields given, in this order.
func (b *SiteMCPServerInput) Validate() error {
	if err := quire.FirstError(
		checkString("name", b.Name, 1, 100),
		checkString("url", b.URL, 1, quire.MaxMCPServerURL),
		checkAbsolute("url", b.URL, maxExternalLinkURL),
		checkRemovable(b.Condition, checkCondition),
	); err != nil {
		return err
	}
	if b.Transport.Set {
		if err := quire.CheckMCPTransport("transport", b.Transport.Value); err != nil {
			return err
		}
	}
	if b.Headers.Set {
		if b.Headers.Null {
			return quire.Errorf(quire.CodeInvalid, "headers: must be an object")
		}
		return quire.CheckMCPHeaders("headers", b.Headers.Value)
	}
	return nil
}

// CheckCreate checks what creating a server needs besides: name, url and
// headers.
func (b *SiteMCPServerInput) CheckCreate() error {
	return quire.FirstError(quire.CheckRequired("name", b.Name.Set), quire.CheckRequired("url", b.URL.Set),
		quire.CheckRequired("headers", b.Headers.Set))
}

// NewServer is the server of site siteID a body checked for creating makes:
// over SSE unless it says.
func (b *SiteMCPServerInput) NewServer(siteID string) quire.SiteMCPServer {
	m := quire.SiteMCPServer{SiteID: siteID, Name: b.Name.Value, URL: b.URL.Value, Transport: "sse",
		Headers: b.Headers.Value, Condition: b.Condition.Value}
	if b.Transport.Set {
		m.Transport = b.Transport.Value
	}
	return m
}

// Update is the store's form of a validated b: headers given replace all.
func (b *SiteMCPServerInput) Update() store.SiteMCPServerUpdate {
	u := store.SiteMCPServerUpdate{Name: setValue(b.Name), URL: setValue(b.URL), Transport: setValue(b.Transport),
		Condition: removable(b.Condition)}
	if b.Headers.Set {
		u.Headers = b.Headers.Value
		if u.Headers == nil {
			u.Headers = map[string]string{}
		}
	}
	return u
}

// SiteShareLinkInput is the body of the reference's createSiteShareLink
// (with Create set: name is required) and updateSiteShareLinkById (at least
// one of name and active).
type SiteShareLinkInput struct {
	Name   quire.Optional[string] `json:"name"`
	Active quire.Optional[bool]   `json:"active"`

	Create bool `json:"-"`
}

// Validate checks the fields the operation needs, then their values.
func (b *SiteShareLinkInput) Validate() error {
	if b.Create && (!b.Name.Set || b.Name.Null) {
		return quire.Errorf(quire.CodeInvalid, "name: is required")
	}
	if !b.Create && !b.Name.Set && !b.Active.Set {
		return quire.Errorf(quire.CodeInvalid, "name: give name or active")
	}
	if b.Name.Set && b.Name.Null {
		return quire.Errorf(quire.CodeInvalid, "name: must be a string")
	}
	return quire.FirstError(checkString("name", b.Name, 0, 50), checkBool("active", b.Active))
}

// Changes are the name and active a validated b sets (nil: kept).
func (b *SiteShareLinkInput) Changes() (name *string, active *bool) {
	return setValue(b.Name), setValue(b.Active)
}

// SitePublishingAuthUpdate is the body of PATCH SITE/publishing/auth, the
// reference's SitePublishingAuthUpdate: backend (only "custom"; absent
// keeps it), fallbackURL and logoutURL (null removes one), and issuer.
type SitePublishingAuthUpdate struct {
	Backend     quire.Optional[string] `json:"backend"`
	FallbackURL quire.Optional[string] `json:"fallbackURL"`
	LogoutURL   quire.Optional[string] `json:"logoutURL"`
	Issuer      quire.Optional[string] `json:"issuer"`
}

// Validate checks backend, then the fields given.
func (b *SitePublishingAuthUpdate) Validate() error {
	if b.Backend.Set {
		switch {
		case b.Backend.Null:
			return quire.Errorf(quire.CodeInvalid, "backend: must be %q", BackendCustom)
		case b.Backend.Value == "integration":
			return quire.Errorf(quire.CodeInvalid, `backend: "integration" is not supported: Quire has no visitor-auth integrations; use "custom" and sign visitors' tokens with the site's privateKey`)
		case b.Backend.Value != BackendCustom:
			return quire.Errorf(quire.CodeInvalid, "backend: must be %q", BackendCustom)
		}
	}
	return quire.FirstError(
		checkRemovable(b.FallbackURL, func(v string) error {
			return quire.CheckAbsoluteURL("fallbackURL", v, quire.MaxSitePublishingAuthURL)
		}),
		checkRemovable(b.LogoutURL, func(v string) error {
			return quire.CheckAbsoluteURL("logoutURL", v, quire.MaxSitePublishingAuthURL)
		}),
		checkRemovable(b.Issuer, func(v string) error { return quire.CheckLen("issuer", v, 1, quire.MaxIssuer) }),
	)
}

// Update is the store's form of a validated b.
func (b *SitePublishingAuthUpdate) Update() store.SitePublishingAuthUpdate {
	return store.SitePublishingAuthUpdate{FallbackURL: setValue(b.FallbackURL), LogoutURL: setValue(b.LogoutURL), Issuer: setValue(b.Issuer)}
}

// SiteStructureItemPointer is the reference's SiteStructureItemPointer.
type SiteStructureItemPointer struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// SortSiteStructure is the body of PATCH SITE/structure/sort, the
// reference's sortSiteStructure.
type SortSiteStructure struct {
	Item     *SiteStructureItemPointer `json:"item"`
	Position *struct {
		Before *SiteStructureItemPointer `json:"before"`
		After  *SiteStructureItemPointer `json:"after"`
	} `json:"position"`

	// Kinds are, per kind of item moved, the kinds of siblings it may
	// stand by (set by the caller before Validate).
	Kinds map[string][]string `json:"-"`
	pos   quire.Position
}

// Validate checks the item and the position, and makes the position.
func (b *SortSiteStructure) Validate() error {
	if b.Item == nil {
		return quire.Errorf(quire.CodeInvalid, "item: is required")
	}
	kinds, ok := b.Kinds[b.Item.Type]
	if !ok {
		return quire.Errorf(quire.CodeInvalid, "item.type: must be site-space, site-section, site-section-group or site-external-link")
	}
	if err := quire.CheckLen("item.id", b.Item.ID, 1, 256); err != nil {
		return err
	}
	if b.Position == nil {
		return quire.Errorf(quire.CodeInvalid, "position: is required ({} moves the item to the end)")
	}
	if b.Position.Before != nil && b.Position.After != nil {
		return quire.Errorf(quire.CodeInvalid, "position: give before or after, not both")
	}
	for _, p := range []struct {
		field string
		ptr   *SiteStructureItemPointer
		dst   **quire.Sibling
	}{{"position.before", b.Position.Before, &b.pos.Before}, {"position.after", b.Position.After, &b.pos.After}} {
		if p.ptr == nil {
			continue
		}
		if !slices.Contains(kinds, p.ptr.Type) || p.ptr.ID == "" {
			return quire.Errorf(quire.CodeInvalid, "%s: must be {\"type\":\"%s\",\"id\":ID}", p.field, strings.Join(kinds, `" or "`))
		}
		*p.dst = &quire.Sibling{Kind: p.ptr.Type, ID: p.ptr.ID}
	}
	return nil
}

// Pos is where a validated b moves the item.
func (b *SortSiteStructure) Pos() quire.Position { return b.pos }

// SitePointer names an item of a site in a move: {"type": kind, key: id},
// the key being id, siteSection or siteSpace as the move takes it.
type SitePointer struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	SiteSection string `json:"siteSection"`
	SiteSpace   string `json:"siteSpace"`
}

// SiteMoveSiblings are the siblings a move takes: their kinds, and the
// pointer key that holds the sibling's id.
type SiteMoveSiblings struct {
	Kinds []string
	Key   string
}

// sibling is the sibling p names, or nil when it is not one m takes.
func (m SiteMoveSiblings) sibling(p *SitePointer) *quire.Sibling {
	var id string
	switch m.Key {
	case "id":
		id = p.ID
	case "siteSection":
		id = p.SiteSection
	case "siteSpace":
		id = p.SiteSpace
	}
	if id == "" || !slices.Contains(m.Kinds, p.Type) {
		return nil
	}
	return &quire.Sibling{Kind: p.Type, ID: id}
}

// pointerShape is the pointer m takes, as the 400 for another one says it:
// {"type":"site-section" or "site-section-group","id":ID}.
func (m SiteMoveSiblings) pointerShape() string {
	return `{"type":"` + strings.Join(m.Kinds, `" or "`) + `","` + m.Key + `":ID}`
}

// MoveSiteItem is the body of the reference's moveSiteSection,
// moveSiteSectionGroup and moveSiteSpace: {"position": {"before"|"after":
// pointer}}; no body, or no position, moves the item to the end.
type MoveSiteItem struct {
	Position *struct {
		Before *SitePointer `json:"before"`
		After  *SitePointer `json:"after"`
	} `json:"position"`

	Siblings SiteMoveSiblings `json:"-"` // what the move takes (set by the caller)
	pos      quire.Position
}

// Validate checks the position and makes it.
func (b *MoveSiteItem) Validate() error {
	if b.Position == nil {
		return nil
	}
	if b.Position.Before != nil && b.Position.After != nil {
		return quire.Errorf(quire.CodeInvalid, "position: give before or after, not both")
	}
	for _, p := range []struct {
		field string
		ptr   *SitePointer
		dst   **quire.Sibling
	}{{"position.before", b.Position.Before, &b.pos.Before}, {"position.after", b.Position.After, &b.pos.After}} {
		if p.ptr == nil {
			continue
		}
		if *p.dst = b.Siblings.sibling(p.ptr); *p.dst == nil {
			return quire.Errorf(quire.CodeInvalid, "%s: must be %s", p.field, b.Siblings.pointerShape())
		}
	}
	return nil
}

// Pos is where a validated b moves the item.
func (b *MoveSiteItem) Pos() quire.Position { return b.pos }
