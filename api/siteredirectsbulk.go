package api

import (
	"fmt"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// PUT SITE/redirects (the reference's bulkUpsertSiteRedirects): up to 500
// redirect operations in one request, keyed by source: a destination
// creates or updates the redirect from that source, null deletes it. They
// run in order in one transaction, each on its own: one that cannot be done
// is an "error" result and the others are still done. Quire has no draft
// redirects, nor permanent or wildcard ones: such operations are errors.

// maxBulkRedirects is the reference's maxItems.
const maxBulkRedirects = 500

type bulkRedirectItem struct {
	Source          *string                                  `json:"source"`
	Intent          string                                   `json:"intent"`
	CaptureWildcard bool                                     `json:"captureWildcard"`
	Permanent       bool                                     `json:"permanent"`
	Destination     quire.Optional[wire.RedirectDestination] `json:"destination"`
}

type bulkRedirectsRequest struct {
	Redirects []bulkRedirectItem `json:"redirects"`

	ops []store.RedirectOp
}

// validate refuses the request as a whole only when an item has no valid
// source, or no destination outside a publish: the answer names every item
// by its source.
func (b *bulkRedirectsRequest) validate() error {
	if len(b.Redirects) == 0 || len(b.Redirects) > maxBulkRedirects {
		return errorf(quire.CodeInvalid, "redirects: give 1 to %d redirects", maxBulkRedirects)
	}
	b.ops = make([]store.RedirectOp, len(b.Redirects))
	for i, it := range b.Redirects {
		if it.Source == nil {
			return errorf(quire.CodeInvalid, "redirects[%d].source: is required", i)
		}
		if err := quire.CheckRedirectSource(fmt.Sprintf("redirects[%d].source", i), *it.Source); err != nil {
			return err
		}
		op := store.RedirectOp{Source: *it.Source}
		switch it.Intent {
		case "", "live":
		case "draft", "publish":
			op.Refused = "Quire has no draft redirects: intent must be live"
		default:
			return errorf(quire.CodeInvalid, "redirects[%d].intent: must be live, draft or publish", i)
		}
		switch d := it.Destination; {
		case op.Refused != "":
		case !d.Set:
			return errorf(quire.CodeInvalid, "redirects[%d].destination: is required (null deletes the redirect)", i)
		case it.CaptureWildcard || it.Permanent:
			op.Refused = "Quire redirects are neither permanent nor wildcard ones"
		case d.Null:
		case d.Value.Kind != "site-section" || d.Value.SiteSectionID == "":
			op.Refused = `destination: Quire redirects go to a section of the site: {"kind":"site-section","siteSectionId":ID}`
		default:
			section := d.Value.SiteSectionID
			op.SectionID = &section
		}
		b.ops[i] = op
	}
	return nil
}

func (s *Server) bulkUpsertSiteRedirects(w http.ResponseWriter, r *http.Request) error {
	var body bulkRedirectsRequest
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	results, err := s.db.UpsertSiteRedirects(r.Context(), site.ID, body.ops)
	if err != nil {
		return err
	}
	out := struct {
		Results []wire.BulkRedirectResult `json:"results"`
	}{Results: make([]wire.BulkRedirectResult, len(results))}
	for i, res := range results {
		out.Results[i] = wire.BulkRedirectResult{Status: res.Status, Source: res.Source, ID: res.ID, Error: res.Error}
	}
	return writeJSON(w, http.StatusOK, out)
}
