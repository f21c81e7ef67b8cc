package authoring

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/importer"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/wire"
)

// Imports (contract §4.4, §4.5): a website's pages become pages of a change
// request in one revision, or of a space's content through a change request
// merged at once. The website is crawled first, with no transaction open;
// then one transaction writes all of the import or none of it.

// Import is what a website import did.
type Import struct {
	// ChangeRequest is the request the pages went into: for an import into
	// a space, the merged request named after the import.
	ChangeRequest *quire.ChangeRequest
	Imported      int // pages imported
	Found         int // pages found, imported or not
}

// CheckImport validates what an import is asked for, as the request bodies
// do (wire.CheckImport).
func CheckImport(url, source *string) error { return wire.CheckImport(url, source) }

// Source is what an import reads: the website at Start, or the uploaded
// files whose keys are Files (UploadedFolder) when not nil.
type Source struct {
	Start string
	Files []string
}

// ImportInto imports src into change request c of sp as one new revision,
// or when c is nil into sp through a request merged at once, once the
// merge rules judged for by allow it; by's user writes. The caller holds
// an import slot (Start).
func (a *Author) ImportInto(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, src Source, by Actor) (*Import, error) {
	if src.Files == nil {
		if c != nil {
			return a.ImportIntoChangeRequest(ctx, sp, c, by.User.ID, src.Start)
		}
		return a.ImportIntoSpace(ctx, sp, src.Start, by)
	}
	files, err := a.UploadedFolder(ctx, sp.OrgID, src.Files)
	if err != nil {
		return nil, err
	}
	if c != nil {
		return a.ImportFolder(ctx, sp, c, by.User.ID, files)
	}
	return a.ImportFolderIntoSpace(ctx, sp, files, by)
}

// ImportIntoChangeRequest imports the website at start into change request
// c of space sp, as one new revision by the user. The caller holds an import
// slot (Start).
func (a *Author) ImportIntoChangeRequest(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, userID, start string) (*Import, error) {
	changes, res, err := a.crawl(ctx, start)
	if err != nil {
		return nil, err
	}
	if c, _, err = a.commit(ctx, sp, c, "", userID, "", changes, nil, nil); err != nil {
		return nil, err
	}
	return &Import{ChangeRequest: c, Imported: len(res.Pages), Found: res.Found}, nil
}

// ImportIntoSpace imports the website at start into space sp for by: in one transaction, a change request named after the import is
// created, gets the pages and is merged, once the merge rules judged for by
// allow it (RulesError otherwise). When any step fails, nothing is left: no
// request, no revision, no file. The caller holds an import slot (Start).
func (a *Author) ImportIntoSpace(ctx context.Context, sp *quire.Space, start string, by Actor) (*Import, error) {
	changes, res, err := a.crawl(ctx, start)
	if err != nil {
		return nil, err
	}
	c, _, err := a.commit(ctx, sp, nil, "Import of "+start, by.User.ID, "", changes, a.mergeCheck(ctx, sp, by), nil)
	if err != nil {
		return nil, err
	}
	return &Import{ChangeRequest: c, Imported: len(res.Pages), Found: res.Found}, nil
}

// crawl imports a website as an authoring batch of up to edit.MaxChanges
// pages, and says how many pages it found. The crawl fetches at most
// Limits.Bytes and ends within Limits.Timeout, or fails.
func (a *Author) crawl(parent context.Context, start string) ([]edit.Change, *importer.Result, error) {
	l := a.Limits.withDefaults()
	ctx, cancel := context.WithTimeout(parent, l.Timeout)
	defer cancel()
	res, err := importer.Website(ctx, a.Fetcher, start, importer.Limits{
		Pages: edit.MaxChanges, Bytes: l.Bytes, Markdown: edit.MaxMarkdownSize - importMarkdownAllowance})
	if err != nil {
		switch {
		case parent.Err() != nil:
			return nil, nil, parent.Err()
		case errors.Is(err, importer.ErrTooLarge):
			return nil, nil, quire.Errorf(quire.CodeTooLarge, "url: the website's pages come to more than %s, the most one import fetches; import a folder of it instead",
				mib(l.Bytes))
		case ctx.Err() != nil:
			return nil, nil, quire.Errorf(quire.CodeInvalid, "url: the website could not be imported in %s, the longest one import takes; import a folder of it instead",
				seconds(l.Timeout))
		}
		return nil, nil, quire.Errorf(quire.CodeInvalid, "url: could not be imported: %s", fetchProblem(err))
	}
	var batch struct {
		Changes []map[string]any `json:"changes"`
	}
	for _, p := range res.Pages {
		change := map[string]any{"operation": "insert_page", "ref": p.Ref,
			"document": map[string]any{"markdown": render.PageMarkdown(p.Title, "", p.Markdown)}}
		if p.Parent != "" {
			change["into"] = p.Parent
		}
		batch.Changes = append(batch.Changes, change)
	}
	raw, err := json.Marshal(batch)
	if err != nil {
		return nil, nil, err
	}
	changes, err := edit.Parse(raw)
	if err != nil {
		return nil, nil, quire.Errorf(quire.CodeInvalid, "url: its pages could not be imported: %s", quire.ErrorMessage(err))
	}
	return changes, res, nil
}
