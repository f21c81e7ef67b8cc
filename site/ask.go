package site

import (
	"bytes"
	"context"
	"html/template"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
)

// Ask: GET {site}/~ask?q= answers a question from the sections of the
// visible site spaces that hold its words, with the ask engine the API
// uses (ask.Asker): by the configured model, or by quoting the best
// section without one. Sources link to the published pages.

const maxSiteQuestion = 1000 // characters of q, as the API's ask takes

// askSourceJSON is a page an answer draws on.
type askSourceJSON struct {
	Title string `json:"title"`
	URL   string `json:"url"` // the page's path as reached, with #anchor for a heading's section
}

// askAnswer is the answer to a question asked of a site.
type askAnswer struct {
	Answer  string          `json:"answer"` // markdown
	HTML    string          `json:"html"`   // the answer as HTML, raw HTML of the markdown escaped
	Sources []askSourceJSON `json:"sources"`
}

// serveAsk answers GET {site}/~ask?q=: JSON {"answer", "html", "sources"}.
func (s *Server) serveAsk(w http.ResponseWriter, r *http.Request, rq *request) error {
	if err := allowMethods(w, r, http.MethodGet, http.MethodHead); err != nil {
		return err
	}
	q, err := requiredParam(r, "q", maxSiteQuestion)
	if err != nil {
		return err
	}
	s.countEvent(r, rq, "ask_question", "site", location{}, "", "")
	a, err := s.ask(r.Context(), rq, q)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	answerJSON(w, http.StatusOK, a)
	return nil
}

// ask answers question from what the visitor sees of the site.
func (s *Server) ask(ctx context.Context, rq *request, question string) (*askAnswer, error) {
	found, cancel := context.WithTimeout(ctx, lookupTimeout) // the model has its own bound
	defer cancel()
	sources, err := s.askSources(found, rq, question)
	if err != nil {
		return nil, err
	}
	a, err := s.asker.Answer(ctx, ask.Question{Text: question}, sources, nil)
	if err != nil {
		return nil, err
	}
	md := a.Markdown
	if s.asker.Cites() { // a model cites sources as [n]: link them
		md = linkCitations(md, sources)
	}
	out := &askAnswer{Answer: md, HTML: answerHTML(md), Sources: []askSourceJSON{}}
	for _, i := range a.Used {
		out.Sources = append(out.Sources, askSourceJSON{Title: sources[i].Label(), URL: sources[i].URL})
	}
	return out, nil
}

// askSources finds the sections of the visible site spaces that best hold
// the words of question, among the pages the visitor sees.
func (s *Server) askSources(ctx context.Context, rq *request, question string) ([]ask.Source, error) {
	spaces := rq.distinctSpaces()
	at := map[string]location{}
	var list []*quire.Space
	for _, vs := range spaces[:min(len(spaces), maxSearchSpace)] {
		at[vs.siteSpace.Space.ID] = vs
		list = append(list, vs.siteSpace.Space)
	}
	return s.asker.ScopeSources(ctx, ask.Scope{Spaces: list, Keep: rq.seesPage,
		URL: func(v *revision.View, pageID, sectionID string) string {
			u := rq.pageURL(at[v.Space.ID], v, pageID)
			if sectionID != "" {
				u += "#" + sectionID
			}
			return u
		}}, question)
}

// citation is a model's reference to its nth source.
var citation = regexp.MustCompile(`\[(\d{1,3})\]`)

// linkCitations makes a model's citations [n] links to their sources,
// leaving those already links (followed by "(") as they are.
func linkCitations(md string, sources []ask.Source) string {
	var b strings.Builder
	last := 0
	for _, m := range citation.FindAllStringSubmatchIndex(md, -1) {
		n, _ := strconv.Atoi(md[m[2]:m[3]])
		if n < 1 || n > len(sources) || strings.HasPrefix(md[m[1]:], "(") {
			continue
		}
		b.WriteString(md[last:m[0]])
		b.WriteString(`[\[` + md[m[2]:m[3]] + `\]](` + sources[n-1].URL + `)`)
		last = m[1]
	}
	b.WriteString(md[last:])
	return b.String()
}

// answerMarkdown renders answers: GFM within render's bounds, and
// goldmark's safe defaults (raw HTML left out, dangerous link schemes
// dropped), since a model writes what it likes.
var answerMarkdown = goldmark.New(
	goldmark.WithParser(render.NewGFMParser()),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(
		util.Prioritized(extension.NewTableHTMLRenderer(), 500),
		util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
		util.Prioritized(extension.NewTaskCheckBoxHTMLRenderer(), 500),
	)),
)

// answerHTML is an answer's markdown as HTML.
func answerHTML(md string) string {
	var b bytes.Buffer
	if err := answerMarkdown.Convert([]byte(md), &b); err != nil {
		return "<p>" + template.HTMLEscapeString(md) + "</p>"
	}
	return b.String()
}
