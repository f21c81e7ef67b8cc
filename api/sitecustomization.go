package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A site's customization (the reference's SiteCustomizationSettings): PUT
// SITE/customization replaces it whole, as the reference's input requires
// every group of settings; until then the defaults apply, titled with the
// site's title. A site space may override any part of it (PATCH
// …/site-spaces/{id}/customization merges the fields given into its
// overrides, null resetting one to the site's; DELETE drops them all). Every
// customization is checked against the reference's own schema
// (api/schemas/site-customization.json, cut by
// scripts/site-customization-schema.py). Those who read the site read its
// customization; those who manage it (role create) change it. The published
// site renders the title, theme, colours, logo, header and footer links.

//go:embed schemas/site-customization.json
var customizationSchemaJSON []byte

// maxCustomizationBytes bounds a customization body: the reference's
// settings with long link lists fit in a few kilobytes.
const maxCustomizationBytes = 256 << 10

var customizationSchema = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(customizationSchemaJSON))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("quire:site-customization.json", doc); err != nil {
		panic(err)
	}
	return c.MustCompile("quire:site-customization.json")
})

// checkCustomization validates settings against the reference's schema; the
// error names the first field that breaks it.
func checkCustomization(settings map[string]any) error {
	err := customizationSchema().Validate(settings)
	var ve *jsonschema.ValidationError
	if err == nil || !errors.As(err, &ve) {
		return err
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	field := strings.Join(ve.InstanceLocation, ".")
	if field == "" {
		field = "body"
	}
	msg := ve.Error()
	if _, after, ok := strings.Cut(msg, ": "); ok {
		msg = after
	}
	return errorf(quire.CodeInvalid, "%s: %s", field, msg)
}

// decodeSettings reads a JSON object as the schema validator takes it.
func decodeSettings(raw []byte) (map[string]any, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, errorf(quire.CodeInvalid, "body: malformed JSON")
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, errorf(quire.CodeInvalid, "body: must be an object")
	}
	return m, nil
}

// siteSettings is a site's customization in effect: as set, or the
// defaults; titled with the site's title unless it sets one.
func siteSettings(site *quire.Site) map[string]any {
	raw := site.Customization
	if raw == nil {
		raw = json.RawMessage(`{` + defaultCustomization + `}`)
	}
	m, err := decodeSettings(raw)
	if err != nil { // stored validated: cannot happen
		m = map[string]any{}
	}
	if _, ok := m["title"]; !ok {
		m["title"] = site.Title
	}
	return m
}

// mergeSettings returns base with over merged in, objects key by key; a
// null in over removes the key.
func mergeSettings(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if v == nil {
			delete(out, k)
			continue
		}
		b, bok := out[k].(map[string]any)
		o, ook := v.(map[string]any)
		if bok && ook {
			out[k] = mergeSettings(b, o)
		} else {
			out[k] = v
		}
	}
	return out
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
	out := siteSettings(site)
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
	raw, err := readBody(w, r, maxCustomizationBytes)
	if err != nil {
		return err
	}
	if raw == nil {
		return errorf(quire.CodeInvalid, "body: is required")
	}
	settings, err := decodeSettings(raw)
	if err != nil {
		return err
	}
	delete(settings, "updatedAt") // read-only: a GET's answer may be PUT back
	if err := checkCustomization(settings); err != nil {
		return err
	}
	stored, err := json.Marshal(settings)
	if err != nil {
		return err
	}
	updated, err := s.db.SetSiteCustomization(r.Context(), site.ID, stored)
	if err != nil {
		return err
	}
	site.Customization = stored
	out := siteSettings(site)
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
	out := siteSettings(site)
	if over != nil {
		m, err := decodeSettings(over)
		if err != nil {
			return err
		}
		out = mergeSettings(out, m)
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
	raw, err := readBody(w, r, maxCustomizationBytes)
	if err != nil {
		return err
	}
	if raw == nil {
		return errorf(quire.CodeInvalid, "body: is required")
	}
	patch, err := decodeSettings(raw)
	if err != nil {
		return err
	}
	delete(patch, "updatedAt")
	delete(patch, "hasOverrides")
	base := siteSettings(site)
	_, err = s.db.UpdateSiteSpaceCustomization(r.Context(), site.ID, r.PathValue("siteSpaceId"), func(current json.RawMessage) (json.RawMessage, error) {
		over := map[string]any{}
		if current != nil {
			if over, err = decodeSettings(current); err != nil {
				return nil, err
			}
		}
		over = mergeOverrides(over, patch)
		if err := checkCustomization(mergeSettings(base, over)); err != nil {
			return nil, err
		}
		if len(over) == 0 {
			return nil, nil
		}
		return json.Marshal(over)
	})
	if err != nil {
		return err
	}
	return s.siteSpaceSettings(w, r, site)
}

// mergeOverrides merges a PATCH into overrides: a null drops the override,
// so the site's value applies again; objects merge key by key.
func mergeOverrides(over, patch map[string]any) map[string]any {
	out := make(map[string]any, len(over)+len(patch))
	for k, v := range over {
		out[k] = v
	}
	for k, v := range patch {
		b, bok := out[k].(map[string]any)
		o, ook := v.(map[string]any)
		switch {
		case v == nil:
			delete(out, k)
		case bok && ook:
			if m := mergeOverrides(b, o); len(m) > 0 {
				out[k] = m
			} else {
				delete(out, k)
			}
		default:
			out[k] = v
		}
	}
	return out
}

// deleteSiteSpaceCustomization drops a site space's overrides: 205 when it
// had some, 204 when not, as the reference says.
func (s *Server) deleteSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	had, err := s.db.UpdateSiteSpaceCustomization(r.Context(), site.ID, r.PathValue("siteSpaceId"), func(json.RawMessage) (json.RawMessage, error) {
		return nil, nil
	})
	if err != nil {
		return err
	}
	if !had {
		return noContent(w)
	}
	w.WriteHeader(http.StatusResetContent)
	return nil
}

// siteSpaceCustomizations are the customizations in effect of the site
// spaces of st that override their site's, by site space id.
func siteSpaceCustomizations(site *quire.Site, st *quire.SiteStructure) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	var base map[string]any
	for _, ss := range st.AllSiteSpaces() {
		if ss.Customization == nil {
			continue
		}
		over, err := decodeSettings(ss.Customization)
		if err != nil {
			continue // validated when set: cannot happen
		}
		if base == nil {
			base = siteSettings(site)
		}
		if b, err := json.Marshal(mergeSettings(base, over)); err == nil {
			out[ss.ID] = b
		}
	}
	return out
}
