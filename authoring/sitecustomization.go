package authoring

import (
	"context"
	"encoding/json"
	"time"

	"github.com/quiredocs/quire"
)

// SetSiteCustomization replaces a site's customization with settings, once
// they pass the reference's schema (updatedAt, read-only, is dropped, so a
// GET's answer may be PUT back). It returns the settings in effect and when
// they were set.
func (a *Author) SetSiteCustomization(ctx context.Context, site *quire.Site, settings map[string]any) (map[string]any, time.Time, error) {
	delete(settings, "updatedAt")
	if err := CheckCustomization(settings); err != nil {
		return nil, time.Time{}, err
	}
	stored, err := json.Marshal(settings)
	if err != nil {
		return nil, time.Time{}, err
	}
	updated, err := a.DB.SetSiteCustomization(ctx, site.ID, stored)
	if err != nil {
		return nil, time.Time{}, err
	}
	site.Customization = stored
	return SiteSettings(site), updated, nil
}

// OverrideSiteSpaceCustomization merges patch into the overrides of the site
// space siteSpaceID of site (MergeOverrides; the read-only updatedAt and
// hasOverrides are dropped), in one transaction; the result, over the site's
// customization, must pass the reference's schema. Overrides left empty are
// removed.
func (a *Author) OverrideSiteSpaceCustomization(ctx context.Context, site *quire.Site, siteSpaceID string, patch map[string]any) error {
	delete(patch, "updatedAt")
	delete(patch, "hasOverrides")
	base := SiteSettings(site)
	_, err := a.DB.UpdateSiteSpaceCustomization(ctx, site.ID, siteSpaceID, func(current json.RawMessage) (json.RawMessage, error) {
		over := map[string]any{}
		if current != nil {
			var err error
			if over, err = DecodeSettings(current); err != nil {
				return nil, err
			}
		}
		over = MergeOverrides(over, patch)
		if err := CheckCustomization(MergeSettings(base, over)); err != nil {
			return nil, err
		}
		if len(over) == 0 {
			return nil, nil
		}
		return json.Marshal(over)
	})
	return err
}

// ResetSiteSpaceCustomization drops the overrides of the site space
// siteSpaceID of site, reporting whether it had some.
func (a *Author) ResetSiteSpaceCustomization(ctx context.Context, site *quire.Site, siteSpaceID string) (bool, error) {
	return a.DB.UpdateSiteSpaceCustomization(ctx, site.ID, siteSpaceID, func(json.RawMessage) (json.RawMessage, error) {
		return nil, nil
	})
}
