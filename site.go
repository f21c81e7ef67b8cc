package quire

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"
)

// SiteType is the plan a docs site is on. Contract §2 Site; values from the
// reference's SiteType.
type SiteType string

// Site types. A self-hosted Quire holds no feature back, whatever the type.
const (
	SiteBasic         SiteType = "basic"
	SitePremium       SiteType = "premium"
	SiteUltimate      SiteType = "ultimate"
	SiteSponsored     SiteType = "sponsored"
	SiteLegacyBasic   SiteType = "legacy-basic"
	SiteLegacyPremium SiteType = "legacy-premium"
)

// ParseSiteType accepts one of the six site types.
func ParseSiteType(s string) (SiteType, bool) {
	switch t := SiteType(s); t {
	case SiteBasic, SitePremium, SiteUltimate, SiteSponsored, SiteLegacyBasic, SiteLegacyPremium:
		return t, true
	}
	return "", false
}

// ParseSiteVisibility accepts the four visibilities a site may have.
// Contract §2 Site: public, unlisted, share-link, visitor-auth.
func ParseSiteVisibility(s string) (Visibility, bool) {
	switch v := Visibility(s); v {
	case VisibilityPublic, VisibilityUnlisted, VisibilityShareLink, VisibilityVisitorAuth:
		return v, true
	}
	return "", false
}

