package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire"
)

// The audit log. A request that may write (every API and app request but
// a read) carries an AuditIntent in its context; the first transaction of
// the request to commit records it, in that same transaction, so a write
// is never kept without its event nor an event without its write. A request
// that commits nothing (refused, invalid) records nothing.

// AuditIntent is the event a request records if it writes: Event without
// its id, organization and time, and where the request's path places it.
type AuditIntent struct {
	Event quire.AuditEvent
	// Where the write is: the organization, else the space or collection
	// (whose organization the transaction reads), else the integration;
	// with none, each organization the actor is a member of.
	OrgID, SpaceID, CollectionID, IntegrationName string
	// NewOrg says the request creates an organization: its event goes to
	// the organization the transaction created, not to its creator's others.
	NewOrg bool

	mu  sync.Mutex
	ids []string // the events recorded, once committed
}

type auditKey struct{}

// WithAudit returns ctx carrying a, for the transactions of a request.
func WithAudit(ctx context.Context, a *AuditIntent) context.Context {
	return context.WithValue(ctx, auditKey{}, a)
}

// AuditIntentOf is the intent ctx carries, nil for none.
func AuditIntentOf(ctx context.Context) *AuditIntent {
	a, _ := ctx.Value(auditKey{}).(*AuditIntent)
	return a
}

// Recorded is the ids of the events recorded for a, none before a
// transaction of its request committed.
func (a *AuditIntent) Recorded() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ids
}

