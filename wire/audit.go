package wire

import (
	"github.com/quiredocs/quire"
)

// AuditEvent is an AuditEventDetails of the reference (the list's
// items are the same less executionId, schemaVersion and payload, which the
// reference allows).
type AuditEvent struct {
	Object      string            `json:"object"`
	ID          string            `json:"id"`
	OccurredAt  string            `json:"occurredAt"`
	Action      string            `json:"action"`
	Actor       AuditParty        `json:"actor"`
	Source      string            `json:"source"`
	Target      AuditParty        `json:"target"`
	URLs        map[string]string `json:"urls"`
	ExecutionID string            `json:"executionId,omitempty"`
	Schema      int               `json:"schemaVersion,omitempty"`
	Payload     map[string]any    `json:"payload,omitempty"`
}

// AuditParty is how the API shows the actor or the target of an audit
// event: its type, id and label.
type AuditParty struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
}

// AuditEvent shows an audit event (the reference's AuditEventDetails) as
// the API answers it.
func (l Links) AuditEvent(e *quire.AuditEvent) AuditEvent {
	return AuditEvent{Object: "audit-event", ID: e.ID, OccurredAt: Time(e.OccurredAt), Action: e.Action,
		Actor:  AuditParty{Type: e.ActorType, ID: e.ActorID, Label: e.ActorLabel},
		Source: e.Source,
		Target: AuditParty{Type: e.TargetType, ID: e.TargetID, Label: e.TargetLabel},
		URLs:   map[string]string{"location": l.API("/orgs/" + e.OrgID + "/audit-events/" + e.ID)}}
}
