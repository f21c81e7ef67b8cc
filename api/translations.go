package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Contract §4.18 Translation languages. A translation settings id names one
// translation configuration of an organization; its first language creates
// it, and an id with no languages lists none. Members read; admins write.

// translationSettings resolves the caller's membership of the organization
// in the path and checks the settings id (and the language, when withLanguage).
func (s *Server) translationSettings(r *http.Request, withLanguage bool) (me *quire.Member, settingsID, language string, err error) {
	if me, err = s.membership(r); err != nil {
		return nil, "", "", err
	}
	settingsID = r.PathValue("translationSettingsId")
	if err = quire.CheckTranslationSettingsID("translationSettingsId", settingsID); err != nil {
		return nil, "", "", err
	}
	if withLanguage {
		language = r.PathValue("translationLanguage")
		if err = quire.CheckOneOf("translationLanguage", language, quire.TranslationLanguages); err != nil {
			return nil, "", "", err
		}
	}
	return me, settingsID, language, nil
}

// adminTranslationSettings is translationSettings with a language, for an
// admin of the organization.
func (s *Server) adminTranslationSettings(r *http.Request) (me *quire.Member, settingsID, language string, err error) {
	if me, settingsID, language, err = s.translationSettings(r, true); err != nil {
		return nil, "", "", err
	}
	if err = requireAdmin(me); err != nil {
		return nil, "", "", err
	}
	return me, settingsID, language, nil
}

func (s *Server) listTranslationLanguages(w http.ResponseWriter, r *http.Request) error {
	me, settingsID, _, err := s.translationSettings(r, false)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.TranslationLanguage], error) {
		return s.db.ListTranslationLanguages(ctx, me.OrgID, settingsID, p)
	}, s.wire.TranslationLanguage)
}

func (s *Server) getTranslationLanguage(w http.ResponseWriter, r *http.Request) error {
	me, settingsID, language, err := s.translationSettings(r, true)
	if err != nil {
		return err
	}
	t, err := s.db.TranslationLanguage(r.Context(), me.OrgID, settingsID, language)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.TranslationLanguage(t))
}

// putTranslationLanguage creates (201, with Location) or replaces (200) a
// language's instructions.
func (s *Server) putTranslationLanguage(w http.ResponseWriter, r *http.Request) error {
	me, settingsID, language, err := s.adminTranslationSettings(r)
	if err != nil {
		return err
	}
	var body wire.TranslationInstructions
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	t, created, err := s.db.PutTranslationLanguage(r.Context(), me.OrgID, settingsID, language, body.CheckedInstructions())
	if err != nil {
		return err
	}
	out := s.wire.TranslationLanguage(t)
	if created {
		return writeCreated(w, out.URLs.Location, out)
	}
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) deleteTranslationLanguage(w http.ResponseWriter, r *http.Request) error {
	me, settingsID, language, err := s.adminTranslationSettings(r)
	if err != nil {
		return err
	}
	if err := s.db.DeleteTranslationLanguage(r.Context(), me.OrgID, settingsID, language); err != nil {
		return err
	}
	return noContent(w)
}
