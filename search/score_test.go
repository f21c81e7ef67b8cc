package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/quiredocs/quire/content"
)

// TestScoreSections: the fields weigh as the page's title and description,
// then the section's heading, then its text; more mentions score higher,
// each less than the one before; a long text's mention less than a short
// one's; every term counts; and a section the index matched on a stem
// alone still scores.
func TestScoreSections(t *testing.T) {
	scores := func(title, markdown string, terms ...string) []float64 {
		p := &content.Page{ID: "p", Title: title, Markdown: markdown}
		return ScoreSections(Words(p.Title+" "+p.Description), Sections(p), terms)
	}
	byTitle := scores("Webhooks", "Some text.\n", "webhooks")[0]
	byHeading := scores("Guide", "## Webhooks\n\nSome text.\n", "webhooks")[0]
	once := scores("Guide", "Webhooks are sent.\n", "webhooks")[0]
	twice := scores("Guide", "Webhooks are sent. Webhooks retry.\n", "webhooks")[0]
	thrice := scores("Guide", "Webhooks are sent. Webhooks retry. Webhooks stop.\n", "webhooks")[0]
	long := scores("Guide", "Webhooks are sent."+string(slices.Repeat([]byte(" More words here."), 100))+"\n", "webhooks")[0]
	both := scores("Guide", "Webhooks are signed.\n", "webhooks", "signed")[0]
	stem := scores("Guide", "Mice everywhere.\n", "mouse")[0]
	for _, c := range []struct {
		name        string
		more, fewer float64
	}{
		{"title over heading", byTitle, byHeading},
		{"heading over text", byHeading, once},
		{"two mentions over one", twice, once},
		{"three over two", thrice, twice},
		{"short text over long", once, long},
		{"two terms over one", both, once},
		{"any match over a stem's", long, stem},
	} {
		if !(c.more > c.fewer) {
			t.Errorf("%s: %v not above %v", c.name, c.more, c.fewer)
		}
	}
	if thrice-twice >= twice-once {
		t.Errorf("mentions do not saturate: %v, %v, %v", once, twice, thrice)
	}
	if stem <= 0 {
		t.Errorf("a section matched on a stem scores %v, want above 0", stem)
	}
}

// TestIndexedWordsScoreAlike: a page scores the same on the words of its
// sections as the index holds them (folded, as store indexes them) as on
// the words of its markdown split again.
func TestIndexedWordsScoreAlike(t *testing.T) {
	p := &content.Page{ID: "p", Title: "Café Guide", Description: "How to Install it",
		Markdown: "Intro about *installing*.\n\n## Install the Café\n\nRun the installer: `install --all`. Installing again is fine.\n\n## Other\n\nNothing.\n"}
	page := PageOf(p)
	var titles, bodies []string
	for _, s := range page.Sections {
		titles, bodies = append(titles, Fold(s.Title)), append(bodies, Fold(s.Body))
	}
	pageWords, sections := IndexedWords(Fold(strings.TrimSpace(p.Title+"\n"+p.Description)), titles, bodies)
	for _, terms := range [][]string{{"install"}, {"cafe"}, {"guide", "run"}, {"nothing"}} {
		want := ScoreSections(Words(p.Title+" "+p.Description), Sections(p), terms)
		if got := ScoreSections(pageWords, sections, terms); !slices.Equal(got, want) {
			t.Errorf("%q: indexed words score %v, the markdown's %v", terms, got, want)
		}
	}
}
