package api

import (
	"fmt"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The translation glossary (issue 19, O/translations-glossary): terms and
// how each language says them, which translation runs keep to
// (jobs/translations.go). Members read; admins change it by batches of
// insert, update and delete operations, all or nothing.

// maxGlossaryOps bounds the operations of one batch.
const maxGlossaryOps = store.MaxGlossaryEntries

// listGlossaryEntries lists the glossary oldest first, or with orderBy (a
// language) by its term in that language, any case; entries without one
// come last.
func (s *Server) listGlossaryEntries(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	q := query(r)
	orderBy := q.Get("orderBy")
	if q.Has("orderBy") {
		if err := quire.CheckOneOf("orderBy", orderBy, quire.TranslationLanguages); err != nil {
			return err
		}
	}
	list, err := s.author.GlossaryPage(r.Context(), me.OrgID, orderBy, p)
	if err != nil {
		return err
	}
	return writeList(w, list, s.wire.GlossaryEntry)
}

func (s *Server) getGlossaryEntry(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	id := r.PathValue("glossaryEntryId")
	if err := quire.CheckLen("glossaryEntryId", id, 1, 256); err != nil {
		return err
	}
	g, err := s.db.GlossaryEntry(r.Context(), me.OrgID, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.GlossaryEntry(g))
}

// glossaryRequest is the body of PUT O/translations-glossary.
type glossaryRequest struct {
	Operations *[]struct {
		Type         *string            `json:"type"`
		ID           *string            `json:"id"`
		Translations *map[string]string `json:"translations"`
	} `json:"operations"`

	ops []store.GlossaryOp
}

func (b *glossaryRequest) Validate() error {
	if b.Operations == nil {
		return errorf(quire.CodeInvalid, "operations: is required")
	}
	if len(*b.Operations) > maxGlossaryOps {
		return errorf(quire.CodeInvalid, "operations: at most %d in one batch", maxGlossaryOps)
	}
	for i, op := range *b.Operations {
		at := fmt.Sprintf("operations[%d]", i)
		if op.Type == nil {
			return errorf(quire.CodeInvalid, "%s.type: is required", at)
		}
		out := store.GlossaryOp{Type: *op.Type}
		switch *op.Type {
		case "insert", "update", "delete":
		default:
			return errorf(quire.CodeInvalid, "%s.type: must be insert, update or delete", at)
		}
		if *op.Type != "insert" {
			if op.ID == nil || *op.ID == "" {
				return errorf(quire.CodeInvalid, "%s.id: is required", at)
			}
			if err := quire.CheckLen(at+".id", *op.ID, 1, 256); err != nil {
				return err
			}
			out.ID = *op.ID
		}
		if *op.Type != "delete" {
			if op.Translations == nil {
				return errorf(quire.CodeInvalid, "%s.translations: is required", at)
			}
			if err := quire.CheckGlossaryTerms(at+".translations", *op.Translations); err != nil {
				return err
			}
			out.Translations = *op.Translations
		}
		b.ops = append(b.ops, out)
	}
	return nil
}

func (s *Server) updateGlossaryEntries(w http.ResponseWriter, r *http.Request) error {
	me, err := s.adminMember(r)
	if err != nil {
		return err
	}
	var body glossaryRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if err := s.db.UpdateGlossary(r.Context(), me.OrgID, body.ops); err != nil {
		return err
	}
	return noContent(w)
}
