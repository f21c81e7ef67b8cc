package api

import (
	"encoding/json"
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
func readImport(w http.ResponseWriter, r *http.Request, sp *quire.Space) (*importRequest, error) {
	if err := quire.CheckEditable(sp); err != nil {
		return nil, err
	}
	var body importRequest
	if err := readRequest(w, r, &body); err != nil {
		return nil, err
	}
	return &body, nil
}

// importRequest is the body of the import operations; validate leaves
// start (a website's URL) or files (upload keys) set.
type importRequest struct {
	URL    *string         `json:"url"`
	Source json.RawMessage `json:"source"`

	start string
	files []string
}

func (b *importRequest) Validate() error {
	str, obj, err := decodeSource(b.Source)
	if err != nil {
		return err
	}
	if obj == nil {
		if err := authoring.CheckImport(b.URL, str); err != nil {
			return err
		}
		b.start = *b.URL
		return nil
	}
	switch obj.Type {
	case "website":
		u := obj.URL
		if u == nil {
			u = b.URL
		}
		website := "website"
		if err := authoring.CheckImport(u, &website); err != nil {
			return quire.Errorf(quire.CodeInvalid, "source.%s", quire.ErrorMessage(err))
		}
		b.start = *u
	case "file":
		if b.URL != nil {
			return quire.Errorf(quire.CodeInvalid, "url: not taken with source type file")
		}
		if len(obj.Files) == 0 || len(obj.Files) > 50 {
			return quire.Errorf(quire.CodeInvalid, "source.files: 1 to 50 keys of uploaded files")
		}
		for i, k := range obj.Files {
			if k == "" || len(k) > 100 {
				return quire.Errorf(quire.CodeInvalid, "source.files[%d]: must be the key of an uploaded file", i)
			}
		}
		b.files = obj.Files
	default:
		return quire.Errorf(quire.CodeInvalid, "source.type: must be website or file")
	}
	return nil
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
	im, err := s.author.ImportInto(r.Context(), sp, c, authoring.Source{Start: body.start, Files: body.files}, by)
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
