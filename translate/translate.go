// Package translate translates a revision's content tree into another
// language through an OpenAI-compatible language model (issue 19,
// translations): each page's title, description and body, as one Markdown
// page, in chunks that keep code blocks whole, following the organization's
// instructions and glossary. The tree keeps its shape: the same pages, ids,
// slugs, order and files, so links between pages and to files still hold.
package translate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/internal/llm"
	"github.com/quiredocs/quire/render"
)

// Limits bound one translation run.
type Limits struct {
	// Chunk is the most bytes of a page sent in one model call; longer
	// pages go in several, cut between blocks.
	Chunk int
	// Call is the longest one model call may take.
	Call time.Duration
	// Text is the most bytes of page text one run translates.
	Text int
	// Glossary is the most glossary terms one call is told of: those
	// found in the chunk, in the glossary's order.
	Glossary int
}

// DefaultLimits are those a zero Limits takes.
var DefaultLimits = Limits{Chunk: 12 << 10, Call: 2 * time.Minute, Text: 8 << 20, Glossary: 200}

func (l Limits) withDefaults() Limits {
	if l.Chunk <= 0 {
		l.Chunk = DefaultLimits.Chunk
	}
	if l.Call <= 0 {
		l.Call = DefaultLimits.Call
	}
	if l.Text <= 0 {
		l.Text = DefaultLimits.Text
	}
	if l.Glossary <= 0 {
		l.Glossary = DefaultLimits.Glossary
	}
	return l
}

// Term is a glossary entry as one run needs it: the term in the source
// language and how the target language says it.
type Term struct{ Source, Target string }

// Request is what one run translates with.
type Request struct {
	From, To     string // language codes (quire.TranslationLanguages)
	Instructions []string
	Glossary     []Term
}

// Stats is what a run translated.
type Stats struct {
	Pages int   // pages sent to the model
	Words int64 // words of their source text
}

// Translator translates trees with Model within Limits.
type Translator struct {
	Model  *llm.Model
	Limits Limits
}

