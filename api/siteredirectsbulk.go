package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/wire"
)

// PUT SITE/redirects (the reference's bulkUpsertSiteRedirects): up to 500
// redirect operations in one request, keyed by source: a destination
// creates or updates the redirect from that source, null deletes it. They
// run in order in one transaction, each on its own: one that cannot be done
// is an "error" result and the others are still done. Quire has no draft
// redirects, nor permanent or wildcard ones: such operations are errors
// (authoring.RedirectOps).

// redirectChanges is the request as authoring takes it.
func redirectChanges(b *wire.BulkUpsertSiteRedirects) []authoring.RedirectChange {
	out := make([]authoring.RedirectChange, len(b.Redirects))
	for i, it := range b.Redirects {
		out[i] = authoring.RedirectChange{Source: it.Source, Intent: it.Intent, CaptureWildcard: it.CaptureWildcard, Permanent: it.Permanent}
		if d := it.Destination; d.Set {
			out[i].Destination = &authoring.RedirectTarget{Delete: d.Null, Kind: d.Value.Kind, SectionID: d.Value.SiteSectionID}
		}
	}
	return out
}

func (s *Server) bulkUpsertSiteRedirects(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	var body wire.BulkUpsertSiteRedirects
	if err := readJSON(w, r, &body); err != nil {
		return err
	}
	results, err := s.author.UpsertSiteRedirects(r.Context(), site, redirectChanges(&body))
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
