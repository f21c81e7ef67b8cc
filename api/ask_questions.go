package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/wire"
)

// recommendedQuestions answers GET O/ask/questions.
func (s *Server) recommendedQuestions(w http.ResponseWriter, r *http.Request) error {
	qs, err := s.recommend(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"questions": qs})
}

// recommendedQuestionsStream answers GET O/ask/questions/stream: one event
// per question.
func (s *Server) recommendedQuestionsStream(w http.ResponseWriter, r *http.Request) error {
	qs, err := s.recommend(r)
	if err != nil {
		return err
	}
	return s.streamQuestions(w, r, qs)
}

// recommend suggests questions about the spaces the caller can read
// (ask.Asker.Questions).
func (s *Server) recommend(r *http.Request) ([]string, error) {
	v, err := s.orgViewer(r)
	if err != nil {
		return nil, err
	}
	return s.asker.Questions(r.Context(), r.PathValue("organizationId"), v)
}

// siteRecommendedQuestions answers GET SITE/ask/questions, the reference's
// streamRecommendedQuestionsInSite: one event per question suggested from
// the pages of the site's spaces that its anonymous visitors see
// (ask.Asker.ScopeQuestions), or only of the site space siteSpaceId (or of
// the space spaceId, deprecated).
func (s *Server) siteRecommendedQuestions(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), siteLookupTimeout) // the model has its own bound
	defer cancel()
	siteSpaces, sees, err := s.visibleSiteSpaces(ctx, site, &wire.SiteSearchScope{Mode: "all"})
	if err != nil {
		return err
	}
	q := query(r)
	var spaces []*quire.Space
	for _, ss := range siteSpaces {
		if (!q.Has("siteSpaceId") || ss.ID == q.Get("siteSpaceId")) && (!q.Has("spaceId") || ss.Space.ID == q.Get("spaceId")) {
			spaces = append(spaces, ss.Space)
		}
	}
	qs, err := s.asker.ScopeQuestions(r.Context(), ask.Scope{Spaces: spaces, Keep: sees})
	if err != nil {
		return err
	}
	return s.streamQuestions(w, r, qs)
}

// streamQuestions sends one event per question.
func (s *Server) streamQuestions(w http.ResponseWriter, r *http.Request, qs []string) error {
	var err error
	events := s.startEvents(w)
	for _, q := range qs {
		if err = events.Send(map[string]string{"question": q}); err != nil {
			break
		}
	}
	return s.endEvents(events, r, err)
}
