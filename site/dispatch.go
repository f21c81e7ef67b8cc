package site

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
)

// dispatch serves an admitted request by the shape of its path.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, rq *request) {
	switch rq.rest {
	case "~search":
		s.serveSearch(w, r, rq)
		return
	case "~ask":
		s.serveAsk(w, r, rq)
		return
	case "~mcp":
		s.serveMCP(w, r, rq)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	path, asMarkdown := strings.CutSuffix(rq.rest, ".md")
	loc, ok := rq.locate(path)
	if !ok {
		s.fail(w, r, rq, quire.Errorf(quire.CodeNotFound, "page not found"))
		return
	}
	v, err := s.open(r, loc.siteSpace)
	if err != nil {
		s.fail(w, r, rq, err)
		return
	}
	id, ok := pageAt(v, loc.pagePath)
	if !ok {
		s.fail(w, r, rq, quire.Errorf(quire.CodeNotFound, "page not found"))
		return
	}
	p := v.Page(id)
	if asMarkdown {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		_, _ = w.Write([]byte("# " + p.Title + "\n\n" + p.Markdown))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate.Execute(w, map[string]string{"Site": rq.site.Title, "Title": p.Title, "Markdown": p.Markdown})
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} - {{.Site}}</title></head>
<body><main><h1>{{.Title}}</h1><pre>{{.Markdown}}</pre></main></body></html>
`))

// open reads the current revision of the space that ss publishes.
func (s *Server) open(r *http.Request, ss *quire.SiteSpace) (*revision.View, error) {
	return s.cfg.Reader.Open(r.Context(), ss.Space, ss.Space.RevisionID, nil)
}

// pageAt finds the page at path of v: "" is its first document page.
func pageAt(v *revision.View, path string) (string, bool) {
	if path != "" {
		return v.PageAt(path)
	}
	var first func(ids []string) (string, bool)
	first = func(ids []string) (string, bool) {
		for _, id := range ids {
			p := v.Page(id)
			if p.Hidden {
				continue
			}
			if p.Kind != content.KindGroup {
				return id, true
			}
			if id, ok := first(p.Children); ok {
				return id, true
			}
		}
		return "", false
	}
	return first(v.Tree.Root)
}

// fail answers err: a missing or refused site or page is 404, anything
// else 500 (logged).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, rq *request, err error) {
	if err != nil && quire.ErrorCode(err) == quire.CodeInternal {
		s.cfg.Logger.Error("published site", "path", r.URL.Path, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	http.Error(w, "page not found", http.StatusNotFound)
}
