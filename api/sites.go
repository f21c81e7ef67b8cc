package api

import (
	"context"
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
	v, err := s.viewer(r.Context(), site.OrgID, nil)
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
// to them or to one of their teams (grants.go); nothing for others.
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
	var body wire.CreateSite
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	site, err := s.db.CreateSite(r.Context(), r.PathValue("organizationId"), body.NewSite(authoring.PublishedSpace))
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

// updateSite: every field of Contract §4.8, plus hostname (null removes it)
// and published, which is how a site is published or taken down.
func (s *Server) updateSite(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body wire.UpdateSite
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if site, err = s.sitesService().UpdateSite(r.Context(), site, body.Update(caller(r.Context()).ID)); err != nil {
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

func (s *Server) putAdaptiveSchema(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body wire.UpdateSiteAdaptiveSchema
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	schema, updated, err := s.author.SetAdaptiveSchema(r.Context(), site, body.JSONSchema)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.AdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: schema, UpdatedAt: wire.Time(updated)})
}
