package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"

	"github.com/quiredocs/quire"
)

// Outgoing webhooks (Quire's extra): an organization's subscriptions and
// the log of their deliveries. The outbox that fills the log, and the
// worker's claims on it, are in webhook_outbox.go.

const webhookColumns = `w.id, w.org_id, w.space_id, w.url, w.events, w.description, w.active, w.disabled_reason,
	w.disabled_at, w.created_by, w.created_at, w.updated_at`

func scanWebhook(row interface{ Scan(...any) error }) (*quire.Webhook, error) {
	var w quire.Webhook
	var space, createdBy sql.NullString
	var events string
	var disabled *int64
	var created, updated int64
	if err := row.Scan(&w.ID, &w.OrgID, &space, &w.URL, &events, &w.Description, &w.Active, &w.DisabledReason,
		&disabled, &createdBy, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(events), &w.Events); err != nil {
		return nil, err
	}
	w.SpaceID, w.CreatedBy = space.String, createdBy.String
	w.DisabledAt, w.CreatedAt, w.UpdatedAt = nullMicros(disabled), fromMicros(created), fromMicros(updated)
	return &w, nil
}

// Webhook returns one of an organization's webhooks.
func (r reader) Webhook(ctx context.Context, orgID, id string) (*quire.Webhook, error) {
	w, err := scanWebhook(r.q.queryRow(ctx, "SELECT "+webhookColumns+" FROM webhooks w WHERE w.org_id = ? AND w.id = ?", orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "webhook not found")
	}
	return w, err
}

// ListWebhooks lists an organization's webhooks, oldest first.
func (r reader) ListWebhooks(ctx context.Context, orgID string, p Page) (*List[*quire.Webhook], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM webhooks w", "SELECT "+webhookColumns+" FROM webhooks w", " WHERE w.org_id = ?", []any{orgID},
		keysetOrder{key: "w.created_at", id: "w.id", numeric: true}, p,
		scanWithCursor(scanWebhook, func(w *quire.Webhook) Cursor { return Cursor{Num: micros(w.CreatedAt), ID: w.ID} }))
}

// NewWebhook is a webhook to create. Its ID is made by the caller, which
// seals the secret for that id (the id is the sealing's additional data).
type NewWebhook struct {
	ID          string
	OrgID       string
	SpaceID     string // "" for every space
	URL         string
	Events      []quire.WebhookEvent
	Description string
	Secret      []byte // sealed
	CreatedBy   string
}

