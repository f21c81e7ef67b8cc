package search

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Ask answers a question from the sections a search retrieved: by quoting
// the sentences that hold most of its words when no model is configured,
// or by asking the model, grounded on those sections and told to cite them.

// Source is a section retrieved for a question, with where it lives.
type Source struct {
	SpaceID, PageID, RevisionID string
	PageTitle                   string
	Section                     Section
	URL                         string // where the application shows the section
}

// Label is how a source is named in answers: its page, and its heading.
func (s Source) Label() string {
	if s.Section.Title == "" || s.Section.Title == s.PageTitle {
		return s.PageTitle
	}
	return s.PageTitle + " › " + s.Section.Title
}

// stopWords are English words too common to say what a question is about.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`a about an and are as at be by can could do does did for from has have how i if in
		into is it its me my no not of on or our should so than that the their them then there these they this to
		use using was we were what when where which who why will with would you your`) {
		m[w] = true
	}
	return m
}()

// QuestionTerms are the words of a question that search looks for: its
// terms without the common words, or all of them when nothing else is left.
func QuestionTerms(question string) []string {
	all := Terms(question)
	out := slices.DeleteFunc(slices.Clone(all), func(w string) bool { return stopWords[w] })
	if len(out) == 0 {
		return all
	}
	return out
}

// sentenceEnd splits text after a full stop, question or exclamation mark.
var sentenceEnd = regexp.MustCompile(`[.!?](\s+|$)`)

// sentences splits a section's text into sentences and lines.
func sentences(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		rest := strings.TrimSpace(line)
		for rest != "" {
			loc := sentenceEnd.FindStringIndex(rest)
			if loc == nil {
				out = append(out, rest)
				break
			}
			out = append(out, strings.TrimSpace(rest[:loc[1]]))
			rest = strings.TrimSpace(rest[loc[1]:])
		}
	}
	return out
}

// maxQuoted bounds the sentences an extractive answer quotes.
const maxQuoted = 3

// Extract answers without a model, from the first source (best first)
// whose text holds any of the terms: the sentences that hold the most of
// them (up to three, in their order), quoted, then where they come from. It
// returns the answer and the index of the source it quotes, or -1 when no
// source's text holds a term (a page may be found by its title alone).
func Extract(terms []string, sources []Source) (string, int) {
	for i, src := range sources {
		if quote := bestSentences(terms, src.Section.Body); quote != "" {
			return "> " + quote + "\n\nFrom [" + escapeLinkText(src.Label()) + "](" + src.URL + ").", i
		}
	}
	return "", -1
}

// bestSentences are the sentences of text that hold the most terms, up to
// maxQuoted of them in their order, or "" when none holds any.
func bestSentences(terms []string, text string) string {
	type scored struct{ i, n int }
	var picks []scored
	all := sentences(text)
	for i, s := range all {
		ws := Words(s)
		n := 0
		for _, t := range terms {
			if anyWord(ws, t) {
				n++
			}
		}
		if n > 0 {
			picks = append(picks, scored{i, n})
		}
	}
	slices.SortStableFunc(picks, func(a, b scored) int { return b.n - a.n })
	picks = picks[:min(len(picks), maxQuoted)]
	slices.SortFunc(picks, func(a, b scored) int { return a.i - b.i })
	var quote []string
	for _, p := range picks {
		quote = append(quote, all[p.i])
	}
	return strings.Join(quote, " ")
}

// escapeLinkText keeps a label from closing the link it is the text of.
func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// maxSourceRunes bounds the text of each source given to the model.
const maxSourceRunes = 4000

// Prompt is what the model is asked: the numbered sources, and the
// question, with the rules of the answer.
func Prompt(question string, sources []Source) (system, user string) {
	system = "You answer questions about an organization's documentation. Use only the numbered sources given: " +
		"if they do not hold the answer, say that the documentation does not cover it. Answer in markdown, briefly, " +
		"and cite the sources you used as [1], [2]. After the answer, write up to three follow-up questions the reader " +
		"might ask next, each on its own line starting with \"Follow-up: \"."
	var b strings.Builder
	for i, s := range sources {
		body := s.Section.Body
		if r := []rune(body); len(r) > maxSourceRunes {
			body = string(r[:maxSourceRunes]) + "…"
		}
		fmt.Fprintf(&b, "[%d] %s (%s)\n%s\n\n", i+1, s.Label(), s.URL, body)
	}
	b.WriteString("Question: " + question)
	return system, b.String()
}

var (
	citation = regexp.MustCompile(`\[(\d{1,3})\]`)
	followUp = regexp.MustCompile(`(?m)^\s*(?:[-*]\s*)?\**Follow-up:?\**:?\s*(.+?)\s*$`)
)

// WithoutPartialFollowUp is an answer being written, without a last line
// that may yet become a follow-up question: shown while streaming, it
// would come and go.
func WithoutPartialFollowUp(text string) string {
	i := strings.LastIndexByte(text, '\n') + 1
	last := strings.TrimLeft(text[i:], " -*")
	if strings.HasPrefix("Follow-up:", last) || strings.HasPrefix(last, "Follow") {
		return text[:i]
	}
	return text
}

// maxFollowUps bounds the follow-up questions an answer suggests.
const maxFollowUps = 3

// ParseAnswer splits a model's answer into its markdown, the follow-up
// questions it ends with, and the sources it cites (their indexes, in
// order; all of them when it cites none).
func ParseAnswer(text string, sources int) (markdown string, followUps []string, cited []int) {
	for _, m := range followUp.FindAllStringSubmatch(text, -1) {
		if len(followUps) < maxFollowUps {
			followUps = append(followUps, m[1])
		}
	}
	markdown = strings.TrimSpace(followUp.ReplaceAllString(text, ""))
	for _, m := range citation.FindAllStringSubmatch(markdown, -1) {
		n, _ := strconv.Atoi(m[1])
		if n >= 1 && n <= sources && !slices.Contains(cited, n-1) {
			cited = append(cited, n-1)
		}
	}
	if len(cited) == 0 {
		for i := range sources {
			cited = append(cited, i)
		}
	}
	return markdown, followUps, cited
}

// maxRecommended bounds the questions recommended to ask.
const maxRecommended = 5

// Recommend picks questions worth asking of documentation, from the titles
// and headings of its pages in reading order: those written as questions
// (as FAQs are) first, then questions about the first pages.
func Recommend(titles []string) []string {
	var out []string
	add := func(q string) {
		if len(out) < maxRecommended && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	for _, t := range titles {
		if strings.HasSuffix(t, "?") {
			add(t)
		}
	}
	for _, t := range titles {
		if !strings.HasSuffix(t, "?") {
			add("What does the documentation say about " + strings.TrimRight(t, ".:!") + "?")
		}
	}
	return out
}

// RecommendPrompt asks a model for questions about documentation of which
// it is given the titles.
func RecommendPrompt(titles []string) (system, user string) {
	system = fmt.Sprintf("You suggest questions that readers of an organization's documentation could ask it. "+
		"Write exactly %d short questions, one per line, without numbering, each answerable from pages with the titles given.", maxRecommended)
	return system, "Titles of the documentation's pages and sections:\n" + strings.Join(titles, "\n")
}

// ParseQuestions reads the questions a model suggested, one per line.
func ParseQuestions(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		q := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*0123456789.) "))
		if q != "" && len(out) < maxRecommended && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}
