package search

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// snippetBefore is Snippet as it was first written, on the whole text:
// Snippet must answer the same, with less work.
func snippetBefore(text string, terms []string, maxRunes int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= maxRunes {
		return text
	}
	start := 0
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
		if MatchesAny([]string{foldBefore(text[i:end])}, terms) {
			start = i
			break
		}
		i = end
	}
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

// foldBefore is Fold without its shortcut for ASCII.
func foldBefore(s string) string {
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

var snippetSeeds = []string{
	"", " ", "Short\ntext.", "  lead and trail  \n", "Run the installer as root.",
	strings.Repeat("Padding words here. ", 40) + "Retries happen thrice.",
	strings.Repeat("filler ", 30) + "Café au lait\u00a0and\u2003more\u0085text " + strings.Repeat("tail ", 30),
	"Ünïcödé ΆΈΉ Привет हिन्दी\t\t\v\fwords\r\n" + strings.Repeat("x", 300),
	strings.Repeat("é", 300) + " cafe " + strings.Repeat("ab ", 100),
	"bad \xff\xfe utf8 " + strings.Repeat("word ", 80) + "installing",
}

func TestSnippetAsBefore(t *testing.T) {
	for _, text := range snippetSeeds {
		for _, terms := range [][]string{{"x"}, {"cafe"}, {"retries"}, {"install"}, {"tail", "word"}, {"привет"}, {"ab"}} {
			for _, n := range []int{1, 4, 40, 80, 240} {
				if got, want := Snippet(text, terms, n), snippetBefore(text, terms, n); got != want {
					t.Errorf("Snippet(%q, %q, %d) = %q, want %q", text, terms, n, got, want)
				}
			}
		}
	}
}

func FuzzSnippet(f *testing.F) {
	for _, s := range snippetSeeds {
		f.Add(s, "cafe", 40)
	}
	f.Fuzz(func(t *testing.T, text, term string, n int) {
		n = n%300 + 1
		if n < 1 {
			n = -n + 1
		}
		if Fold(text) != foldBefore(text) {
			t.Errorf("Fold(%q) = %q, want %q", text, Fold(text), foldBefore(text))
		}
		// The query's terms, and one of the text's own words.
		for _, terms := range [][]string{Terms(term), Terms(text)[len(Terms(text))/2:]} {
			if got, want := Snippet(text, terms, n), snippetBefore(text, terms, n); got != want {
				t.Errorf("Snippet(%q, %q, %d) = %q, want %q", text, terms, n, got, want)
			}
		}
	})
}
