package site

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/revision"
)

// The MCP server of a site, at {site}/~mcp: streamable HTTP, stateless
// (every POST is a session of its own, so any server behind a load
// balancer answers it), read-only. Each request gets an MCP server bound to
// its admitted request: the tools read what this visitor sees of this site
// (sections, site spaces and pages whose conditions they meet), and
// nothing else.

const (
	maxMCPBody     = 64 << 10 // bytes of a request: tool calls are small
	mcpResults     = 10       // search results a tool call answers by default
	maxMCPResults  = searchResults
	maxListedPages = 2000
)

// serveMCP serves the site's MCP server.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request, rq *request) error {
	if r.Method == http.MethodPost {
		s.countEvent(r, rq, "mcp_request", "mcp", location{}, "", "")
	}
	server := s.mcpServer(r, rq)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true, // tools answer at once: no stream to keep open
		MaxRequestBodyBytes: maxMCPBody,
		// Sites are served at their own hostnames, often through a reverse
		// proxy on the loopback address, and admitted by their visibility
		// above: the SDK's DNS-rebinding guard would refuse them all.
		DisableLocalhostProtection: true,
		Logger:                     s.cfg.Logger,
	})
	w.Header().Set("Cache-Control", "no-store")
	h.ServeHTTP(w, r) // answers its errors itself, in JSON-RPC
	return nil
}

// mcpSchemas caches the JSON schemas of the tools' inputs and outputs,
// inferred from their Go types: one MCP server is built per request, and
// inferring them takes three quarters of that (340 µs without the cache,
// 87 µs with it). It holds only the schemas of this file's few types,
// which never change, and is safe for concurrent use: a memo of constants
// rather than state, so it is not a field of Server.
var mcpSchemas = mcp.NewSchemaCache()

// mcpServer is the MCP server of rq's site, for rq's visitor.
func (s *Server) mcpServer(r *http.Request, rq *request) *mcp.Server {
	origin := s.origin(r)
	server := mcp.NewServer(&mcp.Implementation{
		Name: rq.site.Title, Title: rq.site.Title, Version: strconv.FormatInt(rq.site.Version, 10),
		WebsiteURL: origin + rq.url(nil, nil, ""),
	}, &mcp.ServerOptions{
		Instructions: "Documentation of " + rq.site.Title + ". Search it with search, read a page as markdown with " +
			"read_page (by the URL a search or list_pages gave), list its pages with list_pages.",
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}, // no logging, no list changes
		SchemaCache:  mcpSchemas,
		Logger:       s.cfg.Logger,
	})
	// Tools read rq, whose caches are its goroutine's: an older client's
	// JSON-RPC batch could otherwise run its calls at once.
	var one sync.Mutex
	tool := func() func() { one.Lock(); return one.Unlock }
	readOnly := func(title string) *mcp.ToolAnnotations {
		closed := false
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
	}
	mcp.AddTool(server, &mcp.Tool{
		Name:        "search",
		Description: "Search the documentation of " + rq.site.Title + ": pages holding every word of the query, best first, with their URLs and a snippet of the matching text.",
		Annotations: readOnly("Search the documentation"),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in mcpSearchInput) (*mcp.CallToolResult, mcpSearchOutput, error) {
		defer tool()()
		return s.mcpSearch(ctx, rq, origin, in)
	})
	mcp.AddTool(server, &mcp.Tool{
		Name:        "read_page",
		Description: "Read a page of the documentation of " + rq.site.Title + " as markdown, by its URL (or its path below the site).",
		Annotations: readOnly("Read a page"),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in mcpReadInput) (*mcp.CallToolResult, any, error) {
		defer tool()()
		return s.mcpRead(ctx, rq, origin, in)
	})
	mcp.AddTool(server, &mcp.Tool{
		Name:        "list_pages",
		Description: "List the pages of the documentation of " + rq.site.Title + " in reading order, with their URLs and descriptions.",
		Annotations: readOnly("List the pages"),
	}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, mcpListOutput, error) {
		defer tool()()
		return s.mcpList(ctx, rq, origin)
	})
	return server
}

// origin is the scheme and host that r reached the site at: the main
// address for /sites/{id}/, else the site's hostname as asked.
func (s *Server) origin(r *http.Request) string {
	if requestHost(r) == s.mainHost || r.Host == "" {
		return s.cfg.PublicURL
	}
	scheme := "https"
	if r.TLS == nil && !strings.HasPrefix(s.cfg.PublicURL, "https:") {
		scheme = "http"
	}
	return scheme + "://" + r.Host
}

type mcpSearchInput struct {
	Query string `json:"query" jsonschema:"the words to look for"`
	Limit int    `json:"limit,omitempty" jsonschema:"the most results to answer, 1 to 20 (10 when absent)"`
}

type mcpSearchOutput struct {
	Results []searchResult `json:"results"`
}

