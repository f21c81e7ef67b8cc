package app

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/web"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed assets/app.css assets/app.js assets/editor.css assets/editor.js
var assetFiles embed.FS

// loadAssets returns the app's assets: the base stylesheet it shares with
// the published sites, its own additions and its script.
func loadAssets() web.Assets {
	files := map[string][]byte{"base.css": web.BaseCSS()}
	for _, name := range []string{"app.css", "app.js", "editor.css", "editor.js"} {
		b, err := assetFiles.ReadFile("assets/" + name)
		if err != nil {
			panic(err) // embedded at build time
		}
		files[name] = b
	}
	return web.NewAssets(files)
}

var funcs = template.FuncMap{
	"date": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("Jan 2, 2006 15:04 UTC")
	},
	"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"emoji": render.EmojiText,
}

// pages are the app's page templates, each parsed with the layout.
var pages = func() map[string]*template.Template {
	base := template.Must(template.New("").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html"))
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		panic(err)
	}
	out := map[string]*template.Template{}
	for _, name := range names {
		if name == "templates/layout.html" {
			continue
		}
		t := template.Must(template.Must(base.Clone()).ParseFS(templateFiles, name))
		out[name[len("templates/"):len(name)-len(".html")]] = t
	}
	return out
}()

// pageCSP allows scripts and styles only from the binary (and the theme
// script inline), images from anywhere pages link them.
var pageCSP = "default-src 'self'; script-src 'self' " + web.ThemeScriptHash +
	"; style-src 'self' 'unsafe-inline'; img-src * data:; connect-src 'self'; frame-ancestors 'none'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'"

// view is what the layout shows around a page's own data (Main).
type view struct {
	Title       string
	User        *quire.User
	CSRF        string
	ThemeScript template.JS
	CSS, AppCSS string
	JS          string
	Status      int
	Main        any
}

// render answers the page template name with data as its Main.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name, title string, data any) error {
	v := &view{
		Title: title, User: user(r.Context()), CSRF: s.csrfToken(w, r), ThemeScript: web.ThemeScript,
		CSS: s.assets.URL("/~app", "base.css"), AppCSS: s.assets.URL("/~app", "app.css"), JS: s.assets.URL("/~app", "app.js"),
		Status: status, Main: data,
	}
	var b bytes.Buffer
	if err := pages[name].ExecuteTemplate(&b, "layout", v); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "private, no-store")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	_, err := w.Write(b.Bytes())
	return err
}

// somethingWrong is what the app tells of a 500: never its cause.
const somethingWrong = "Something went wrong on our side. Please try again in a moment."

// errorAnswer is the status and message err is answered with: its code's
// status (quire.HTTPStatus) and its message, or for a 500 a message that
// tells nothing, the cause going to the log.
func (s *Server) errorAnswer(r *http.Request, err error) (int, string) {
	status := quire.ErrorStatus(err)
	if status == http.StatusInternalServerError {
		s.cfg.Logger.Error("app: internal error", "method", r.Method, "path", r.URL.Path, "error", err)
		return status, somethingWrong
	}
	return status, quire.ErrorMessage(err)
}

// writeError answers err with the error page (see errorAnswer); a visitor
// not signed in who is refused a page for that is sent to sign in.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := s.errorAnswer(r, err)
	if status == http.StatusUnauthorized && user(r.Context()) == nil && r.Method == http.MethodGet {
		s.toSignIn(w, r)
		return
	}
	if err := s.render(w, r, status, "error", http.StatusText(status), msg); err != nil {
		s.cfg.Logger.Error("app: error page", "error", err)
	}
}

// serveAsset answers the app's assets at /~app/~assets/{hash}/{name}.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) error {
	if !s.assets.Serve(w, r, r.PathValue("hash")+"/"+r.PathValue("name")) {
		return quire.Errorf(quire.CodeNotFound, "page not found")
	}
	return nil
}
