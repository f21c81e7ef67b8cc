package api

import (
	"cmp"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Contract §4.11 Site spaces and §4.12 site redirects.

func (s *Server) listSiteSpaces(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.sharedSite(r)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	var f store.SiteSpaceFilter
	if f.Default, err = optBoolParam(r, "default"); err != nil {
		return err
	}
	list, err := s.db.ListSiteSpaces(r.Context(), site.ID, f, p)
	if err != nil {
		return err
	}
	return writeList(w, list, s.siteRenderer(site, v).siteSpace)
}

// createSiteSpace: Contract §4.11. sectionId defaults to the default section,
// or the root of a site without sections; spaceId null creates a space
// (titled by title) to publish.
func (s *Server) createSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		SpaceID   spaceSourceJSON        `json:"spaceId"`
		SectionID quire.Optional[string] `json:"sectionId"`
		Title     quire.Optional[string] `json:"title"`
	}
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	title, err := givenString(body.Title, func(title string) error { return quire.CheckLen("title", title, 2, 128) })
	if err != nil {
		return err
	}
	var n store.NewSiteSpace
	if n.SpaceID, n.NewSpace, err = spaceSource(body.SpaceID, cmp.Or(title, "Untitled")); err != nil {
		return err
	}
	if body.SectionID.HasValue() {
		n.SectionID = body.SectionID.Value
	}
	ss, err := s.db.CreateSiteSpace(r.Context(), site, n)
	if err != nil {
		return err
	}
	return s.createdInSite(w, site, "/site-spaces/"+ss.ID, s.siteRenderer(site, v).siteSpace(ss))
}

// updateSiteSpace: path (unique in its section or the root), and condition:
// a string sets it, null removes it, absent keeps it.
func (s *Server) updateSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Path      quire.Optional[string] `json:"path"`
		Condition quire.Optional[string] `json:"condition"`
	}
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	var u store.SiteSpaceUpdate
	if u.Path, err = optionalSitePath(body.Path); err != nil {
		return err
	}
	if u.Condition, err = optionalRemovable(body.Condition, checkCondition); err != nil {
		return err
	}
	ss, err := s.db.UpdateSiteSpace(r.Context(), site.ID, r.PathValue("siteSpaceId"), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.siteRenderer(site, v).siteSpace(ss))
}

// deleteSiteSpace unpublishes a space from the site; the space stays.
func (s *Server) deleteSiteSpace(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteSpaceId", s.db.DeleteSiteSpace)
}

func (s *Server) moveSiteSpace(w http.ResponseWriter, r *http.Request) error {
	return moveSiteItem(s, w, r, moveSiteSpace, s.db.MoveSiteSpace, (*siteRenderer).siteSpace)
}

type siteRedirectJSON struct {
	Object          string                  `json:"object"`
	ID              string                  `json:"id"`
	Source          string                  `json:"source"`
	Draft           bool                    `json:"draft"`
	CaptureWildcard bool                    `json:"captureWildcard"`
	Permanent       bool                    `json:"permanent"`
	Destination     redirectDestinationJSON `json:"destination"`
	CreatedAt       string                  `json:"createdAt"`
	UpdatedAt       string                  `json:"updatedAt,omitempty"`
}

// redirectDestinationJSON is the one destination the contract lists: a
// section of the site.
type redirectDestinationJSON struct {
	Kind          string `json:"kind"`
	SiteSectionID string `json:"siteSectionId"`
}

func siteRedirectOut(rd *quire.SiteRedirect) siteRedirectJSON {
	j := siteRedirectJSON{
		Object: "site-redirect", ID: rd.ID, Source: rd.Source, CreatedAt: timeJSON(rd.CreatedAt),
		Destination: redirectDestinationJSON{Kind: "site-section", SiteSectionID: rd.SectionID},
	}
	if !rd.UpdatedAt.IsZero() {
		j.UpdatedAt = timeJSON(rd.UpdatedAt)
	}
	return j
}

func (s *Server) listSiteRedirects(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.db.ListSiteRedirects(r.Context(), site.ID, p)
	if err != nil {
		return err
	}
	return writeList(w, list, siteRedirectOut)
}

// redirectBody is the body of the redirect writes.
type redirectBody struct {
	Source      *string                  `json:"source"`
	Destination *redirectDestinationJSON `json:"destination"`
}

// parse validates the fields given; required says both must be.
func (b *redirectBody) parse(required bool) (source, section *string, err error) {
	if required {
		if err := quire.FirstError(quire.CheckRequired("source", b.Source != nil), quire.CheckRequired("destination", b.Destination != nil)); err != nil {
			return nil, nil, err
		}
	}
	if b.Source != nil {
		if err := quire.CheckRedirectSource("source", *b.Source); err != nil {
			return nil, nil, err
		}
	}
	if d := b.Destination; d != nil {
		if d.Kind != "site-section" || d.SiteSectionID == "" {
			return nil, nil, errorf(quire.CodeInvalid, `destination: must be {"kind":"site-section","siteSectionId":ID}`)
		}
		section = &d.SiteSectionID
	}
	return b.Source, section, nil
}

func (s *Server) createSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	var body redirectBody
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	source, section, err := body.parse(true)
	if err != nil {
		return err
	}
	rd, err := s.db.CreateSiteRedirect(r.Context(), site.ID, *source, *section)
	if err != nil {
		return err
	}
	return s.createdInSite(w, site, "/redirects/"+rd.ID, siteRedirectOut(rd))
}

func (s *Server) updateSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	var body redirectBody
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	source, section, err := body.parse(false)
	if err != nil {
		return err
	}
	rd, err := s.db.UpdateSiteRedirect(r.Context(), site.ID, r.PathValue("siteRedirectId"), source, section)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, siteRedirectOut(rd))
}

func (s *Server) deleteSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteRedirectId", s.db.DeleteSiteRedirect)
}

// getSiteRedirect resolves a source path: the redirect and the published URL
// of its destination section (where it would be, for an unpublished site).
func (s *Server) getSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.sharedSite(r)
	if err != nil {
		return err
	}
	source := r.URL.Query().Get("source")
	if err := quire.CheckRequired("source", source != ""); err != nil {
		return err
	}
	if err := quire.CheckRedirectSource("source", source); err != nil {
		return err
	}
	rd, err := s.db.SiteRedirectBySource(r.Context(), site.ID, source)
	if err != nil {
		return err
	}
	sec, err := s.db.SiteSection(r.Context(), site.ID, rd.SectionID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, struct {
		Redirect siteRedirectJSON `json:"redirect"`
		Target   string           `json:"target"`
	}{siteRedirectOut(rd), s.siteRenderer(site, v).sectionURL(sec)})
}
