package site

import (
	"encoding/json"
	"html/template"
	"regexp"
	"strings"

	"github.com/quiredocs/quire"
)

// look is what a published site shows of its customization (PUT
// SITE/customization, the reference's SiteCustomizationSettings): its
// title, theme, primary colour, default theme mode, logo, and header and
// footer links. Links to URLs show; links to content (pages, spaces, …)
// need resolving that the published site does not do yet, and are left out.
type look struct {
	Title        string
	Theme        string // clean, muted, bold or gradient: a class of the page
	Style        template.CSS
	DefaultMode  string // light or dark: the theme before the visitor picks one; "" follows the system
	Fixed        bool   // the visitor may not switch themes
	Logo         *themedURL
	HeaderLinks  []headerLink
	FooterGroups []footerGroup
	Copyright    string
}

type themedURL struct{ Light, Dark string }

type headerLink struct {
	link
	Button bool // style button-primary or button-secondary
	Links  []link
}

type footerGroup struct {
	Title string
	Links []link
}

// customization is the part of the settings the site reads.
type customization struct {
	Title   *string `json:"title"`
	Styling struct {
		Theme        string `json:"theme"`
		PrimaryColor *struct {
			Light string `json:"light"`
			Dark  string `json:"dark"`
		} `json:"primaryColor"`
	} `json:"styling"`
	Header struct {
		Logo  *themedURLJSON `json:"logo"`
		Links []struct {
			Title string          `json:"title"`
			Style string          `json:"style"`
			To    *contentRefJSON `json:"to"`
			Links []linkJSON      `json:"links"`
		} `json:"links"`
	} `json:"header"`
	Footer struct {
		Groups []struct {
			Title string     `json:"title"`
			Links []linkJSON `json:"links"`
		} `json:"groups"`
		Copyright string `json:"copyright"`
	} `json:"footer"`
	Themes *struct {
		Default   string `json:"default"`
		Toggeable bool   `json:"toggeable"`
	} `json:"themes"`
}

type themedURLJSON struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

type contentRefJSON struct {
	Kind string `json:"kind"`
	URL  string `json:"url"`
}

type linkJSON struct {
	Title string         `json:"title"`
	To    contentRefJSON `json:"to"`
}

// safeColor is a CSS hex colour, as the reference's Color allows: nothing
// else goes into the page's style.
var safeColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}){1,2}$`)

// safeURL keeps the http(s) URLs of links and logos; others show nothing.
func safeURL(u string) string {
	if l := strings.ToLower(u); strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") {
		return u
	}
	return ""
}

func (r contentRefJSON) url() string {
	if r.Kind != "url" {
		return ""
	}
	return safeURL(r.URL)
}

func siteSpaceCustomization(ss *quire.SiteSpace) json.RawMessage {
	if ss == nil {
		return nil
	}
	return ss.Customization
}

func linksOf(in []linkJSON) []link {
	var out []link
	for _, l := range in {
		if u := l.To.url(); u != "" && l.Title != "" {
			out = append(out, link{Title: l.Title, URL: u})
		}
	}
	return out
}

// lookOf reads site's customization with the overrides of site space ss
// (nil for none); a site without one looks as default.
func lookOf(site *quire.Site, ss *quire.SiteSpace) look {
	lk := look{Title: site.Title, Theme: "clean"}
	var c customization
	// Both were validated when set; the overrides, decoded onto the site's
	// settings, replace the fields they name and keep the others.
	for _, raw := range []json.RawMessage{site.Customization, siteSpaceCustomization(ss)} {
		if raw != nil {
			_ = json.Unmarshal(raw, &c)
		}
	}
	if c.Title != nil && *c.Title != "" {
		lk.Title = *c.Title
	}
	switch c.Styling.Theme {
	case "muted", "bold", "gradient":
		lk.Theme = c.Styling.Theme
	}
	if p := c.Styling.PrimaryColor; p != nil && safeColor.MatchString(p.Light) && safeColor.MatchString(p.Dark) {
		lk.Style = template.CSS(":root{--accent:" + p.Light + "}[data-theme=\"dark\"]{--accent:" + p.Dark + "}")
	}
	if t := c.Themes; t != nil {
		if t.Default == "light" || t.Default == "dark" {
			lk.DefaultMode = t.Default
		}
		lk.Fixed = !t.Toggeable
	}
	if l := c.Header.Logo; l != nil && safeURL(l.Light) != "" {
		lk.Logo = &themedURL{Light: safeURL(l.Light), Dark: safeURL(l.Dark)}
		if lk.Logo.Dark == "" {
			lk.Logo.Dark = lk.Logo.Light
		}
	}
	for _, h := range c.Header.Links {
		hl := headerLink{link: link{Title: h.Title}, Button: strings.HasPrefix(h.Style, "button-"), Links: linksOf(h.Links)}
		if h.To != nil {
			hl.URL = h.To.url()
		}
		if h.Title != "" && (hl.URL != "" || len(hl.Links) > 0) {
			lk.HeaderLinks = append(lk.HeaderLinks, hl)
		}
	}
	for _, g := range c.Footer.Groups {
		if links := linksOf(g.Links); len(links) > 0 {
			lk.FooterGroups = append(lk.FooterGroups, footerGroup{Title: g.Title, Links: links})
		}
	}
	lk.Copyright = c.Footer.Copyright
	return lk
}
