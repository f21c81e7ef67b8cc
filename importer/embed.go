package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"mime"
	"net/url"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/quiredocs/quire/outbound"
)

// What a URL shows embedded in a page (the reference's Embed), read as link
// unfurlers read it: the page's oEmbed discovery link first, then its Open
// Graph tags, then its <title>. GitBook's renderer writes a rich embed's
// html into the published page as it is, so Quire never passes on HTML it
// was given: a rich embed is an iframe (or an image) that Quire writes
// itself, from the https address an oEmbed provider names.

// PageFetcher reads web pages, or their start; outbound.Fetcher is one.
type PageFetcher interface {
	Fetcher
	GetStart(ctx context.Context, url string, max int64) (*outbound.Page, error)
}

const (
	// MaxEmbedPageBytes is how much of a page is read for what its head
	// says: the rest is not fetched.
	MaxEmbedPageBytes = 512 << 10
	// maxOEmbedBytes bounds an oEmbed provider's answer.
	maxOEmbedBytes = 64 << 10
	// maxEmbedText bounds an embed's title and site name, in characters.
	maxEmbedText = 256
	// maxEmbedSide bounds an embedded frame's width and height, in pixels.
	maxEmbedSide = 4096
)

// Embed is how a URL is shown embedded: Type "link", a card with Title,
// Site and Icon (an absolute http(s) URL, "" for none), or "rich", with
// HTML to show too.
type Embed struct {
	Type, Title, Site, Icon, HTML string
}

// LinkEmbed is u shown as a plain link: what an embed is when nothing
// better is known of it.
func LinkEmbed(u *url.URL) Embed {
	return Embed{Type: "link", Title: truncate(u.String(), maxEmbedText), Site: u.Hostname()}
}

// ReadEmbed fetches u through f and reads how to embed it. ctx bounds the
// whole of it, the oEmbed provider's answer included. When the page cannot
// be read, the error says why and the embed is LinkEmbed's.
func ReadEmbed(ctx context.Context, f PageFetcher, u *url.URL) (Embed, error) {
	e := LinkEmbed(u)
	p, err := f.GetStart(ctx, u.String(), MaxEmbedPageBytes)
	if err != nil {
		return e, err
	}
	mt, _, _ := mime.ParseMediaType(p.ContentType)
	if strings.HasPrefix(mt, "image/") && p.URL.Scheme == "https" {
		e.Type, e.HTML = "rich", imageHTML(p.URL.String(), e.Title)
		return e, nil
	}
	if mt != "text/html" && mt != "application/xhtml+xml" {
		return e, nil
	}
	h := ReadHead(p.Body, p.ContentType, p.URL)
	e.Title = firstOf(h.Title, e.Title)
	e.Site = firstOf(h.SiteName, e.Site)
	e.Icon = h.Icon
	if h.OEmbed == "" {
		return e, nil
	}
	body, _, err := f.Get(ctx, h.OEmbed, maxOEmbedBytes)
	if err != nil {
		return e, nil // the page's own head still says enough
	}
	o, ok := ParseOEmbed(body)
	if !ok {
		return e, nil
	}
	e.Title = firstOf(o.Title, e.Title)
	e.Site = firstOf(o.Provider, e.Site)
	if o.HTML != "" {
		e.Type = "rich"
		e.HTML = o.HTML
	}
	return e, nil
}

// firstOf is the first of values that is not blank, cleaned and cut to
// maxEmbedText characters.
func firstOf(values ...string) string {
	for _, v := range values {
		if v = strings.Join(strings.Fields(plain(v, false)), " "); v != "" {
			return truncate(v, maxEmbedText)
		}
	}
	return ""
}

// Head is what a page's head says of it: its title (Open Graph's, else
// Twitter's, else <title>), its site's name, its icon and its oEmbed
// discovery link (both absolute http(s) URLs, "" for none).
type Head struct {
	Title, SiteName, Icon, OEmbed string
}

