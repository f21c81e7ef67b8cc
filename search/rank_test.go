package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
)

func TestRankPages(t *testing.T) {
	hit := func(page string, pos int, score float64) Hit { return Hit{PageID: page, Position: pos, Score: score} }
	has := func(id string) bool { return id != "gone" }
	tests := []struct {
		name string
		hits []Hit
		want []RankedPage
	}{
		{"none", nil, nil},
		{"one page", []Hit{hit("a", 0, 3), hit("a", 2, 1)}, []RankedPage{{"a", []Hit{hit("a", 0, 3), hit("a", 2, 1)}}}},
		{
			"pages by their best hit, hits kept in order",
			[]Hit{hit("b", 1, 9), hit("a", 0, 8), hit("b", 0, 7), hit("c", 3, 2), hit("a", 1, 1)},
			[]RankedPage{
				{"b", []Hit{hit("b", 1, 9), hit("b", 0, 7)}},
				{"a", []Hit{hit("a", 0, 8), hit("a", 1, 1)}},
				{"c", []Hit{hit("c", 3, 2)}},
			},
		},
		{"pages not in the content dropped", []Hit{hit("gone", 0, 9), hit("a", 0, 1)}, []RankedPage{{"a", []Hit{hit("a", 0, 1)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, RankPages(tt.hits, has)); diff != "" {
				t.Errorf("RankPages (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSections(t *testing.T) {
	p := &content.Page{ID: "p", Title: "Guide", Markdown: "Intro.\n\n## Install it\n\nRun the *installer*.\n"}
	want := []WordSection{
		{Section{"", "", "Intro."}, []string{"intro"}, 0},
		{Section{"install-it", "Install it", "Run the installer."}, []string{"install", "it", "run", "the", "installer"}, 2},
	}
	if diff := cmp.Diff(want, Sections(p)); diff != "" {
		t.Errorf("Sections (-want +got):\n%s", diff)
	}
}

func TestShowSections(t *testing.T) {
	sections := []WordSection{
		{Section{ID: "", Body: "intro"}, []string{"intro"}, 0},
		{Section{ID: "install", Title: "Install"}, []string{"install"}, 1},
		{Section{ID: "setup", Title: "Setup", Body: "install it"}, []string{"setup", "install", "it"}, 1},
		{Section{ID: "other", Title: "Other"}, []string{"other"}, 1},
		{Section{ID: "more", Body: "installing"}, []string{"installing"}, 0},
	}
	hit := func(pos int, score float64) Hit { return Hit{PageID: "p", Position: pos, Score: score} }
	shown := func(i int, score float64, own bool) ShownSection {
		return ShownSection{sections[i].Section, score, own}
	}
	tests := []struct {
		name  string
		hits  []Hit
		terms []string
		n     int
		want  []ShownSection
	}{
		{"none", nil, []string{"install"}, 3, nil},
		{"own matches, best first", []Hit{hit(2, 5), hit(0, 4), hit(1, 3)}, []string{"install"}, 3, []ShownSection{shown(2, 5, true), shown(1, 3, true)}},
		{"at most n", []Hit{hit(1, 5), hit(2, 4), hit(4, 3)}, []string{"install"}, 2, []ShownSection{shown(1, 5, true), shown(2, 4, true)}},
		{"by the page's title, the best one alone", []Hit{hit(3, 5), hit(0, 4)}, []string{"install"}, 3, []ShownSection{shown(3, 5, false)}},
		{"a title match gives way to an own one", []Hit{hit(3, 5), hit(1, 4)}, []string{"install"}, 3, []ShownSection{shown(1, 4, true)}},
		{"hits past the sections passed over", []Hit{hit(9, 5), hit(1, 4)}, []string{"install"}, 3, []ShownSection{shown(1, 4, true)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ShowSections(tt.hits, sections, tt.terms, tt.n)); diff != "" {
				t.Errorf("ShowSections (-want +got):\n%s", diff)
			}
		})
	}
}
