package authoring

import (
	"context"
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Translations (store/translationruns.go) are run by a durable job
// (jobs/translations.go) through the configured language model. Whether
// this server has one is the caller's to say (runs): without, a
// translation is made idle and a run is refused.

// NewTranslation is a translation to make: source space SourceSpaceID, in
// SourceLanguage, translated into Language by Instructions.
type NewTranslation struct {
	SourceSpaceID, SourceLanguage, Language string
	// Instructions is the translation's JSON document of instructions,
	// checked by quire.CheckInstructions.
	Instructions json.RawMessage
}

// CreateTranslation records a translation of organization orgID by userID
// with its target space (store.DB.CreateTranslation) and, when runs, queues
// its first run in the same transaction.
func (a *Author) CreateTranslation(ctx context.Context, orgID, userID string, n NewTranslation, runs bool) (*store.Translation, error) {
	return a.DB.CreateTranslation(ctx, store.NewTranslation{OrgID: orgID, SourceSpaceID: n.SourceSpaceID,
		SourceLanguage: n.SourceLanguage, Language: n.Language, Instructions: n.Instructions, UserID: userID, Queue: runs})
}

// RunTranslation queues a run of translation t by userID
// (store.DB.QueueTranslationRun); without a model (runs false), 400
// saying so.
func (a *Author) RunTranslation(ctx context.Context, t *store.Translation, userID string, runs bool) error {
	if !runs {
		return quire.Errorf(quire.CodeInvalid, "translationId: no language model is configured on this server (QUIRE_LLM_URL and QUIRE_LLM_MODEL), so translations cannot run")
	}
	return a.DB.QueueTranslationRun(ctx, t.OrgID, t.ID, userID)
}
