package authoring

import (
	"context"
	"fmt"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// MaxBulkRedirects bounds the operations of one bulk redirect write (the
// reference's maxItems).
const MaxBulkRedirects = 500

// RedirectChange is one operation of a bulk redirect write as asked (the
// reference's bulkUpsertSiteRedirects item): from Source, to a section, or
// delete the redirect.
type RedirectChange struct {
	Source          *string // required
	Intent          string  // "", live, draft or publish
	CaptureWildcard bool
	Permanent       bool
	// Destination is nil when not given; Delete (null) removes the redirect.
	Destination *RedirectTarget
}

// RedirectTarget is where a RedirectChange leads: a section of the site
// (Kind site-section), or nowhere (Delete).
type RedirectTarget struct {
	Delete    bool
	Kind      string
	SectionID string
}

// RedirectOps makes the store's operations of changes. It refuses the
// changes as a whole only when one has no valid source, an unknown intent,
// or no destination outside a publish; what Quire does not have (draft,
// permanent or wildcard redirects, destinations other than sections) is a
// refused operation, reported by its source while the others are done.
func RedirectOps(changes []RedirectChange) ([]store.RedirectOp, error) {
	if len(changes) == 0 || len(changes) > MaxBulkRedirects {
		return nil, quire.Errorf(quire.CodeInvalid, "redirects: give 1 to %d redirects", MaxBulkRedirects)
	}
	ops := make([]store.RedirectOp, len(changes))
	for i, c := range changes {
		if c.Source == nil {
			return nil, quire.Errorf(quire.CodeInvalid, "redirects[%d].source: is required", i)
		}
		if err := quire.CheckRedirectSource(fmt.Sprintf("redirects[%d].source", i), *c.Source); err != nil {
			return nil, err
		}
		op := store.RedirectOp{Source: *c.Source}
		switch c.Intent {
		case "", "live":
		case "draft", "publish":
			op.Refused = "Quire has no draft redirects: intent must be live"
		default:
			return nil, quire.Errorf(quire.CodeInvalid, "redirects[%d].intent: must be live, draft or publish", i)
		}
		switch d := c.Destination; {
		case op.Refused != "":
		case d == nil:
			return nil, quire.Errorf(quire.CodeInvalid, "redirects[%d].destination: is required (null deletes the redirect)", i)
		case c.CaptureWildcard || c.Permanent:
			op.Refused = "Quire redirects are neither permanent nor wildcard ones"
		case d.Delete:
		case d.Kind != "site-section" || d.SectionID == "":
			op.Refused = `destination: Quire redirects go to a section of the site: {"kind":"site-section","siteSectionId":ID}`
		default:
			section := d.SectionID
			op.SectionID = &section
		}
		ops[i] = op
	}
	return ops, nil
}

// UpsertSiteRedirects applies changes to site's redirects in order, in one
// transaction, each on its own (store.DB.UpsertSiteRedirects), once
// RedirectOps makes them.
func (a *Author) UpsertSiteRedirects(ctx context.Context, site *quire.Site, changes []RedirectChange) ([]store.RedirectResult, error) {
	ops, err := RedirectOps(changes)
	if err != nil {
		return nil, err
	}
	return a.DB.UpsertSiteRedirects(ctx, site.ID, ops)
}
