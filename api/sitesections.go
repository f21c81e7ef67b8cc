package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Contract §4.9 Site sections and §4.10 section groups.

func (s *Server) listSiteSections(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.sharedSite(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.SiteSection], error) {
		return s.db.ListSiteSections(ctx, site.ID, p)
	}, s.wire.SiteRenderer(site, v).Section)
}

// createdInSite answers 201 with item, served at path below the site.
func (s *Server) createdInSite(w http.ResponseWriter, site *quire.Site, path string, item any) error {
	return writeCreated(w, s.url("/orgs/"+site.OrgID+"/sites/"+site.ID+path), item)
}

// siteForWrite starts a write to a site's structure: the site, managers only
// (role create), then the request body read into body and validated.
func (s *Server) siteForWrite(w http.ResponseWriter, r *http.Request, body validator) (*quire.Site, *quire.Viewer, error) {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return nil, nil, err
	}
	return site, v, readRequest(w, r, body)
}

// writeSiteItem answers a create or update of an item of a site: managers
// only (role create), body read and validated, then write in the store; 201
// at the path where says, or 200 when where is nil, with the item as show
// shapes it.
func writeSiteItem[T, J any](s *Server, w http.ResponseWriter, r *http.Request, body validator,
	write func(ctx context.Context, site *quire.Site) (T, error), show func(*wire.SiteRenderer, T) J, where func(T) string) error {
	site, v, err := s.siteForWrite(w, r, body)
	if err != nil {
		return err
	}
	item, err := write(r.Context(), site)
	if err != nil {
		return err
	}
	out := show(s.wire.SiteRenderer(site, v), item)
	if where != nil {
		return s.createdInSite(w, site, where(item), out)
	}
	return writeJSON(w, http.StatusOK, out)
}

// deleteSiteItem answers the DELETE of an item of a site, named by the path
// parameter param: managers only (role create), then del; 204.
func (s *Server) deleteSiteItem(w http.ResponseWriter, r *http.Request, param string, del func(ctx context.Context, siteID, id string) error) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	if err := del(r.Context(), site.ID, r.PathValue(param)); err != nil {
		return err
	}
	return noContent(w)
}

// removeSiteItem answers the DELETE of an item of a site that the reference
// answers 205 when it was deleted and 204 when there was none, the item
// named by the path parameter param: managers only (role create), then del.
func (s *Server) removeSiteItem(w http.ResponseWriter, r *http.Request, param string, del func(ctx context.Context, siteID, id string) (bool, error)) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	existed, err := del(r.Context(), site.ID, r.PathValue(param))
	if err != nil {
		return err
	}
	return deleted(w, existed)
}

// createSiteSection: Contract §4.9. spaceId null creates a space (titled
// after the section) to publish.
func (s *Server) createSiteSection(w http.ResponseWriter, r *http.Request) error {
	var body wire.AddSectionToSite
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSection, error) {
		return s.db.CreateSiteSection(ctx, site, body.NewSection(authoring.PublishedSpace))
	}, (*wire.SiteRenderer).Section, func(sec *quire.SiteSection) string { return "/sections/" + sec.ID })
}

// updateSiteSection: Contract §4.9. condition, icon and description: a
// string sets, null removes, absent keeps.
func (s *Server) updateSiteSection(w http.ResponseWriter, r *http.Request) error {
	var body wire.UpdateSiteSection
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSection, error) {
		return s.db.UpdateSiteSection(ctx, site.ID, r.PathValue("siteSectionId"), body.Update())
	}, (*wire.SiteRenderer).Section, nil)
}

func (s *Server) deleteSiteSection(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteSectionId", s.db.DeleteSiteSection)
}

func (s *Server) moveSiteSection(w http.ResponseWriter, r *http.Request) error {
	return moveSiteItem(s, w, r, moveSection, s.db.MoveSiteSection, (*wire.SiteRenderer).Section)
}

func (s *Server) listSiteSectionGroups(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.SiteSectionGroup], error) {
		return s.db.ListSiteSectionGroups(ctx, site.ID, p)
	}, s.wire.SiteRenderer(site, v).Group)
}

func (s *Server) createSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	var body wire.AddSectionGroupToSite
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSectionGroup, error) {
		return s.db.CreateSiteSectionGroup(ctx, site.ID, *body.Title, body.Icon.Value, body.Sections)
	}, (*wire.SiteRenderer).Group, func(g *quire.SiteSectionGroup) string { return "/section-groups/" + g.ID })
}

func (s *Server) updateSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	var body wire.UpdateSiteSectionGroup
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSectionGroup, error) {
		title, icon := body.Changes()
		return s.db.UpdateSiteSectionGroup(ctx, site.ID, r.PathValue("siteSectionGroupId"), title, icon)
	}, (*wire.SiteRenderer).Group, nil)
}

func (s *Server) deleteSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteSectionGroupId", s.db.DeleteSiteSectionGroup)
}

// addSectionToGroup: Contract §4.10. A section is in at most one group:
// adding it to another moves it there, at the end.
func (s *Server) addSectionToGroup(w http.ResponseWriter, r *http.Request) error {
	var body wire.AddSectionToSectionGroup
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSectionGroup, error) {
		return s.db.AddSectionToGroup(ctx, site.ID, r.PathValue("siteSectionGroupId"), *body.SectionID)
	}, (*wire.SiteRenderer).Group, nil)
}

// removeSectionFromGroup puts the section back at the top level of the
// site, right after the group.
func (s *Server) removeSectionFromGroup(w http.ResponseWriter, r *http.Request) error {
	group := r.PathValue("siteSectionGroupId")
	return s.deleteSiteItem(w, r, "siteSectionId", func(ctx context.Context, siteID, section string) error {
		return s.db.RemoveSectionFromGroup(ctx, siteID, group, section)
	})
}

func (s *Server) moveSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	return moveSiteItem(s, w, r, moveSectionGroup, s.db.MoveSiteSectionGroup, (*wire.SiteRenderer).Group)
}
