package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/jsonappend"
)

// The webhook outbox. A write that webhooks are told of calls tx.emit in
// its own transaction: the deliveries are rows written with the change, so
// none is lost when a server stops and none is sent for a change rolled
// back. Workers (jobs.RunWebhookDeliveries) claim due deliveries with a
// lease, send them and record the outcome here.

// Event is something that happened, as webhooks are told of it.
type Event struct {
	Name    quire.WebhookEvent
	OrgID   string // "" to find it from SpaceID
	SpaceID string // the space it happened in; "" for the organization's own events
	// Key orders the deliveries of one webhook: those of one key go out one
	// after the other. "" for the resource's object and id.
	Key        string
	Resource   EventResource
	RevisionID string
	ActorID    string // "" when no user did it (an operator's command)
}

// EventResource is what an event is about, in its payload.
type EventResource struct {
	Object        string `json:"object"`
	ID            string `json:"id"`
	Number        int    `json:"number,omitempty"`        // a change request's
	Status        string `json:"status,omitempty"`        // a change request's
	Subject       string `json:"subject,omitempty"`       // a change request's
	ChangeRequest string `json:"changeRequest,omitempty"` // of a comment on a change request
	Comment       string `json:"comment,omitempty"`       // the comment a reply answers
	Page          string `json:"page,omitempty"`          // a comment's page
	Role          string `json:"role,omitempty"`          // a member's; left out for a guest
	URL           string `json:"url,omitempty"`           // a pinged webhook's
}

// eventPayload is the JSON body every delivery sends.
type eventPayload struct {
	ID           string        `json:"id"`
	Event        string        `json:"event"`
	CreatedAt    string        `json:"createdAt"`
	Organization idJSON        `json:"organization"`
	Space        *idJSON       `json:"space,omitempty"`
	Resource     EventResource `json:"resource"`
	Revision     string        `json:"revision,omitempty"`
	Actor        *idJSON       `json:"actor"`
}

type idJSON struct {
	ID string `json:"id"`
}

func (e *Event) key() string {
	if e.Key != "" {
		return e.Key
	}
	return e.Resource.Object + ":" + e.Resource.ID
}

