package api

import (
	"cmp"
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

// createSiteSection: Contract §4.9. spaceId null creates a space (titled
// after the section) to publish.
func (s *Server) createSiteSection(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body struct {
		SpaceID spaceSourceJSON        `json:"spaceId"`
		Title   quire.Optional[string] `json:"title"`
		Icon    quire.Optional[string] `json:"icon"`
	}
	if err := readJSON(w, r, &body); err != nil {
		return err
	}
	var n store.NewSiteSection
	if body.Title.HasValue() {
		if err := quire.CheckLen("title", body.Title.Value, 2, 64); err != nil {
			return err
		}
		n.Title = body.Title.Value
	}
	if body.Icon.HasValue() {
		if err := quire.CheckLen("icon", body.Icon.Value, 1, 50); err != nil {
			return err
		}
		n.Icon = body.Icon.Value
	}
	if n.SpaceID, n.NewSpace, err = spaceSource(body.SpaceID, cmp.Or(n.Title, "Untitled")); err != nil {
		return err
	}
	sec, err := s.db.CreateSiteSection(r.Context(), site, n)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.url("/orgs/"+site.OrgID+"/sites/"+site.ID+"/sections/"+sec.ID))
	return writeJSON(w, http.StatusCreated, s.siteRenderer(site, v).section(sec))
}

// updateSiteSection: Contract §4.9. condition, icon and description: a
// string sets, null removes, absent keeps.
func (s *Server) updateSiteSection(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body struct {
		Title            quire.Optional[string] `json:"title"`
		Path             quire.Optional[string] `json:"path"`
		DefaultSiteSpace quire.Optional[string] `json:"defaultSiteSpace"`
		Condition        quire.Optional[string] `json:"condition"`
		Icon             quire.Optional[string] `json:"icon"`
		Description      quire.Optional[string] `json:"description"`
	}
	if err := readJSON(w, r, &body); err != nil {
		return err
	}
	var u store.SiteSectionUpdate
	if u.Title, err = optionalString("title", body.Title, 2, 128); err != nil {
		return err
	}
	if u.Path, err = optionalString("path", body.Path, 1, 100); err != nil {
		return err
	}
	if u.Path != nil {
		if err := quire.CheckSitePath("path", *u.Path); err != nil {
			return err
		}
	}
	if u.DefaultSiteSpace, err = optionalString("defaultSiteSpace", body.DefaultSiteSpace, 1, 256); err != nil {
		return err
	}
	if u.Condition, err = optionalRemovable(body.Condition, func(v string) error { return quire.CheckCondition("condition", v) }); err != nil {
		return err
	}
	if u.Icon, err = optionalRemovable(body.Icon, func(v string) error { return quire.CheckLen("icon", v, 1, 50) }); err != nil {
		return err
	}
	if u.Description, err = optionalRemovable(body.Description, func(v string) error { return quire.CheckLen("description", v, 0, 256) }); err != nil {
		return err
	}
	sec, err := s.db.UpdateSiteSection(r.Context(), site.ID, r.PathValue("siteSectionId"), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.siteRenderer(site, v).section(sec))
}

func (s *Server) deleteSiteSection(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	if err := s.db.DeleteSiteSection(r.Context(), site.ID, r.PathValue("siteSectionId")); err != nil {
		return err
	}
	return noContent(w)
}

// sitePointerJSON names an item of a site in a move: {"type": kind, key: id}.
type sitePointerJSON struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	SiteSection string `json:"siteSection"`
	SiteSpace   string `json:"siteSpace"`
}

