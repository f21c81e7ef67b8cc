package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

// Imports (contract §4.4, §4.5): a website's pages become pages of a change
// request in one revision, or of a space's content through a change request
// merged at once (authoring.Author).

type importResultJSON struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
}

// readImport checks that sp takes edits and reads an import's body: url,
// and source (website only).
func readImport(w http.ResponseWriter, r *http.Request, sp *quire.Space) (string, error) {
	if err := quire.CheckEditable(sp); err != nil {
		return "", err
	}
	var body importRequest
	if err := readRequest(w, r, &body); err != nil {
		return "", err
	}
	return *body.URL, nil
}

// importRequest is the body of the import operations.
type importRequest struct {
	URL    *string `json:"url"`
	Source *string `json:"source"`
}

func (b *importRequest) validate() error { return authoring.CheckImport(b.URL, b.Source) }

// runImport holds an import slot for sp, reads the import's body and runs
// the import into, answering with the revision that revision picks.
func (s *Server) runImport(w http.ResponseWriter, r *http.Request, sp *quire.Space, into func(start string) (*authoring.Import, error), revision func(*quire.ChangeRequest) string) error {
	done, err := s.startImport(w, sp)
	if err != nil {
		return err
	}
	defer done()
	start, err := readImport(w, r, sp)
	if err != nil {
		return err
	}
	im, err := into(start)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, importResultJSON{Revision: revision(im.ChangeRequest), ImportedResources: im.Imported, TotalResources: im.Found})
}

// importIntoChangeRequest answers POST CR/content/import: edit role.
func (s *Server) importIntoChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	return s.runImport(w, r, sp, func(start string) (*authoring.Import, error) {
		return s.author.ImportIntoChangeRequest(r.Context(), sp, c, caller(r.Context()).ID, start)
	}, func(c *quire.ChangeRequest) string { return c.RevisionID })
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
	// the merge rules in force must allow that.
	me := caller(r.Context())
	if err := s.checkMergeRules(r, sp, role, &quire.ChangeRequest{SpaceID: sp.ID, Subject: "Import", CreatedBy: *me,
		Status: quire.StatusDraft, RevisionID: sp.RevisionID, RevisionInitial: sp.RevisionID}); err != nil {
		return err
	}
	return s.runImport(w, r, sp, func(start string) (*authoring.Import, error) {
		return s.author.ImportIntoSpace(r.Context(), sp, caller(r.Context()).ID, start)
	}, func(c *quire.ChangeRequest) string { return c.RevisionMerged })
}
