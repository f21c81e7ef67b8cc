package search

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold lower-cases text and strips the accents of Latin, Greek and Cyrillic
// letters ("Café" → "cafe"), the same way for what is indexed and what is
// searched: PostgreSQL's english configuration keeps accents, and SQLite's
// unicode61 folds only some. Marks of other scripts are letters' own parts
// (the virama of "हिन्दी") and stay.
func Fold(s string) string {
	var b strings.Builder
	var base rune
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			base = r
		} else if unicode.In(base, unicode.Latin, unicode.Greek, unicode.Cyrillic) {
			continue
		}
		b.WriteRune(r)
	}
	return strings.ToLower(norm.NFC.String(b.String()))
}
