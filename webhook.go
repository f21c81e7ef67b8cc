package quire

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Webhook is an organization's subscription of a URL to events, of all its
// spaces or of one. Quire's extra beyond the contract.
type Webhook struct {
	ID          string
	OrgID       string
	SpaceID     string // "" for every space of the organization
	URL         string
	Events      []WebhookEvent // EventAll for every event
	Description string
	Active      bool
	// DisabledReason says why the worker turned the webhook off; "" when
	// active, or turned off by hand.
	DisabledReason string
	DisabledAt     time.Time
	CreatedBy      string // user id; "" once the user is gone
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// WebhookEvent names something that happened which webhooks are told of.
type WebhookEvent string

// The events webhooks subscribe to.
const (
	EventAll                  WebhookEvent = "*"
	EventPing                 WebhookEvent = "ping" // sent on request only, never subscribed to
	EventSpaceContentUpdated  WebhookEvent = "space.content_updated"
	EventChangeRequestOpened  WebhookEvent = "change_request.opened"
	EventChangeRequestUpdated WebhookEvent = "change_request.updated"
	EventChangeRequestMerged  WebhookEvent = "change_request.merged"
	EventChangeRequestClosed  WebhookEvent = "change_request.closed"
	EventCommentPosted        WebhookEvent = "comment.posted"
	EventCommentReplied       WebhookEvent = "comment.replied"
	EventCommentResolved      WebhookEvent = "comment.resolved"
	EventSitePublished        WebhookEvent = "site.published"
	EventSiteUnpublished      WebhookEvent = "site.unpublished"
	EventMemberJoined         WebhookEvent = "member.joined"
	EventMemberLeft           WebhookEvent = "member.left"
)

// WebhookEvents lists the events a webhook may subscribe to, in the order
// the documentation gives them.
var WebhookEvents = []WebhookEvent{
	EventSpaceContentUpdated,
	EventChangeRequestOpened, EventChangeRequestUpdated, EventChangeRequestMerged, EventChangeRequestClosed,
	EventCommentPosted, EventCommentReplied, EventCommentResolved,
	EventSitePublished, EventSiteUnpublished,
	EventMemberJoined, EventMemberLeft,
}

// Subscribes reports whether the webhook is told of event e.
func (w *Webhook) Subscribes(e WebhookEvent) bool {
	return slices.Contains(w.Events, EventAll) || slices.Contains(w.Events, e)
}

// MaxWebhooks bounds an organization's webhooks: each event writes a row
// for every webhook that subscribes to it.
const MaxWebhooks = 20

// MaxWebhookURLLen bounds a webhook's URL.
const MaxWebhookURLLen = 2048

// CheckWebhookURL validates a webhook's URL: an absolute https URL with a
// host (http too when plainHTTP, for closed networks and tests), without
// a fragment, of at most MaxWebhookURLLen characters.
func CheckWebhookURL(field, v string, plainHTTP bool) error {
	if err := CheckLen(field, v, 1, MaxWebhookURLLen); err != nil {
		return err
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.Fragment != "" || u.Opaque != "" {
		return Errorf(CodeInvalid, "%s: must be an absolute URL with a host and no fragment", field)
	}
	if u.Scheme != "https" && !(plainHTTP && u.Scheme == "http") {
		return Errorf(CodeInvalid, "%s: must be an https URL", field)
	}
	return nil
}

// ParseWebhookEvents validates a webhook's events: at least one, each known
// (or "*" for all), and returns them without repeats.
func ParseWebhookEvents(field string, names []string) ([]WebhookEvent, error) {
	if len(names) == 0 {
		return nil, Errorf(CodeInvalid, "%s: must name at least one event", field)
	}
	out := make([]WebhookEvent, 0, len(names))
	for i, n := range names {
		e := WebhookEvent(n)
		if e != EventAll && !slices.Contains(WebhookEvents, e) {
			known := make([]string, len(WebhookEvents))
			for j, k := range WebhookEvents {
				known[j] = string(k)
			}
			return nil, Errorf(CodeInvalid, "%s[%d]: unknown event %q; known events are * and %s", field, i, clip(n, 64), strings.Join(known, ", "))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// clip shortens what a client sent before it goes into a message.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// DeliveryStatus is where a webhook delivery stands.
type DeliveryStatus string

// Delivery statuses.
const (
	DeliveryPending   DeliveryStatus = "pending"   // waiting for its first or next attempt
	DeliveryDelivered DeliveryStatus = "delivered" // the receiver answered 2xx
	DeliveryFailed    DeliveryStatus = "failed"    // given up
)

// WebhookDelivery is one event sent, or to be sent, to one webhook, with
// the outcome of its last attempt.
type WebhookDelivery struct {
	ID         string
	WebhookID  string
	EventID    string // the same for every webhook told of one event, and for redeliveries
	Event      WebhookEvent
	Payload    string // the JSON body sent
	Status     DeliveryStatus
	Redelivery bool
	Attempts   int
	CreatedAt  time.Time
	// NextAttemptAt is when it is tried next; zero once delivered or failed.
	NextAttemptAt time.Time
	// Of the last attempt: when, the receiver's status (0 when none came),
	// the start of its answer, what went wrong, how long it took.
	LastAttemptAt  time.Time
	ResponseStatus int
	ResponseBody   string
	Error          string
	Duration       time.Duration
}

// String names a delivery for logs.
func (d *WebhookDelivery) String() string {
	return fmt.Sprintf("delivery %s (%s) of webhook %s", d.ID, d.Event, d.WebhookID)
}
