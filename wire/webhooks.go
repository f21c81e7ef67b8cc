package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
)

// Webhook is how the API shows a webhook of an organization.
type Webhook struct {
	Object         string   `json:"object"`
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	Events         []string `json:"events"`
	Space          *string  `json:"space"` // null: every space of the organization
	Description    string   `json:"description"`
	Active         bool     `json:"active"`
	DisabledReason string   `json:"disabledReason,omitempty"`
	DisabledAt     string   `json:"disabledAt,omitempty"`
	Secret         string   `json:"secret,omitempty"` // on creation only
	CreatedAt      string   `json:"createdAt"`
	UpdatedAt      string   `json:"updatedAt"`
	URLs           URLs     `json:"urls"`
}

// webhookURL is the API address of webhook id of organization orgID.
func (l Links) webhookURL(orgID, id string) string {
	return l.API("/orgs/" + orgID + "/webhooks/" + id)
}

// Webhook shows a webhook of an organization as the API answers it.
func (l Links) Webhook(w *quire.Webhook) Webhook {
	j := Webhook{
		Object: "webhook", ID: w.ID, URL: w.URL, Events: make([]string, len(w.Events)), Description: w.Description,
		Active: w.Active, DisabledReason: w.DisabledReason, CreatedAt: Time(w.CreatedAt), UpdatedAt: Time(w.UpdatedAt),
		URLs: URLs{Location: l.webhookURL(w.OrgID, w.ID)},
	}
	if !w.Active {
		j.DisabledAt = OptTime(w.DisabledAt)
	}
	for i, e := range w.Events {
		j.Events[i] = string(e)
	}
	if w.SpaceID != "" {
		j.Space = &w.SpaceID
	}
	return j
}

// WebhookDelivery is how the API shows a delivery of a webhook event.
type WebhookDelivery struct {
	Object        string           `json:"object"`
	ID            string           `json:"id"`
	Event         string           `json:"event"`
	EventID       string           `json:"eventId"`
	Status        string           `json:"status"`
	Redelivery    bool             `json:"redelivery"`
	Attempts      int              `json:"attempts"`
	CreatedAt     string           `json:"createdAt"`
	NextAttemptAt string           `json:"nextAttemptAt,omitempty"`
	LastAttemptAt string           `json:"lastAttemptAt,omitempty"`
	Response      *WebhookResponse `json:"response,omitempty"`
	Error         string           `json:"error,omitempty"`
	Duration      int64            `json:"duration"` // milliseconds, of the last attempt
	Payload       json.RawMessage  `json:"payload"`
	URLs          URLs             `json:"urls"`
}

// WebhookResponse is how the API shows what the receiver answered a webhook
// delivery.
type WebhookResponse struct {
	Status int    `json:"status"`
	Body   string `json:"body"` // its first bytes
}

// WebhookDelivery shows a delivery of a webhook event as the API answers
// it.
func (l Links) WebhookDelivery(orgID string, d *quire.WebhookDelivery) WebhookDelivery {
	j := WebhookDelivery{
		Object: "webhook-delivery", ID: d.ID, Event: string(d.Event), EventID: d.EventID, Status: string(d.Status),
		Redelivery: d.Redelivery, Attempts: d.Attempts, CreatedAt: Time(d.CreatedAt),
		NextAttemptAt: OptTime(d.NextAttemptAt), LastAttemptAt: OptTime(d.LastAttemptAt),
		Error: d.Error, Duration: d.Duration.Milliseconds(), Payload: json.RawMessage(d.Payload),
		URLs: URLs{Location: l.webhookURL(orgID, d.WebhookID) + "/deliveries/" + d.ID},
	}
	if d.ResponseStatus != 0 {
		j.Response = &WebhookResponse{Status: d.ResponseStatus, Body: d.ResponseBody}
	}
	return j
}
