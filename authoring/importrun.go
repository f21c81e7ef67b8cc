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
// (with their role on the space, read in that transaction), writes nothing and fails the
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

// RunStart is a website import run asked for (store.StartImportRun).
type RunStart struct {
	// Space is the target space, in which the caller's role is Role.
	Space *quire.Space
	Role  quire.Role
	// ChangeRequest is the target request of Space (by id or number), or
	// "" to import into the space through a request merged at once.
	ChangeRequest string
	// Site is the site of the organization the run is for, or "".
	Site string
	// SourceURL is the website's address, checked (CheckImport).
	SourceURL string
	// By is the caller, as the merge rules judge them.
	By Actor
}

// StartImportRun records a pending run for the import worker once the
// caller may start it: the edit role for a change request of the space,
// the review role for the space itself, where the run merges at once, so
// that the merge rules in force must allow it now (and again when it
// completes, ImportRun); the space must take edits, and the site be one of
// the organization's.
func (a *Author) StartImportRun(ctx context.Context, in RunStart) (*store.ImportRun, error) {
	sp := in.Space
	n := store.NewImportRun{OrgID: sp.OrgID, SpaceID: sp.ID, SourceURL: in.SourceURL, UserID: in.By.User.ID}
	if in.ChangeRequest != "" {
		if err := quire.RequireRole(in.Role, quire.RoleEdit, "space"); err != nil {
			return nil, err
		}
		c, err := a.DB.ChangeRequest(ctx, sp.ID, in.ChangeRequest)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return nil, quire.Errorf(quire.CodeNotFound, "target.changeRequest: change request not found in the space")
		}
		if err != nil {
			return nil, err
		}
		n.ChangeRequestID = c.ID
	} else {
		if err := quire.RequireRole(in.Role, quire.RoleReview, "space"); err != nil {
			return nil, err
		}
		if err := a.CheckRules(ctx, sp, in.By); err != nil {
			return nil, err
		}
	}
	if err := quire.CheckEditable(sp); err != nil {
		return nil, err
	}
	if in.Site != "" {
		site, err := a.DB.Site(ctx, in.Site)
		if quire.ErrorCode(err) == quire.CodeNotFound || (err == nil && site.OrgID != sp.OrgID) {
			return nil, quire.Errorf(quire.CodeInvalid, "site: no site %q in this organization", in.Site)
		}
		if err != nil {
			return nil, err
		}
		n.SiteID = site.ID
	}
	return a.DB.StartImportRun(ctx, n)
}
