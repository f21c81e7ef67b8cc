package api

import (
	"cmp"
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Contract §4.9 Site sections and §4.10 section groups.

type publishedURLJSON struct {
	Published string `json:"published,omitempty"`
}

type siteSectionJSON struct {
	Object       string           `json:"object"`
	ID           string           `json:"id"`
	Title        string           `json:"title"`
	Description  string           `json:"description,omitempty"`
	Default      bool             `json:"default"`
	Draft        bool             `json:"draft"`
	Path         string           `json:"path"`
	Condition    string           `json:"condition,omitempty"`
	SectionGroup string           `json:"sectionGroup,omitempty"`
	SiteSpaces   []siteSpaceJSON  `json:"siteSpaces"`
	URLs         publishedURLJSON `json:"urls"`
	Icon         string           `json:"icon,omitempty"`
}

type siteSectionGroupJSON struct {
	Object   string            `json:"object"`
	ID       string            `json:"id"`
	Title    string            `json:"title"`
	Draft    bool              `json:"draft"`
	Sections []siteSectionJSON `json:"sections"`
	Children []siteSectionJSON `json:"children"`
	Icon     string            `json:"icon,omitempty"`
}

type siteSpaceJSON struct {
	Object    string           `json:"object"`
	ID        string           `json:"id"`
	Path      string           `json:"path"`
	Section   string           `json:"section,omitempty"`
	Space     spaceJSON        `json:"space"`
	Title     string           `json:"title"`
	Default   bool             `json:"default"`
	Condition string           `json:"condition,omitempty"`
	Draft     bool             `json:"draft"`
	URLs      publishedURLJSON `json:"urls"`
}

// siteRenderer renders what is in one site for one caller.
type siteRenderer struct {
	s    *Server
	site *quire.Site
	v    *quire.Viewer
	base string // the site's public URL
}

func (s *Server) siteRenderer(site *quire.Site, v *quire.Viewer) *siteRenderer {
	return &siteRenderer{s: s, site: site, v: v, base: s.sitePublicURL(site)}
}

// sectionURL is where a section is published: the site's root for the
// default section, else its path below.
func (rd *siteRenderer) sectionURL(sec *quire.SiteSection) string {
	if sec == nil || sec.Default {
		return rd.base
	}
	return rd.base + sec.Path + "/"
}

func (rd *siteRenderer) published(url string) publishedURLJSON {
	if !rd.site.Published {
		return publishedURLJSON{}
	}
	return publishedURLJSON{Published: url}
}

func (rd *siteRenderer) siteSpace(ss *quire.SiteSpace) siteSpaceJSON {
	url := rd.sectionURL(ss.Section)
	if !ss.Default {
		url += ss.Path + "/"
	}
	sp := ss.Space
	return siteSpaceJSON{
		Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.SectionID, Title: sp.Title,
		Space:   rd.s.spaceJSON(sp, rd.v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors)),
		Default: ss.Default, Condition: ss.Condition, URLs: rd.published(url),
	}
}

func (rd *siteRenderer) section(sec *quire.SiteSection) siteSectionJSON {
	j := siteSectionJSON{
		Object: "site-section", ID: sec.ID, Title: sec.Title, Description: sec.Description, Default: sec.Default,
		Path: sec.Path, Condition: sec.Condition, SectionGroup: sec.GroupID, Icon: sec.Icon,
		SiteSpaces: make([]siteSpaceJSON, len(sec.SiteSpaces)), URLs: rd.published(rd.sectionURL(sec)),
	}
	for i, ss := range sec.SiteSpaces {
		j.SiteSpaces[i] = rd.siteSpace(ss)
	}
	return j
}

func (rd *siteRenderer) group(g *quire.SiteSectionGroup) siteSectionGroupJSON {
	j := siteSectionGroupJSON{Object: "site-section-group", ID: g.ID, Title: g.Title, Icon: g.Icon,
		Sections: make([]siteSectionJSON, len(g.Sections))}
	for i, sec := range g.Sections {
		j.Sections[i] = rd.section(sec)
	}
	j.Children = j.Sections
	return j
}

