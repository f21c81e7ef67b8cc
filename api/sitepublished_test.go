package api_test

import (
	"net/http"
	"testing"
)

// TestPublishedSiteSpaceCustomizations: GET SITE/published holds, for
// every site space of a site with sections, the customization the renderer
// shows its pages with: the site's, with what a PATCH of the site space's
// customization overrides, until a DELETE drops the overrides.
func TestPublishedSiteSpaceCustomizations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	guide, apiSpace := siteNewSpace(t, e, "Guide"), siteNewSpace(t, e, "API")
	s := siteCreate(t, e, map[string]any{"title": "Docs"})
	sectionSiteSpace := func(spaceID, title string) string {
		var sec struct {
			SiteSpaces []struct{ ID string } `json:"siteSpaces"`
		}
		e.call(t, e.admin.token, "POST", sitePath(e, s.ID, "/sections"), map[string]any{"spaceId": spaceID, "title": title}).
			want(t, http.StatusCreated).Decode(t, &sec)
		if len(sec.SiteSpaces) != 1 {
			t.Fatalf("section %s: site spaces %+v", title, sec.SiteSpaces)
		}
		return sec.SiteSpaces[0].ID
	}
	g, a := sectionSiteSpace(guide, "Guide"), sectionSiteSpace(apiSpace, "API")
	published := sitePath(e, s.ID, "/published")
	over := sitePath(e, s.ID, "/site-spaces/"+a+"/customization")
	run(t, e, fullChecked([]scenario{
		{path: published, want: []check{field("structure.type", "sections"),
			field("customizations.siteSpaces."+g+".title", "Docs"), field("customizations.siteSpaces."+a+".title", "Docs")}},
		{method: "PATCH", path: over, body: map[string]any{"title": "API reference", "styling": map[string]any{"theme": "muted"}},
			want: []check{field("hasOverrides", true)}},
		{path: published, want: []check{field("customizations.site.title", "Docs"),
			field("customizations.siteSpaces."+a+".title", "API reference"), field("customizations.siteSpaces."+a+".styling.theme", "muted"),
			field("customizations.siteSpaces."+g+".title", "Docs"), field("customizations.siteSpaces."+g+".styling.theme", "clean")}},
		{method: "DELETE", path: over, status: http.StatusResetContent},
		{path: published, want: []check{field("customizations.siteSpaces."+a+".title", "Docs"), field("customizations.siteSpaces."+a+".styling.theme", "clean")}},
	}))
}