// Tree translates src into a new tree of the same shape. It fails on the
// first page the model cannot translate, naming it; nothing is half done,
// since the caller writes the tree only when all of it is translated.
func (tr *Translator) Tree(ctx context.Context, src *content.Tree, req Request) (*content.Tree, Stats, error) {
	var stats Stats
	if tr.Model == nil {
		return nil, stats, quire.Errorf(quire.CodeInvalid, "no language model is configured (QUIRE_LLM_URL and QUIRE_LLM_MODEL)")
	}
	l := tr.Limits.withDefaults()
	out := src.Clone()
	total := 0
	for _, p := range src.Pages {
		if p != nil {
			total += len(p.Title) + len(p.Description) + len(p.Markdown)
		}
	}
	if total > l.Text {
		return nil, stats, quire.Errorf(quire.CodeTooLarge, "the source's pages come to %d bytes of text, more than the %d one run translates", total, l.Text)
	}
	ids := make([]string, 0, len(src.Pages))
	for id, p := range src.Pages {
		if p != nil {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	system := systemPrompt(req)
	for _, id := range ids {
		p := out.Pages[id]
		if p.Title == "" && p.Description == "" && strings.TrimSpace(p.Markdown) == "" {
			continue
		}
		text := render.PageMarkdown(p.Title, p.Description, p.Markdown)
		translated, err := tr.page(ctx, l, system, req.Glossary, text)
		if err != nil {
			if ctx.Err() != nil {
				return nil, stats, ctx.Err()
			}
			return nil, stats, quire.Errorf(quire.CodeInvalid, "page %q (%s): %s", p.Title, id, err)
		}
		meta, body, err := render.ParsePage(translated)
		if err != nil {
			return nil, stats, quire.Errorf(quire.CodeInvalid, "page %q (%s): the model's translation is not a page: %s", p.Title, id, err)
		}
		if meta.Title != "" { // a model that drops the heading leaves the title as it was
			p.Title = truncateRunes(meta.Title, 128)
		}
		if p.Description != "" && meta.Description != "" {
			p.Description = truncateRunes(meta.Description, 1000)
		}
		p.Markdown = body
		stats.Pages++
		stats.Words += int64(len(strings.Fields(text)))
	}
	if err := out.Validate(); err != nil {
		return nil, stats, quire.Errorf(quire.CodeInvalid, "the translation does not make a valid tree: %s", err)
	}
	return out, stats, nil
}

// page translates one page's Markdown, chunk by chunk.
func (tr *Translator) page(ctx context.Context, l Limits, system string, glossary []Term, text string) (string, error) {
	var parts []string
	for _, chunk := range Chunks(text, l.Chunk) {
		msgs := []llm.Message{{Role: "system", Content: system + glossaryPrompt(glossary, chunk, l.Glossary)}, {Role: "user", Content: chunk}}
		callCtx, cancel := context.WithTimeout(ctx, l.Call)
		answer, err := tr.Model.Complete(callCtx, msgs)
		timedOut := callCtx.Err() != nil && ctx.Err() == nil
		cancel()
		switch {
		case timedOut:
			return "", fmt.Errorf("the model did not answer within %s", l.Call)
		case errors.Is(err, llm.ErrTooLarge):
			return "", errors.New("the model's answer was too large")
		case err != nil:
			return "", fmt.Errorf("the model failed: %s", strings.TrimPrefix(err.Error(), "llm: "))
		}
		answer = unwrapFence(strings.TrimSpace(answer), chunk)
		if answer == "" {
			return "", errors.New("the model answered nothing")
		}
		if len(answer) > 4*len(chunk)+1024 {
			return "", errors.New("the model answered far more than it was given to translate")
		}
		parts = append(parts, answer)
	}
	return strings.Join(parts, "\n\n") + "\n", nil
}

// Chunks cuts Markdown into pieces of about max bytes at blank lines
// outside fenced code blocks, so that no block is cut; a block longer than
// max is a piece of its own.
func Chunks(text string, max int) []string {
	var chunks []string
	var cur strings.Builder
	fence := ""
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
		}
		cur.WriteString(line)
		atBreak := fence == "" && trimmed == "" && i > 0
		if atBreak && cur.Len() >= max {
			if s := strings.TrimSpace(cur.String()); s != "" {
				chunks = append(chunks, s)
			}
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		chunks = append(chunks, s)
	}
	return chunks
}

// unwrapFence removes a code fence the model put around its whole answer
// when the text it was given had none.
func unwrapFence(answer, given string) string {
	if !strings.HasPrefix(answer, "```") || strings.HasPrefix(strings.TrimSpace(given), "```") || !strings.HasSuffix(answer, "```") {
		return answer
	}
	first := strings.IndexByte(answer, '\n')
	if first < 0 {
		return answer
	}
	return strings.TrimSpace(strings.TrimSuffix(answer[first+1:], "```"))
}

func systemPrompt(req Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You translate documentation from %s to %s. The user sends one part of a Markdown page; answer with its translation only, "+
		"no comment and no code fence around it.\n"+
		"Keep the Markdown exactly as it is: headings, lists, tables, block quotes, HTML tags and their attributes, link and image URLs, "+
		"front matter keys, and code (code blocks and inline code are not translated). Translate the text, link texts, image descriptions "+
		"and the front matter's description.\n", LanguageName(req.From), LanguageName(req.To))
	for _, in := range req.Instructions {
		if in = strings.TrimSpace(in); in != "" {
			b.WriteString("\nThe organization's instructions for this translation:\n")
			b.WriteString(in)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// glossaryPrompt tells the model the glossary terms found in chunk (any
// case), at most max of them.
func glossaryPrompt(glossary []Term, chunk string, max int) string {
	lower := strings.ToLower(chunk)
	var b strings.Builder
	n := 0
	for _, t := range glossary {
		if n == max {
			break
		}
		if !strings.Contains(lower, strings.ToLower(t.Source)) {
			continue
		}
		if n == 0 {
			b.WriteString("\nGlossary: always translate these terms as given.\n")
		}
		fmt.Fprintf(&b, "- %q → %q\n", t.Source, t.Target)
		n++
	}
	return b.String()
}

// languageNames are the English names of quire.TranslationLanguages.
var languageNames = map[string]string{
	"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
	"pt-br": "Brazilian Portuguese", "ru": "Russian", "ja": "Japanese", "zh": "Simplified Chinese", "zh-tw": "Traditional Chinese",
	"yue": "Cantonese", "ko": "Korean", "ar": "Arabic", "hi": "Hindi", "nl": "Dutch", "pl": "Polish", "tr": "Turkish",
	"sv": "Swedish", "no": "Norwegian", "da": "Danish", "fi": "Finnish", "el": "Greek", "cs": "Czech", "hu": "Hungarian",
	"ro": "Romanian", "th": "Thai", "vi": "Vietnamese", "id": "Indonesian", "ms": "Malay", "he": "Hebrew", "uk": "Ukrainian",
	"sk": "Slovak", "bg": "Bulgarian", "hr": "Croatian", "lt": "Lithuanian", "lv": "Latvian", "et": "Estonian", "sl": "Slovenian",
}

// LanguageName is the English name of a language code, or the code.
func LanguageName(code string) string {
	if n, ok := languageNames[code]; ok {
		return n
	}
	return code
}

// DocumentText is the text of a JSON document (quire.CheckDocument's
// shape, decoded into any): its leaves' text, a line per block.
func DocumentText(doc any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		n, ok := v.(map[string]any)
		if !ok {
			return
		}
		if leaves, ok := n["leaves"].([]any); ok {
			for _, l := range leaves {
				if m, ok := l.(map[string]any); ok {
					s, _ := m["text"].(string)
					b.WriteString(s)
				}
			}
		}
		nodes, _ := n["nodes"].([]any)
		for _, c := range nodes {
			walk(c)
		}
		if n["object"] == "block" && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
	}
	walk(doc)
	return strings.TrimSpace(b.String())
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(slices.Clip(r[:n]))
}
