package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/store"
)

// ImportRun carries out a claimed import run (store.ClaimImportRun): the
// website is crawled with no transaction open, within ctx, which the worker
// ends when the run is cancelled; then the pages are written into change
// request c of sp, or when c is nil into sp through a change request merged
// at once, in the transaction that completes the run. A merge the merge
// rules refuse in that transaction, judged as a merge by the run's user
// (RulesEnv renders what custom rules see), writes nothing and fails the
// run with RulesError. When the run was
// cancelled or lost in the meantime, that transaction fails with
// store.ErrImportRunLost and nothing is written.
func (a *Author) ImportRun(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, run *store.ImportRun) (*Import, error) {
	changes, res, err := a.crawl(ctx, run.SourceURL)
	if err != nil {
		return nil, err
	}
	subject := ""
	if c == nil {
		subject = "Import of " + run.SourceURL
	}
	urls := map[string]string{}
	for _, p := range res.Pages {
		urls[p.Ref] = p.URL
	}
	var check store.MergeCheck
	if c == nil {
		check = a.runCheck(ctx, sp, run.CreatedBy)
	}
	out, _, err := a.commit(ctx, sp, c, subject, run.CreatedBy, "", changes, check, func(tx *store.Tx, r *edit.Result) error {
		var pages []store.ImportedPage
		for _, o := range r.Changes {
			if u, ok := urls[o.Ref]; ok && o.Ref != "" {
				pages = append(pages, store.ImportedPage{ID: o.PageID, SourceURL: u})
			}
		}
		return tx.CompleteImportRun(ctx, run, pages)
	})
	if err != nil {
		return nil, err
	}
	return &Import{ChangeRequest: out, Imported: len(res.Pages), Found: res.Found}, nil
}
