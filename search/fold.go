package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold lower-cases text and strips the accents of Latin, Greek and Cyrillic
// letters ("Café" → "cafe"), the same way for what is indexed and what is
// searched: PostgreSQL's english configuration keeps accents, and SQLite's
// unicode61 folds only some. Marks of other scripts are letters' own parts
// (the virama of "हिन्दी") and stay.
func Fold(s string) string {
	if isASCII(s) { // nothing to strip: most words of most documentation
		return strings.ToLower(s)
	}
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

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
