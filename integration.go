package quire

import (
	"encoding/json"
	"strings"
	"time"
)

// Integration is an integration an organization has published. Contract §2
// Integration, §4.17. Running its script is not part of Quire: the script is
// kept, not executed.
type Integration struct {
	Name        string
	OrgID       string // the publishing organization, shown as owner
	Version     int    // 1 when first published, one more at each publish
	Title       string
	Description string
	Summary     string // markdown
	Visibility  string // one of IntegrationVisibilities
	Target      string // one of IntegrationTargets
	Runtime     string // v1 or v2
	Scopes      []string
	Categories  []string
	// Blocks, ContentSources and ExternalLinks are validated JSON arrays,
	// Configurations a validated JSON object (nil when none), and
	// ContentSecurityPolicy a JSON string or object (nil when none): kept as
	// the publisher sent them, they are shown as they are.
	Blocks                json.RawMessage
	ContentSources        json.RawMessage
	Configurations        json.RawMessage
	ExternalLinks         json.RawMessage
	ContentSecurityPolicy json.RawMessage
	Icon                  *IntegrationAsset // nil when none
	PreviewImages         []IntegrationAsset
	Script                string // blob key of the script
	CreatedAt, UpdatedAt  time.Time
}

// IntegrationAsset is an image of an integration (its icon or a preview),
// kept in the blob store.
type IntegrationAsset struct {
	Blob        string `json:"blob"` // blob key: the hex SHA-256 of the bytes
	ContentType string `json:"contentType"`
}

// Asset returns the integration's image stored under blob, if it has one.
func (i *Integration) Asset(blob string) (IntegrationAsset, bool) {
	if i.Icon != nil && i.Icon.Blob == blob {
		return *i.Icon, true
	}
	for _, a := range i.PreviewImages {
		if a.Blob == blob {
			return a, true
		}
	}
	return IntegrationAsset{}, false
}

// VisibleTo reports whether an integration shows to someone: public and
// unlisted ones to everyone, private ones to members of their organization.
func (i *Integration) VisibleTo(member bool) bool { return i.Visibility != "private" || member }

// Matches reports whether a search of the integrations installed somewhere
// finds i: its name or title holds search, any case; "" finds every one.
func (i *Integration) Matches(search string) bool {
	needle := strings.ToLower(search)
	return needle == "" || strings.Contains(strings.ToLower(i.Name), needle) || strings.Contains(strings.ToLower(i.Title), needle)
}

// IntegrationInstallation is an integration installed on an organization.
// Contract §2 Integration installation. Quire records installations and
// their events but runs no script.
type IntegrationInstallation struct {
	ID                   string
	Integration          string // name
	OrgID                string // the organization it is installed on
	Status               string // active, pending or paused
	SpaceSelection       string // all or selected
	SiteSelection        string // all or selected
	Configuration        json.RawMessage
	ExternalIDs          []string
	InstalledBy          string // user id; "" once that account is gone
	Spaces               int    // spaces it was set up on
	CreatedAt, UpdatedAt time.Time
}

// Enumerations of the reference (schemas IntegrationScope,
// IntegrationCategory, IntegrationTarget, IntegrationVisibility).
var (
	IntegrationScopes = []string{
		"space:content:read", "space:content:write", "space:metadata:read", "space:metadata:write", "space:git:sync",
		"page:feedback:read", "site:metadata:read", "site:views:read", "site:script:inject", "site:script:cookies",
		"site:visitor:auth", "site:visitor:claims", "site:adaptive:read", "site:adaptive:write",
		"conversations:ingest", "openapi:read", "openapi:write",
	}
	IntegrationCategories   = []string{"analytics", "collaboration", "content", "marketing", "visitor-auth", "other"}
	IntegrationTargets      = []string{"all", "site", "space", "organization"}
	IntegrationVisibilities = []string{"public", "private", "unlisted"}
	IntegrationRuntimes     = []string{"v1", "v2"}
)

// MaxIntegrationName bounds an integration's name. Contract §4.17.
const MaxIntegrationName = 100

// CheckIntegrationName validates an integration name: 1 to 100 of
// a-z A-Z 0-9 - _ . (the reference's pattern ^[a-zA-Z0-9-_.]+$). "." and ".."
// match that pattern but cannot be one segment of a URL path, so they are
// refused too.
func CheckIntegrationName(field, name string) error {
	if name == "" || len(name) > MaxIntegrationName {
		return Errorf(CodeInvalid, "%s: must be 1 to %d characters", field, MaxIntegrationName)
	}
	if !isNameToken(name) {
		return Errorf(CodeInvalid, "%s: must be letters, digits, '-', '_' and '.'", field)
	}
	if name == "." || name == ".." {
		return Errorf(CodeInvalid, "%s: must not be %q", field, name)
	}
	return nil
}

// isNameToken reports whether s holds only a-z A-Z 0-9 - _ and '.'.
func isNameToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// CheckBlockDomain validates the blockDomain filter: the name pattern, at
// most 100 characters.
func CheckBlockDomain(field, v string) error {
	if v == "" || len(v) > 100 || !isNameToken(v) {
		return Errorf(CodeInvalid, "%s: must be 1 to 100 letters, digits, '-', '_' and '.'", field)
	}
	return nil
}

// UnfurlDomain returns the host a block's urlUnfurl pattern matches, lower
// case, without port or leading "*." ("https://*.figma.com/file/*" gives
// "figma.com"), or "" when the pattern names no host.
func UnfurlDomain(pattern string) string {
	p := strings.ToLower(strings.TrimSpace(pattern))
	if _, rest, ok := strings.Cut(p, "://"); ok {
		p = rest
	}
	if i := strings.IndexAny(p, "/?#"); i >= 0 {
		p = p[:i]
	}
	if i := strings.LastIndex(p, "@"); i >= 0 {
		p = p[i+1:]
	}
	if i := strings.LastIndex(p, ":"); i >= 0 {
		p = p[:i]
	}
	for strings.HasPrefix(p, "*.") {
		p = p[2:]
	}
	p = strings.Trim(p, ".")
	if p == "" || len(p) > 100 || !isNameToken(p) {
		return ""
	}
	return p
}

// DomainMatches lists the block domains that match a blockDomain filter:
// the domain itself and each parent with at least two labels, so
// "www.figma.com" is matched by blocks on "www.figma.com" and "figma.com".
func DomainMatches(domain string) []string {
	domain = strings.ToLower(domain)
	out := []string{domain}
	for {
		_, rest, ok := strings.Cut(domain, ".")
		if !ok || !strings.Contains(rest, ".") {
			return out
		}
		out = append(out, rest)
		domain = rest
	}
}
