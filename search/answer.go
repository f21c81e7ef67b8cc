package search

import (
	"context"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/llm"
)

// NotCovered is the answer when no source holds the question's words.
const NotCovered = "The documentation you can read does not cover this."

// answerTimeout bounds the model's work on an answer, streamed or not.
const answerTimeout = 3 * time.Minute

// Question is what a reader asks, after the questions asked before it in
// the same conversation.
type Question struct {
	Text     string
	Previous []string
}

// Answer is an answer to a question: its markdown, the follow-up
// questions the model suggests, and the indexes of the sources it used.
type Answer struct {
	Markdown  string
	FollowUps []string
	Used      []int
}

// Ask answers a question from its sources (best first): by the model when
// one is given, or by quoting the best source when model is nil. progress,
// when not nil, is told of the model's answer as it grows, and the model's
// answer is streamed.
func Ask(ctx context.Context, model *llm.Model, q Question, sources []Source, progress func(Answer) error) (Answer, error) {
	if len(sources) == 0 {
		return Answer{Markdown: NotCovered}, nil
	}
	if model == nil {
		md, used := Extract(QuestionTerms(q.Text), sources)
		if used < 0 {
			return Answer{Markdown: NotCovered}, nil
		}
		return Answer{Markdown: md, Used: []int{used}}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, answerTimeout)
	defer cancel()
	system, user := Prompt(q.Text, sources)
	messages := []llm.Message{{Role: "system", Content: system}}
	for _, p := range q.Previous {
		messages = append(messages, llm.Message{Role: "user", Content: p})
	}
	messages = append(messages, llm.Message{Role: "user", Content: user})
	var text string
	var err error
	if progress == nil {
		text, err = model.Complete(ctx, messages)
	} else {
		var sofar string
		text, err = model.Stream(ctx, messages, func(delta string) error {
			sofar += delta
			md, _, cited := ParseAnswer(WithoutPartialFollowUp(sofar), len(sources))
			return progress(Answer{Markdown: md, Used: cited})
		})
	}
	if err != nil {
		return Answer{}, modelError(ctx, err)
	}
	md, followUps, cited := ParseAnswer(text, len(sources))
	return Answer{Markdown: md, FollowUps: followUps, Used: cited}, nil
}

// Questions recommends questions to ask of documentation from the titles
// and headings of its pages in reading order: the model's when one is
// given and there are titles, or those Recommend picks. The slice is new.
func Questions(ctx context.Context, model *llm.Model, titles []string) ([]string, error) {
	if model == nil || len(titles) == 0 {
		return append([]string{}, Recommend(titles)...), nil
	}
	system, user := RecommendPrompt(titles)
	text, err := model.Complete(ctx, []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}})
	if err != nil {
		return nil, modelError(ctx, err)
	}
	return append([]string{}, ParseQuestions(text)...), nil
}

// modelError is the error of a model's failure: the context's when it
// ended, else a bad gateway that keeps the cause from the client.
func modelError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &quire.Error{Code: quire.CodeBadGateway, Message: "the answering model failed; try again later", Err: err}
}
