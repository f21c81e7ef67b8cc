package api

import (
	"cmp"
	"context"
	"net/http"

	"github.com/quiredocs/quire"
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

// siteSpaceCreateRequest is the body of POST SITE/site-spaces.
type siteSpaceCreateRequest struct {
	SpaceID   spaceSourceJSON        `json:"spaceId"`
	SectionID quire.Optional[string] `json:"sectionId"`
	Title     quire.Optional[string] `json:"title"`
}

func (b *siteSpaceCreateRequest) Validate() error {
	return quire.FirstError(
		checkGiven(b.Title, func(title string) error { return quire.CheckLen("title", title, 2, 128) }),
		checkSpaceSource(b.SpaceID),
	)
}

// newSiteSpace is the site space a validated b creates.
func (b *siteSpaceCreateRequest) newSiteSpace() store.NewSiteSpace {
	n := store.NewSiteSpace{SectionID: b.SectionID.Value} // null is ""
	n.SpaceID, n.NewSpace = spaceSource(b.SpaceID, cmp.Or(b.Title.Value, "Untitled"))
	return n
}

// createSiteSpace: Contract §4.11. sectionId defaults to the default section,
// or the root of a site without sections; spaceId null creates a space
// (titled by title) to publish.
func (s *Server) createSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body siteSpaceCreateRequest
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSpace, error) {
		return s.db.CreateSiteSpace(ctx, site, body.newSiteSpace())
	}, (*wire.SiteRenderer).SiteSpace, func(ss *quire.SiteSpace) string { return "/site-spaces/" + ss.ID })
}

// siteSpaceUpdateRequest is the body of PATCH SITE/site-spaces/{siteSpaceId}.
type siteSpaceUpdateRequest struct {
	Path      quire.Optional[string] `json:"path"`
	Condition quire.Optional[string] `json:"condition"` // null removes it
}

func (b *siteSpaceUpdateRequest) Validate() error {
	return quire.FirstError(checkSitePath(b.Path), checkRemovable(b.Condition, checkCondition))
}

// updateSiteSpace: path (unique in its section or the root), and condition:
// a string sets it, null removes it, absent keeps it.
func (s *Server) updateSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body siteSpaceUpdateRequest
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteSpace, error) {
		u := store.SiteSpaceUpdate{Path: setValue(body.Path), Condition: setValue(body.Condition)}
		return s.db.UpdateSiteSpace(ctx, site.ID, r.PathValue("siteSpaceId"), u)
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

// redirectBody is the body of the redirect writes.
type redirectBody struct {
	Source      *string                   `json:"source"`
	Destination *wire.RedirectDestination `json:"destination"`

	required bool // both fields must be given (create)
}

// Validate checks the fields given, and that both are when required.
func (b *redirectBody) Validate() error {
	if b.required {
		if err := quire.FirstError(quire.CheckRequired("source", b.Source != nil), quire.CheckRequired("destination", b.Destination != nil)); err != nil {
			return err
		}
	}
	if b.Source != nil {
		if err := quire.CheckRedirectSource("source", *b.Source); err != nil {
			return err
		}
	}
	if d := b.Destination; d != nil {
		if d.Kind != "site-section" || d.SiteSectionID == "" {
			return errorf(quire.CodeInvalid, `destination: must be {"kind":"site-section","siteSectionId":ID}`)
		}
	}
	return nil
}

// section is the destination section of a validated b, nil when absent.
func (b *redirectBody) section() *string {
	if b.Destination == nil {
		return nil
	}
	return &b.Destination.SiteSectionID
}

func (s *Server) createSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	body := redirectBody{required: true}
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteRedirect, error) {
		return s.db.CreateSiteRedirect(ctx, site.ID, *body.Source, *body.section())
	}, showRedirect, func(rd *quire.SiteRedirect) string { return "/redirects/" + rd.ID })
}

func (s *Server) updateSiteRedirect(w http.ResponseWriter, r *http.Request) error {
	var body redirectBody
	return writeSiteItem(s, w, r, &body, func(ctx context.Context, site *quire.Site) (*quire.SiteRedirect, error) {
		return s.db.UpdateSiteRedirect(ctx, site.ID, r.PathValue("siteRedirectId"), body.Source, body.section())
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

// siteSpaceDuplicateRequest is the body of POST …/site-spaces/{id}/duplicate.
type siteSpaceDuplicateRequest struct {
	Draft *bool `json:"draft"`
}

func (b *siteSpaceDuplicateRequest) Validate() error {
	if b.Draft != nil && *b.Draft {
		return errorf(quire.CodeInvalid, "draft: Quire sites have no drafts; omit it or give false")
	}
	return nil
}

// duplicateSiteSpace copies the space a site space publishes, as POST
// S/duplicate does, and publishes the copy right after it: 201 with the new
// site space. It needs the create role on the site, read on the space and
// the create role where the copy goes, as duplicating the space does.
func (s *Server) duplicateSiteSpace(w http.ResponseWriter, r *http.Request) error {
	var body siteSpaceDuplicateRequest
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
