package api

import (
	"net/http"
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
	events := s.startEvents(w)
	for _, q := range qs {
		if err = events.Send(map[string]string{"question": q}); err != nil {
			break
		}
	}
	return s.endEvents(events, r, err)
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
