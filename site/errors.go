package site

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/web"
)

// errNotFound is the error of a path that leads to nothing this visitor
// sees.
var errNotFound = quire.Errorf(quire.CodeNotFound, "page not found")

// fail answers err as a styled page with the status of its code
// (quire.HTTPStatus) and the words errorPage gives it; a 500 is logged. rq
// is nil when the page may show nothing of the site: it is unknown, or
// refuses this visitor with a 404.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, rq *request, err error) {
	status := quire.ErrorStatus(err)
	if status == http.StatusInternalServerError {
		s.cfg.Logger.Error("published site", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	title, info := errorPage(status, err)
	s.writeError(w, r, rq, title, info)
}

// errorPage is the title and text of the error page of status: the site's
// own words for 404 (whatever is missing or hidden looks alike), 401 (with
// where to sign in) and 500 (never the cause); err's message for the rest.
func errorPage(status int, err error) (string, errorInfo) {
	switch status {
	case http.StatusNotFound:
		return "Page not found", errorInfo{Status: status, Message: "There is no page here. It may have moved, or the link may be mistyped."}
	case http.StatusUnauthorized:
		return "Sign-in needed", errorInfo{Status: status, Message: "This site is private: sign in to read it.", SignIn: signInURL(err)}
	case http.StatusInternalServerError:
		return "Something went wrong", errorInfo{Status: status, Message: "Something went wrong on our side. Please try again in a moment."}
	}
	text := http.StatusText(status) // "Too Many Requests" titled "Too many requests"
	return text[:1] + strings.ToLower(text[1:]), errorInfo{Status: status, Message: quire.ErrorMessage(err)}
}

// writeError writes an error page; its status is info.Status.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, rq *request, title string, info errorInfo) {
	var d *pageData
	if rq != nil {
		d = s.chrome(rq, nil, nil)
	} else {
		d = &pageData{Lang: "en", SiteTitle: "Quire", Root: "/sites", ThemeScript: web.ThemeScript, Assets: assetURLsOf(s.assets, "/sites"), Favicon: favicon("")}
	}
	d.Title, d.Error, d.NoIndex = title, &info, true
	body, err := execute(d)
	if err != nil {
		s.cfg.Logger.Error("published site: error page", "err", err)
		http.Error(w, title, info.Status)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Content-Security-Policy", pageCSP)
	w.WriteHeader(info.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// failJSON answers err of a JSON endpoint (search, ask) in the API's error
// shape, with the status of its code; a 500 is logged and tells the client
// only "internal error". Work that ran out of its time is 503; a client
// that left is answered nothing.
func (s *Server) failJSON(w http.ResponseWriter, r *http.Request, err error) {
	status := quire.ErrorStatus(err)
	if status == http.StatusInternalServerError {
		switch {
		case r.Context().Err() != nil: // nobody reads the answer
			return
		case errors.Is(err, context.DeadlineExceeded):
			w.Header().Set("Retry-After", "1")
			writeJSONError(w, http.StatusServiceUnavailable, "took too long; try again")
			return
		}
		s.cfg.Logger.Error("published site", "path", r.URL.Path, "err", err)
	}
	writeJSONError(w, status, quire.ErrorMessage(err))
}

// writeJSONError answers status and message in the API's error shape.
func writeJSONError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_ = web.WriteJSONError(w, status, message)
}

// allowMethods refuses a request whose method is not one of methods: 405,
// with Allow.
func allowMethods(w http.ResponseWriter, r *http.Request, methods ...string) error {
	if slices.Contains(methods, r.Method) {
		return nil
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	return quire.Errorf(quire.CodeMethodNotAllowed, "method not allowed")
}
