package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/wire"
)

// URL resolution (issue 19): GET /v1/urls/content finds the content an
// address of the app shows (quire's App*Path patterns, applinks.go), and
// GET and POST /v1/urls/published the site, site space and page an address
// of a published site shows (at /sites/{id}/ or at the site's hostname).

const maxResolvedURL = 2048 // the reference's URL maxLength

// resolvableURL parses the url parameter of r: an absolute http(s) URL of
// at most 2048 bytes.
func resolvableURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if raw == "" || len(raw) > maxResolvedURL || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errorf(quire.CodeInvalid, "url: must be an absolute http or https URL of at most %d characters", maxResolvedURL)
	}
	return u, nil
}

func (s *Server) getContentByURL(w http.ResponseWriter, r *http.Request) error {
	u, err := resolvableURL(query(r).Get("url"))
	if err != nil {
		return err
	}
	out, err := s.contentAt(r, u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// contentAt is what the app shows at u, to the caller of r: a collection,
// or a space with the change request and page the address names.
func (s *Server) contentAt(r *http.Request, u *url.URL) (map[string]any, error) {
	at, ok := quire.LocateAppURL(u, s.appHost())
	if !ok {
		return nil, errorf(quire.CodeNotFound, "no content found at this URL")
	}
	// The loaders read the path's wildcards, as the routes of the content
	// give them: r with the URL's instead.
	rr := r.Clone(r.Context())
	for k, v := range map[string]string{"collectionId": at.CollectionID, "spaceId": at.SpaceID, "changeRequestId": at.ChangeRequestID} {
		if v != "" {
			rr.SetPathValue(k, v)
		}
	}
	if at.CollectionID != "" {
		c, role, err := s.collection(rr, quire.RoleRead)
		if err != nil {
			return nil, err
		}
		return map[string]any{"collection": s.wire.Collection(c, role)}, nil
	}
	sp, role, err := s.space(rr, quire.RoleRead)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"space": s.wire.Space(sp, role)}
	revisionID, cr := sp.RevisionID, (*quire.ChangeRequest)(nil)
	if at.ChangeRequestID != "" {
		if _, cr, err = s.changeRequest(rr, quire.RoleRead); err != nil {
			return nil, err
		}
		revisionID = cr.RevisionID
		out["changeRequest"] = s.wire.ChangeRequest(sp, cr)
	}
	if at.Path != "" {
		v, err := s.reader.Open(r.Context(), sp, revisionID, cr)
		if err != nil {
			return nil, err
		}
		f, err := formatParams(r)
		if err != nil {
			return nil, err
		}
		if page, ok := s.pageAt(v, at.Path, f); ok {
			out["page"] = page
		}
	}
	return out, nil
}

// pageAt is the page at a slug path of a view, as GET S/content/path
// answers it.
func (s *Server) pageAt(v *revision.View, path string, f revision.Format) (any, bool) {
	id, ok := v.PageAt(path)
	if !ok {
		return nil, false
	}
	page, err := v.PageJSON(s.wire, id, f, true)
	return page, err == nil
}

func (s *Server) getPublishedContentByURL(w http.ResponseWriter, r *http.Request) error {
	return s.resolvePublished(w, r, query(r).Get("url"), nil)
}

func (s *Server) postPublishedContentByURL(w http.ResponseWriter, r *http.Request) error {
	var body wire.ResolvePublishedContentByURL
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	return s.resolvePublished(w, r, *body.URL, body.Visitor)
}

// resolvePublished answers what a URL of a published site shows to a
// visitor who is no member of its organization: only on sites anyone may
// read (published, public or unlisted), and by the site's own rule
// (published.Locate), among the sections and site spaces whose conditions
// the visitor meets. The visitor is anonymous, unless POST describes them
// (visitor, a SiteVisitorPayload). Only a preview of a change request or
// revision of the site space's space (published.CutPreview) names a
// revision: GitBook's renderer reads a plain URL's from the space. Its
// apiToken is a site token for what the visitor sees (sitetokens.go).
func (s *Server) resolvePublished(w http.ResponseWriter, r *http.Request, raw string, visitor map[string]any) error {
	u, err := resolvableURL(raw)
	if err != nil {
		return err
	}
	notFound := errorf(quire.CodeNotFound, "no published content found at this URL")
	host := strings.ToLower(u.Hostname())
	path := u.Path
	var siteID, prefix string
	if host == strings.ToLower(hostOnly(s.appHost())) {
		rest, ok := strings.CutPrefix(path, "/sites/")
		if !ok {
			return notFound
		}
		siteID, _, _ = strings.Cut(rest, "/")
		prefix = "/sites/" + siteID
	} else if siteID, err = s.db.SiteIDByHostname(r.Context(), host); err != nil {
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return notFound
		}
		return err
	}
	commits := s.db.Commits()
	site, err := s.reader.PublishedSite(r.Context(), siteID, commits)
	if quire.ErrorCode(err) == quire.CodeNotFound || (err == nil && !site.VisibleWithKey("")) {
		return notFound
	} else if err != nil {
		return err
	}
	if prefix == "" && site.Basename != "" {
		prefix = "/" + site.Basename
	}
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok || (rest != "" && rest[0] != '/') {
		return notFound
	}
	st, err := s.reader.PublishedStructure(r.Context(), site, commits)
	if err != nil {
		return err
	}
	signed, unsigned, expires := s.visitorClaims(site, visitor)
	sees := seesOf(signed, unsigned)
	loc, ok := published.Locate(st, rest, sees)
	if !ok || loc.SiteSpace.Space == nil {
		return notFound
	}
	out := wire.PublishedSiteContent{Site: site.ID, Organization: site.OrgID, SiteBasePath: prefix + "/", Complete: loc.Complete}
	if loc.Section != nil {
		out.SiteSection = loc.Section.ID
	}
	out.SiteSpace, out.Space = loc.SiteSpace.ID, loc.SiteSpace.Space.ID
	out.Pathname, out.BasePath = loc.PagePath, prefix+"/"+loc.BasePath()
	if p, rest, ok := published.CutPreview(loc.PagePath); ok {
		if out.ChangeRequest, out.Revision, err = s.preview(r, loc.SiteSpace.Space, p); err != nil {
			if quire.ErrorCode(err) == quire.CodeNotFound {
				return notFound
			}
			return err
		}
		out.Preview = true
		out.Pathname, out.BasePath = rest, out.BasePath+p.Prefix()
	}
	// A preview's canonical URL is the published page's.
	if out.CanonicalURL, err = s.canonicalURL(r, site, loc, out.Pathname, sees); err != nil {
		return err
	}
	var claims map[string]any
	if site.AdaptiveContent {
		claims = tokenClaims(signed, unsigned)
	}
	if out.APIToken, err = s.mintSiteToken(r.Context(), &out, published.Locations(st, sees), claims, expires); err != nil {
		return err
	}
	addCacheTags(w, quire.CacheTagURL(host), quire.CacheTagSite(site.ID), quire.CacheTagSpace(out.Space))
	return writeJSON(w, http.StatusOK, out)
}

