package quire

import (
	"strings"
	"time"
)

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

// Bounds of a site's MCP servers: the URL, and the headers sent (each name
// and value).
const (
	MaxMCPServerURL   = 2048
	MaxMCPHeaders     = 32
	MaxMCPHeaderName  = 256
	MaxMCPHeaderValue = 512
)

// CheckMCPTransport checks an MCP server's transport: sse or http.
func CheckMCPTransport(field, v string) error {
	if v != "sse" && v != "http" {
		return Errorf(CodeInvalid, "%s: must be sse or http", field)
	}
	return nil
}

// CheckMCPHeaders checks the headers sent to an MCP server, given as field:
// at most MaxMCPHeaders, each a name without spaces or colons and a value of
// one line.
func CheckMCPHeaders(field string, headers map[string]string) error {
	if len(headers) > MaxMCPHeaders {
		return Errorf(CodeInvalid, "%s: must hold at most %d headers", field, MaxMCPHeaders)
	}
	for name, v := range headers {
		if name == "" || len(name) > MaxMCPHeaderName || strings.ContainsAny(name, " \t\r\n:") {
			return Errorf(CodeInvalid, "%s: %q is not a header name", field, name)
		}
		if len(v) < 1 || len(v) > MaxMCPHeaderValue || strings.ContainsAny(v, "\r\n") {
			return Errorf(CodeInvalid, "%s.%s: must be 1 to %d characters on one line", field, name, MaxMCPHeaderValue)
		}
	}
	return nil
}