func (s *Server) listSiteSections(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.sharedSite(r)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.db.ListSiteSections(r.Context(), site.ID, p)
	if err != nil {
		return err
	}
	return writeList(w, list, s.siteRenderer(site, v).section)
}

// spaceSourceJSON is the spaceId of POST SITE/sections and SITE/site-spaces:
// a space id, or null to create a new space (titled by title).
type spaceSourceJSON = quire.Optional[string]

// spaceSource validates spaceId: required; null creates a space titled title.
func spaceSource(id spaceSourceJSON, title string) (string, *store.NewSpace, error) {
	if !id.Set {
		return "", nil, errorf(quire.CodeInvalid, "spaceId: is required")
	}
	if id.Null {
		return "", &store.NewSpace{Title: truncateTitle(title, 50), EditMode: quire.EditLive}, nil
	}
	if err := quire.CheckLen("spaceId", id.Value, 1, 256); err != nil {
		return "", nil, err
	}
	return id.Value, nil, nil
}

func checkIcon(v string) error      { return quire.CheckLen("icon", v, 1, 50) }
func checkCondition(v string) error { return quire.CheckCondition("condition", v) }

// givenString validates an optional string field of a create body: absent or
// null gives "", a value must pass check.
func givenString(o quire.Optional[string], check func(string) error) (string, error) {
	if !o.HasValue() {
		return "", nil
	}
	if err := check(o.Value); err != nil {
		return "", err
	}
	return o.Value, nil
}

// optionalSitePath validates a PATCH path of a section or site space: absent
// keeps it, null is refused, a value must be a site path.
func optionalSitePath(o quire.Optional[string]) (*string, error) {
	path, err := optionalString("path", o, 1, 100)
	if err != nil || path == nil {
		return path, err
	}
	return path, quire.CheckSitePath("path", *path)
}

// createdInSite answers 201 with item, served at path below the site.
func (s *Server) createdInSite(w http.ResponseWriter, site *quire.Site, path string, item any) error {
	w.Header().Set("Location", s.url("/orgs/"+site.OrgID+"/sites/"+site.ID+path))
	return writeJSON(w, http.StatusCreated, item)
}

// siteForWrite starts a write to a site's structure: the site, managers only
// (role create), then the request body read into body.
func (s *Server) siteForWrite(w http.ResponseWriter, r *http.Request, body any) (*quire.Site, *quire.Viewer, error) {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return nil, nil, err
	}
	return site, v, readJSON(w, r, body)
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

// createSiteSection: Contract §4.9. spaceId null creates a space (titled
// after the section) to publish.
func (s *Server) createSiteSection(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		SpaceID spaceSourceJSON        `json:"spaceId"`
		Title   quire.Optional[string] `json:"title"`
		Icon    quire.Optional[string] `json:"icon"`
	}
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	var n store.NewSiteSection
	if n.Title, err = givenString(body.Title, func(title string) error { return quire.CheckLen("title", title, 2, 64) }); err != nil {
		return err
	}
	if n.Icon, err = givenString(body.Icon, checkIcon); err != nil {
		return err
	}
	if n.SpaceID, n.NewSpace, err = spaceSource(body.SpaceID, cmp.Or(n.Title, "Untitled")); err != nil {
		return err
	}
	sec, err := s.db.CreateSiteSection(r.Context(), site, n)
	if err != nil {
		return err
	}
	return s.createdInSite(w, site, "/sections/"+sec.ID, s.siteRenderer(site, v).section(sec))
}

