package api

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// GET SITE/structure, PATCH SITE/structure/sort, POST SITE/publish and
// SITE/unpublish: the reference's forms of what the site's sections, site
// spaces and PATCH of the site already do.

// getSiteStructure answers the site's structure (the reference's
// SiteStructure), external links included, to whom GET SITE/published
// answers, shareKey included.
func (s *Server) getSiteStructure(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.sharedSite(r)
	if err != nil {
		return err
	}
	st, err := s.db.SiteStructure(r.Context(), site.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.structureJSON(site, v, st, true))
}

// sortKinds are, per kind of item moved, the kinds of siblings it may stand
// by, as the move operations of each take them (siteorder.go).
var sortKinds = map[string][]string{
	"site-space":         moveSiteSpace.siblings.Kinds,
	"site-section":       levelKinds,
	"site-section-group": levelKinds,
	"site-external-link": levelKinds,
}

// levelKinds are the kinds of items of one level of a sectioned site: the
// top (sections, groups, links) or a group (sections, links). Which of them
// stand at the item's level, the store checks.
var levelKinds = []string{"site-section", "site-section-group", "site-external-link"}

// sortSiteStructure moves a site space, section, section group or external
// link among the items of its level: 200 with
// the item, or 204 when the caller prefers return=minimal.
func (s *Server) sortSiteStructure(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	body := wire.SortSiteStructure{Kinds: sortKinds}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	rd, ctx, id := s.wire.SiteRenderer(site, v), r.Context(), body.Item.ID
	var item any
	switch body.Item.Type {
	case "site-space":
		var ss *quire.SiteSpace
		if ss, err = s.db.MoveSiteSpace(ctx, site.ID, id, body.Pos()); err == nil {
			item = rd.SiteSpace(ss)
		}
	case "site-section":
		var sec *quire.SiteSection
		if sec, err = s.db.MoveSiteSection(ctx, site.ID, id, body.Pos()); err == nil {
			item = rd.Section(sec)
		}
	case "site-external-link":
		var l *quire.SiteExternalLink
		if l, err = s.db.MoveSiteExternalLink(ctx, site.ID, id, body.Pos()); err == nil {
			item = wire.SiteExternalLinkOf(l)
		}
	default:
		var g *quire.SiteSectionGroup
		if g, err = s.db.MoveSiteSectionGroup(ctx, site.ID, id, body.Pos()); err == nil {
			item = rd.Group(g)
		}
	}
	if err != nil {
		return err
	}
	if strings.Contains(r.Header.Get("Prefer"), "return=minimal") {
		return noContent(w)
	}
	return writeJSON(w, http.StatusOK, item)
}

// setPublished publishes or takes down the site, as PATCH of the site with
// published does, and answers the site.
func (s *Server) setPublished(published bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		site, v, err := s.site(r, quire.RoleCreate)
		if err != nil {
			return err
		}
		if site, err = s.sitesService().UpdateSite(r.Context(), site, store.SiteUpdate{Actor: caller(r.Context()).ID, Published: &published}); err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, s.wire.Site(site, siteRole(site, v)))
	}
}
