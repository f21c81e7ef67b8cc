package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Outgoing webhooks, Quire's extra beyond the contract: organization admins
// subscribe URLs to events (of every space, or of one), read each webhook's
// delivery log, redeliver and ping. Others get 404 outside the organization
// and 403 inside. The signing secret is shown once, in the creation's
// answer; it is stored sealed, since deliveries are signed with it.

// webhook loads the webhook named in the path, for an organization admin.
func (s *Server) webhook(r *http.Request) (*quire.Webhook, *quire.Member, error) {
	me, err := s.orgAdmin(r)
	if err != nil {
		return nil, nil, err
	}
	w, err := s.db.Webhook(r.Context(), me.OrgID, r.PathValue("webhookId"))
	return w, me, err
}

func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.Webhook], error) {
		return s.db.ListWebhooks(ctx, me.OrgID, p)
	}, s.wire.Webhook)
}

func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	body := wire.CreateWebhook{PlainHTTP: s.allowPrivate}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	created, secret, err := authoring.CreateWebhook(r.Context(), s.webhookSealer, body.NewWebhook(me.OrgID, me.User.ID))
	if err != nil {
		return err
	}
	out := s.wire.Webhook(created)
	out.Secret = secret
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getWebhook(w http.ResponseWriter, r *http.Request) error {
	hook, _, err := s.webhook(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Webhook(hook))
}

func (s *Server) updateWebhook(w http.ResponseWriter, r *http.Request) error {
	hook, me, err := s.webhook(r)
	if err != nil {
		return err
	}
	body := wire.UpdateWebhook{PlainHTTP: s.allowPrivate}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if hook, err = s.db.UpdateWebhook(r.Context(), me.OrgID, hook.ID, body.Update()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Webhook(hook))
}

func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request) error {
	hook, me, err := s.webhook(r)
	if err != nil {
		return err
	}
	if _, err := s.db.DeleteWebhook(r.Context(), me.OrgID, hook.ID); err != nil {
		return err
	}
	return noContent(w)
}

// testWebhook queues a ping to the webhook and answers its delivery (202:
// it is sent in the background; its outcome is in the delivery's log).
func (s *Server) testWebhook(w http.ResponseWriter, r *http.Request) error {
	hook, me, err := s.webhook(r)
	if err != nil {
		return err
	}
	d, err := s.db.PingWebhook(r.Context(), hook, me.User.ID)
	if err != nil {
		return err
	}
	return s.writeQueued(w, me.OrgID, d)
}

func (s *Server) writeQueued(w http.ResponseWriter, orgID string, d *quire.WebhookDelivery) error {
	out := s.wire.WebhookDelivery(orgID, d)
	w.Header().Set("Location", out.URLs.Location)
	return writeJSON(w, http.StatusAccepted, out)
}

func (s *Server) listWebhookDeliveries(w http.ResponseWriter, r *http.Request) error {
	hook, me, err := s.webhook(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.WebhookDelivery], error) {
		return s.db.ListWebhookDeliveries(ctx, hook.ID, p)
	}, func(d *quire.WebhookDelivery) wire.WebhookDelivery { return s.wire.WebhookDelivery(me.OrgID, d) })
}

func (s *Server) getWebhookDelivery(w http.ResponseWriter, r *http.Request) error {
	hook, me, err := s.webhook(r)
	if err != nil {
		return err
	}
	d, err := s.db.WebhookDelivery(r.Context(), hook.ID, r.PathValue("deliveryId"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.WebhookDelivery(me.OrgID, d))
}

// redeliverWebhookDelivery queues a delivery again, as a new delivery of
// the same event (202, like test).
func (s *Server) redeliverWebhookDelivery(w http.ResponseWriter, r *http.Request) error {
	hook, me, err := s.webhook(r)
	if err != nil {
		return err
	}
	d, err := s.db.RedeliverWebhookDelivery(r.Context(), hook, r.PathValue("deliveryId"))
	if err != nil {
		return err
	}
	return s.writeQueued(w, me.OrgID, d)
}
