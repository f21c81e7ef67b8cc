package authoring

import (
	"context"

	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/webhook"
)

// SetSiteRevalidation sets a site's renderer revalidation endpoint (issue
// 30): url, and secret, sealed by sealer before its database stores it,
// since the calls are signed with it. The secret is never read back.
func SetSiteRevalidation(ctx context.Context, sealer *webhook.Sealer, siteID, url, secret string) (*store.SiteRevalidation, error) {
	sealed, err := sealer.Seal(ctx, webhook.RevalidationSealID(siteID), secret)
	if err != nil {
		return nil, err
	}
	return sealer.DB.SetSiteRevalidation(ctx, siteID, url, sealed)
}
