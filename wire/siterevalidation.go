package wire

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// A site's renderer revalidation endpoint (issue 30), Quire's extension
// beyond the contract: PUT O/sites/{siteId}/revalidation sets it, GET
// shows it without its secret, DELETE removes it.

// MinRevalidationSecretLen bounds a revalidation secret from below: it
// signs the calls, so a short one could be guessed.
const MinRevalidationSecretLen = 16

// PutSiteRevalidation is the body of PUT O/sites/{siteId}/revalidation.
// PlainHTTP, set before reading, says the operator allows http URLs (and
// private addresses).
type PutSiteRevalidation struct {
	URL    *string `json:"url"`
	Secret *string `json:"secret"`

	PlainHTTP bool `json:"-"`
}

// Validate checks url, an absolute https URL (the renderer's
// /~gitbook/revalidate), and secret, GITBOOK_SECRET of the renderer; both
// are required.
func (b *PutSiteRevalidation) Validate() error {
	if err := quire.FirstError(quire.CheckRequired("url", b.URL != nil), quire.CheckRequired("secret", b.Secret != nil)); err != nil {
		return err
	}
	return quire.FirstError(
		quire.CheckWebhookURL("url", *b.URL, b.PlainHTTP),
		quire.CheckLen("secret", *b.Secret, MinRevalidationSecretLen, 512),
	)
}

// SiteRevalidation is how the API shows a site's revalidation endpoint:
// never its secret.
type SiteRevalidation struct {
	Object    string `json:"object"`
	Site      string `json:"site"`
	URL       string `json:"url"`
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
	// Pending counts the calls waiting to be made; LastCall is the outcome
	// of the last one tried, absent before any.
	Pending  int                   `json:"pending"`
	LastCall *SiteRevalidationCall `json:"lastCall,omitempty"`
}

// SiteRevalidationCall is the outcome of a revalidation call.
type SiteRevalidationCall struct {
	At     string `json:"at"`
	Status int    `json:"status,omitempty"` // the renderer's answer; absent when none came
	Error  string `json:"error,omitempty"`
}

// SiteRevalidationOf shows r as the API answers it.
func SiteRevalidationOf(r *store.SiteRevalidation) SiteRevalidation {
	out := SiteRevalidation{Object: "site-revalidation", Site: r.SiteID, URL: r.URL, CreatedAt: Time(r.CreatedAt), UpdatedAt: Time(r.UpdatedAt), Pending: r.Pending}
	if !r.LastAttemptAt.IsZero() {
		out.LastCall = &SiteRevalidationCall{At: Time(r.LastAttemptAt), Status: r.LastStatus, Error: r.LastError}
	}
	return out
}