// CreateWebhook creates an active webhook. A space that is not a live space
// of the organization is CodeInvalid; an organization that has
// quire.MaxWebhooks already, CodeConflict.
func (db *DB) CreateWebhook(ctx context.Context, n NewWebhook) (*quire.Webhook, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.checkWebhookSpace(ctx, n.OrgID, n.SpaceID); err != nil {
			return err
		}
		// The organization's row first: two creations at once on PostgreSQL
		// take turns, so neither passes the bound unseen.
		if _, err := tx.q.exec(ctx, "UPDATE organizations SET title = title WHERE id = ?", n.OrgID); err != nil {
			return err
		}
		var count int
		if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM webhooks WHERE org_id = ?", n.OrgID).Scan(&count); err != nil {
			return err
		}
		if count >= quire.MaxWebhooks {
			return quire.Errorf(quire.CodeConflict, "the organization already has %d webhooks, the most it may have", quire.MaxWebhooks)
		}
		events, err := json.Marshal(n.Events)
		if err != nil {
			return err
		}
		_, err = tx.q.exec(ctx, `INSERT INTO webhooks (id, org_id, space_id, url, events, description, secret, active, created_by, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			n.ID, n.OrgID, nullString(n.SpaceID), n.URL, string(events), n.Description, base64.StdEncoding.EncodeToString(n.Secret),
			true, nullString(n.CreatedBy), micros(tx.Now), micros(tx.Now))
		return err
	}, func(tx *Tx) (*quire.Webhook, error) { return tx.Webhook(ctx, n.OrgID, n.ID) })
}

// checkWebhookSpace refuses a space that is not a live space of orgID.
func (tx *Tx) checkWebhookSpace(ctx context.Context, orgID, spaceID string) error {
	if spaceID == "" {
		return nil
	}
	var n int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM spaces WHERE id = ? AND org_id = ? AND deleted_at IS NULL", spaceID, orgID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return quire.Errorf(quire.CodeInvalid, "space: no such space in the organization")
	}
	return nil
}

// WebhookUpdate is a partial update; nil fields stay as they are.
type WebhookUpdate struct {
	URL         *string
	Events      []quire.WebhookEvent // nil keeps them
	SpaceID     *string              // "" for every space
	Description *string
	// Active turns the webhook on (clearing why it was turned off, and its
	// count of failures) or off (failing the deliveries still pending).
	Active *bool
}

// UpdateWebhook applies u to one of an organization's webhooks.
func (db *DB) UpdateWebhook(ctx context.Context, orgID, id string, u WebhookUpdate) (*quire.Webhook, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		w, err := tx.Webhook(ctx, orgID, id)
		if err != nil {
			return err
		}
		set := map[string]any{"updated_at": micros(tx.Now)}
		if u.URL != nil {
			set["url"] = *u.URL
		}
		if u.Events != nil {
			b, err := json.Marshal(u.Events)
			if err != nil {
				return err
			}
			set["events"] = string(b)
		}
		if u.SpaceID != nil {
			if err := tx.checkWebhookSpace(ctx, orgID, *u.SpaceID); err != nil {
				return err
			}
			set["space_id"] = nullString(*u.SpaceID)
		}
		if u.Description != nil {
			set["description"] = *u.Description
		}
		if u.Active != nil && *u.Active != w.Active {
			set["active"] = *u.Active
			if *u.Active {
				set["disabled_reason"], set["disabled_at"], set["failures"], set["failing_since"] = "", nil, 0, nil
			} else {
				set["disabled_at"] = micros(tx.Now)
				if err := tx.failPendingDeliveries(ctx, id, "the webhook was turned off"); err != nil {
					return err
				}
			}
		}
		return tx.update(ctx, "webhooks", "id", id, set)
	}, func(tx *Tx) (*quire.Webhook, error) { return tx.Webhook(ctx, orgID, id) })
}

// DeleteWebhook deletes a webhook with its deliveries, and reports whether
// there was one.
func (db *DB) DeleteWebhook(ctx context.Context, orgID, id string) (bool, error) {
	return db.deleteSome(ctx, "DELETE FROM webhooks WHERE org_id = ? AND id = ?", orgID, id)
}

const deliveryColumns = `d.id, d.webhook_id, d.event_id, d.event, d.payload, d.status, d.redelivery, d.attempts, d.created_at,
	d.next_attempt_at, d.last_attempt_at, d.response_status, d.response_body, d.error, d.duration_ms`

func scanDelivery(row interface{ Scan(...any) error }) (*quire.WebhookDelivery, error) {
	var d quire.WebhookDelivery
	var created, durationMS int64
	var next, last *int64
	if err := row.Scan(&d.ID, &d.WebhookID, &d.EventID, &d.Event, &d.Payload, &d.Status, &d.Redelivery, &d.Attempts, &created,
		&next, &last, &d.ResponseStatus, &d.ResponseBody, &d.Error, &durationMS); err != nil {
		return nil, err
	}
	d.CreatedAt, d.NextAttemptAt, d.LastAttemptAt = fromMicros(created), nullMicros(next), nullMicros(last)
	d.Duration = msDuration(durationMS)
	return &d, nil
}

// WebhookDelivery returns one delivery of a webhook.
func (r reader) WebhookDelivery(ctx context.Context, webhookID, id string) (*quire.WebhookDelivery, error) {
	d, err := scanDelivery(r.q.queryRow(ctx, "SELECT "+deliveryColumns+" FROM webhook_deliveries d WHERE d.webhook_id = ? AND d.id = ?", webhookID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "delivery not found")
	}
	return d, err
}

// ListWebhookDeliveries lists a webhook's deliveries, newest first.
func (r reader) ListWebhookDeliveries(ctx context.Context, webhookID string, p Page) (*List[*quire.WebhookDelivery], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM webhook_deliveries d", "SELECT "+deliveryColumns+" FROM webhook_deliveries d",
		" WHERE d.webhook_id = ?", []any{webhookID},
		keysetOrder{key: "d.created_at", id: "d.id", desc: true, numeric: true}, p,
		scanWithCursor(scanDelivery, func(d *quire.WebhookDelivery) Cursor { return Cursor{Num: micros(d.CreatedAt), ID: d.ID} }))
}

// errWebhookOff refuses to send to a webhook that is turned off.
var errWebhookOff = quire.Errorf(quire.CodeConflict, "the webhook is turned off: turn it on (active: true) first")

// RedeliverWebhookDelivery queues one of an active webhook's deliveries
// again, as a new delivery of the same event and payload (the receiver
// tells them apart by the delivery id, and matches them by the event id).
func (db *DB) RedeliverWebhookDelivery(ctx context.Context, w *quire.Webhook, id string) (*quire.WebhookDelivery, error) {
	newID := newID()
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.requireActive(ctx, w.ID); err != nil {
			return err
		}
		n, err := tx.q.affected(ctx, `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, resource, payload, status, redelivery,
			created_at, next_attempt_at) SELECT ?, webhook_id, event_id, event, resource, payload, ?, ?, ?, ? FROM webhook_deliveries
			WHERE webhook_id = ? AND id = ?`,
			newID, string(quire.DeliveryPending), true, micros(tx.Now), micros(tx.Now), w.ID, id)
		if err == nil && n == 0 {
			err = quire.Errorf(quire.CodeNotFound, "delivery not found")
		}
		return err
	}, func(tx *Tx) (*quire.WebhookDelivery, error) { return tx.WebhookDelivery(ctx, w.ID, newID) })
}

// PingWebhook queues a ping to an active webhook, on behalf of actorID,
// whatever events it subscribes to.
func (db *DB) PingWebhook(ctx context.Context, w *quire.Webhook, actorID string) (*quire.WebhookDelivery, error) {
	var id string
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if err := tx.requireActive(ctx, w.ID); err != nil {
			return err
		}
		e := Event{Name: quire.EventPing, OrgID: w.OrgID, SpaceID: w.SpaceID, ActorID: actorID,
			Resource: EventResource{Object: "webhook", ID: w.ID, URL: w.URL}}
		var err error
		id, err = tx.queueDelivery(ctx, w.ID, newID(), e)
		return err
	}, func(tx *Tx) (*quire.WebhookDelivery, error) { return tx.WebhookDelivery(ctx, w.ID, id) })
}

func (tx *Tx) requireActive(ctx context.Context, webhookID string) error {
	var active bool
	err := tx.q.queryRow(ctx, "SELECT active FROM webhooks WHERE id = ?", webhookID).Scan(&active)
	if errors.Is(err, sql.ErrNoRows) {
		return quire.Errorf(quire.CodeNotFound, "webhook not found")
	}
	if err == nil && !active {
		return errWebhookOff
	}
	return err
}
