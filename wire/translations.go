package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// GlossaryEntry is how the API shows an entry of a translation glossary.
type GlossaryEntry struct {
	Object       string            `json:"object"`
	ID           string            `json:"id"`
	Translations map[string]string `json:"translations"`
	CreatedAt    string            `json:"createdAt"`
	UpdatedAt    string            `json:"updatedAt"`
	URLs         URLs              `json:"urls"`
}

// GlossaryEntry shows an entry of a translation glossary as the API answers
// it.
func (l Links) GlossaryEntry(g *store.GlossaryEntry) GlossaryEntry {
	return GlossaryEntry{Object: "glossary-entry", ID: g.ID, Translations: g.Translations,
		CreatedAt: Time(g.CreatedAt), UpdatedAt: Time(g.UpdatedAt),
		URLs: URLs{Location: l.API("/orgs/" + g.OrgID + "/translations-glossary/" + g.ID)}}
}

// Translation is how the API shows a translation of a space into another
// language.
type Translation struct {
	Object       string             `json:"object"`
	ID           string             `json:"id"`
	Status       string             `json:"status"`
	Source       TranslationSource  `json:"source"`
	Language     string             `json:"language"`
	Instructions json.RawMessage    `json:"instructions"`
	Result       *TranslationResult `json:"result,omitempty"`
	LastRun      *TranslationRun    `json:"lastRun,omitempty"`
	CreatedAt    string             `json:"createdAt"`
	UpdatedAt    string             `json:"updatedAt"`
	Stats        TranslationStats   `json:"stats"`
	Permissions  ViewEdit           `json:"permissions"`
	URLs         URLs               `json:"urls"`
}

// TranslationSource is how the API shows what a translation translates
// from.
type TranslationSource struct {
	Space    string `json:"space"`
	Language string `json:"language"`
}

// TranslationResult is how the API shows the outcome of a translation's
// latest run.
type TranslationResult struct {
	Space    string `json:"space"`
	Revision string `json:"revision"`
	Language string `json:"language"`
}

// TranslationRun is Quire's account of the last run that ended, beyond
// the reference's status: whether it failed, and why.
type TranslationRun struct {
	Status    string `json:"status"`
	Reason    string `json:"reason,omitempty"`
	StartedAt string `json:"startedAt,omitempty"`
	EndedAt   string `json:"endedAt"`
}

// TranslationStats is how the API shows how much a translation run
// translated.
type TranslationStats struct {
	Runs              int   `json:"runs"`
	TotalWords        int64 `json:"totalWords"`
	TotalPages        int64 `json:"totalPages"`
	TotalDuration     int64 `json:"totalDuration"`
	LatestRunDuration int64 `json:"latestRunDuration"`
	LatestPages       int   `json:"latestPages"`
	LatestWords       int64 `json:"latestWords"`
}

// translationStatus is the reference's status of t: pending while a run
// waits (or, created without a model, until one ran), running, and
// completed once one ended (failed or not: lastRun tells).
func translationStatus(t *store.Translation) string {
	switch {
	case t.State == store.TranslationRunning:
		return "running"
	case t.State == store.TranslationQueued || t.LastStatus == "":
		return "pending"
	}
	return "completed"
}

// Translation shows a translation of a space into another language as the
// API answers it.
func (l Links) Translation(t *store.Translation, me *quire.Member) Translation {
	out := Translation{Object: "translation", ID: t.ID, Status: translationStatus(t),
		Source:   TranslationSource{Space: t.SourceSpaceID, Language: t.SourceLanguage},
		Language: t.Language, Instructions: t.Instructions,
		CreatedAt: Time(t.CreatedAt), UpdatedAt: Time(t.UpdatedAt),
		Stats: TranslationStats{Runs: t.Runs, TotalWords: t.TotalWords, TotalPages: t.TotalPages, TotalDuration: t.TotalDuration,
			LatestRunDuration: t.LatestDuration, LatestPages: t.LatestPages, LatestWords: t.LatestWords},
		Permissions: ViewEdit{View: true, Edit: me.Role == quire.RoleAdmin},
		URLs:        URLs{Location: l.API("/orgs/" + t.OrgID + "/translations/" + t.ID)},
	}
	if t.ResultRevisionID != "" {
		out.Result = &TranslationResult{Space: t.TargetSpaceID, Revision: t.ResultRevisionID, Language: t.Language}
	}
	if t.LastStatus != "" {
		out.LastRun = &TranslationRun{Status: t.LastStatus, Reason: t.LastReason, EndedAt: Time(t.LastEndedAt)}
		if !t.LastStartedAt.IsZero() {
			out.LastRun.StartedAt = Time(t.LastStartedAt)
		}
	}
	return out
}

// TranslationLanguage is how the API shows a language a space is translated
// into.
type TranslationLanguage struct {
	Object       string          `json:"object"`
	Language     string          `json:"language"`
	Instructions json.RawMessage `json:"instructions"`
	CreatedAt    string          `json:"createdAt"`
	UpdatedAt    string          `json:"updatedAt"`
	URLs         URLs            `json:"urls"`
}

// TranslationLanguage shows a language a space is translated into as the
// API answers it.
func (l Links) TranslationLanguage(t *quire.TranslationLanguage) TranslationLanguage {
	return TranslationLanguage{
		Object: "translation-language-settings", Language: t.Language, Instructions: t.Document,
		CreatedAt: Time(t.CreatedAt), UpdatedAt: Time(t.UpdatedAt),
		URLs: URLs{Location: l.API("/orgs/" + t.OrgID + "/translations/" + t.SettingsID + "/languages/" + t.Language)},
	}
}
