package search

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
)

func TestPageOf(t *testing.T) {
	p := PageOf(&content.Page{ID: "p", Title: "Guide", Markdown: "Intro *text* with `code`.\nNext line.\n\n" +
		"## Install it\n\nRun:\n\n```sh\ngo install x\n```\n\n| a | b |\n|---|---|\n| c | d |\n\n" +
		"## Install it\n\n- one\n- two <b>bold</b>\n\n![alt text](i.png) [link](http://x) <http://auto.test>\n\n## Empty\n"})
	want := []Section{
		{"", "", "Intro text with code. Next line."},
		{"install-it", "Install it", "Run:\ngo install x\na\nb\nc\nd"},
		{"install-it-1", "Install it", "one\ntwo bold\nalt text link http://auto.test"},
		{"empty", "Empty", ""},
	}
	if !slices.Equal(p.Sections, want) {
		t.Errorf("sections\n got %q\nwant %q", p.Sections, want)
	}
	// A page without text keeps one section, so its title is found.
	if p := PageOf(&content.Page{ID: "e", Title: "Empty"}); len(p.Sections) != 1 {
		t.Errorf("empty page: %q", p.Sections)
	}
}

func TestIndexed(t *testing.T) {
	tr := &content.Tree{Root: []string{"a", "g", "h"}, Pages: map[string]*content.Page{
		"a":  {ID: "a", Kind: content.KindDocument, Children: []string{"n"}},
		"n":  {ID: "n", Kind: content.KindDocument, NoIndex: true, Children: []string{"nc"}},
		"nc": {ID: "nc", Kind: content.KindDocument},
		"g":  {ID: "g", Kind: content.KindGroup, Children: []string{"gc"}},
		"gc": {ID: "gc", Kind: content.KindDocument},
		"h":  {ID: "h", Kind: content.KindDocument, Hidden: true, Children: []string{"hc"}},
		"hc": {ID: "hc", Kind: content.KindDocument},
	}}
	var got []string
	for _, p := range Indexed(tr) {
		got = append(got, p.ID)
	}
	if !slices.Equal(got, []string{"a", "gc"}) {
		t.Errorf("indexed %v, want a and gc (not groups, hidden or noIndex pages, nor under them)", got)
	}
}

func TestTerms(t *testing.T) {
	for q, want := range map[string][]string{
		`Café "AND" x*  OR-(y)`: {"cafe", "and", "x", "or", "y"},
		"a a A":                 {"a"},
		"   ":                   nil,
		"日本語 テスト":               {"日本語", "テスト"},
		"हिन्दी":                {"हिन्दी"},
	} {
		if got := Terms(q); !slices.Equal(got, want) {
			t.Errorf("Terms(%q) = %q, want %q", q, got, want)
		}
	}
	if got := Terms(strings.Repeat("w ", 40) + strings.Repeat("x", 3)); len(got) != 2 {
		t.Errorf("repeated words: %q", got)
	}
	many := ""
	for i := range 30 {
		many += string(rune('a'+i%26)) + string(rune('a'+i/26)) + " "
	}
	if got := Terms(many); len(got) != MaxTerms {
		t.Errorf("%d terms, want %d", len(got), MaxTerms)
	}
}

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		text, term string
		want       bool
	}{
		{"Installing Quire", "install", true},
		{"Install it", "installing", true},
		{"Configuration", "configure", true},
		{"Category", "cat", true},
		{"Cat", "category", false},
		{"Café", "cafe", true},
		{"Port", "report", false},
	} {
		if got := MatchesAny(Words(c.text), []string{c.term}); got != c.want {
			t.Errorf("MatchesAny(%q, %q) = %v", c.text, c.term, got)
		}
	}
	if ws := Words("Installing Quire"); MatchesAll(ws, []string{"install", "linux"}) || !MatchesAll(ws, []string{"quire", "install"}) {
		t.Error("MatchesAll")
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("filler words here ", 30) + "The Café opens at nine. " + strings.Repeat("more text after ", 30)
	got := Snippet(long, []string{"cafe"}, 80)
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "The Café opens") || utf8.RuneCountInString(got) > 82 {
		t.Errorf("snippet %q", got)
	}
	if got := Snippet("Short\ntext.", []string{"x"}, 80); got != "Short text." {
		t.Errorf("short: %q", got)
	}
	if got := Snippet(long, []string{"absent"}, 40); !strings.HasPrefix(got, "filler") || !strings.HasSuffix(got, "…") {
		t.Errorf("no match: %q", got)
	}
}

// FuzzPageOf: any markdown splits into sections whose text is valid UTF-8
// and holds no blank line; the search helpers never panic on it.
func FuzzPageOf(f *testing.F) {
	f.Add("# A\n\ntext\n\n## B\n\n```\ncode\n```\n", "a b")
	f.Add("<div>x</div>\n\n- [ ] task\n", "x*")
	f.Fuzz(func(t *testing.T, md, query string) {
		p := PageOf(&content.Page{ID: "p", Markdown: md})
		terms := Terms(query)
		for _, s := range p.Sections {
			if strings.Contains(s.Body, "\n\n") {
				t.Errorf("blank line in %q", s.Body)
			}
			sn := Snippet(s.Body, terms, 60)
			if utf8.ValidString(s.Body) && !utf8.ValidString(sn) {
				t.Errorf("snippet of valid text is not valid UTF-8: %q", sn)
			}
			if n := utf8.RuneCountInString(sn); n > 62 {
				t.Errorf("snippet of %d runes", n)
			}
			MatchesAll(Words(s.Title), terms)
		}
		for _, w := range terms {
			if w == "" || strings.ContainsAny(w, `"*:&|!()' `) {
				t.Errorf("term %q could reach query syntax", w)
			}
		}
	})
}

// Sections are named by the ids the page's HTML gives its headings, so that
// links to them (search results, answers' sources) land on the heading.
func TestSectionIDsAreTheHTMLHeadingIDs(t *testing.T) {
	md := "Intro.\n\n## Überblick der_Zwerge\n\nA.\n\n## Setup\n\nB.\n\n### Setup\n\nC.\n\n## [Linked](https://example.com) `code`\n\nD.\n"
	page, err := render.HTML(md, render.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, h := range page.Headings {
		want = append(want, h.ID)
	}
	var got []string
	for _, s := range PageOf(&content.Page{ID: "p", Markdown: md}).Sections {
		if s.Title != "" {
			got = append(got, s.ID)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("section ids %q, want the HTML's %q", got, want)
	}
}
