package api

import (
	"context"
	"net/http"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/internal/sse"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/web"
	"github.com/quiredocs/quire/wire"
)

// AI questions (contract §4.19): a question is answered from the sections
// of the spaces the caller can read that hold its words. With a model
// configured (Config.Model), the model writes the answer from them;
// without, the answer quotes the best one.

type askSourceJSON struct {
	Type     string   `json:"type"`
	Reason   string   `json:"reason"`
	Page     string   `json:"page"`
	Revision string   `json:"revision"`
	Space    string   `json:"space"`
	Sections []string `json:"sections"`
}

type askAnswerJSON struct {
	Answer            map[string]any  `json:"answer"`
	FollowupQuestions []string        `json:"followupQuestions"`
	Sources           []askSourceJSON `json:"sources"`
}

// askRequest is a question as the two ask operations take it.
type askRequest struct {
	question string
	previous []string
	document bool // answer as a JSON document rather than markdown
}

// askParams reads format and details, common to both ask operations.
func askParams(r *http.Request) (document bool, err error) {
	f, err := formatParams(r)
	if err != nil {
		return false, err
	}
	if _, err := optBoolParam(r, "details"); err != nil {
		return false, err
	}
	return f.Document, nil
}

// askedSources reads an ask operation's caller, format and details, then
// its question (read), and finds the sources that answer it.
func (s *Server) askedSources(r *http.Request, read func() (askRequest, error)) (askRequest, []ask.Source, error) {
	v, err := s.orgViewer(r)
	if err != nil {
		return askRequest{}, nil, err
	}
	doc, err := askParams(r)
	if err != nil {
		return askRequest{}, nil, err
	}
	req, err := read()
	if err != nil {
		return askRequest{}, nil, err
	}
	req.document = doc
	sources, err := s.asker.Sources(r.Context(), r.PathValue("organizationId"), v, req.question)
	return req, sources, err
}

// ask answers POST O/ask.
func (s *Server) ask(w http.ResponseWriter, r *http.Request) error {
	req, sources, err := s.askedSources(r, func() (askRequest, error) {
		body := wire.SearchAIQuery{MaxQuestion: ask.MaxQuestion, MaxPrevious: ask.MaxPrevious}
		if err := readRequest(w, r, &body); err != nil {
			return askRequest{}, err
		}
		return askRequest{question: body.Query, previous: body.PreviousQueries}, nil
	})
	if err != nil {
		return err
	}
	answer, err := s.answer(r.Context(), req, sources, nil)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"answer": answer})
}

// askStream answers GET O/ask/stream as server-sent events: with a model,
// the answer as it is written (each event holds all of it so far), and the
// whole answer last.
func (s *Server) askStream(w http.ResponseWriter, r *http.Request) error {
	req, sources, err := s.askedSources(r, func() (askRequest, error) {
		q := query(r).Get("query")
		return askRequest{question: q}, ask.CheckQuestion("query", q)
	})
	if err != nil {
		return err
	}
	events := s.startEvents(w)
	answer, err := s.answer(r.Context(), req, sources, func(partial *askAnswerJSON) error {
		return events.Send(map[string]any{"type": "answer", "answer": partial})
	})
	if err == nil {
		err = events.Send(map[string]any{"type": "answer", "answer": answer})
	}
	return s.endEvents(events, r, err)
}

// answer writes the answer to a question from its sources (ask.Asker):
// progress, when not nil, is told of a model's answer as it grows.
func (s *Server) answer(ctx context.Context, req askRequest, sources []ask.Source, progress func(*askAnswerJSON) error) (*askAnswerJSON, error) {
	var grow func(ask.Answer) error
	if progress != nil {
		grow = func(a ask.Answer) error { return progress(s.answerJSON(req, a, sources)) }
	}
	a, err := s.asker.Answer(ctx, ask.Question{Text: req.question, Previous: req.previous}, sources, grow)
	if err != nil {
		return nil, err
	}
	return s.answerJSON(req, a, sources), nil
}

// answerJSON shapes an answer: its markdown as the format asks, and the
// sources it used.
func (s *Server) answerJSON(req askRequest, a ask.Answer, sources []ask.Source) *askAnswerJSON {
	out := &askAnswerJSON{Answer: map[string]any{"markdown": a.Markdown}, FollowupQuestions: []string{}, Sources: []askSourceJSON{}}
	if req.document {
		out.Answer = map[string]any{"document": render.Document(a.Markdown, func(target string) render.Resolution {
			return render.Resolution{Kind: render.KindURL, URL: target, Status: render.StatusOK}
		})}
	}
	out.FollowupQuestions = append(out.FollowupQuestions, a.FollowUps...)
	reason := "Quoted in the answer."
	if s.asker.Cites() {
		reason = "Cited in the answer."
	}
	for _, i := range a.Used {
		src := sources[i]
		sections := []string{}
		if src.Section.ID != "" {
			sections = append(sections, src.Section.ID)
		}
		out.Sources = append(out.Sources, askSourceJSON{Type: "page", Reason: reason, Page: src.PageID,
			Revision: src.RevisionID, Space: src.SpaceID, Sections: sections})
	}
	return out
}

// keepAliveInterval is how often a quiet event stream says it is alive,
// so that proxies do not close it while a model thinks.
const keepAliveInterval = 15 * time.Second

// startEvents answers 200 with an event stream.
func (s *Server) startEvents(w http.ResponseWriter) *sse.Stream {
	return sse.Start(w, s.keepAlive, s.writeTimeout)
}

// endEvents closes a stream: an error after it started is told as an event
// of type error (the status is already sent), and logged.
func (s *Server) endEvents(events *sse.Stream, r *http.Request, err error) error {
	if err == nil || r.Context().Err() != nil {
		events.Close("", nil)
		return nil
	}
	s.log.Error("event stream failed", "path", r.URL.Path, "err", err)
	events.Close("error", web.ErrorJSON{Error: web.ErrorDetail{Code: quire.ErrorStatus(err), Message: quire.ErrorMessage(err)}})
	return nil
}
