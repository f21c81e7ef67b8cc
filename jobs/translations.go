package jobs

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/jobs/lease"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/translate"
)

// Translation runs (issue 19): a translation's run is its row's state
// (store.ClaimTranslationRun), carried out as import runs are (imports.go):
// claimed with a lease it renews, claimed again once the lease ran out when
// its worker died, translated with no transaction open, and written into the
// target space in the transaction that ends the run, so once.

const (
	// TranslationLease is how long a worker holds a run without renewing
	// it; it renews every TranslationLease/3.
	TranslationLease = time.Minute
	// TranslationPollInterval is how often an idle worker looks for due
	// runs, and a busy one whether it still holds its run.
	TranslationPollInterval = time.Second
	// MaxTranslationAttempts is how many times a run may be claimed before
	// it is given up as failed.
	MaxTranslationAttempts = 3
)

// Translator carries out translation runs.
type Translator struct {
	DB     *store.DB
	Author *authoring.Author
	// Translate is the model and its limits; a nil Model fails each run,
	// saying no model is configured.
	Translate translate.Translator
	// Poll is how often a busy worker checks its claim; 0 is
	// TranslationPollInterval.
	Poll time.Duration
}

// ProcessTranslations claims and carries out due runs one after the other
// until none is left, and returns how many it ended. When ctx ends in the
// middle of one, that run is given back, not failed.
func (w *Translator) ProcessTranslations(ctx context.Context) (int, error) {
	return lease.Drain(ctx, func(ctx context.Context) (*store.Translation, error) {
		return w.DB.ClaimTranslationRun(ctx, TranslationLease)
	},
		func(ctx context.Context, t *store.Translation) (int, error) { return lease.One(w.process(ctx, t)) })
}

func (w *Translator) process(ctx context.Context, t *store.Translation) error {
	watch := lease.Watch{DB: w.DB, Lease: TranslationLease, Poll: cmp.Or(w.Poll, TranslationPollInterval), Max: MaxTranslationAttempts,
		GiveUp: fmt.Sprintf("the run was interrupted %d times", MaxTranslationAttempts)}
	return watch.Do(ctx, t.Lease(), func(ctx context.Context) error { return w.run(ctx, t) })
}

// run translates the source's current content and writes it into the
// target space.
func (w *Translator) run(ctx context.Context, t *store.Translation) error {
	if t.RunBy == "" {
		return quire.Errorf(quire.CodeInvalid, "the user who asked for the run is no longer a user")
	}
	src, err := w.DB.Space(ctx, t.SourceSpaceID)
	if err == nil && !src.DeletedAt.IsZero() {
		err = quire.Errorf(quire.CodeNotFound, "the source space was deleted")
	}
	if err != nil {
		return err
	}
	target, err := w.DB.Space(ctx, t.TargetSpaceID)
	if err == nil && !target.DeletedAt.IsZero() {
		err = quire.Errorf(quire.CodeNotFound, "the target space was deleted")
	}
	if err == nil {
		err = quire.CheckEditable(target)
	}
	if err != nil {
		return err
	}
	rev, tree, err := w.DB.RevisionTree(ctx, src.ID, src.RevisionID)
	if err != nil {
		return err
	}
	req, err := w.request(ctx, t)
	if err != nil {
		return err
	}
	out, stats, err := w.Translate.Tree(ctx, tree, req)
	if err != nil {
		return err
	}
	subject := fmt.Sprintf("Translation into %s of revision %s", translate.LanguageName(t.Language), rev.ID)
	_, err = w.Author.WriteTranslation(ctx, target, t.RunBy, subject, out, func(tx *store.Tx, revision string) error {
		return tx.CompleteTranslationRun(ctx, t, revision, store.TranslationRunStats{Pages: stats.Pages, Words: stats.Words})
	})
	return err
}

// request gathers what the run follows: the translation's instructions,
// those of its target language kept under its id (contract §4.18), and the
// glossary's terms in both languages.
func (w *Translator) request(ctx context.Context, t *store.Translation) (translate.Request, error) {
	req := translate.Request{From: t.SourceLanguage, To: t.Language}
	docs := []json.RawMessage{t.Instructions}
	lang, err := w.DB.TranslationLanguage(ctx, t.OrgID, t.ID, t.Language)
	switch {
	case err == nil:
		docs = append(docs, lang.Document)
	case quire.ErrorCode(err) != quire.CodeNotFound:
		return req, err
	}
	for _, raw := range docs {
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return req, err
		}
		req.Instructions = append(req.Instructions, translate.DocumentText(doc))
	}
	entries, err := w.DB.GlossaryEntries(ctx, t.OrgID)
	if err != nil {
		return req, err
	}
	for _, g := range entries {
		if from, to := g.Translations[t.SourceLanguage], g.Translations[t.Language]; from != "" && to != "" {
			req.Glossary = append(req.Glossary, translate.Term{Source: from, Target: to})
		}
	}
	return req, nil
}

// Run carries out due runs at start, then whenever the store has some
// (looking every interval), until ctx ends.
func (w *Translator) Run(ctx context.Context, interval time.Duration, log *slog.Logger) {
	every(ctx, interval, func() {
		due, err := w.DB.TranslationRunsDue(ctx)
		if err == nil && due {
			var n int
			n, err = w.ProcessTranslations(ctx)
			if n > 0 {
				log.Info("ran translations", "runs", n)
			}
		}
		if err != nil && ctx.Err() == nil {
			log.Error("run translations", "err", err)
		}
	})
}
