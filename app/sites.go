package app

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
)

// An organization's docs sites: the list, and each site with its sections
// and spaces and where it is published. Members with the create role make
// sites, add spaces and sections, and publish or unpublish them, through
// the store calls of the API's site operations.

type sitesData struct {
	Org       *quire.Organization
	Sites     []*quire.Site
	CanManage bool
	PublicURL string
}

// siteViewer is the user's viewer of the organization in the path, for
// changing its sites: 404 for who is not a member, 403 for its guests.
func (s *Server) siteViewer(r *http.Request) (*quire.Viewer, error) {
	v, err := s.viewer(r.Context(), r.PathValue("organizationId"))
	if err == nil && !v.OrgRole.AtLeast(quire.RoleRead) {
		err = quire.Errorf(quire.CodeForbidden, "guests cannot change the organization's sites")
	}
	return v, err
}

func (s *Server) sitesPage(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewer(r.Context(), r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	org, err := s.db.Organization(r.Context(), r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	var f store.SiteFilter
	if !v.OrgRole.AtLeast(quire.RoleRead) { // a guest sees the sites granted to them, as GET O/sites
		f.Only = v.Granted(quire.RoleRead)
	}
	sites, err := listAll(s.db.ListSites(r.Context(), org.ID, f, store.Page{Limit: maxListed}))
	if err != nil {
		return err
	}
	d := sitesData{Org: org, Sites: sites, CanManage: v.OrgRole.AtLeast(quire.RoleCreate), PublicURL: s.cfg.PublicURL}
	return s.render(w, r, http.StatusOK, "sites", "Sites · "+org.Title, d)
}

// createSite creates an unpublished public site, as POST O/sites: the
// create role in the organization; with a space, it publishes that one.
func (s *Server) createSite(w http.ResponseWriter, r *http.Request) error {
	v, err := s.siteViewer(r)
	if err != nil {
		return err
	}
	if !v.OrgRole.AtLeast(quire.RoleCreate) {
		return quire.Errorf(quire.CodeForbidden, "creating a site needs the create role in the organization")
	}
	title, err := formValue(r, "title", 2, 128)
	if err != nil {
		return err
	}
	n := store.NewSite{Type: quire.SiteBasic, Title: title, Visibility: quire.VisibilityPublic}
	if id := r.PostForm.Get("space"); id != "" {
		n.SpaceIDs = []string{id}
	}
	site, err := s.db.CreateSite(r.Context(), r.PathValue("organizationId"), n)
	if err != nil {
		return err
	}
	return backTo(w, r, quire.AppSiteURL("", site.OrgID, site.ID))
}

// site loads the site of the path with the user's viewer: 404 unless they
// read the organization's sites, 403 below need (as the API's s.site).
func (s *Server) site(r *http.Request, need quire.Role) (*quire.Site, *quire.Viewer, error) {
	v, err := s.viewer(r.Context(), r.PathValue("organizationId"))
	if err != nil {
		return nil, nil, err
	}
	site, err := s.db.Site(r.Context(), r.PathValue("siteId"))
	if err == nil && site.OrgID != r.PathValue("organizationId") {
		err = quire.Errorf(quire.CodeNotFound, "site not found")
	}
	if err != nil {
		return nil, nil, err
	}
	return site, v, quire.RequireRole(v.RoleOnSite(site.ID), need, "site")
}

// siteURL is where visitors reach a site: through its proxy when it has
// one, else at its address (as the API's urls.published).
func (s *Server) siteURL(site *quire.Site) string {
	if site.Proxy != "" {
		return "https://" + site.Proxy + "/"
	}
	return site.Address(s.cfg.PublicURL)
}

type siteData struct {
	Site      *quire.Site
	OrgURL    string
	URL       string // where it is (or would be) published
	Hostname  *hostnameView
	CanManage bool
	Root      []*quire.SiteSpace // site spaces outside sections
	Sections  []*quire.SiteSection
	Spaces    []*quire.Space // the spaces the user may add
}

// sitePage shows a site: its sections and spaces, whether and where it is
// published, and to managers the forms that change them.
func (s *Server) sitePage(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	ctx, all := r.Context(), store.Page{Limit: maxListed}
	d := siteData{Site: site, OrgURL: quire.AppOrgURL("", site.OrgID), URL: s.siteURL(site), CanManage: v.RoleOnSite(site.ID).AtLeast(quire.RoleCreate)}
	if d.Hostname, err = s.hostnameView(ctx, site); err != nil {
		return err
	}
	if d.Sections, err = listAll(s.db.ListSiteSections(ctx, site.ID, all)); err != nil {
		return err
	}
	siteSpaces, err := listAll(s.db.ListSiteSpaces(ctx, site.ID, store.SiteSpaceFilter{}, all))
	if err != nil {
		return err
	}
	for _, ss := range siteSpaces {
		if ss.SectionID == "" {
			d.Root = append(d.Root, ss)
		}
	}
	if d.CanManage {
		if d.Spaces, err = listAll(s.db.ListSpaces(ctx, site.OrgID, store.SpaceFilter{VisibleTo: v}, all)); err != nil {
			return err
		}
	}
	return s.render(w, r, http.StatusOK, "site", site.Title, d)
}

// addSiteSpace publishes a space on the site, as POST SITE/site-spaces:
// in the section chosen, or the default one (the root without sections).
func (s *Server) addSiteSpace(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	id, err := formValue(r, "space", 1, 256)
	if err != nil {
		return err
	}
	n := store.NewSiteSpace{SpaceID: id, SectionID: r.PostForm.Get("section")}
	if _, err := s.db.CreateSiteSpace(r.Context(), site, n); err != nil {
		return err
	}
	return backTo(w, r, quire.AppSiteURL("", site.OrgID, site.ID))
}

// addSiteSection adds a section publishing a space, as POST SITE/sections.
func (s *Server) addSiteSection(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	title, err := formValue(r, "title", 2, 64)
	if err != nil {
		return err
	}
	id, err := formValue(r, "space", 1, 256)
	if err != nil {
		return err
	}
	if _, err := s.db.CreateSiteSection(r.Context(), site, store.NewSiteSection{SpaceID: id, Title: title}); err != nil {
		return err
	}
	return backTo(w, r, quire.AppSiteURL("", site.OrgID, site.ID))
}

// publishSite publishes (published=true) or takes down the site, as PATCH
// SITE with published.
func (s *Server) publishSite(w http.ResponseWriter, r *http.Request) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	published := r.PostForm.Get("published") == "true"
	if _, err := s.db.UpdateSite(r.Context(), site.ID, store.SiteUpdate{Published: &published, Actor: v.UserID}); err != nil {
		return err
	}
	return backTo(w, r, quire.AppSiteURL("", site.OrgID, site.ID))
}

// hostnameView is a site's custom hostname: pending until its DNS proves
// it the organization's (api/customhostnames.go), with the records to add
// and the last check.
type hostnameView struct {
	Hostname, RecordName, RecordValue, CNAMETarget string
	Verified                                       bool
	Check                                          *store.HostnameCheck
}

func (s *Server) hostnameView(ctx context.Context, site *quire.Site) (*hostnameView, error) {
	if site.Hostname == "" {
		return nil, nil
	}
	verifiedAt, err := s.db.HostnameVerifiedAt(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	token, err := s.db.VerificationToken(ctx, site.OrgID, site.Hostname)
	if err != nil {
		return nil, err
	}
	h := &hostnameView{Hostname: site.Hostname, RecordName: dnscheck.RecordName(site.Hostname), RecordValue: dnscheck.RecordValue(token),
		Verified: !verifiedAt.IsZero()}
	if u, err := url.Parse(s.cfg.PublicURL); err == nil {
		h.CNAMETarget = strings.ToLower(u.Hostname())
	}
	h.Check, err = s.db.HostnameCheck(ctx, site.Hostname)
	return h, err
}

// checkSiteHostname checks the site's custom hostname's DNS now, as PATCH
// /custom-hostnames/{hostname} does: it is served once proved.
func (s *Server) checkSiteHostname(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	if site.Hostname == "" {
		return quire.Errorf(quire.CodeInvalid, "hostname: the site has no custom hostname")
	}
	h := store.SiteHostname{SiteID: site.ID, OrgID: site.OrgID, Hostname: site.Hostname}
	if _, err := jobs.CheckHostname(r.Context(), s.db, s.cfg.DNS, h, jobs.HostnameGrace); err != nil {
		return err
	}
	return backTo(w, r, quire.AppSiteURL("", site.OrgID, site.ID))
}
