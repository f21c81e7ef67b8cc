package wire

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of outgoing webhooks, Quire's extra beyond the
// contract. Each Validate names the field and the rule it breaks, in the
// order the fields are checked.

// CreateWebhook is the body of POST O/webhooks. PlainHTTP, set before
// reading, says the operator allows http URLs.
type CreateWebhook struct {
	URL         *string  `json:"url"`
	Events      []string `json:"events"`
	Space       *string  `json:"space"`
	Description *string  `json:"description"`

	PlainHTTP bool `json:"-"`

	events []quire.WebhookEvent // set by Validate
}

// Validate checks url and events, which are required, then the fields
// given.
func (b *CreateWebhook) Validate() (err error) {
	if err := quire.CheckRequired("url", b.URL != nil); err != nil {
		return err
	}
	if err := quire.CheckRequired("events", b.Events != nil); err != nil {
		return err
	}
	if b.events, err = quire.ParseWebhookEvents("events", b.Events); err != nil {
		return err
	}
	return quire.FirstError(
		quire.CheckWebhookURL("url", *b.URL, b.PlainHTTP),
		checkWebhookSpace(b.Space),
		checkWebhookDescription(b.Description),
	)
}

// NewWebhook is the webhook a validated b makes in orgID, by createdBy.
func (b *CreateWebhook) NewWebhook(orgID, createdBy string) store.NewWebhook {
	n := store.NewWebhook{OrgID: orgID, URL: *b.URL, Events: b.events, CreatedBy: createdBy}
	if b.Space != nil {
		n.SpaceID = *b.Space
	}
	if b.Description != nil {
		n.Description = *b.Description
	}
	return n
}

func checkWebhookSpace(v *string) error {
	if v == nil {
		return nil
	}
	return quire.CheckLen("space", *v, 1, 64)
}

func checkWebhookDescription(v *string) error {
	if v == nil {
		return nil
	}
	return quire.CheckLen("description", *v, 0, 256)
}

// UpdateWebhook is the body of PATCH O/webhooks/{webhookId}: space null
// makes the webhook the organization's; active true turns a webhook on
// again, forgetting why it was turned off. PlainHTTP is as CreateWebhook's.
type UpdateWebhook struct {
	URL         quire.Optional[string]   `json:"url"`
	Events      quire.Optional[[]string] `json:"events"`
	Space       quire.Optional[string]   `json:"space"`
	Description quire.Optional[string]   `json:"description"`
	Active      quire.Optional[bool]     `json:"active"`

	PlainHTTP bool `json:"-"`

	update store.WebhookUpdate // set by Validate
}

// Validate checks the fields given, in this order.
func (b *UpdateWebhook) Validate() (err error) {
	u := &b.update
	if u.URL, err = quire.CheckOptional("url", b.URL, func(v string) error { return quire.CheckWebhookURL("url", v, b.PlainHTTP) }); err != nil {
		return err
	}
	if b.Events.Set {
		if b.Events.Null {
			return quire.Errorf(quire.CodeInvalid, "events: must be a list of events")
		}
		if u.Events, err = quire.ParseWebhookEvents("events", b.Events.Value); err != nil {
			return err
		}
	}
	if b.Space.HasValue() {
		if err := checkWebhookSpace(&b.Space.Value); err != nil {
			return err
		}
	}
	u.SpaceID = setValue(b.Space) // "" when null: every space
	if u.Description, err = quire.CheckOptional("description", b.Description, func(v string) error { return checkWebhookDescription(&v) }); err != nil {
		return err
	}
	u.Active = setValue(b.Active)
	return checkBool("active", b.Active)
}

// Update is the store's form of a validated b.
func (b *UpdateWebhook) Update() store.WebhookUpdate { return b.update }
