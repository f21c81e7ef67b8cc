package site

import (
	"bytes"
	"embed"
	"html/template"
	"net/url"

	"github.com/quiredocs/quire/web"
)

//go:embed templates/*.html
var templateFiles embed.FS

// templates are the layout, page and error templates, parsed once.
var templates = template.Must(template.New("").Funcs(template.FuncMap{"sidebar": sidebarHTML}).ParseFS(templateFiles, "templates/*.html"))

// pageCSP is the Content-Security-Policy of every HTML page: scripts and
// styles only from the binary, images from anywhere pages link them.
var pageCSP = "default-src 'self'; script-src 'self' " + web.ThemeScriptHash +
	"; style-src 'self' 'unsafe-inline'; img-src * data:; media-src *; connect-src 'self'; " +
	"frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'self'"

// link is a titled URL of the layout.
type link struct {
	Title   string
	URL     string
	Current bool
}

// tab is a section tab, or a section group's menu of tabs (Items).
type tab struct {
	link
	Items []link
}

// navItem is one entry of the sidebar page tree.
type navItem struct {
	link
	Emoji      string
	Group      bool // a group page: a heading, not a link
	Expandable bool // has children not shown (collapsed)
	Open       bool // on the path to the current page
	Children   []navItem
}

// heading is an entry of the on-page table of contents.
type heading struct {
	Level int
	ID    string
	Text  string
}

// errorInfo is what an error page says.
type errorInfo struct {
	Status  int
	Message string
	SignIn  string // where to sign in (401), "" for none
}

// assetURLs are the versioned URLs of the embedded CSS and JavaScript.
type assetURLs struct{ CSS, JS string }

// pageData is everything the layout shows.
type pageData struct {
	Lang, SiteTitle, Emoji string
	Look                   look   // the site's customization
	Root                   string // the site's root path as reached, without the final slash
	Home                   string // the site's home page
	Favicon                template.URL
	ThemeScript            template.JS
	Assets                 assetURLs
	Searchable, Rail       bool

	Title, Description, Canonical string
	NoIndex                       bool
	Markdown                      string // the page's .md URL
	PageEmoji                     string

	Tabs        []tab
	Variants    []link
	Sidebar     []navItem
	Breadcrumbs []link
	TOC         []heading
	Prev, Next  *link
	Body        template.HTML
	Updated     string
	UpdatedISO  string
	Error       *errorInfo
}

// execute renders d with the layout.
func execute(d *pageData) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(16 << 10)
	if err := templates.ExecuteTemplate(&b, "layout", d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// favicon is an SVG of emoji, or a plain page glyph without one.
func favicon(emoji string) template.URL {
	if emoji == "" {
		emoji = "📘"
	}
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">` +
		template.HTMLEscapeString(emoji) + `</text></svg>`
	return template.URL("data:image/svg+xml," + url.PathEscape(svg))
}
