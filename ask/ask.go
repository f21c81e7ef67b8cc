// Package ask answers questions about an organization's content (contract
// §4.19): it retrieves the sections of the spaces a viewer can read that
// hold a question's words (revision.Reader.Sources), has search.Ask write
// the answer from them, by a model when one is configured or else by
// quoting the best one, and suggests questions from those spaces' titles
// and headings, keeping a model's suggestions while the spaces do not change.
package ask

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/llm"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
)

// Bounds of questions and of what answering them reads.
const (
	MaxQuestion        = 1000 // characters
	MaxPrevious        = 10   // questions asked before, in one conversation
	maxSpaces          = 1000 // spaces searched, in tree order
	maxHits            = 50   // sections ranked
	maxSources         = 5    // sections an answer draws on
	maxSourcesPerPage  = 2
	maxRecommendTitles = 200 // titles and headings questions are drawn from: the first in reading order
)

// CheckQuestion validates a question, which field names: given, and at
// most MaxQuestion characters.
func CheckQuestion(field, q string) error { return quire.CheckQuery(field, q, MaxQuestion) }

// Question, Answer and Source are what callers of ask see of a question,
// its answer and what it draws on: search's types, since the shaping of
// answers (quoting, the model's prompt, its citations) is pure and lives
// there.
type (
	// Question is what a reader asks, after the questions asked before it
	// in the same conversation.
	Question = search.Question
	// Answer is an answer to a question: its markdown, the follow-up
	// questions the model suggests, and the indexes of the sources it used.
	Answer = search.Answer
	// Source is a section retrieved for a question, with where it lives.
	Source = search.Source
)

// Scope is what a question is answered from, when it is not every space of
// an organization that a viewer reads (a published site's spaces).
type Scope struct {
	Spaces []*quire.Space // searched together; scores of one index compare
	// Keep, when not nil, tells which pages may be sources (a published
	// site's visitor may not see every page).
	Keep func(v *revision.View, pageID string) bool
	// URL, when not nil, is where a source is shown: section sectionID
	// ("" for the text before any heading) of page pageID of v.
	URL func(v *revision.View, pageID, sectionID string) string
}

// Asker answers questions; it is safe for concurrent use.
type Asker struct {
	db        *store.DB
	reader    *revision.Reader
	model     *llm.Model // nil: answers quote the best section
	publicURL string     // the main address, for the app URLs of sources
	// recommended are the questions the model suggested, by the key of the
	// content they were drawn from: a model's answers, not content, so
	// kept here rather than by the reader.
	recommended *lru.Cache[string, []string]
}

// New returns an Asker reading db through reader. model, when not nil,
// writes answers and suggests questions; publicURL is the main address,
// where the app shows the pages answers draw on.
func New(db *store.DB, reader *revision.Reader, model *llm.Model, publicURL string) *Asker {
	return &Asker{db: db, reader: reader, model: model, publicURL: publicURL, recommended: lru.New[string, []string]("ask.recommended")}
}

// Cites reports whether answers cite the sources they draw on (a model
// writes them) rather than quote one.
func (a *Asker) Cites() bool { return a.model != nil }

// readable lists the spaces of organization orgID that v can read, in tree
// order, as many as a question searches.
func (a *Asker) readable(ctx context.Context, orgID string, v *quire.Viewer) ([]*quire.Space, error) {
	list, err := a.db.ListSpaces(ctx, orgID, store.SpaceFilter{VisibleTo: v}, store.Page{Limit: maxSpaces})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// Sources finds the sections that best answer a question in the spaces of
// organization orgID that v can read: a few of them, at most two of a page,
// each with the URL of its page in the app.
func (a *Asker) Sources(ctx context.Context, orgID string, v *quire.Viewer, question string) ([]Source, error) {
	spaces, err := a.readable(ctx, orgID, v)
	if err != nil {
		return nil, err
	}
	return a.ScopeSources(ctx, Scope{Spaces: spaces, URL: func(view *revision.View, pageID, sectionID string) string {
		return view.Space.PageAppURL(a.publicURL, view.Path(pageID), sectionID)
	}}, question)
}

// ScopeSources finds the sections of scope that best answer a question: a
// few of them, at most two of a page.
func (a *Asker) ScopeSources(ctx context.Context, scope Scope, question string) ([]Source, error) {
	found, err := a.reader.Sources(ctx, scope.Spaces, question, revision.SourceLimits{
		Hits: maxHits, Sources: maxSources, PerPage: maxSourcesPerPage, Keep: scope.Keep,
	})
	if err != nil {
		return nil, err
	}
	var out []Source
	for _, f := range found {
		view, pg, sec := f.View, f.Page, f.Section
		src := Source{SpaceID: view.Space.ID, PageID: pg.ID, RevisionID: view.Revision.ID, PageTitle: revision.PageTitle(pg), Section: sec}
		if scope.URL != nil {
			src.URL = scope.URL(view, pg.ID, sec.ID)
		}
		out = append(out, src)
	}
	return out, nil
}

// Answer answers q from its sources (search.Ask); progress, when not nil,
// is told of a model's answer as it grows.
func (a *Asker) Answer(ctx context.Context, q Question, sources []Source, progress func(Answer) error) (Answer, error) {
	return search.Ask(ctx, a.model, q, sources, progress)
}

// Questions suggests questions about the spaces of organization orgID that
// v can read, from their pages' titles and headings (search.Questions); a
// model's are kept for as long as those spaces do not change.
func (a *Asker) Questions(ctx context.Context, orgID string, v *quire.Viewer) ([]string, error) {
	spaces, err := a.readable(ctx, orgID, v)
	if err != nil {
		return nil, err
	}
	return a.questions(ctx, spaces, nil)
}

// ScopeQuestions suggests questions about the spaces of scope (a published
// site's), as Questions does about an organization's, from the pages
// scope keeps; its URL plays no part, since suggestions name no page.
func (a *Asker) ScopeQuestions(ctx context.Context, scope Scope) ([]string, error) {
	return a.questions(ctx, scope.Spaces, scope.Keep)
}

// questions suggests questions from the titles and headings of the pages
// of spaces that keep keeps (nil: every page).
func (a *Asker) questions(ctx context.Context, spaces []*quire.Space, keep func(*revision.View, string) bool) ([]string, error) {
	titles, key, err := a.reader.KeptTitles(ctx, spaces, maxRecommendTitles, keep)
	if err != nil {
		return nil, err
	}
	if keep != nil {
		// The same content, kept otherwise, gives other titles: the
		// model's questions are kept by the titles themselves.
		h := sha256.New()
		for _, t := range titles {
			h.Write([]byte(t + "\n"))
		}
		key += "/" + hex.EncodeToString(h.Sum(nil))
	}
	if qs, ok := a.recommended.Get(key); ok {
		return qs, nil
	}
	qs, err := search.Questions(ctx, a.model, titles)
	if err != nil {
		return nil, err
	}
	if a.model != nil && len(titles) > 0 { // only a model's questions are kept
		size := len(key)
		for _, q := range qs {
			size += len(q)
		}
		a.recommended.Add(key, qs, size)
	}
	return qs, nil
}
