package quire

import "time"

// SiteExternalLink is a link to another address shown beside a site's
// sections, at the root or in a section group (the reference's
// SiteExternalLink).
type SiteExternalLink struct {
	ID          string
	SiteID      string
	GroupID     string // "" at the root
	Title       string
	Description string
	Icon        string
	URL         string
	Draft       bool // not shown on the published site
	Condition   string
	Position    int64
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// SiteMCPServer is an MCP server configured on a site (the reference's
// SiteMcpServer): where it is, how to reach it, and the headers sent to
// it, which may hold credentials.
type SiteMCPServer struct {
	ID        string
	SiteID    string
	Name      string
	URL       string
	Transport string // sse or http
	Headers   map[string]string
	Condition string
	CreatedAt time.Time
	UpdatedAt time.Time
}