// recordAudit writes the intent of ctx, if it has one not yet recorded, in
// tx: one event in each organization it concerns.
func (tx *Tx) recordAudit(ctx context.Context) error {
	a := AuditIntentOf(ctx)
	if a == nil || len(a.Recorded()) > 0 {
		return nil
	}
	orgs, err := tx.auditOrgs(ctx, a)
	if err != nil || len(orgs) == 0 {
		return err
	}
	e := a.Event
	ids := make([]string, 0, len(orgs))
	for _, org := range orgs {
		id := newUUID()
		if _, err := tx.q.exec(ctx, `INSERT INTO audit_events (id, org_id, occurred_at, action, source, actor_type, actor_id, actor_label,
			target_type, target_id, target_label, ip, request_id, method, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, org, micros(tx.Now), e.Action, e.Source, e.ActorType, e.ActorID, e.ActorLabel,
			e.TargetType, e.TargetID, e.TargetLabel, e.IP, e.RequestID, e.Method, e.Path); err != nil {
			return fmt.Errorf("record audit event: %w", err)
		}
		ids = append(ids, id)
	}
	tx.AfterCommit(func() {
		a.mu.Lock()
		a.ids = ids
		a.mu.Unlock()
	})
	return nil
}

// auditOrgs are the organizations an intent concerns, read in tx: after
// the write, so a created organization is among its creator's.
func (tx *Tx) auditOrgs(ctx context.Context, a *AuditIntent) ([]string, error) {
	one := func(query, id string) ([]string, error) {
		var org string
		err := tx.q.queryRow(ctx, query, id).Scan(&org)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return []string{org}, err
	}
	switch {
	case a.OrgID != "":
		return one("SELECT id FROM organizations WHERE id = ?", a.OrgID)
	case a.SpaceID != "":
		return one("SELECT org_id FROM spaces WHERE id = ?", a.SpaceID)
	case a.CollectionID != "":
		return one("SELECT org_id FROM collections WHERE id = ?", a.CollectionID)
	case a.IntegrationName != "":
		return one("SELECT org_id FROM integrations WHERE name = ?", a.IntegrationName)
	case a.Event.ActorID == "":
		return nil, nil
	}
	query, args := "SELECT org_id FROM members WHERE user_id = ? ORDER BY org_id", []any{a.Event.ActorID}
	if a.NewOrg {
		query = `SELECT o.id FROM organizations o JOIN members m ON m.org_id = o.id
			WHERE m.user_id = ? AND o.created_at = ? ORDER BY o.id`
		args = append(args, micros(tx.Now))
	}
	rows, err := tx.q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var orgs []string
	for rows.Next() {
		var org string
		if err := rows.Scan(&org); err != nil {
			return nil, err
		}
		orgs = append(orgs, org)
	}
	return orgs, rows.Err()
}

// SetAuditTarget names the resource a request's recorded events acted on
// once it is known: a created resource's id is known only from the answer,
// after the transaction that recorded them.
func (db *DB) SetAuditTarget(ctx context.Context, ids []string, typ, id, label string) error {
	if len(ids) == 0 {
		return nil
	}
	args := []any{typ, id, label}
	for _, e := range ids {
		args = append(args, e)
	}
	return db.Tx(ctx, func(tx *Tx) error {
		_, err := tx.q.exec(ctx, "UPDATE audit_events SET target_type = ?, target_id = ?, target_label = ? WHERE id IN (?"+
			strings.Repeat(", ?", len(ids)-1)+")", args...)
		return err
	})
}

// AuditFilter narrows an organization's audit log; zero fields keep all.
type AuditFilter struct {
	From, To              time.Time
	Action, Actor, Target string
}

const auditColumns = `e.id, e.org_id, e.occurred_at, e.action, e.source, e.actor_type, e.actor_id, e.actor_label,
	e.target_type, e.target_id, e.target_label, e.ip, e.request_id, e.method, e.path`

func scanAuditEvent(row interface{ Scan(...any) error }) (*quire.AuditEvent, error) {
	var e quire.AuditEvent
	var at int64
	err := row.Scan(&e.ID, &e.OrgID, &at, &e.Action, &e.Source, &e.ActorType, &e.ActorID, &e.ActorLabel,
		&e.TargetType, &e.TargetID, &e.TargetLabel, &e.IP, &e.RequestID, &e.Method, &e.Path)
	e.OccurredAt = fromMicros(at)
	return &e, err
}

// ListAuditEvents lists an organization's audit events, newest first.
func (r reader) ListAuditEvents(ctx context.Context, orgID string, f AuditFilter, p Page) (*List[*quire.AuditEvent], error) {
	where, args := " WHERE e.org_id = ?", []any{orgID}
	if !f.From.IsZero() {
		where, args = where+" AND e.occurred_at >= ?", append(args, micros(f.From))
	}
	if !f.To.IsZero() {
		where, args = where+" AND e.occurred_at <= ?", append(args, micros(f.To))
	}
	for col, v := range map[string]string{"e.action": f.Action, "e.actor_id": f.Actor, "e.target_id": f.Target} {
		if v != "" {
			where, args = where+" AND "+col+" = ?", append(args, v)
		}
	}
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM audit_events e", "SELECT "+auditColumns+" FROM audit_events e", where, args,
		keysetOrder{key: "e.occurred_at", id: "e.id", desc: true, numeric: true}, p,
		scanWithCursor(scanAuditEvent, func(e *quire.AuditEvent) Cursor { return Cursor{Num: micros(e.OccurredAt), ID: e.ID} }))
}

// AuditEvent is one of an organization's audit events.
func (r reader) AuditEvent(ctx context.Context, orgID, id string) (*quire.AuditEvent, error) {
	e, err := scanAuditEvent(r.q.queryRow(ctx, "SELECT "+auditColumns+" FROM audit_events e WHERE e.org_id = ? AND e.id = ?", orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "audit event not found")
	}
	return e, err
}

// AuditActionsUsed are the actions of an organization's recorded events.
func (r reader) AuditActionsUsed(ctx context.Context, orgID string) ([]string, error) {
	rows, err := r.q.query(ctx, "SELECT DISTINCT action FROM audit_events WHERE org_id = ? ORDER BY action", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// newUUID is a random (version 4) UUID, the reference's auditEventId.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
