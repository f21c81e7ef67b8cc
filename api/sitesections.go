package api

import (
	"cmp"
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/condition"
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

// spaceSourceJSON is the spaceId of POST SITE/sections and SITE/site-spaces:
// a space id, or null to create a new space (titled by title).
type spaceSourceJSON = quire.Optional[string]

// checkSpaceSource checks spaceId: required, and null or a space id.
func checkSpaceSource(id spaceSourceJSON) error {
	if !id.Set {
		return errorf(quire.CodeInvalid, "spaceId: is required")
	}
	if id.Null {
		return nil
	}
	return quire.CheckLen("spaceId", id.Value, 1, 256)
}

// spaceSource is a checked spaceId: a space to publish, or (null) a new
// space titled title.
func spaceSource(id spaceSourceJSON, title string) (string, *store.NewSpace) {
	if id.Null {
		return "", authoring.PublishedSpace(title)
	}
	return id.Value, nil
}

func checkIcon(v string) error      { return quire.CheckLen("icon", v, 1, 50) }
func checkCondition(v string) error { return condition.Check("condition", v) }

// checkGiven checks an optional string field of a create body: absent or
// null is "" (its Value), a value must pass check.
func checkGiven(o quire.Optional[string], check func(string) error) error {
	if !o.HasValue() {
		return nil
	}
	return check(o.Value)
}

// checkSitePath checks a PATCH path of a section or site space: absent
// keeps it, null is refused, a value must be a site path.
func checkSitePath(o quire.Optional[string]) error {
	if err := checkString("path", o, 1, 100); err != nil || !o.HasValue() {
		return err
	}
	return quire.CheckSitePath("path", o.Value)
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

// siteSectionCreateRequest is the body of POST SITE/sections.
type siteSectionCreateRequest struct {
	SpaceID spaceSourceJSON        `json:"spaceId"`
	Title   quire.Optional[string] `json:"title"`
	Icon    quire.Optional[string] `json:"icon"`
}

func (b *siteSectionCreateRequest) Validate() error {
	return quire.FirstError(
		checkGiven(b.Title, func(title string) error { return quire.CheckLen("title", title, 2, 64) }),
		checkGiven(b.Icon, checkIcon),
		checkSpaceSource(b.SpaceID),
	)
}

// newSection is the section a validated b creates.
func (b *siteSectionCreateRequest) newSection() store.NewSiteSection {
	n := store.NewSiteSection{Title: b.Title.Value, Icon: b.Icon.Value}
	n.SpaceID, n.NewSpace = spaceSource(b.SpaceID, cmp.Or(n.Title, "Untitled"))
	return n
}

// createSiteSection: Contract §4.9. spaceId null creates a space (titled
// after the section) to publish.
func (s *Server) createSiteSection(w http.ResponseWriter, r *http.Request) error {
	var body siteSectionCreateRequest
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSection, error) {
		return s.db.CreateSiteSection(ctx, site, body.newSection())
	}, (*wire.SiteRenderer).Section, func(sec *quire.SiteSection) string { return "/sections/" + sec.ID })
}

// siteSectionUpdateRequest is the body of PATCH SITE/sections/{siteSectionId}.
type siteSectionUpdateRequest struct {
	Title            quire.Optional[string] `json:"title"`
	Path             quire.Optional[string] `json:"path"`
	DefaultSiteSpace quire.Optional[string] `json:"defaultSiteSpace"`
	Condition        quire.Optional[string] `json:"condition"`
	Icon             quire.Optional[string] `json:"icon"`
	Description      quire.Optional[string] `json:"description"`
}

func (b *siteSectionUpdateRequest) Validate() error {
	return quire.FirstError(
		checkString("title", b.Title, 2, 128),
		checkSitePath(b.Path),
		checkString("defaultSiteSpace", b.DefaultSiteSpace, 1, 256),
		checkRemovable(b.Condition, checkCondition),
		checkRemovable(b.Icon, checkIcon),
		checkRemovable(b.Description, func(v string) error { return quire.CheckText("description", v, 0, 256) }),
	)
}

// update is the store's form of a validated b.
func (b *siteSectionUpdateRequest) update() store.SiteSectionUpdate {
	return store.SiteSectionUpdate{
		Title: setValue(b.Title), Path: setValue(b.Path), DefaultSiteSpace: setValue(b.DefaultSiteSpace),
		Condition: setValue(b.Condition), Icon: setValue(b.Icon), Description: setValue(b.Description),
	}
}

// updateSiteSection: Contract §4.9. condition, icon and description: a
// string sets, null removes, absent keeps.
func (s *Server) updateSiteSection(w http.ResponseWriter, r *http.Request) error {
	var body siteSectionUpdateRequest
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSection, error) {
		return s.db.UpdateSiteSection(ctx, site.ID, r.PathValue("siteSectionId"), body.update())
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

func checkGroupTitle(v string) error { return quire.CheckLen("title", v, 1, 100) }

// sectionGroupCreateRequest is the body of POST SITE/section-groups.
type sectionGroupCreateRequest struct {
	Title    *string                `json:"title"`
	Icon     quire.Optional[string] `json:"icon"`
	Sections []string               `json:"sections"`
}

func (b *sectionGroupCreateRequest) Validate() error {
	if err := quire.CheckRequired("title", b.Title != nil); err != nil {
		return err
	}
	if err := quire.FirstError(checkGroupTitle(*b.Title), checkGiven(b.Icon, checkIcon)); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, id := range b.Sections {
		if seen[id] {
			return errorf(quire.CodeInvalid, "sections[%d]: section %q is listed twice", i, id)
		}
		seen[id] = true
	}
	return nil
}

func (s *Server) createSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	var body sectionGroupCreateRequest
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSectionGroup, error) {
		return s.db.CreateSiteSectionGroup(ctx, site.ID, *body.Title, body.Icon.Value, body.Sections)
	}, (*wire.SiteRenderer).Group, func(g *quire.SiteSectionGroup) string { return "/section-groups/" + g.ID })
}

// sectionGroupUpdateRequest is the body of PATCH SITE/section-groups/{id}:
// null removes the icon.
type sectionGroupUpdateRequest struct {
	Title quire.Optional[string] `json:"title"`
	Icon  quire.Optional[string] `json:"icon"`
}

func (b *sectionGroupUpdateRequest) Validate() error {
	return quire.FirstError(checkString("title", b.Title, 1, 100), checkRemovable(b.Icon, checkIcon))
}

func (s *Server) updateSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	var body sectionGroupUpdateRequest
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSectionGroup, error) {
		return s.db.UpdateSiteSectionGroup(ctx, site.ID, r.PathValue("siteSectionGroupId"), setValue(body.Title), setValue(body.Icon))
	}, (*wire.SiteRenderer).Group, nil)
}

func (s *Server) deleteSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteSectionGroupId", s.db.DeleteSiteSectionGroup)
}

// sectionGroupAddRequest is the body of POST SITE/section-groups/{id}/sections.
type sectionGroupAddRequest struct {
	SectionID *string `json:"sectionId"`
}

func (b *sectionGroupAddRequest) Validate() error {
	return quire.CheckRequired("sectionId", b.SectionID != nil)
}

// addSectionToGroup: Contract §4.10. A section is in at most one group:
// adding it to another moves it there, at the end.
func (s *Server) addSectionToGroup(w http.ResponseWriter, r *http.Request) error {
	var body sectionGroupAddRequest
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
