package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Contract §4.8 Docs sites. Organization members with the create role (and
// admins) manage sites; every member who is not a guest reads them. The
// operations that take shareKey also answer callers without rights on the
// site when its published structure is theirs to see (quire.Site.VisibleWithKey).

// site loads the site named in the path, of the organization in the path,
// with the caller's viewer of that organization: 404 unless the caller reads
// the organization's sites (role read or more), 403 below need.
func (s *Server) site(r *http.Request, need quire.Role) (*quire.Site, *quire.Viewer, error) {
	v, err := s.orgViewer(r)
	if err != nil {
		return nil, nil, err
	}
	site, err := s.db.Site(r.Context(), r.PathValue("siteId"))
	if err == nil && site.OrgID != r.PathValue("organizationId") {
		err = errorf(quire.CodeNotFound, "site not found")
	}
	if err != nil {
		return nil, nil, err
	}
	return site, v, quire.RequireRole(siteRole(site, v), need, "site")
}

// sharedSite loads the site for the operations that take shareKey: readers
// of the organization, or anyone to whom the published site shows (public
// and unlisted sites, share-link ones with the site's key). Others get 404,
// whatever they show.
func (s *Server) sharedSite(r *http.Request) (*quire.Site, *quire.Viewer, error) {
	return s.sharedSiteWith(r, s.db.Site)
}

// sharedSiteWith is sharedSite loading the site with load.
func (s *Server) sharedSiteWith(r *http.Request, load func(ctx context.Context, id string) (*quire.Site, error)) (*quire.Site, *quire.Viewer, error) {
	key := query(r).Get("shareKey")
	if err := quire.CheckLen("shareKey", key, 0, 256); err != nil {
		return nil, nil, err
	}
	site, err := load(r.Context(), r.PathValue("siteId"))
	if err == nil && site.OrgID != r.PathValue("organizationId") {
		err = errorf(quire.CodeNotFound, "site not found")
	}
	if err != nil {
		return nil, nil, err
	}
	v, err := s.db.Viewer(r.Context(), site.OrgID, caller(r.Context()).ID, nil)
	if err != nil {
		return nil, nil, err
	}
	if siteRole(site, v).AtLeast(quire.RoleRead) || site.VisibleWithKey(key) {
		return site, v, nil
	}
	return nil, nil, errorf(quire.CodeNotFound, "site not found")
}

// siteRole is the caller's role on a site, for members of its organization:
// the stronger of their organization role and the role granted on the site
// to them or to one of their teams (sitepermissions.go); nothing for others.
func siteRole(site *quire.Site, v *quire.Viewer) quire.Role { return v.RoleOnSite(site.ID) }

func (s *Server) listSites(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	q := query(r)
	f := store.SiteFilter{SpaceID: q.Get("space"), Title: q.Get("title")}
	if err := quire.FirstError(quire.CheckLen("space", f.SpaceID, 0, 256), quire.CheckLen("title", f.Title, 0, 128)); err != nil {
		return err
	}
	if f.Published, err = optBoolParam(r, "published"); err != nil {
		return err
	}
	for _, v := range q["type"] {
		for t := range strings.SplitSeq(v, ",") {
			typ, ok := quire.ParseSiteType(t)
			if !ok {
				return errorf(quire.CodeInvalid, "type: must be basic, premium, ultimate, sponsored, legacy-basic or legacy-premium")
			}
			f.Types = append(f.Types, typ)
		}
	}
	if !v.OrgRole.AtLeast(quire.RoleRead) {
		// A guest sees only the sites granted to them (or their teams);
		// the grants also hold spaces' and collections' ids, which match
		// no site.
		f.Only = v.Granted(quire.RoleRead)
	}
	list, err := s.db.ListSites(r.Context(), r.PathValue("organizationId"), f, p)
	if err != nil {
		return err
	}
	return writeList(w, list, func(site *quire.Site) wire.Site { return s.wire.Site(site, siteRole(site, v)) })
}

func parseSiteVisibility(v string) (quire.Visibility, error) {
	vis, ok := quire.ParseSiteVisibility(v)
	if !ok {
		return "", errorf(quire.CodeInvalid, "visibility: must be public, unlisted, share-link or visitor-auth")
	}
	return vis, nil
}

// checkSiteTitle: Contract §2 Site, title 2 to 128 characters.
func checkSiteTitle(v string) error { return quire.CheckLen("title", v, 2, 128) }

// newSpaceJSON is the form of spaces (on POST O/sites) and of spaceId: null
// (on POST SITE/sections and SITE/site-spaces) that creates a space to
// publish: an object with an optional title and emoji.
type newSpaceJSON struct {
	Title *string `json:"title"`
	Emoji *string `json:"emoji"`
}

// newSpace validates a request to create a space, titled title by default.
func (n *newSpaceJSON) newSpace(field, title string) (*store.NewSpace, error) {
	out := authoring.PublishedSpace(title)
	if n.Title != nil {
		if err := quire.CheckLen(field+".title", *n.Title, 0, authoring.MaxSpaceTitle); err != nil {
			return nil, err
		}
		out.Title = *n.Title
	}
	if n.Emoji != nil {
		if err := quire.CheckLen(field+".emoji", *n.Emoji, 1, 50); err != nil {
			return nil, err
		}
		out.Emoji = *n.Emoji
	}
	return out, nil
}

// siteCreateRequest is the body of POST /v1/orgs/{organizationId}/sites.
type siteCreateRequest struct {
	Type       *string         `json:"type"`
	Title      *string         `json:"title"`
	Visibility *string         `json:"visibility"`
	Spaces     json.RawMessage `json:"spaces"`

	site store.NewSite // what validate makes of the fields
}

// Validate checks the body and makes the site to create: a basic public site
// titled "Untitled site" unless told otherwise.
func (b *siteCreateRequest) Validate() error {
	n := store.NewSite{Type: quire.SiteBasic, Title: "Untitled site", Visibility: quire.VisibilityPublic}
	if b.Type != nil {
		t, ok := quire.ParseSiteType(*b.Type)
		if !ok {
			return errorf(quire.CodeInvalid, "type: must be basic, premium, ultimate, sponsored, legacy-basic or legacy-premium")
		}
		n.Type = t
	}
	if b.Title != nil {
		if err := checkSiteTitle(*b.Title); err != nil {
			return err
		}
		n.Title = *b.Title
	}
	var err error
	if b.Visibility != nil {
		if n.Visibility, err = parseSiteVisibility(*b.Visibility); err != nil {
			return err
		}
	}
	const spacesErr = "spaces: must be a list of space ids or an object creating a space"
	switch raw := bytes.TrimSpace(b.Spaces); {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '[':
		if err := decodeJSON(raw, &n.SpaceIDs); err != nil {
			return errorf(quire.CodeInvalid, spacesErr)
		}
		seen := map[string]bool{}
		for i, id := range n.SpaceIDs {
			if seen[id] {
				return errorf(quire.CodeInvalid, "spaces[%d]: space %q is listed twice", i, id)
			}
			seen[id] = true
		}
	case raw[0] == '{':
		var ns newSpaceJSON
		if err := decodeJSON(raw, &ns); err != nil {
			return errorf(quire.CodeInvalid, spacesErr)
		}
		if n.NewSpace, err = ns.newSpace("spaces", n.Title); err != nil {
			return err
		}
	default:
		return errorf(quire.CodeInvalid, spacesErr)
	}
	b.site = n
	return nil
}

// createSite: spaces is either a list of space ids, published at the root of
// the new site in order, or an object {"title", "emoji"} (both optional)
// that creates a new space, at the top level of the organization, and
// publishes it. Contract §4.8.
func (s *Server) createSite(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	if !v.OrgRole.AtLeast(quire.RoleCreate) {
		return errorf(quire.CodeForbidden, "creating a site needs the create role in the organization")
	}
	var body siteCreateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	site, err := s.db.CreateSite(r.Context(), r.PathValue("organizationId"), body.site)
	if err != nil {
		return err
	}
	out := s.wire.Site(site, v.OrgRole)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getSite(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Site(site, siteRole(site, v)))
}

func (s *Server) deleteSite(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	if err := s.db.DeleteSite(r.Context(), site.ID); err != nil {
		return err
	}
	return noContent(w)
}

// siteUpdateRequest is the body of PATCH /v1/sites/{siteId}.
type siteUpdateRequest struct {
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
func (b *siteUpdateRequest) Validate() error {
	if err := checkString("title", b.Title, 2, 128); err != nil {
		return err
	}
	if b.Visibility.Set {
		if _, err := parseSiteVisibility(b.Visibility.Value); err != nil {
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
		return errorf(quire.CodeInvalid, "adaptiveContent.enabled: is required")
	}
	return quire.FirstError(
		checkBool("published", b.Published),
		checkString("defaultSiteSpace", b.DefaultSiteSpace, 1, 256),
		checkString("defaultSiteSection", b.DefaultSiteSection, 1, 256),
	)
}

// update is the store's form of a validated b.
func (b *siteUpdateRequest) update(actorID string) store.SiteUpdate {
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

// updateSite: every field of Contract §4.8, plus hostname (null removes it)
// and published, which is how a site is published or taken down.
func (s *Server) updateSite(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body siteUpdateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if site, err = s.sitesService().UpdateSite(r.Context(), site, body.update(caller(r.Context()).ID)); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Site(site, siteRole(site, v)))
}

// getAdaptiveSchema: 404 until a schema is set.
func (s *Server) getAdaptiveSchema(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	schema, updated, err := s.db.AdaptiveSchema(r.Context(), site.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.AdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: schema, UpdatedAt: wire.Time(updated)})
}

// adaptiveSchemaRequest is the body of PUT SITE/adaptive-schema.
type adaptiveSchemaRequest struct {
	JSONSchema json.RawMessage `json:"jsonSchema"`
}

// Validate checks that the schema is given; authoring checks the schema.
func (b *adaptiveSchemaRequest) Validate() error {
	if len(b.JSONSchema) == 0 || string(b.JSONSchema) == "null" {
		return errorf(quire.CodeInvalid, "jsonSchema: is required")
	}
	return nil
}

func (s *Server) putAdaptiveSchema(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body adaptiveSchemaRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	schema, updated, err := s.author.SetAdaptiveSchema(r.Context(), site, body.JSONSchema)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.AdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: schema, UpdatedAt: wire.Time(updated)})
}
