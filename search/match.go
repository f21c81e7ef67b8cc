package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The index matches stems; what results show is chosen here, on words: a
// word matches a term when they share a long enough beginning ("install"
// and "installing", "configure" and "configuration"), which is how the
// stemmers mostly decide too.

// wordMatches reports whether a folded word matches a folded term.
func wordMatches(word, term string) bool {
	common := 0
	for common < len(word) && common < len(term) && word[common] == term[common] {
		common++
	}
	return common >= min(len(term), max(4, len(term)-5))
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) }

// Words are the words of text, folded, for MatchesAll and MatchesAny.
func Words(text string) []string {
	return strings.FieldsFunc(Fold(text), func(r rune) bool { return !isWordRune(r) })
}

// MatchesAll reports whether every term matches one of words.
func MatchesAll(ws []string, terms []string) bool {
	for _, t := range terms {
		if !anyWord(ws, t) {
			return false
		}
	}
	return true
}

// MatchesAny reports whether some term matches one of words.
func MatchesAny(ws []string, terms []string) bool {
	for _, t := range terms {
		if anyWord(ws, t) {
			return true
		}
	}
	return false
}

func anyWord(ws []string, term string) bool {
	for _, w := range ws {
		if wordMatches(w, term) {
			return true
		}
	}
	return false
}

// Snippet is up to maxRunes of text around the first word that matches a
// term (from the start when none does), cut at spaces, with "…" where text
// was left out on either side. Line breaks become spaces.
func Snippet(text string, terms []string, maxRunes int) string {
	text = collapseSpaces(text)
	if utf8.RuneCountInString(text) <= maxRunes {
		return text
	}
	start := firstMatch(text, terms)
	// Begin a few words before the match, at a space.
	from := start
	for back := 0; from > 0 && back < maxRunes/4; back++ {
		_, size := utf8.DecodeLastRuneInString(text[:from])
		from -= size
	}
	if sp := strings.IndexByte(text[from:start], ' '); from > 0 && sp >= 0 {
		from += sp + 1
	}
	out, n := text[from:], 0
	for i := range out {
		if n == maxRunes {
			cut := strings.LastIndexByte(out[:i], ' ')
			if cut <= 0 {
				cut = i
			}
			out = out[:cut] + "…"
			break
		}
		n++
	}
	if from > 0 {
		out = "…" + out
	}
	return out
}

// firstMatch is where the first word of text that matches a term begins,
// 0 when none does.
func firstMatch(text string, terms []string) int {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		end := i
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if !isWordRune(r) {
				break
			}
			end += size
		}
		word := Fold(text[i:end])
		for _, t := range terms {
			if wordMatches(word, t) {
				return i
			}
		}
		i = end
	}
	return 0
}

// collapseSpaces is strings.Join(strings.Fields(s), " "), written once.
func collapseSpaces(s string) string {
	b := make([]byte, 0, len(s))
	space := false // a space is pending before the next field
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				space = len(b) > 0
				i++
				continue
			}
			if space {
				b = append(b, ' ')
				space = false
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = len(b) > 0
		} else {
			if space {
				b = append(b, ' ')
				space = false
			}
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
