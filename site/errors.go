package site

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/web"
)

// fail answers err as a styled page: 404 for what is missing or not
// visible to this visitor, 401 when the site needs its visitor to sign in,
// 500 (logged, the cause never shown) for anything else. rq is nil when
// the site itself is unknown.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, rq *request, err error) {
	info := errorInfo{Status: http.StatusNotFound, Message: "There is no page here. It may have moved, or the link may be mistyped."}
	title := "Page not found"
	switch code := quire.ErrorCode(err); {
	case err == nil || code == quire.CodeNotFound:
	case code == quire.CodeUnauthorized:
		info = errorInfo{Status: http.StatusUnauthorized, Message: "This site is private: sign in to read it.", SignIn: signInURL(err)}
		title = "Sign-in needed"
	default:
		s.cfg.Logger.Error("published site", "method", r.Method, "path", r.URL.Path, "err", err)
		info = errorInfo{Status: http.StatusInternalServerError, Message: "Something went wrong on our side. Please try again in a moment."}
		title = "Something went wrong"
	}
	s.writeError(w, r, rq, title, info)
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
