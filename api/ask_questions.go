package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/llm"
	"github.com/quiredocs/quire/revision"
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
// their pages' titles and headings: by the model when one is configured
// (kept for as long as those spaces do not change), or picked from them.
func (s *Server) recommend(r *http.Request) ([]string, error) {
	v, err := s.orgViewer(r)
	if err != nil {
		return nil, err
	}
	list, err := s.db.ListSpaces(r.Context(), r.PathValue("organizationId"), store.SpaceFilter{VisibleTo: v}, store.Page{Limit: askSpaces})
	if err != nil {
		return nil, err
	}
	var titles []string
	key := sha256.New()
	for _, sp := range list.Items {
		if len(titles) >= maxRecommendTitles {
			break
		}
		view, err := s.reader.Open(r.Context(), sp, sp.RevisionID, nil)
		if err != nil {
			return nil, err
		}
		key.Write([]byte(view.Revision.Root + "\n"))
		titles = append(titles, s.readingTitles(view, maxRecommendTitles-len(titles))...)
	}
	if s.model == nil || len(titles) == 0 {
		return append([]string{}, search.Recommend(titles)...), nil
	}
	k := hex.EncodeToString(key.Sum(nil))
	if qs, ok := s.recommended.Get(k); ok {
		return qs, nil
	}
	system, user := search.RecommendPrompt(titles)
	text, err := s.model.Complete(r.Context(), []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}})
	if err != nil {
		if r.Context().Err() != nil {
			return nil, r.Context().Err()
		}
		return nil, &quire.Error{Code: quire.CodeBadGateway, Message: "the answering model failed; try again later", Err: err}
	}
	qs := append([]string{}, search.ParseQuestions(text)...)
	s.recommended.Add(k, qs, len(k)+len(text))
	return qs, nil
}

// readingTitles are up to n titles and headings of a view's searchable
// pages, in reading order.
func (s *Server) readingTitles(v *revision.View, n int) []string {
	indexed := search.Indexed(v.Tree)
	var out []string
	var walk func(ids []string)
	walk = func(ids []string) {
		for _, id := range ids {
			p := v.Tree.Pages[id]
			if len(out) >= n || p == nil {
				return
			}
			if indexed[id] != nil {
				out = append(out, pageTitle(p))
				for _, sec := range s.reader.Sections(p) {
					if sec.Title != "" && len(out) < n {
						out = append(out, sec.Title)
					}
				}
			}
			walk(p.Children)
		}
	}
	walk(v.Tree.Root)
	return out
}
