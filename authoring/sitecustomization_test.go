package authoring_test

import (
	"encoding/json"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

// newSite is a site of the fixture's organization publishing its space, and
// the id of that site space.
func (f *fixture) newSite(t *testing.T) (*quire.Site, string) {
	t.Helper()
	site, err := f.db.CreateSite(t.Context(), f.space.OrgID, store.NewSite{Type: quire.SiteBasic, Title: "Docs", Visibility: quire.VisibilityPublic,
		SpaceIDs: []string{f.space.ID}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.db.SiteStructure(t.Context(), site.ID)
	if err != nil {
		t.Fatal(err)
	}
	return site, st.AllSiteSpaces()[0].ID
}

func TestOverrideSiteSpaceCustomization(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	site, ssID := f.newSite(t)
	// Each step patches the overrides left by the one before.
	for _, step := range []struct {
		name  string
		patch string
		code  quire.Code // of the error, "" for none
		want  string     // the overrides stored after it, "" for none
	}{
		{"a title", `{"title":"Space"}`, "", `{"title":"Space"}`},
		{"read-only fields are dropped", `{"updatedAt":"x","hasOverrides":true,"styling":{"theme":"muted"}}`, "",
			`{"styling":{"theme":"muted"},"title":"Space"}`},
		{"an invalid result is refused and changes nothing", `{"styling":{"theme":"loud"}}`, quire.CodeInvalid,
			`{"styling":{"theme":"muted"},"title":"Space"}`},
		{"null resets one", `{"title":null}`, "", `{"styling":{"theme":"muted"}}`},
		{"overrides left empty are removed", `{"styling":{"theme":null}}`, "", ""},
	} {
		var patch map[string]any
		if err := json.Unmarshal([]byte(step.patch), &patch); err != nil {
			t.Fatal(err)
		}
		err := f.author.OverrideSiteSpaceCustomization(t.Context(), site, ssID, patch)
		if quire.ErrorCode(err) != step.code {
			t.Fatalf("%s: OverrideSiteSpaceCustomization = %v, want code %q", step.name, err, step.code)
		}
		over, _, err := f.db.SiteSpaceCustomization(t.Context(), site.ID, ssID)
		if err != nil {
			t.Fatal(err)
		}
		if string(over) != step.want {
			t.Fatalf("%s: overrides %s, want %s", step.name, over, step.want)
		}
	}
	if err := f.author.OverrideSiteSpaceCustomization(t.Context(), site, "nope", map[string]any{"title": "T"}); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Fatalf("unknown site space: %v, want not found", err)
	}
	if had, err := f.author.ResetSiteSpaceCustomization(t.Context(), site, ssID); err != nil || had {
		t.Fatalf("ResetSiteSpaceCustomization = %v, %v; want false, nil", had, err)
	}
}

func TestSetSiteCustomization(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	site, _ := f.newSite(t)
	bad := map[string]any{"title": 3}
	if _, _, err := f.author.SetSiteCustomization(t.Context(), site, bad); quire.ErrorCode(err) != quire.CodeInvalid {
		t.Fatalf("SetSiteCustomization(invalid) = %v, want invalid", err)
	}
	settings := authoring.SiteSettings(site) // a GET's answer, put back
	settings["title"], settings["updatedAt"] = "Own", "2020-01-01T00:00:00Z"
	out, updated, err := f.author.SetSiteCustomization(t.Context(), site, settings)
	if err != nil || updated.IsZero() || out["title"] != "Own" || out["updatedAt"] != nil {
		t.Fatalf("SetSiteCustomization = %v, %v, %v", out, updated, err)
	}
	stored, err := f.db.Site(t.Context(), site.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := authoring.SiteSettings(stored); got["title"] != "Own" || got["updatedAt"] != nil {
		t.Fatalf("stored %s; want the settings without updatedAt", stored.Customization)
	}
}