// updateSiteSection: Contract §4.9. condition, icon and description: a
// string sets, null removes, absent keeps.
func (s *Server) updateSiteSection(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Title            quire.Optional[string] `json:"title"`
		Path             quire.Optional[string] `json:"path"`
		DefaultSiteSpace quire.Optional[string] `json:"defaultSiteSpace"`
		Condition        quire.Optional[string] `json:"condition"`
		Icon             quire.Optional[string] `json:"icon"`
		Description      quire.Optional[string] `json:"description"`
	}
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	var u store.SiteSectionUpdate
	if u.Title, err = optionalString("title", body.Title, 2, 128); err != nil {
		return err
	}
	if u.Path, err = optionalSitePath(body.Path); err != nil {
		return err
	}
	if u.DefaultSiteSpace, err = optionalString("defaultSiteSpace", body.DefaultSiteSpace, 1, 256); err != nil {
		return err
	}
	if u.Condition, err = optionalRemovable(body.Condition, checkCondition); err != nil {
		return err
	}
	if u.Icon, err = optionalRemovable(body.Icon, checkIcon); err != nil {
		return err
	}
	if u.Description, err = optionalRemovable(body.Description, func(v string) error { return quire.CheckText("description", v, 0, 256) }); err != nil {
		return err
	}
	sec, err := s.db.UpdateSiteSection(r.Context(), site.ID, r.PathValue("siteSectionId"), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.siteRenderer(site, v).section(sec))
}

func (s *Server) deleteSiteSection(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteSectionId", s.db.DeleteSiteSection)
}

func (s *Server) moveSiteSection(w http.ResponseWriter, r *http.Request) error {
	return moveSiteItem(s, w, r, moveSection, s.db.MoveSiteSection, (*siteRenderer).section)
}

func (s *Server) listSiteSectionGroups(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.db.ListSiteSectionGroups(r.Context(), site.ID, p)
	if err != nil {
		return err
	}
	return writeList(w, list, s.siteRenderer(site, v).group)
}

func checkGroupTitle(v string) error { return quire.CheckLen("title", v, 1, 100) }

func (s *Server) createSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Title    *string                `json:"title"`
		Icon     quire.Optional[string] `json:"icon"`
		Sections []string               `json:"sections"`
	}
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	if err := quire.CheckRequired("title", body.Title != nil); err != nil {
		return err
	}
	if err := checkGroupTitle(*body.Title); err != nil {
		return err
	}
	icon, err := givenString(body.Icon, checkIcon)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, id := range body.Sections {
		if seen[id] {
			return errorf(quire.CodeInvalid, "sections[%d]: section %q is listed twice", i, id)
		}
		seen[id] = true
	}
	g, err := s.db.CreateSiteSectionGroup(r.Context(), site.ID, *body.Title, icon, body.Sections)
	if err != nil {
		return err
	}
	return s.createdInSite(w, site, "/section-groups/"+g.ID, s.siteRenderer(site, v).group(g))
}

func (s *Server) updateSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Title quire.Optional[string] `json:"title"`
		Icon  quire.Optional[string] `json:"icon"`
	}
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	title, err := optionalString("title", body.Title, 1, 100)
	if err != nil {
		return err
	}
	icon, err := optionalRemovable(body.Icon, checkIcon)
	if err != nil {
		return err
	}
	g, err := s.db.UpdateSiteSectionGroup(r.Context(), site.ID, r.PathValue("siteSectionGroupId"), title, icon)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.siteRenderer(site, v).group(g))
}

func (s *Server) deleteSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteSectionGroupId", s.db.DeleteSiteSectionGroup)
}

// addSectionToGroup: Contract §4.10. A section is in at most one group:
// adding it to another moves it there, at the end.
func (s *Server) addSectionToGroup(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		SectionID *string `json:"sectionId"`
	}
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	if err := quire.CheckRequired("sectionId", body.SectionID != nil); err != nil {
		return err
	}
	g, err := s.db.AddSectionToGroup(r.Context(), site.ID, r.PathValue("siteSectionGroupId"), *body.SectionID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.siteRenderer(site, v).group(g))
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
	return moveSiteItem(s, w, r, moveSectionGroup, s.db.MoveSiteSectionGroup, (*siteRenderer).group)
}
