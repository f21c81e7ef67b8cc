package authoring_test

import (
	"encoding/json"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

// TestTranslationRunRules: a translation made on a server with a model
// queues its first run, one made without stays idle; a run is refused
// without a model and queued with one; the source must be a space of the
// organization.
func TestTranslationRunRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	org := f.space.OrgID
	n := authoring.NewTranslation{SourceSpaceID: f.space.ID, SourceLanguage: "en", Language: "fr",
		Instructions: json.RawMessage(`{"object":"document","data":{},"nodes":[]}`)}
	var idle *store.Translation

	tests := []struct {
		name  string
		do    func() (*store.Translation, error)
		state string     // the translation's state after, when allowed
		code  quire.Code // "" when allowed
	}{
		{"made without a model", func() (*store.Translation, error) {
			var err error
			idle, err = f.author.CreateTranslation(ctx, org, f.userID, n, false)
			return idle, err
		}, store.TranslationIdle, ""},
		{"made with a model", func() (*store.Translation, error) {
			de := n
			de.Language = "de"
			return f.author.CreateTranslation(ctx, org, f.userID, de, true)
		}, store.TranslationQueued, ""},
		{"made of no space of the organization", func() (*store.Translation, error) {
			bad := n
			bad.SourceSpaceID = "nope"
			return f.author.CreateTranslation(ctx, org, f.userID, bad, true)
		}, "", quire.CodeInvalid},
		{"run without a model", func() (*store.Translation, error) {
			return idle, f.author.RunTranslation(ctx, idle, f.userID, false)
		}, store.TranslationIdle, quire.CodeInvalid},
		{"run with a model", func() (*store.Translation, error) {
			return idle, f.author.RunTranslation(ctx, idle, f.userID, true)
		}, store.TranslationQueued, ""},
	}
	for _, tt := range tests {
		tr, err := tt.do()
		if quire.ErrorCode(err) != tt.code {
			t.Errorf("%s: %v, want code %q", tt.name, err, tt.code)
		}
		if tt.state == "" || tr == nil {
			continue
		}
		got, err := f.db.Translation(ctx, org, tr.ID)
		if err != nil || got.State != tt.state {
			t.Errorf("%s: state %v, %v; want %s", tt.name, got, err, tt.state)
		}
	}
}
