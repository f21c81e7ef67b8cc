package quire

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Slugs come in two kinds, made by one rule and kept apart where they have
// always differed:
//   - the slug of a page (authoring, merging): at most MaxSlug bytes, cut on
//     a rune boundary, "page" when the title gives nothing (PageSlug);
//   - the path of a site section or site space: stopped at about 90 bytes
//     rather than cut at 100, a caller's fallback otherwise (Slugify), as
//     published paths have always been made; never cut when numbered.
//
// Both number a slug a sibling already has the same way: slug-2, slug-3…
// (NumberedSlug, FreeSlug).

// MaxSlug is the longest page slug authoring accepts, in characters; made
// slugs are also at most this many bytes.
const MaxSlug = 100

// siteSlugStop is where Slugify stops adding words, in bytes.
const siteSlugStop = 90

// slugWords writes the letters and digits of title in lower case, each other
// run of characters as one "-" between them (never first or last). It stops
// once the slug is stop bytes or longer.
func slugWords(title string, stop int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= stop {
			break
		}
	}
	return b.String()
}

// Slugify derives a site path from a title: lower-case letters and digits,
// other runs of characters as one "-"; fallback when nothing is left. It
// stops at the character that reaches 90 bytes (so a path may pass 90 by a
// dash and one character) and never cuts it, leaving room for a suffix
// within the 100 characters a path may have.
func Slugify(title, fallback string) string {
	if s := slugWords(title, siteSlugStop); s != "" {
		return s
	}
	return fallback
}

// PageSlug derives a page's slug from its title: lower-case letters and
// digits, other runs of characters as one "-", cut to MaxSlug bytes on a rune
// boundary without a trailing "-"; "page" when nothing is left.
func PageSlug(title string) string {
	// One byte past MaxSlug is enough to cut on a rune boundary.
	s := cutBytes(slugWords(title, MaxSlug+1), MaxSlug)
	if s == "" {
		return "page"
	}
	return strings.TrimRight(s, "-")
}

// CheckSlug validates a page slug given by a client: at most MaxSlug
// characters, without /, ?, #, \ or spaces. The error names no field: the
// caller adds it.
func CheckSlug(s string) error {
	if utf8.RuneCountInString(s) > MaxSlug {
		return fmt.Errorf("at most %d characters", MaxSlug)
	}
	if strings.ContainsAny(s, "/?#\\ \t\n") {
		return fmt.Errorf("must not contain /, ?, #, \\ or spaces")
	}
	return nil
}

// NumberedSlug is the n-th choice for a slug that siblings may already have:
// slug itself for n < 2, else slug-n, with slug cut on a rune boundary so the
// whole is at most max bytes (max <= 0: never cut).
func NumberedSlug(slug string, n, max int) string {
	if n < 2 {
		return slug
	}
	suffix := fmt.Sprintf("-%d", n)
	if max > 0 {
		slug = cutBytes(slug, max-len(suffix))
	}
	return slug + suffix
}

// FreeSlug returns the first of slug, slug-2, slug-3… (each at most max
// bytes, see NumberedSlug) that is not taken.
func FreeSlug(slug string, max int, taken func(string) bool) string {
	try := slug
	for n := 2; taken(try); n++ {
		try = NumberedSlug(slug, n, max)
	}
	return try
}

// cutBytes cuts s to at most n bytes on a rune boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
