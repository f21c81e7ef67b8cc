package search

import (
	"slices"
	"strings"
	"unicode"

	"github.com/quiredocs/quire"
)

// MaxTerms bounds the words of a query that are searched for.
const MaxTerms = 16

// MaxQuery bounds a query, in characters.
const MaxQuery = 512

// CheckQuery validates a query given in the field field: not empty, and at
// most MaxQuery characters.
func CheckQuery(field, q string) error { return quire.CheckQuery(field, q, MaxQuery) }

// Terms splits a query into the words the index matches, folded, each once,
// in order: letters, marks and digits only, so that no query syntax of
// either database reaches it.
func Terms(query string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(Fold(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r)
	}) {
		if len(out) == MaxTerms {
			break
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