// mcpSearch is the search tool: the site search, with absolute URLs.
func (s *Server) mcpSearch(ctx context.Context, rq *request, origin string, in mcpSearchInput) (*mcp.CallToolResult, mcpSearchOutput, error) {
	if in.Query == "" || len([]rune(in.Query)) > maxSiteQuery {
		return nil, mcpSearchOutput{}, quire.Errorf(quire.CodeInvalid, "query: must be 1 to %d characters", maxSiteQuery)
	}
	limit := mcpResults
	if in.Limit > 0 {
		limit = min(in.Limit, maxMCPResults)
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	results, err := s.search(ctx, rq, in.Query, limit)
	if err != nil {
		return nil, mcpSearchOutput{}, s.toolError(err)
	}
	for i := range results {
		results[i].URL = origin + results[i].URL
	}
	return nil, mcpSearchOutput{Results: results}, nil
}

type mcpReadInput struct {
	URL string `json:"url" jsonschema:"the page's URL, as search or list_pages give it, or its path below the site"`
}

// mcpRead is the read_page tool: the page a URL of the site leads to, as
// markdown, when the visitor sees it.
func (s *Server) mcpRead(ctx context.Context, rq *request, origin string, in mcpReadInput) (*mcp.CallToolResult, any, error) {
	path, err := rq.pathOf(origin, in.URL)
	if err != nil {
		return nil, nil, err
	}
	notFound := quire.Errorf(quire.CodeNotFound, "url: no page of this site at %q", in.URL)
	loc, ok := rq.locate(path)
	if !ok {
		return nil, nil, notFound
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	n, err := s.nav(ctx, rq, loc.section, loc.siteSpace)
	if err != nil {
		return nil, nil, s.toolError(err)
	}
	id := n.first
	if loc.pagePath != "" {
		id, _ = n.v.PageAt(loc.pagePath)
	}
	if id == "" || !n.visible(id) {
		return nil, nil, notFound
	}
	p := n.v.Page(id)
	md := pageMarkdown(revision.PageTitle(p), p.Description, p.Markdown, "")
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: md}}}, nil, nil
}

// pathOf is the path below the site's root of raw: an absolute URL of the
// site as reached, or a path (from the server's root, or below the site's).
func (rq *request) pathOf(origin, raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" {
		return "", quire.Errorf(quire.CodeInvalid, "url: must be a URL or path of a page of this site")
	}
	if u.Host != "" && !strings.EqualFold(u.Host, hostOf(origin)) {
		return "", quire.Errorf(quire.CodeNotFound, "url: %q is not a page of this site", raw)
	}
	path := u.Path
	if u.Host != "" || strings.HasPrefix(path, rq.base+"/") {
		path = strings.TrimPrefix(path, rq.base)
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".md")
	return path, nil
}

// hostOf is the host of an origin.
func hostOf(origin string) string {
	_, host, _ := strings.Cut(origin, "://")
	return host
}

type mcpPage struct {
	Title       string `json:"title"`
	URL         string `json:"url,omitempty"` // "" for a group, which has no page of its own
	Description string `json:"description,omitempty"`
	Space       string `json:"space"`
	Section     string `json:"section"`
	Depth       int    `json:"depth"` // 0 at the top of its space
}

type mcpListOutput struct {
	Pages     []mcpPage `json:"pages"`
	Truncated bool      `json:"truncated,omitempty"` // more pages than a listing holds
}

// mcpList is the list_pages tool: the pages the visitor sees, as the
// sidebars show them (hidden pages left out), in reading order.
func (s *Server) mcpList(ctx context.Context, rq *request, origin string) (*mcp.CallToolResult, mcpListOutput, error) {
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	out := mcpListOutput{Pages: []mcpPage{}}
	for _, vs := range rq.visibleLocations() {
		v, err := s.cfg.Reader.Open(ctx, vs.siteSpace.Space, vs.siteSpace.Space.RevisionID, nil)
		if err != nil {
			return nil, mcpListOutput{}, s.toolError(err)
		}
		pages := published.Pages{Tree: v.Tree, Parent: v.Index().Parent, Sees: rq.visitor.Sees}
		var walk func(ids []string, depth int)
		walk = func(ids []string, depth int) {
			for _, id := range ids {
				p := v.Page(id)
				if !pages.Shows(p) { // as the sidebars list them
					continue
				}
				if len(out.Pages) == maxListedPages {
					out.Truncated = true
					return
				}
				pg := mcpPage{Title: revision.PageTitle(p), Description: p.Description, Space: vs.siteSpace.Space.Title, Depth: depth}
				if p.Kind != content.KindGroup {
					pg.URL = origin + rq.pageURL(vs, v, id)
				}
				if vs.section != nil {
					pg.Section = vs.section.Title
				}
				out.Pages = append(out.Pages, pg)
				walk(p.Children, depth+1)
			}
		}
		walk(v.Tree.Root, 0)
	}
	return nil, out, nil
}

// toolError is what a tool call tells of err: its message when it is ours
// to show, else "internal error" (and the cause is logged).
func (s *Server) toolError(err error) error {
	if quire.ErrorCode(err) == quire.CodeInternal {
		s.cfg.Logger.Error("published site: MCP tool", "err", err)
	}
	return quire.Errorf(quire.ErrorCode(err), "%s", quire.ErrorMessage(err))
}
