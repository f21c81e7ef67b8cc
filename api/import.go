package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/importer"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
)

// Imports (contract §4.4, §4.5): a website's pages become pages of a change
// request in one revision, or of a space's content through a change request
// merged at once.

type importResultJSON struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
}

// prepareImport checks that sp takes edits, reads the request and crawls
// the website: its URL, and its pages as an authoring batch.
func (s *Server) prepareImport(w http.ResponseWriter, r *http.Request, sp *quire.Space) (string, []edit.Change, *importer.Result, error) {
	if err := quire.CheckEditable(sp); err != nil {
		return "", nil, nil, err
	}
	start, err := readImport(w, r)
	if err != nil {
		return "", nil, nil, err
	}
	changes, res, err := s.crawl(r, start)
	return start, changes, res, err
}

// readImport reads an import's body: url, and source (website only).
func readImport(w http.ResponseWriter, r *http.Request) (string, error) {
	var body struct {
		URL    *string `json:"url"`
		Source *string `json:"source"`
	}
	if err := readJSON(w, r, &body); err != nil {
		return "", err
	}
	switch {
	case body.URL == nil || *body.URL == "":
		return "", errorf(quire.CodeInvalid, "url: is required")
	case len(*body.URL) > 2048:
		return "", errorf(quire.CodeInvalid, "url: must be at most 2048 characters")
	case body.Source == nil:
		return "", errorf(quire.CodeInvalid, "source: is required")
	case *body.Source != "website":
		return "", errorf(quire.CodeInvalid, "source: must be website")
	}
	return *body.URL, nil
}

// crawl imports a website as an authoring batch of up to edit.MaxChanges
// pages, and says how many pages it found. The crawl fetches at most
// ImportLimits.Bytes and ends within ImportLimits.Timeout, or fails.
func (s *Server) crawl(r *http.Request, start string) ([]edit.Change, *importer.Result, error) {
	ctx, cancel := context.WithTimeout(r.Context(), s.imports.Timeout)
	defer cancel()
	res, err := importer.Website(ctx, s.fetcher, start, importer.Limits{
		Pages: edit.MaxChanges, Bytes: s.imports.Bytes, Markdown: edit.MaxMarkdownSize - importMarkdownAllowance})
	if err != nil {
		switch {
		case r.Context().Err() != nil:
			return nil, nil, r.Context().Err()
		case errors.Is(err, importer.ErrTooLarge):
			return nil, nil, errorf(quire.CodeTooLarge, "url: the website's pages come to more than %s, the most one import fetches; import a folder of it instead",
				mib(s.imports.Bytes))
		case ctx.Err() != nil:
			return nil, nil, errorf(quire.CodeInvalid, "url: the website could not be imported in %s, the longest one import takes; import a folder of it instead",
				seconds(s.imports.Timeout))
		}
		msg := err.Error()
		if fe, ok := errors.AsType[*outbound.Error](err); ok {
			msg = fe.Message + " (" + fe.Code + ")" // fe.Err may name internal addresses
		}
		return nil, nil, errorf(quire.CodeInvalid, "url: could not be imported: %s", msg)
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
		return nil, nil, errorf(quire.CodeInvalid, "url: its pages could not be imported: %s", quire.ErrorMessage(err))
	}
	return changes, res, nil
}

// importIntoChangeRequest answers POST CR/content/import: edit role.
func (s *Server) importIntoChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	done, err := s.startImport(w, sp)
	if err != nil {
		return err
	}
	defer done()
	_, changes, res, err := s.prepareImport(w, r, sp)
	if err != nil {
		return err
	}
	if c, _, err = s.applyBatch(r, sp, c, changes); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, importResultJSON{Revision: c.RevisionID, ImportedResources: len(res.Pages), TotalResources: res.Found})
}

// importIntoSpace answers POST S/content/import: the pages go through a
// change request named after the import, merged at once, so the review
// role is needed, as for merging.
func (s *Server) importIntoSpace(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleReview)
	if err != nil {
		return err
	}
	done, err := s.startImport(w, sp)
	if err != nil {
		return err
	}
	defer done()
	start, changes, res, err := s.prepareImport(w, r, sp)
	if err != nil {
		return err
	}
	me := caller(r.Context()).ID
	c, err := s.db.CreateChangeRequest(r.Context(), sp.ID, "Import of "+start, me)
	if err != nil {
		return err
	}
	imported, _, err := s.applyBatch(r, sp, c, changes)
	if err == nil {
		imported, err = s.db.MergeChangeRequest(r.Context(), sp.ID, c.ID, me)
	}
	if err != nil {
		// The space is unchanged; the request is archived, not left open.
		archived := quire.StatusArchived
		if _, aerr := s.db.UpdateChangeRequest(r.Context(), sp.ID, c.ID, store.ChangeRequestUpdate{Status: &archived}); aerr != nil {
			s.log.ErrorContext(r.Context(), "archive failed import", "change_request", c.ID, "err", aerr)
		}
		return err
	}
	c = imported
	return writeJSON(w, http.StatusOK, importResultJSON{Revision: c.RevisionMerged, ImportedResources: len(res.Pages), TotalResources: res.Found})
}
