package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/webhook"
)

// CreateWebhook creates webhook n (its ID and Secret are made here) with a
// new signing secret, sealed by sealer before sealer's database stores it:
// deliveries are signed with it, so it is sealed, not hashed. It returns
// the webhook and its secret, which is shown only this once.
func CreateWebhook(ctx context.Context, sealer *webhook.Sealer, n store.NewWebhook) (*quire.Webhook, string, error) {
	n.ID = store.NewID()
	secret := webhook.NewSecret()
	var err error
	if n.Secret, err = sealer.Seal(ctx, n.ID, secret); err != nil {
		return nil, "", err
	}
	created, err := sealer.DB.CreateWebhook(ctx, n)
	if err != nil {
		return nil, "", err
	}
	return created, secret, nil
}
