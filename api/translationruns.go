package api

import (
	"fmt"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Translations (issue 19, O/translations): a source space translated by the
// configured model into a target space made with the translation, run as a
// durable job (store/translationruns.go, jobs/translations.go). A
// translation's id is also its translation settings id: the languages under
// O/translations/{id}/languages (translations.go, contract §4.18) are its
// instructions per target language, which its runs follow, as the
// reference's Translation.urls.location ("the translation settings") has
// it. Members read; admins write.

// adminMember is the caller's membership of the organization in the path,
// which must be an admin's.
func (s *Server) adminMember(r *http.Request) (*quire.Member, error) {
	me, err := s.membership(r)
	if err == nil {
		err = requireAdmin(me)
	}
	return me, err
}

// createTranslation records a translation and makes its target space; with
// a model configured it queues its first run.
func (s *Server) createTranslation(w http.ResponseWriter, r *http.Request) error {
	me, err := s.adminMember(r)
	if err != nil {
		return err
	}
	var body wire.CreateTranslation
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	t, err := s.author.CreateTranslation(r.Context(), me.OrgID, caller(r.Context()).ID, authoring.NewTranslation{
		SourceSpaceID: *body.Source.Space, SourceLanguage: *body.Source.Language, Language: *body.Language,
		Instructions: body.CheckedInstructions()}, s.model != nil)
	if err != nil {
		return err
	}
	out := s.wire.Translation(t, me)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) listTranslations(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	all, err := s.db.Translations(r.Context(), me.OrgID)
	if err != nil {
		return err
	}
	list := store.PageOf(all, p, func(t *store.Translation) store.Cursor {
		return store.Cursor{Str: fmt.Sprintf("%019d", t.CreatedAt.UnixMicro()), ID: t.ID}
	})
	return writeList(w, list, func(t *store.Translation) wire.Translation { return s.wire.Translation(t, me) })
}

// translation loads the translation in the path for a member (admin when
// admin is true): 404 for others, 403 for members when admin.
func (s *Server) translation(r *http.Request, admin bool) (*store.Translation, *quire.Member, error) {
	me, err := s.membership(r)
	if err != nil {
		return nil, nil, err
	}
	id := r.PathValue("translationId")
	if err := quire.CheckLen("translationId", id, 1, 256); err != nil {
		return nil, nil, err
	}
	t, err := s.db.Translation(r.Context(), me.OrgID, id)
	if err != nil {
		return nil, nil, err
	}
	if admin {
		if err := requireAdmin(me); err != nil {
			return nil, nil, err
		}
	}
	return t, me, nil
}

func (s *Server) getTranslation(w http.ResponseWriter, r *http.Request) error {
	t, me, err := s.translation(r, false)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Translation(t, me))
}

func (s *Server) updateTranslation(w http.ResponseWriter, r *http.Request) error {
	t, me, err := s.translation(r, true)
	if err != nil {
		return err
	}
	var body wire.TranslationInstructions
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if t, err = s.db.UpdateTranslation(r.Context(), t.OrgID, t.ID, body.CheckedInstructions()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Translation(t, me))
}

// deleteTranslation answers 205 when it deleted the translation and 204
// when there was none, as the reference has it; members get 403.
func (s *Server) deleteTranslation(w http.ResponseWriter, r *http.Request) error {
	me, err := s.adminMember(r)
	if err != nil {
		return err
	}
	id := r.PathValue("translationId")
	if err := quire.CheckLen("translationId", id, 1, 256); err != nil {
		return err
	}
	deleted, err := s.db.DeleteTranslation(r.Context(), me.OrgID, id)
	if err != nil {
		return err
	}
	if deleted {
		w.WriteHeader(http.StatusResetContent)
		return nil
	}
	return noContent(w)
}

// runTranslation queues a run: 204. Without a model, 400 saying so
// (authoring.Author.RunTranslation).
func (s *Server) runTranslation(w http.ResponseWriter, r *http.Request) error {
	t, _, err := s.translation(r, true)
	if err != nil {
		return err
	}
	if err := s.author.RunTranslation(r.Context(), t, caller(r.Context()).ID, s.model != nil); err != nil {
		return err
	}
	return noContent(w)
}