// readSitePosition reads the body {"position": {"before"|"after": pointer}}
// of the site move operations; pointer turns a pointer into a sibling, or
// nil when it is not one this operation takes.
func readSitePosition(w http.ResponseWriter, r *http.Request, shape string, pointer func(*sitePointerJSON) *quire.Sibling) (quire.Position, error) {
	var body struct {
		Position *struct {
			Before *sitePointerJSON `json:"before"`
			After  *sitePointerJSON `json:"after"`
		} `json:"position"`
	}
	var pos quire.Position
	if err := readJSON(w, r, &body); err != nil || body.Position == nil {
		return pos, err
	}
	if body.Position.Before != nil && body.Position.After != nil {
		return pos, errorf(quire.CodeInvalid, "position: give before or after, not both")
	}
	for _, p := range []struct {
		field string
		ptr   *sitePointerJSON
		dst   **quire.Sibling
	}{{"position.before", body.Position.Before, &pos.Before}, {"position.after", body.Position.After, &pos.After}} {
		if p.ptr == nil {
			continue
		}
		if *p.dst = pointer(p.ptr); *p.dst == nil {
			return pos, errorf(quire.CodeInvalid, "%s: must be %s", p.field, shape)
		}
	}
	return pos, nil
}

func (s *Server) moveSiteSection(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	pos, err := readSitePosition(w, r, `{"type":"site-section","siteSection":ID}`, func(p *sitePointerJSON) *quire.Sibling {
		if p.Type != "site-section" || p.SiteSection == "" {
			return nil
		}
		return &quire.Sibling{Kind: "site-section", ID: p.SiteSection}
	})
	if err != nil {
		return err
	}
	sec, err := s.db.MoveSiteSection(r.Context(), site.ID, r.PathValue("siteSectionId"), pos)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.siteRenderer(site, v).section(sec))
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
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body struct {
		Title    *string                `json:"title"`
		Icon     quire.Optional[string] `json:"icon"`
		Sections []string               `json:"sections"`
	}
	if err := readJSON(w, r, &body); err != nil {
		return err
	}
	if err := quire.CheckRequired("title", body.Title != nil); err != nil {
		return err
	}
	if err := checkGroupTitle(*body.Title); err != nil {
		return err
	}
	icon := ""
	if body.Icon.HasValue() {
		if err := quire.CheckLen("icon", body.Icon.Value, 1, 50); err != nil {
			return err
		}
		icon = body.Icon.Value
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
	w.Header().Set("Location", s.url("/orgs/"+site.OrgID+"/sites/"+site.ID+"/section-groups/"+g.ID))
	return writeJSON(w, http.StatusCreated, s.siteRenderer(site, v).group(g))
}

func (s *Server) updateSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body struct {
		Title quire.Optional[string] `json:"title"`
		Icon  quire.Optional[string] `json:"icon"`
	}
	if err := readJSON(w, r, &body); err != nil {
		return err
	}
	title, err := optionalString("title", body.Title, 1, 100)
	if err != nil {
		return err
	}
	icon, err := optionalRemovable(body.Icon, func(v string) error { return quire.CheckLen("icon", v, 1, 50) })
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
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	if err := s.db.DeleteSiteSectionGroup(r.Context(), site.ID, r.PathValue("siteSectionGroupId")); err != nil {
		return err
	}
	return noContent(w)
}

// addSectionToGroup: Contract §4.10. A section is in at most one group:
// adding it to another moves it there, at the end.
func (s *Server) addSectionToGroup(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body struct {
		SectionID *string `json:"sectionId"`
	}
	if err := readJSON(w, r, &body); err != nil {
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
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	if err := s.db.RemoveSectionFromGroup(r.Context(), site.ID, r.PathValue("siteSectionGroupId"), r.PathValue("siteSectionId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) moveSiteSectionGroup(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	pos, err := readSitePosition(w, r, `{"type":"site-section" or "site-section-group","id":ID}`, func(p *sitePointerJSON) *quire.Sibling {
		if (p.Type != "site-section" && p.Type != "site-section-group") || p.ID == "" {
			return nil
		}
		return &quire.Sibling{Kind: p.Type, ID: p.ID}
	})
	if err != nil {
		return err
	}
	g, err := s.db.MoveSiteSectionGroup(r.Context(), site.ID, r.PathValue("siteSectionGroupId"), pos)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.siteRenderer(site, v).group(g))
}
