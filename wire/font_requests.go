package wire

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/quiredocs/quire"
)

// maxFontFaces bounds the faces of one font: one a weight, 1 to 1000, and
// a family seldom has more than nine.
const maxFontFaces = 20

// CustomFontFace is a face of a font's body: its weight and the storage key
// of its uploaded file, or null to remove the weight (update).
type CustomFontFace struct {
	Weight     *float64        `json:"weight"`
	StorageKey json.RawMessage `json:"storageKey"`
}

// CustomFontInput is the body of PUT O/fonts (the reference's
// createCustomFont) and of POST O/fonts/{fontId} (updateCustomFont, with
// Update set: the family may be left out and faces removed).
type CustomFontInput struct {
	FontFamily *string          `json:"fontFamily"`
	FontFaces  []CustomFontFace `json:"fontFaces"`

	Update bool `json:"-"`
}

// Validate checks the family, then the number of faces; each face is
// checked by Face as its file is read, so refusals keep their order.
func (b *CustomFontInput) Validate() error {
	if err := checkFontFamily(b.FontFamily, !b.Update); err != nil {
		return err
	}
	if !b.Update && len(b.FontFaces) == 0 {
		return quire.Errorf(quire.CodeInvalid, "fontFaces: at least one face")
	}
	if len(b.FontFaces) > maxFontFaces {
		return quire.Errorf(quire.CodeInvalid, "fontFaces: at most %d faces", maxFontFaces)
	}
	return nil
}

func checkFontFamily(v *string, required bool) error {
	if v == nil && !required {
		return nil
	}
	if v == nil || *v == "" || utf8.RuneCountInString(*v) > 50 {
		return quire.Errorf(quire.CodeInvalid, "fontFamily: is required, 1 to 50 characters")
	}
	return quire.CheckText("fontFamily", *v, 1, 50)
}

// Face checks face i of a validated b, the faces before it being good: its
// field (fontFaces[i]), its weight, a whole number from 1 to 1000 given once,
// and its storage key, nil for a weight removed.
func (b *CustomFontInput) Face(i int) (field string, weight int, key *string, err error) {
	f := b.FontFaces[i]
	field = fmt.Sprintf("fontFaces[%d]", i)
	if f.Weight == nil || *f.Weight < 1 || *f.Weight > 1000 || *f.Weight != float64(int(*f.Weight)) {
		return field, 0, nil, quire.Errorf(quire.CodeInvalid, "%s.weight: must be a whole number from 1 to 1000", field)
	}
	weight = int(*f.Weight)
	for _, g := range b.FontFaces[:i] {
		if int(*g.Weight) == weight {
			return field, 0, nil, quire.Errorf(quire.CodeInvalid, "%s.weight: %d is given twice", field, weight)
		}
	}
	if err := json.Unmarshal(f.StorageKey, &key); err != nil || len(f.StorageKey) == 0 || (key == nil && !b.Update) ||
		(key != nil && (*key == "" || len(*key) > 512)) {
		return field, 0, nil, quire.Errorf(quire.CodeInvalid, "%s.storageKey: must be the key of an uploaded file (1 to 512 characters)", field)
	}
	return field, weight, key, nil
}
