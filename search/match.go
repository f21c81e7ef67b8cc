package search

import (
	"slices"
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
	text, start := flatUntilMatch(text, terms, maxRunes+1)
	if utf8.RuneCountInString(text) <= maxRunes {
		return text
	}
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

// flatUntilMatch is text with its runs of spaces made one space and none
// at either end (strings.Join(strings.Fields(text), " ")), and where in it
// the first word that matches a term begins (0 when none does). It stops
// once it holds after rest runes from that word on: Snippet needs no more.
func flatUntilMatch(text string, terms []string, rest int) (flat string, start int) {
	b := make([]byte, 0, len(text))
	space := false // a space is pending before the next field
	word := -1     // where the word being read begins in b
	after := -1    // runes written from the match on; -1 before a match
	endWord := func() {
		if word >= 0 && after < 0 && bytesMatchAny(b[word:], terms) {
			start, after = word, utf8.RuneCount(b[word:])
		}
		word = -1
	}
	for i := 0; i < len(text) && after < rest; {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if unicode.IsSpace(r) {
			endWord()
			space = len(b) > 0
			i += size
			continue
		}
		if space {
			endWord()
			b = append(b, ' ')
			space = false
			if after >= 0 {
				after++
			}
		}
		if isWordRune(r) {
			if word < 0 {
				word = len(b)
			}
		} else {
			endWord()
		}
		b = append(b, text[i:i+size]...)
		if after >= 0 {
			after++
		}
		i += size
	}
	endWord()
	return string(b), start
}

// bytesMatchAny reports whether a word, not folded, matches a term; an
// ASCII word is folded as it is compared, without a copy.
func bytesMatchAny(word []byte, terms []string) bool {
	if slices.ContainsFunc(word, func(c byte) bool { return c >= utf8.RuneSelf }) {
		folded := Fold(string(word))
		return slices.ContainsFunc(terms, func(t string) bool { return wordMatches(folded, t) })
	}
	for _, t := range terms {
		common := 0
		for common < len(word) && common < len(t) && asciiLower(word[common]) == t[common] {
			common++
		}
		if common >= min(len(t), max(4, len(t)-5)) { // as wordMatches
			return true
		}
	}
	return false
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