// emit queues e for every active webhook of its organization (and space)
// that subscribes to it. Most organizations have none: that costs one
// indexed read, and the payload is only built when some webhook wants it.
func (tx *Tx) emit(ctx context.Context, e Event) error {
	query, arg := "SELECT w.id, w.org_id, w.space_id, w.events FROM webhooks w WHERE w.org_id = ? AND w.active", e.OrgID
	if e.OrgID == "" {
		query, arg = `SELECT w.id, w.org_id, w.space_id, w.events FROM webhooks w
			JOIN spaces s ON s.org_id = w.org_id WHERE s.id = ? AND w.active`, e.SpaceID
	}
	rows, err := tx.q.query(ctx, query, arg)
	if err != nil {
		return err
	}
	var targets []string
	for rows.Next() {
		var id, events string
		var space sql.NullString
		if err := rows.Scan(&id, &e.OrgID, &space, &events); err != nil {
			rows.Close()
			return err
		}
		w := quire.Webhook{}
		if err := json.Unmarshal([]byte(events), &w.Events); err != nil {
			rows.Close()
			return err
		}
		if (!space.Valid || space.String == e.SpaceID) && w.Subscribes(e.Name) {
			targets = append(targets, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(targets) == 0 {
		return err
	}
	eventID := newID()
	for _, id := range targets {
		if _, err := tx.queueDelivery(ctx, id, eventID, e); err != nil {
			return err
		}
	}
	return nil
}

// queueDelivery writes one pending delivery of e to a webhook, due now,
// and returns its id.
func (tx *Tx) queueDelivery(ctx context.Context, webhookID, eventID string, e Event) (string, error) {
	p := eventPayload{ID: eventID, Event: string(e.Name), CreatedAt: tx.Now.Format(jsonappend.TimeLayout),
		Organization: idJSON{e.OrgID}, Resource: e.Resource, Revision: e.RevisionID}
	if e.SpaceID != "" {
		p.Space = &idJSON{e.SpaceID}
	}
	if e.ActorID != "" {
		p.Actor = &idJSON{e.ActorID}
	}
	body, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	id := newID()
	tx.events++
	_, err = tx.q.exec(ctx, `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, resource, payload, seq, status, created_at, next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, webhookID, eventID, string(e.Name), e.key(), string(body), tx.events, string(quire.DeliveryPending), micros(tx.Now), micros(tx.Now))
	return id, err
}

// failPendingDeliveries gives up every delivery of a webhook still pending.
func (tx *Tx) failPendingDeliveries(ctx context.Context, webhookID, why string) error {
	_, err := tx.q.exec(ctx, `UPDATE webhook_deliveries SET status = ?, next_attempt_at = NULL, claim = NULL, claimed_until = NULL,
		error = CASE WHEN error = '' THEN ? ELSE error || '; ' || ? END
		WHERE webhook_id = ? AND next_attempt_at IS NOT NULL`, string(quire.DeliveryFailed), why, why, webhookID)
	return err
}

// webhookQueue is the outbox's queue: a delivery is ready at its next
// attempt when it is the first of its webhook's pending deliveries of its
// resource, so those go out one after the other.
var webhookQueue = &queue{
	kind: "webhook delivery", table: "webhook_deliveries", alias: "d", join: " JOIN webhooks w ON w.id = d.webhook_id", key: "id",
	claim: "claim", until: "claimed_until", attempts: "attempts",
	ready: `d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ?
		AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id AND e.resource = d.resource
		AND e.next_attempt_at IS NOT NULL AND (e.created_at < d.created_at OR (e.created_at = d.created_at AND e.seq < d.seq)))`,
	order: "d.next_attempt_at, d.created_at, d.seq",
	lost:  ErrWebhookDeliveryLost,
	fail: func(ctx context.Context, tx *Tx, l Lease, reason string) error {
		_, err := tx.q.exec(ctx, `UPDATE webhook_deliveries SET status = ?, next_attempt_at = NULL, claim = NULL, claimed_until = NULL, error = ?
			WHERE `+l.q.held(), string(quire.DeliveryFailed), reason, l.ID, l.Claim)
		return err
	},
}

// ErrWebhookDeliveryLost reports a claimed delivery whose webhook was
// deleted or turned off, or whose lease ran out and was claimed by
// another worker.
var ErrWebhookDeliveryLost = errors.New("the webhook delivery was removed or taken by another worker")

// WebhookDeliveriesDue reports, with a plain read, whether a delivery is
// waiting to be claimed, so idle workers do not take the write lock to find
// nothing.
func (db *DB) WebhookDeliveriesDue(ctx context.Context) (bool, error) {
	return webhookQueue.anyDue(ctx, db)
}

// ClaimedDelivery is a delivery a worker holds, with what sending it takes.
type ClaimedDelivery struct {
	quire.WebhookDelivery
	Claim  string // identifies this claim; finishing checks it still holds
	URL    string
	Secret []byte // sealed
}

// Lease is the worker's claim of c.
func (c *ClaimedDelivery) Lease() Lease {
	return Lease{q: webhookQueue, ID: c.ID, Claim: c.Claim, Attempts: c.Attempts}
}

// ClaimWebhookDelivery claims the delivery due first, for lease; nil when
// none is. Its Attempts counts this one.
func (db *DB) ClaimWebhookDelivery(ctx context.Context, lease time.Duration) (c *ClaimedDelivery, err error) {
	l, err := webhookQueue.claimNext(ctx, db, lease, func(tx *Tx, l Lease) error {
		d := ClaimedDelivery{Claim: l.Claim}
		var created int64
		var secret string
		if err := tx.q.queryRow(ctx, `SELECT d.id, d.webhook_id, d.event_id, d.event, d.payload, d.attempts, d.created_at, w.url, w.secret
			FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?`, l.ID).Scan(&d.ID, &d.WebhookID, &d.EventID,
			&d.Event, &d.Payload, &d.Attempts, &created, &d.URL, &secret); err != nil {
			return err
		}
		var err error
		if d.Secret, err = base64.StdEncoding.DecodeString(secret); err != nil {
			return fmt.Errorf("webhook %s secret: %w", d.WebhookID, err)
		}
		d.CreatedAt, c = fromMicros(created), &d
		return nil
	})
	if err != nil || l.ID == "" {
		return nil, err // none due, or a retried transaction found none
	}
	return c, nil
}

// DeliveryAttempt is the outcome of sending a claimed delivery.
type DeliveryAttempt struct {
	Delivered      bool // the receiver answered 2xx
	ResponseStatus int  // 0 when no answer came
	ResponseBody   string
	Error          string
	Duration       time.Duration
	// NextAttemptAt is when to try again after a failure; zero gives up.
	NextAttemptAt time.Time
}

// DisablePolicy says when a failing webhook is turned off: after Failures
// failed attempts in a row, the first at least After ago.
type DisablePolicy struct {
	Failures int
	After    time.Duration
}

// FinishWebhookDelivery records an attempt of a claimed delivery: delivered,
// to retry, or given up. A failure counts against the webhook, which is
// turned off, its pending deliveries failed, once p says so; it reports
// whether that happened. Nothing changes when the claim no longer holds
// (the webhook was deleted or turned off, or the lease ran out and another
// worker took the delivery).
func (db *DB) FinishWebhookDelivery(ctx context.Context, c *ClaimedDelivery, a DeliveryAttempt, p DisablePolicy) (disabled bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		disabled = false
		now := micros(tx.Now)
		set := map[string]any{"claim": nil, "claimed_until": nil, "last_attempt_at": now, "response_status": a.ResponseStatus,
			"response_body": a.ResponseBody, "error": a.Error, "duration_ms": a.Duration.Milliseconds()}
		switch {
		case a.Delivered:
			set["status"], set["next_attempt_at"] = string(quire.DeliveryDelivered), nil
		case a.NextAttemptAt.IsZero():
			set["status"], set["next_attempt_at"] = string(quire.DeliveryFailed), nil
		default:
			set["next_attempt_at"] = micros(a.NextAttemptAt)
		}
		cols, args := make([]string, 0, len(set)), make([]any, 0, len(set)+2)
		for _, k := range sortedKeys(set) {
			cols, args = append(cols, k+" = ?"), append(args, set[k])
		}
		n, err := tx.q.affected(ctx, "UPDATE webhook_deliveries SET "+strings.Join(cols, ", ")+" WHERE "+webhookQueue.held(), append(args, c.ID, c.Claim)...)
		if err != nil || n == 0 {
			return err
		}
		if a.Delivered {
			_, err := tx.q.exec(ctx, "UPDATE webhooks SET failures = 0, failing_since = NULL WHERE id = ? AND failures > 0", c.WebhookID)
			return err
		}
		var failures int
		var since int64
		if err := tx.q.queryRow(ctx, `UPDATE webhooks SET failures = failures + 1, failing_since = COALESCE(failing_since, ?)
			WHERE id = ? RETURNING failures, failing_since`, now, c.WebhookID).Scan(&failures, &since); err != nil {
			return err
		}
		if failures < p.Failures || tx.Now.Sub(fromMicros(since)) < p.After {
			return nil
		}
		reason := fmt.Sprintf("turned off after %d failed attempts in a row since %s; the last: %s",
			failures, fromMicros(since).Format(time.RFC3339), a.Error)
		if _, err := tx.q.exec(ctx, "UPDATE webhooks SET active = ?, disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ?",
			false, reason, now, now, c.WebhookID); err != nil {
			return err
		}
		disabled = true
		return tx.failPendingDeliveries(ctx, c.WebhookID, "the webhook was turned off")
	})
	return disabled, err
}

// PruneWebhookDeliveries deletes the deliveries delivered or given up that
// were created before before, and returns how many.
func (db *DB) PruneWebhookDeliveries(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := db.Tx(ctx, func(tx *Tx) (err error) {
		n, err = tx.q.affected(ctx, "DELETE FROM webhook_deliveries WHERE next_attempt_at IS NULL AND created_at < ?", micros(before))
		return err
	})
	return n, err
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
