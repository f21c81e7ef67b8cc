package search

// Scoring: a section's score depends on its own text and the terms alone,
// so that it stays right however the rest of the index changes, and can be
// kept for text that did not change. It is bm25's term-frequency part
// (k1 = 1.2, b = 0.75) against a fixed typical length for each field, with
// fields weighted as PostgreSQL's A, B and D: the page's title and
// description 10, the section's heading 4, its text 1. bm25's weight for
// rare words is left out: it would tie every score to the whole index.

// fieldWeights and typicalLengths (in words) are of a page's title and
// description, a section's heading and its text, in that order.
var (
	fieldWeights   = [3]float64{10, 4, 1}
	typicalLengths = [3]float64{12, 4, 100}
)

const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// ScoreSections scores the sections of a page (pageWords: the words of its
// title and description) for terms; a section the index matched on a stem
// that no word here begins like still scores above 0.
func ScoreSections(pageWords []string, sections []WordSection, terms []string) []float64 {
	pageTF := make([]int, len(terms))
	for i, t := range terms {
		pageTF[i] = countMatches(pageWords, t)
	}
	out := make([]float64, len(sections))
	for s, sec := range sections {
		title, body := sec.Words[:sec.TitleWords], sec.Words[sec.TitleWords:]
		score := 0.0
		for i, t := range terms {
			score += fieldScore(0, pageTF[i], len(pageWords)) +
				fieldScore(1, countMatches(title, t), len(title)) +
				fieldScore(2, countMatches(body, t), len(body))
		}
		out[s] = max(score, minScore)
	}
	return out
}

// minScore is the score of a section the index matched but whose words do
// not show how (stemming joins words of different beginnings).
const minScore = 0.01

func fieldScore(field, tf, length int) float64 {
	if tf == 0 {
		return 0
	}
	f := float64(tf)
	norm := 1 - bm25B + bm25B*float64(length)/typicalLengths[field]
	return fieldWeights[field] * f * (bm25K1 + 1) / (f + bm25K1*norm)
}

func countMatches(words []string, term string) int {
	n := 0
	for _, w := range words {
		if wordMatches(w, term) {
			n++
		}
	}
	return n
}

// IndexedWords are the words of a page's sections as the index holds them
// (folded heading and text), with the words of the page's title and
// description: what ScoreSections needs, without splitting the page's
// markdown (PageOf) again.
func IndexedWords(pageText string, titles, bodies []string) (pageWords []string, sections []WordSection) {
	sections = make([]WordSection, len(titles))
	for i := range titles {
		title := Words(titles[i])
		sections[i] = WordSection{Words: append(title, Words(bodies[i])...), TitleWords: len(title)}
	}
	return Words(pageText), sections
}
