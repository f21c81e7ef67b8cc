package wire

import (
	"fmt"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// MaxGlossaryOps bounds the operations of one glossary batch.
const MaxGlossaryOps = store.MaxGlossaryEntries

// UpdateGlossaryEntries is the body of PUT O/translations-glossary, the
// reference's updateGlossaryEntries: a batch of insert, update and delete
// operations.
type UpdateGlossaryEntries struct {
	Operations *[]struct {
		Type         *string            `json:"type"`
		ID           *string            `json:"id"`
		Translations *map[string]string `json:"translations"`
	} `json:"operations"`

	ops []store.GlossaryOp // set by Validate
}

// Validate checks the batch, operation by operation, each field in turn.
func (b *UpdateGlossaryEntries) Validate() error {
	if b.Operations == nil {
		return quire.Errorf(quire.CodeInvalid, "operations: is required")
	}
	if len(*b.Operations) > MaxGlossaryOps {
		return quire.Errorf(quire.CodeInvalid, "operations: at most %d in one batch", MaxGlossaryOps)
	}
	b.ops = nil
	for i, op := range *b.Operations {
		at := fmt.Sprintf("operations[%d]", i)
		if op.Type == nil {
			return quire.Errorf(quire.CodeInvalid, "%s.type: is required", at)
		}
		out := store.GlossaryOp{Type: *op.Type}
		switch *op.Type {
		case "insert", "update", "delete":
		default:
			return quire.Errorf(quire.CodeInvalid, "%s.type: must be insert, update or delete", at)
		}
		if *op.Type != "insert" {
			if op.ID == nil || *op.ID == "" {
				return quire.Errorf(quire.CodeInvalid, "%s.id: is required", at)
			}
			if err := quire.CheckLen(at+".id", *op.ID, 1, 256); err != nil {
				return err
			}
			out.ID = *op.ID
		}
		if *op.Type != "delete" {
			if op.Translations == nil {
				return quire.Errorf(quire.CodeInvalid, "%s.translations: is required", at)
			}
			if err := quire.CheckGlossaryTerms(at+".translations", *op.Translations); err != nil {
				return err
			}
			out.Translations = *op.Translations
		}
		b.ops = append(b.ops, out)
	}
	return nil
}

// Ops are the store's operations of a validated b.
func (b *UpdateGlossaryEntries) Ops() []store.GlossaryOp { return b.ops }
