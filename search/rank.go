package search

import "github.com/quiredocs/quire/content"

// Ranking: the store's index finds the sections that hold the terms,
// sections are scored here (score.go), pages ranked by their best section,
// and what a result shows of a page is chosen on words.

// Hit is a section that matched a search: its page, its place in
// PageOf(page).Sections and its score (higher is better, unbounded).
// The index holds folded text, so titles and text are read from the page.
type Hit struct {
	SpaceID  string
	PageID   string
	Position int
	Score    float64
}

// RankedPage is a page of the results and its hits, best first.
type RankedPage struct {
	PageID string
	Hits   []Hit
}

// RankPages groups section hits (best first) by page, each page ranked by
// its best section. Hits on pages for which has is false are dropped: the
// index may have moved on since the content was read.
func RankPages(hits []Hit, has func(pageID string) bool) []RankedPage {
	byPage := map[string]int{}
	var out []RankedPage
	for _, h := range hits {
		if !has(h.PageID) {
			continue
		}
		i, seen := byPage[h.PageID]
		if !seen {
			i = len(out)
			byPage[h.PageID] = i
			out = append(out, RankedPage{PageID: h.PageID})
		}
		out[i].Hits = append(out[i].Hits, h)
	}
	return out
}

// WordSection is a section of a page as the index holds it, with the
// words of its title and text.
type WordSection struct {
	Section
	Words      []string // of its heading, then of its text
	TitleWords int      // how many of Words are its heading's
}

// Sections splits a page as the index does, each section with its words.
func Sections(p *content.Page) []WordSection {
	var secs []WordSection
	for _, sec := range PageOf(p).Sections {
		title := Words(sec.Title)
		secs = append(secs, WordSection{sec, append(title, Words(sec.Body)...), len(title)})
	}
	return secs
}

// ShownSection is a section a result shows under its page.
type ShownSection struct {
	Section
	Score float64
	Own   bool // matched by its own words, rather than by the page's title or description
}

// ShowSections picks up to n sections of a ranked page's hits to show,
// best first: those that match by their own words or, when none does, the
// best one, which matched by the page's title or description. Hits beyond
// sections (the index may have moved on) are passed over.
func ShowSections(hits []Hit, sections []WordSection, terms []string, n int) []ShownSection {
	var out []ShownSection
	var byTitle *ShownSection
	for _, h := range hits {
		if h.Position >= len(sections) || len(out) == n {
			continue
		}
		sec := sections[h.Position]
		switch own := MatchesAny(sec.Words, terms); {
		case own:
			out = append(out, ShownSection{sec.Section, h.Score, true})
		case byTitle == nil:
			byTitle = &ShownSection{sec.Section, h.Score, false}
		}
	}
	if len(out) == 0 && byTitle != nil {
		out = append(out, *byTitle)
	}
	return out
}