// ReadHead reads the head of an HTML page, or of its start, in the charset
// contentType or the page declares, its relative links resolved against
// base (where the page was read from).
func ReadHead(body []byte, contentType string, base *url.URL) Head {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		r = bytes.NewReader(body)
	}
	doc, err := xhtml.Parse(r)
	if err != nil {
		return Head{}
	}
	var h Head
	var title, ogTitle, twitterTitle string
	walk(doc, func(n *xhtml.Node) {
		switch n.DataAtom {
		case atom.Title:
			if title == "" && (n.Parent == nil || n.Parent.DataAtom != atom.Svg) {
				title = textOf(n)
			}
		case atom.Meta:
			content := attr(n, "content")
			switch strings.ToLower(cmpOr(attr(n, "property"), attr(n, "name"))) {
			case "og:title":
				ogTitle = cmpOr(ogTitle, content)
			case "twitter:title":
				twitterTitle = cmpOr(twitterTitle, content)
			case "og:site_name":
				h.SiteName = cmpOr(h.SiteName, content)
			}
		case atom.Link:
			rel := " " + strings.ToLower(strings.Join(strings.Fields(attr(n, "rel")), " ")) + " "
			switch {
			case h.Icon == "" && (strings.Contains(rel, " icon ") || strings.Contains(rel, " apple-touch-icon ")):
				h.Icon = absolute(base, attr(n, "href"))
			case h.OEmbed == "" && strings.Contains(rel, " alternate ") && strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/json+oembed"):
				h.OEmbed = absolute(base, attr(n, "href"))
			}
		}
	})
	h.Title = firstOf(ogTitle, twitterTitle, title)
	h.SiteName = firstOf(h.SiteName)
	return h
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// absolute is ref resolved against base when that is an http(s) URL, else "".
func absolute(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

// OEmbed is what Quire takes of an oEmbed provider's answer: its title, its
// provider's name, and HTML that Quire wrote (FrameHTML, imageHTML) from
// the https address of the frame (video, rich) or photo (photo) it names;
// "" when it names none.
type OEmbed struct {
	Title, Provider, HTML string
}

// ParseOEmbed reads an oEmbed provider's JSON answer; ok is false when it
// is not one.
func ParseOEmbed(body []byte) (o OEmbed, ok bool) {
	var raw struct {
		Type         string `json:"type"`
		Title        any    `json:"title"`
		ProviderName any    `json:"provider_name"`
		HTML         any    `json:"html"`
		URL          any    `json:"url"`
		Width        any    `json:"width"`
		Height       any    `json:"height"`
	}
	if json.Unmarshal(body, &raw) != nil || raw.Type == "" {
		return OEmbed{}, false
	}
	o.Title, o.Provider = firstOf(str(raw.Title)), firstOf(str(raw.ProviderName))
	switch raw.Type {
	case "video", "rich":
		if src, w, h := frameOf(str(raw.HTML)); src != "" {
			o.HTML = FrameHTML(src, o.Title, cmpInt(w, side(raw.Width)), cmpInt(h, side(raw.Height)))
		}
	case "photo":
		if u, err := url.Parse(str(raw.URL)); err == nil && u.Scheme == "https" && u.Host != "" {
			o.HTML = imageHTML(u.String(), o.Title)
		}
	}
	return o, true
}

// str is v when it is a string, else "".
func str(v any) string {
	s, _ := v.(string)
	return s
}

// side is v as a frame's side in pixels when it is one (a number or a
// numeral, as providers write either), else 0.
func side(v any) int {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case string:
		f, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
	}
	if f < 1 || f > maxEmbedSide {
		return 0
	}
	return int(f)
}

func cmpInt(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// frameOf is the https address and the size of the first iframe of an
// oEmbed answer's HTML; "" when it has none.
func frameOf(fragment string) (src string, w, h int) {
	if fragment == "" || len(fragment) > maxOEmbedBytes {
		return "", 0, 0
	}
	nodes, err := xhtml.ParseFragment(strings.NewReader(fragment), &xhtml.Node{Type: xhtml.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return "", 0, 0
	}
	for _, n := range nodes {
		if f := find(n, atom.Iframe); f != nil {
			u, err := url.Parse(strings.TrimSpace(attr(f, "src")))
			if err != nil || u.Scheme != "https" || u.Host == "" {
				return "", 0, 0
			}
			return u.String(), side(attr(f, "width")), side(attr(f, "height"))
		}
	}
	return "", 0, 0
}

// FrameHTML is the iframe Quire embeds src in: sandboxed (it may run its
// scripts as its own origin, never navigate the page holding it), lazy,
// without the page's address as referrer beyond its origin; 16:9 at 640
// pixels wide when its size is not known.
func FrameHTML(src, title string, w, h int) string {
	if w == 0 || h == 0 {
		w, h = 640, 360
	}
	return fmt.Sprintf(`<iframe src="%s" title="%s" width="%d" height="%d" style="border:0;max-width:100%%" loading="lazy" allowfullscreen `+
		`sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" referrerpolicy="strict-origin-when-cross-origin"></iframe>`,
		html.EscapeString(src), html.EscapeString(title), w, h)
}

// imageHTML shows the image at src.
func imageHTML(src, alt string) string {
	return fmt.Sprintf(`<img src="%s" alt="%s" style="max-width:100%%" loading="lazy" referrerpolicy="strict-origin-when-cross-origin">`,
		html.EscapeString(src), html.EscapeString(alt))
}
