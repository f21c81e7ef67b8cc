package api

import (
	"net/http"

	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
)

// maxRecommendTitles bounds the titles and headings questions are drawn
// from: the first ones in reading order.
const maxRecommendTitles = 200

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
	events := s.startEvents(w)
	for _, q := range qs {
		if err = events.send(map[string]string{"question": q}); err != nil {
			break
		}
	}
	return events.end(s, r, err)
}

// recommend suggests questions about the spaces the caller can read, from
// their pages' titles and headings (search.Questions); a model's are kept
// for as long as those spaces do not change.
func (s *Server) recommend(r *http.Request) ([]string, error) {
	v, err := s.orgViewer(r)
	if err != nil {
		return nil, err
	}
	list, err := s.db.ListSpaces(r.Context(), r.PathValue("organizationId"), store.SpaceFilter{VisibleTo: v}, store.Page{Limit: askSpaces})
	if err != nil {
		return nil, err
	}
	titles, key, err := s.reader.Titles(r.Context(), list.Items, maxRecommendTitles)
	if err != nil {
		return nil, err
	}
	if qs, ok := s.recommended.Get(key); ok {
		return qs, nil
	}
	qs, err := search.Questions(r.Context(), s.model, titles)
	if err != nil {
		return nil, err
	}
	if s.model != nil && len(titles) > 0 { // only a model's questions are kept
		size := len(key)
		for _, q := range qs {
			size += len(q)
		}
		s.recommended.Add(key, qs, size)
	}
	return qs, nil
}