// Site is a docs site: it publishes spaces (site spaces), at its root or in
// sections, which section groups may gather.
type Site struct {
	ID              string
	OrgID           string
	Type            SiteType
	Title           string
	Hostname        string // "" when none
	Basename        string // "" when none
	Proxy           string // proxy origin, "" when none
	Visibility      Visibility
	Published       bool
	ShareKeys       []string // active share links' keys, on share-link sites (store Site, SiteHeader)
	AdaptiveContent bool
	// Customization is the site's customization as set (the reference's
	// SiteCustomizationSettings, JSON), nil until set.
	Customization json.RawMessage
	// PublishingAuth is how visitor-auth visitors are checked; its Key is a
	// secret that only the site's publishing-auth answer shows.
	PublishingAuth SitePublishingAuth
	// Version counts the changes of the site and of everything in it, so
	// that what is derived from it can tell when it is stale.
	Version    int64
	SiteSpaces int // every site space of the site, in sections or not
	Sections   int // 0 for a site whose site spaces are at its root
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// VisibleWithKey reports whether someone without rights on the site may read
// its published structure, showing shareKey (possibly ""). Contract §5.2:
// share-link sites resolve with the site's share key; visitor-auth sites need
// a visitor token, which the API does not take.
func (s *Site) VisibleWithKey(shareKey string) bool {
	if !s.Published {
		return false
	}
	switch s.Visibility {
	case VisibilityPublic, VisibilityUnlisted:
		return true
	case VisibilityShareLink:
		return shareKey != "" && slices.Contains(s.ShareKeys, shareKey)
	}
	return false
}

// SiteSection is one section of a site: a set of site spaces (variants).
type SiteSection struct {
	ID          string
	SiteID      string
	GroupID     string // "" when in no group
	Title       string
	Description string
	Path        string
	Condition   string // "" when none
	Icon        string
	Default     bool
	Position    int64 // among the top-level items, or in its group
	SiteSpaces  []*SiteSpace
}

// SiteSectionGroup gathers sections of a site under one title.
type SiteSectionGroup struct {
	ID       string
	SiteID   string
	Title    string
	Icon     string
	Position int64 // among the top-level items of the site
	Sections []*SiteSection
}

// SiteSpace is a space published in a site, at its root or in a section.
type SiteSpace struct {
	ID        string
	SiteID    string
	SectionID string // "" at the root of the site
	Path      string
	Condition string
	Default   bool // the default site space of its section (or of the root)
	Position  int64
	Space     *Space
	Section   *SiteSection // nil at the root of the site
	// Customization is the site space's overrides of its site's
	// customization (a JSON object merged onto it), nil when none; loaded
	// with the site's structure.
	Customization json.RawMessage
}

// SiteRedirect sends visitors of a path of a site to one of its sections.
type SiteRedirect struct {
	ID        string
	SiteID    string
	Source    string
	SectionID string // the destination
	CreatedAt time.Time
	UpdatedAt time.Time // zero until updated
}

// SiteStructure is what a site publishes, in order: its root site spaces,
// or its top-level sections and groups.
type SiteStructure struct {
	SiteSpaces []*SiteSpace // at the root; empty when the site has sections
	Items      []SiteItem   // top-level sections and groups, in order
	// ExternalLinks are shown beside the sections, each at its position at
	// the top level or in its group; drafts too, which sites leave out.
	ExternalLinks []*SiteExternalLink
}

// SiteItem is a top-level item of a sectioned site: a section or a group.
type SiteItem struct {
	Section *SiteSection
	Group   *SiteSectionGroup
}

// Sections lists the site's sections in structure order, groups' sections
// in place.
func (st *SiteStructure) Sections() []*SiteSection {
	var out []*SiteSection
	for _, it := range st.Items {
		if it.Section != nil {
			out = append(out, it.Section)
		} else {
			out = append(out, it.Group.Sections...)
		}
	}
	return out
}

// AllSiteSpaces lists every site space in structure order.
func (st *SiteStructure) AllSiteSpaces() []*SiteSpace {
	out := append([]*SiteSpace{}, st.SiteSpaces...)
	for _, sec := range st.Sections() {
		out = append(out, sec.SiteSpaces...)
	}
	return out
}

// hostnamePattern and proxyPattern are the contract's patterns (§2 Site).
var (
	hostnamePattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`)
	proxyPattern    = regexp.MustCompile(`^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$`)
	// redirectSourcePattern is the contract's pattern for redirect sources.
	redirectSourcePattern = regexp.MustCompile(`^/[a-zA-Z0-9-_.\/]+[a-zA-Z0-9-_.]$`)
)

// CheckHostname validates a site's custom hostname.
func CheckHostname(field, v string) error {
	if len(v) > 512 || !hostnamePattern.MatchString(v) {
		return Errorf(CodeInvalid, "%s: must be a lower-case hostname of at least three labels, such as docs.example.com (at most 512 characters)", field)
	}
	return nil
}

// CheckProxy validates a proxy origin: a host and a path prefix.
func CheckProxy(field, v string) error {
	if len(v) > 512 || !proxyPattern.MatchString(v) {
		return Errorf(CodeInvalid, "%s: must be a host and a path, such as example.com/docs (at most 512 characters)", field)
	}
	return nil
}

// CheckRedirectSource validates a redirect's source path: the contract's
// pattern, without empty segments (which the reference's pattern refuses).
func CheckRedirectSource(field, v string) error {
	if len(v) > 512 || !redirectSourcePattern.MatchString(v) || strings.Contains(v, "//") {
		return Errorf(CodeInvalid, "%s: must be a path such as /old/page: a slash, then letters, digits, -, _, . and single slashes, not ending with a slash (at most 512 characters)", field)
	}
	return nil
}

// CheckSitePath validates the path of a section or a site space: one URL
// segment of 1 to 100 characters.
func CheckSitePath(field, v string) error {
	if err := CheckLen(field, v, 1, 100); err != nil {
		return err
	}
	if strings.ContainsAny(v, "/?#\\% \t\r\n") {
		return Errorf(CodeInvalid, "%s: must not contain /, ?, #, \\, %% or spaces", field)
	}
	return nil
}

// CheckCondition validates the length of a visibility condition of a
// section, site space or page; package condition also compiles it.
func CheckCondition(field, v string) error { return CheckText(field, v, 1, 1024) }

// Address is where site is served: the root of its hostname (under its
// basename when it has one), else /sites/{id}/ on the main address
// publicURL (no trailing slash). It ends with a slash.
func (s *Site) Address(publicURL string) string {
	if s.Hostname == "" {
		return publicURL + "/sites/" + s.ID + "/"
	}
	if s.Basename != "" {
		return "https://" + s.Hostname + "/" + s.Basename + "/"
	}
	return "https://" + s.Hostname + "/"
}