// canonicalURL is the address of the page at pagePath of loc's site space,
// as the site's own pages link it (<link rel="canonical">): the site
// space's first page (published.Pages.First) at the site space's root.
func (s *Server) canonicalURL(r *http.Request, site *quire.Site, loc published.Location, pagePath string, sees published.Sees) (string, error) {
	root := site.Address(s.publicURL) + loc.BasePath()
	if pagePath == "" {
		return root, nil
	}
	sp := loc.SiteSpace.Space
	v, err := s.reader.Open(r.Context(), sp, sp.RevisionID, nil)
	if err != nil {
		return "", err
	}
	pages := published.Pages{Tree: v.Tree, Parent: v.Index().Parent, Sees: sees}
	if first := pages.First(); first != "" && v.Path(first) == pagePath {
		return root, nil
	}
	return root + pagePath, nil
}

// preview is the change request (its id, "" for a revision) and the
// revision a preview shows, either of which must be of space sp, else not
// found. Previews show unpublished content, so only callers who read sp
// get one; anyone else learns nothing, not even whether the id exists. A
// change request is named by its id only, not its easily guessed number.
func (s *Server) preview(r *http.Request, sp *quire.Space, p published.Preview) (changeRequest, revisionID string, err error) {
	// The lookup is public, so it authenticates only here: a member's own
	// token (not an installation's) that reads sp.
	notFound := errorf(quire.CodeNotFound, "no published content found at this URL")
	a, err := s.authenticate(r)
	if err != nil || a.grant != nil || a.site != nil {
		return "", "", notFound
	}
	v, err := s.db.Viewer(r.Context(), sp.OrgID, a.user.ID, append(append([]string{}, sp.Ancestors...), sp.ID))
	if err != nil {
		return "", "", err
	}
	if !v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors).AtLeast(quire.RoleRead) {
		return "", "", notFound
	}
	if p.ChangeRequest != "" {
		if _, err := strconv.ParseInt(p.ChangeRequest, 10, 64); err == nil {
			return "", "", errorf(quire.CodeNotFound, "change request not found")
		}
		cr, err := s.db.ChangeRequest(r.Context(), sp.ID, p.ChangeRequest)
		if err != nil {
			return "", "", err
		}
		return cr.ID, cr.RevisionID, nil
	}
	rev, err := s.db.Revision(r.Context(), sp.ID, p.Revision)
	if err != nil {
		return "", "", err
	}
	return "", rev.ID, nil
}

// hostOnly is host without its port.
func hostOnly(host string) string {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		return host[:i]
	}
	return host
}

// getEmbedByURL answers how to embed a URL: for an address of the app the
// caller may read, its page's, space's or collection's title; for any
// other, a plain link. Quire fetches nothing to make an embed.
func (s *Server) getEmbedByURL(w http.ResponseWriter, r *http.Request) error {
	u, err := resolvableURL(query(r).Get("url"))
	if err != nil {
		return err
	}
	title := u.String()
	if found, err := s.contentAt(r, u); err == nil {
		title = embedTitle(found, title)
	} else if code := quire.ErrorCode(err); code != quire.CodeNotFound && code != quire.CodeForbidden {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.Embed{Type: "link", Title: title, Site: u.Hostname()})
}

// embedTitle is the title of what contentAt found, else fallback.
func embedTitle(found map[string]any, fallback string) string {
	if p, ok := found["page"]; ok {
		if b, err := json.Marshal(p); err == nil {
			var page struct{ Title string }
			if json.Unmarshal(b, &page) == nil && page.Title != "" {
				return page.Title
			}
		}
	}
	for _, k := range []string{"space", "collection"} {
		switch v := found[k].(type) {
		case wire.Space:
			return v.Title
		case wire.Collection:
			return v.Title
		}
	}
	return fallback
}
