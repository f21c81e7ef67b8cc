package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Contract §4.11 Site spaces and §4.12 site redirects.

func (s *Server) listSiteSpaces(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.sharedSite(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.SiteSpace], error) {
		f, err := store.SiteSpaceFilter{}, error(nil)
		if f.Default, err = optBoolParam(r, "default"); err != nil {
			return nil, err
		}
		return s.db.ListSiteSpaces(ctx, site.ID, f, p)
	}, s.wire.SiteRenderer(site, v).SiteSpace)
}

// createSiteSpace: Contract §4.11. sectionId defaults to the default section,
// or the root of a site without sections; spaceId null creates a space
// (titled by title) to publish.
func (s *Server) createSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body wire.AddSpaceToSite
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSpace, error) {
		return s.db.CreateSiteSpace(ctx, site, body.NewSiteSpace(authoring.PublishedSpace))
	}, (*wire.SiteRenderer).SiteSpace, func(ss *quire.SiteSpace) string { return "/site-spaces/" + ss.ID })
}

// updateSiteSpace: path (unique in its section or the root), and condition:
// a string sets it, null removes it, absent keeps it.
func (s *Server) updateSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body wire.UpdateSiteSpace
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSpace, error) {
		return s.db.UpdateSiteSpace(ctx, site.ID, r.PathValue("siteSpaceId"), body.Update())
	}, (*wire.SiteRenderer).SiteSpace, nil)
}

// deleteSiteSpace unpublishes a space from the site; the space stays.
func (s *Server) deleteSiteSpace(w http.ResponseWriter, r *http.Request) error {
	return s.deleteSiteItem(w, r, "siteSpaceId", s.db.DeleteSiteSpace)
}

func (s *Server) moveSiteSpace(w http.ResponseWriter, r *http.Request) error {
	return moveSiteItem(s, w, r, moveSiteSpace, s.db.MoveSiteSpace, (*wire.SiteRenderer).SiteSpace)
}

func (s *Server) listSiteRedirects(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.SiteRedirect], error) {
		return s.db.ListSiteRedirects(ctx, site.ID, p)
	}, wire.SiteRedirectOf)
}

func (s *Server) createSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	body := wire.SiteRedirectInput{Required: true}
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteRedirect, error) {
		return s.db.CreateSiteRedirect(ctx, site.ID, *body.Source, *body.Section())
	}, showRedirect, func(rd *quire.SiteRedirect) string { return "/redirects/" + rd.ID })
}

func (s *Server) updateSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	var body wire.SiteRedirectInput
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteRedirect, error) {
		return s.db.UpdateSiteRedirect(ctx, site.ID, r.PathValue("siteRedirectId"), body.Source, body.Section())
	}, showRedirect, nil)
}

// showRedirect is wire.SiteRedirectOf in the shape writeSiteItem takes: a
// redirect's form is the same for every caller.
func showRedirect(_ *wire.SiteRenderer, rd *quire.SiteRedirect) wire.SiteRedirect {
	return wire.SiteRedirectOf(rd)
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
	source := query(r).Get("source")
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
		Redirect wire.SiteRedirect `json:"redirect"`
		Target   string            `json:"target"`
	}{wire.SiteRedirectOf(rd), s.wire.SiteRenderer(site, v).SectionURL(sec)})
}

// duplicateSiteSpace copies the space a site space publishes, as POST
// S/duplicate does, and publishes the copy right after it: 201 with the new
// site space. It needs the create role on the site, read on the space and
// the create role where the copy goes, as duplicating the space does.
func (s *Server) duplicateSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body wire.DuplicateSiteSpace
	site, v, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	ss, err := s.db.SiteSpace(r.Context(), site.ID, r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	sp := ss.Space
	if !v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors).AtLeast(quire.RoleRead) {
		return errorf(quire.CodeForbidden, "duplicating needs the read role on the space")
	}
	if err := s.requireCreateIn(r, v, sp.OrgID, sp.ParentID); err != nil {
		if quire.ErrorCode(err) == quire.CodeInvalid {
			return errorf(quire.CodeForbidden, "duplicating needs the create role on the space's collection")
		}
		return err
	}
	dup, err := s.db.DuplicateSiteSpace(r.Context(), site, ss.ID)
	if err != nil {
		return err
	}
	return s.createdInSite(w, site, "/site-spaces/"+dup.ID, s.wire.SiteRenderer(site, v).SiteSpace(dup))
}
