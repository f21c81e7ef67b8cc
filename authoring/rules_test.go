package authoring_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

// oneReview is a space's merge rules asking for a review, which a write
// that merges a request of its own at once never has.
var oneReview = json.RawMessage(`{"type":"rules","rules":[{"rule":"require_at_least_one_review"}]}`)

// setRules sets the space's merge rules and returns the space as updated.
func (f *fixture) setRules(t *testing.T, rules json.RawMessage) *quire.Space {
	t.Helper()
	sp, err := f.db.UpdateSpace(t.Context(), f.space.ID, store.SpaceUpdate{MergeRules: rules})
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// wantRefused fails unless err is the merge rules' refusal, a 403.
func wantRefused(t *testing.T, what string, err error) {
	t.Helper()
	if _, ok := errors.AsType[*authoring.RulesError](err); !ok || quire.ErrorCode(err) != quire.CodeForbidden {
		t.Fatalf("%s: %v, want the merge rules' refusal", what, err)
	}
}

// TestImportRulesJudgedInTransaction: the rules that allowed an import into
// a space when it was asked for (CheckRules) can change before it writes;
// the import judges them again in its own transaction, so that one the
// rules now refuse writes nothing: no request, no revision, no object, no
// file, the space as it was. Website and folder imports alike.
func TestImportRulesJudgedInTransaction(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	start := website(t)
	rules := authoring.Actor{User: f.user}
	if err := f.author.CheckRules(t.Context(), f.space, rules); err != nil {
		t.Fatalf("no rules in force: %v", err)
	}
	// Between the check and the write, the space's admin asks for reviews.
	sp := f.setRules(t, oneReview)
	if err := f.author.CheckRules(t.Context(), sp, rules); quire.ErrorCode(err) != quire.CodeForbidden {
		t.Fatalf("check with a review asked for: %v", err)
	}
	before := f.counts(t)

	_, err := f.author.ImportIntoSpace(t.Context(), f.space, start, rules)
	wantRefused(t, "website import", err)
	_, err = f.author.ImportFolderIntoSpace(t.Context(), f.space, map[string][]byte{"README.md": []byte("# Home\n")}, rules)
	wantRefused(t, "folder import", err)
	if after := f.counts(t); after != before {
		t.Errorf("refused imports left %+v behind, before %+v", after, before)
	}
	if now, err := f.db.Space(t.Context(), f.space.ID); err != nil || now.RevisionID != f.space.RevisionID {
		t.Errorf("the space moved: %v, %v", now, err)
	}

	// The command line's folder import answers to no rule.
	if _, err := f.author.ImportFolder(t.Context(), f.space, nil, f.userID, map[string][]byte{"README.md": []byte("# Home\n")}); err != nil {
		t.Fatalf("command line import: %v", err)
	}
	// With the rules lifted, the website import goes through.
	f.setRules(t, json.RawMessage(`{"type":"none"}`))
	sp, err = f.db.Space(t.Context(), f.space.ID)
	if err != nil {
		t.Fatal(err)
	}
	if im, err := f.author.ImportIntoSpace(t.Context(), sp, start, rules); err != nil || im.ChangeRequest.Status != quire.StatusMerged {
		t.Fatalf("import with no rules: %+v, %v", im, err)
	}
}

// TestImportRunRulesJudged: an import run into a space judges the rules as
// a merge by the user who started it, when it completes: rules asking for a
// review refuse it and nothing is written; the run stays to be failed.
func TestImportRunRulesJudged(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	start := website(t)
	f.setRules(t, oneReview)
	sp, err := f.db.Space(t.Context(), f.space.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.StartImportRun(t.Context(), store.NewImportRun{OrgID: sp.OrgID, SpaceID: sp.ID, SourceURL: start, UserID: f.userID}); err != nil {
		t.Fatal(err)
	}
	run, err := f.db.ClaimImportRun(t.Context(), time.Minute)
	if err != nil || run == nil {
		t.Fatalf("claim: %v, %v", run, err)
	}
	before := f.counts(t)
	_, err = f.author.ImportRun(t.Context(), sp, nil, run)
	wantRefused(t, "import run", err)
	if after := f.counts(t); after != before {
		t.Errorf("a refused run left %+v behind, before %+v", after, before)
	}
	got, err := f.db.ImportRun(t.Context(), sp.OrgID, run.ID)
	if err != nil || got.Status != store.ImportInProgress {
		t.Errorf("run after refusal: %+v, %v", got, err)
	}
}
