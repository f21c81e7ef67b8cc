package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/wire"
)

// A site's customization (the reference's SiteCustomizationSettings): PUT
// SITE/customization replaces it whole, as the reference's input requires
// every group of settings; until then the defaults apply, titled with the
// site's title. A site space may override any part of it (PATCH
// …/site-spaces/{id}/customization merges the fields given into its
// overrides, null resetting one to the site's; DELETE drops them all). The
// rules (the reference's schema, how overrides merge) are authoring's
// (sitesettings.go). Those who read the site read its customization; those
// who manage it (role create) change it. The published site renders the
// title, theme, colours, logo, header and footer links.

// maxCustomizationBytes bounds a customization body: the reference's
// settings with long link lists fit in a few kilobytes.
const maxCustomizationBytes = 256 << 10

// readSettings reads a customization body: a JSON object, required.
func readSettings(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	raw, err := readBody(w, r, maxCustomizationBytes)
	if err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, errorf(quire.CodeInvalid, "body: is required")
	}
	return authoring.DecodeSettings(raw)
}

func (s *Server) getSiteCustomization(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	updated, err := s.db.SiteCustomizationUpdated(r.Context(), site.ID)
	if err != nil {
		return err
	}
	out := authoring.SiteSettings(site)
	if !updated.IsZero() {
		out["updatedAt"] = wire.Time(updated)
	}
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) putSiteCustomization(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	settings, err := readSettings(w, r)
	if err != nil {
		return err
	}
	out, updated, err := s.author.SetSiteCustomization(r.Context(), site, settings)
	if err != nil {
		return err
	}
	out["updatedAt"] = wire.Time(updated)
	return writeJSON(w, http.StatusOK, out)
}

// siteSpaceSettings answers a site space's customization in effect: the
// site's with the space's overrides.
func (s *Server) siteSpaceSettings(w http.ResponseWriter, r *http.Request, site *quire.Site) error {
	over, updated, err := s.db.SiteSpaceCustomization(r.Context(), site.ID, r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	out, err := authoring.SiteSpaceSettings(site, over)
	if err != nil {
		return err
	}
	if over != nil {
		out["updatedAt"] = wire.Time(updated)
	}
	out["hasOverrides"] = over != nil
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) getSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return s.siteSpaceSettings(w, r, site)
}

// overrideSiteSpaceCustomization merges the body into the site space's
// overrides; the result, over the site's customization, must be valid.
func (s *Server) overrideSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	patch, err := readSettings(w, r)
	if err != nil {
		return err
	}
	if err := s.author.OverrideSiteSpaceCustomization(r.Context(), site, r.PathValue("siteSpaceId"), patch); err != nil {
		return err
	}
	return s.siteSpaceSettings(w, r, site)
}

// deleteSiteSpaceCustomization drops a site space's overrides: 205 when it
// had some, 204 when not, as the reference says.
func (s *Server) deleteSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	had, err := s.author.ResetSiteSpaceCustomization(r.Context(), site, r.PathValue("siteSpaceId"))
	if err != nil {
		return err
	}
	return deleted(w, had)
}
