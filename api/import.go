package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/wire"
)

// Imports (contract §4.4, §4.5): a website's pages become pages of a change
// request in one revision, or of a space's content through a change request
// merged at once (authoring.Author).

// readImport checks that sp takes edits and reads an import's body: url
// and source "website" (the contract's form), or source as the reference's
// ContentImportSource, {"type":"website","url"} or {"type":"file","files"}.
func readImport(w http.ResponseWriter, r *http.Request, sp *quire.Space) (*wire.ImportContent, error) {
	if err := quire.CheckEditable(sp); err != nil {
		return nil, err
	}
	var body wire.ImportContent
	if err := readRequest(w, r, &body); err != nil {
		return nil, err
	}
	return &body, nil
}

// runImport holds an import slot for sp, reads the import's body and runs
// the import (authoring.Author.ImportInto) into change request c, or when
// c is nil into sp, answering with the revision it made.
func (s *Server) runImport(w http.ResponseWriter, r *http.Request, sp *quire.Space, c *quire.ChangeRequest, by authoring.Actor) error {
	done, err := s.startImport(w, sp)
	if err != nil {
		return err
	}
	defer done()
	body, err := readImport(w, r, sp)
	if err != nil {
		return err
	}
	im, err := s.author.ImportInto(r.Context(), sp, c, authoring.Source{Start: body.Start(), Files: body.Files()}, by)
	if err != nil {
		return err
	}
	rev := im.ChangeRequest.RevisionMerged
	if c != nil {
		rev = im.ChangeRequest.RevisionID
	}
	return writeJSON(w, http.StatusOK, wire.ImportResult{Revision: rev, ImportedResources: im.Imported, TotalResources: im.Found})
}

// importIntoChangeRequest answers POST CR/content/import: edit role.
func (s *Server) importIntoChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	return s.runImport(w, r, sp, c, authoring.Actor{User: caller(r.Context())})
}

// importIntoSpace answers POST S/content/import: the pages go through a
// change request named after the import, merged at once, so the review
// role is needed, as for merging. A failed import leaves no request behind.
func (s *Server) importIntoSpace(w http.ResponseWriter, r *http.Request) error {
	sp, role, err := s.space(r, quire.RoleReview)
	if err != nil {
		return err
	}
	// The import merges a change request of its own at once, unreviewed:
	// the merge rules in force must allow that, asked before the import
	// reads anything and judged again in its transaction.
	by := authoring.Actor{User: caller(r.Context()), Role: role}
	if err := s.author.CheckRules(r.Context(), sp, by); err != nil {
		return err
	}
	return s.runImport(w, r, sp, nil, by)
}
