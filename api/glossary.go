package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// The translation glossary (issue 19, O/translations-glossary): terms and
// how each language says them, which translation runs keep to
// (jobs/translations.go). Members read; admins change it by batches of
// insert, update and delete operations, all or nothing.

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

func (s *Server) updateGlossaryEntries(w http.ResponseWriter, r *http.Request) error {
	me, err := s.adminMember(r)
	if err != nil {
		return err
	}
	var body wire.UpdateGlossaryEntries
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if err := s.db.UpdateGlossary(r.Context(), me.OrgID, body.Ops()); err != nil {
		return err
	}
	return noContent(w)
}
