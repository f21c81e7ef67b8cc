package app

import (
	"html/template"
	"strings"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// A page's diff, as the change request page shows it: the markdown's words
// inserted and deleted, inline or side by side. Everything is escaped; only
// the <ins> and <del> marks are the app's own HTML.

// wordDiff is a diff of two texts word by word: each side's runs of
// letters, of spaces and single other characters, compared as units.
type wordDiff []diffmatchpatch.Diff

// diffWords diffs before and after by words.
func diffWords(before, after string) wordDiff {
	words := map[string]rune{}
	var list []string
	encode := func(s string) []rune {
		toks := tokens(s)
		out := make([]rune, len(toks))
		for i, t := range toks {
			r, ok := words[t]
			if !ok {
				r = wordRune(len(list))
				words[t] = r
				list = append(list, t)
			}
			out[i] = r
		}
		return out
	}
	a, b := encode(before), encode(after)
	dmp := diffmatchpatch.New()
	ds := dmp.DiffMainRunes(a, b, false)
	out := make(wordDiff, 0, len(ds))
	for _, d := range ds {
		var sb strings.Builder
		for _, r := range d.Text {
			sb.WriteString(list[wordIndex(r)])
		}
		out = append(out, diffmatchpatch.Diff{Type: d.Type, Text: sb.String()})
	}
	return out
}

// wordRune is the rune standing for the n-th distinct word: the diff's
// text goes through strings, so the surrogates' range is skipped.
func wordRune(n int) rune {
	if n >= 0xD800 {
		n += 0x800
	}
	return rune(n)
}

func wordIndex(r rune) int {
	if r >= 0xE000 {
		r -= 0x800
	}
	return int(r)
}

// tokens splits s into words, runs of spaces, and other characters one by one.
func tokens(s string) []string {
	var out []string
	kind := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 1
		case unicode.IsSpace(r):
			return 2
		}
		return 0
	}
	start := 0
	prev := -1
	for i, r := range s {
		k := kind(r)
		if i > start && (k != prev || k == 0) {
			out = append(out, s[start:i])
			start = i
		}
		prev = k
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// changed reports whether the diff inserts or deletes anything.
func (d wordDiff) changed() bool {
	for _, x := range d {
		if x.Type != diffmatchpatch.DiffEqual {
			return true
		}
	}
	return false
}

// inline is the diff as one text, deletions and insertions marked.
func (d wordDiff) inline() template.HTML {
	return d.html(true, true)
}

// sides are the diff's two sides: before with its deletions marked, after
// with its insertions.
func (d wordDiff) sides() (before, after template.HTML) {
	return d.html(true, false), d.html(false, true)
}

func (d wordDiff) html(deleted, inserted bool) template.HTML {
	var b strings.Builder
	for _, x := range d {
		text := template.HTMLEscapeString(x.Text)
		switch {
		case x.Type == diffmatchpatch.DiffEqual:
			b.WriteString(text)
		case x.Type == diffmatchpatch.DiffDelete && deleted:
			b.WriteString("<del>" + text + "</del>")
		case x.Type == diffmatchpatch.DiffInsert && inserted:
			b.WriteString("<ins>" + text + "</ins>")
		}
	}
	return template.HTML(b.String()) // every text escaped above
}
