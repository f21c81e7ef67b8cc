package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
)

// The request bodies of translations (issue 19, O/translations) and their
// languages (Contract §4.18), named after the reference's operations.

// emptyInstructions is the instructions of a translation created without.
var emptyInstructions = json.RawMessage(`{"object":"document","data":{},"nodes":[]}`)

// CreateTranslation is the body of POST O/translations, the reference's
// createTranslation.
type CreateTranslation struct {
	Source *struct {
		Space    *string `json:"space"`
		Language *string `json:"language"`
	} `json:"source"`
	Language     *string         `json:"language"`
	Instructions json.RawMessage `json:"instructions"`

	instructions json.RawMessage // set by Validate
}

// Validate checks the source and the languages, which are required, then
// the instructions.
func (b *CreateTranslation) Validate() error {
	switch {
	case b.Source == nil:
		return quire.Errorf(quire.CodeInvalid, "source: is required")
	case b.Source.Space == nil || *b.Source.Space == "":
		return quire.Errorf(quire.CodeInvalid, "source.space: is required")
	case len(*b.Source.Space) > 256:
		return quire.Errorf(quire.CodeInvalid, "source.space: must be at most 256 characters")
	case b.Source.Language == nil:
		return quire.Errorf(quire.CodeInvalid, "source.language: is required")
	case b.Language == nil:
		return quire.Errorf(quire.CodeInvalid, "language: is required")
	}
	if err := quire.FirstError(quire.CheckOneOf("source.language", *b.Source.Language, quire.TranslationLanguages),
		quire.CheckOneOf("language", *b.Language, quire.TranslationLanguages)); err != nil {
		return err
	}
	if *b.Language == *b.Source.Language {
		return quire.Errorf(quire.CodeInvalid, "language: must differ from source.language")
	}
	b.instructions = emptyInstructions
	if !quire.IsNull(b.Instructions) {
		var err error
		if b.instructions, err = quire.CheckInstructions("instructions", b.Instructions); err != nil {
			return err
		}
	}
	return nil
}

// CheckedInstructions are a validated b's instructions, compacted: an empty
// document when it gives none.
func (b *CreateTranslation) CheckedInstructions() json.RawMessage { return b.instructions }

// TranslationInstructions is the body of PUT O/translations/{translationId}
// (the reference's updateTranslation) and of PUT
// …/languages/{translationLanguage}: the instructions, a document.
type TranslationInstructions struct {
	Instructions json.RawMessage `json:"instructions"`

	instructions json.RawMessage // set by Validate
}

// Validate checks the instructions.
func (b *TranslationInstructions) Validate() (err error) {
	b.instructions, err = quire.CheckInstructions("instructions", b.Instructions)
	return err
}

// CheckedInstructions are a validated b's instructions, compacted.
func (b *TranslationInstructions) CheckedInstructions() json.RawMessage { return b.instructions }
