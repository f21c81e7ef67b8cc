// Package importer reads content from outside into pages: a website's pages
// become markdown pages, their links to each other links between the pages.
package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/render"
)

// Fetcher gets a URL's body, up to max bytes, and its content type.
// outbound.Fetcher is one: it refuses private addresses.
type Fetcher interface {
	Get(ctx context.Context, url string, max int64) ([]byte, string, error)
}

// MaxPageBytes bounds one fetched web page.
const MaxPageBytes = 5 << 20

// MaxFound bounds the pages an import keeps track of: those it imported
// and those it found links to. Beyond, links are not followed, or counted.
const MaxFound = 10000

// maxTitle bounds a page's title, in characters, as edit.MaxTitle does.
const maxTitle = 256

// Limits bound a website import. A zero field is no bound.
type Limits struct {
	Pages int   // pages imported; the crawl stops there
	Bytes int64 // every response fetched, together; beyond is ErrTooLarge
	// Markdown bounds the markdown of one page (its links to other pages
	// counted at their longest); a page converting to more is skipped.
	Markdown int
}

// ErrTooLarge is returned when the pages of a website come to more than
// Limits.Bytes: nothing is imported.
var ErrTooLarge = errors.New("the pages fetched come to more than the import's byte limit")

// Page is an imported page: a batch ref, the ref of its parent ("" at the
// top), its title and its markdown body, whose links to other imported
// pages are written ./<ref>.md.
type Page struct {
	URL, Ref, Parent, Title, Markdown string
}

// Result is what a website import found: the pages imported, in reading
// order, and how many pages it found in all (beyond the limit too, up to
// MaxFound).
type Result struct {
	Pages []Page
	Found int
}

// fetched is a page read by the crawl, already converted: its markdown
// links to other pages of the site by absolute URL until the pages
// imported are known.
type fetched struct {
	url      *url.URL
	title    string
	markdown string
	links    []string // the URLs of pages of the site it links to, once each
}

// crawl is the state of one import.
type crawl struct {
	f      Fetcher
	lim    Limits
	base   *url.URL
	scope  string // the start page's folder
	seen   map[string]bool
	queue  []*url.URL
	used   int64 // bytes fetched
	refLen int   // the longest ./<ref>.md a link may become
}

// Website imports the pages of a website: the page at start and the pages
// it leads to, breadth first, on the same host and under the start page's
// folder, within lim. Each page is converted to markdown as soon as it is
// fetched and its HTML dropped, so an import holds one page's HTML at a
// time. Pages that are not HTML, fail to load or convert to too much
// markdown are skipped; the start page must load. An import whose pages
// come to more than lim.Bytes fails with ErrTooLarge; one that outlives ctx
// fails with ctx's error.
func Website(ctx context.Context, f Fetcher, start string, lim Limits) (*Result, error) {
	base, err := url.Parse(start)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, errors.New("must be an http(s) URL")
	}
	base.Fragment = ""
	if base.Path == "" {
		base.Path = "/"
	}
	scope := path.Dir(base.Path + "x")
	if !strings.HasSuffix(scope, "/") {
		scope += "/"
	}
	c := &crawl{f: f, lim: lim, base: base, scope: scope, seen: map[string]bool{key(base): true}, queue: []*url.URL{base},
		refLen: len("./page-.md") + len(strconv.Itoa(max(lim.Pages, MaxFound)))}
	var pages []*fetched
	for len(c.queue) > 0 && (lim.Pages <= 0 || len(pages) < lim.Pages) {
		u := c.queue[0]
		c.queue = c.queue[1:]
		p, err := c.fetch(ctx, u)
		if errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if len(pages) == 0 && u == base {
				return nil, err
			}
			continue
		}
		pages = append(pages, p)
	}
	refs := map[string]string{}
	for i, p := range pages {
		refs[key(p.url)] = "page-" + strconv.Itoa(i+1)
	}
	res := &Result{Found: len(pages) + len(c.queue)}
	for _, p := range pages {
		res.Pages = append(res.Pages, Page{URL: p.url.String(), Ref: refs[key(p.url)], Parent: parent(p.url, pages[0].url, refs),
			Title: p.title, Markdown: linkPages(p, refs)})
	}
	// Parents before their children, as a batch inserts them.
	depth := map[string]int{}
	for _, p := range res.Pages {
		depth[p.Ref] = strings.Count(strings.TrimSuffix(p.URL, "/"), "/")
	}
	slices.SortStableFunc(res.Pages, func(a, b Page) int { return depth[a.Ref] - depth[b.Ref] })
	return res, nil
}

func (c *crawl) inScope(u *url.URL) bool {
	return u.Scheme == c.base.Scheme && u.Host == c.base.Host && strings.HasPrefix(u.Path+"/", c.scope)
}

// linkPages rewrites the links of a page's markdown to imported pages as
// ./<ref>.md.
func linkPages(p *fetched, refs map[string]string) string {
	repl := map[string]string{}
	for _, link := range p.links {
		if u, err := url.Parse(link); err == nil {
			if ref, ok := refs[key(u)]; ok {
				repl[link] = "./" + ref + ".md"
			}
		}
	}
	return render.RewriteLinks(p.markdown, repl)
}

// key identifies a page by its URL without fragment and trailing slash.
func key(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	c.Path = strings.TrimSuffix(c.Path, "/")
	c.RawPath = ""
	return c.String()
}

// parent is the ref of the imported page whose path is the nearest folder
// above u's, the start page aside (it stands beside the others).
func parent(u, start *url.URL, refs map[string]string) string {
	p := strings.TrimSuffix(u.Path, "/")
	for p != "" && p != "/" {
		p = path.Dir(p)
		c := *u
		c.Path, c.RawQuery = p, ""
		if ref, ok := refs[key(&c)]; ok && key(&c) != key(start) {
			return ref
		}
	}
	return ""
}

// fetch loads one HTML page within the import's byte limit, queues the
// pages it links to and converts it to markdown.
func (c *crawl) fetch(ctx context.Context, u *url.URL) (*fetched, error) {
	limit := int64(MaxPageBytes)
	budgeted := c.lim.Bytes > 0 && c.lim.Bytes-c.used < limit
	if budgeted {
		limit = max(0, c.lim.Bytes-c.used)
	}
	body, contentType, err := c.f.Get(ctx, u.String(), limit)
	if err != nil {
		if fe, ok := errors.AsType[*outbound.Error](err); ok && fe.Code == outbound.CodeTooLarge {
			if budgeted {
				return nil, ErrTooLarge
			}
			c.used += limit // read, then dropped
		}
		return nil, err
	}
	c.used += int64(len(body))
	if mt, _, _ := mime.ParseMediaType(contentType); mt != "text/html" && mt != "application/xhtml+xml" {
		return nil, fmt.Errorf("%s is %s, not an HTML page", u, contentType)
	}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	body = nil
	c.follow(doc, u)
	p := &fetched{url: u}
	main := mainContent(doc)
	if h1 := find(main, atom.H1); h1 != nil {
		p.title = textOf(h1)
		h1.Parent.RemoveChild(h1) // the title is the page's own field
	} else if t := find(doc, atom.Title); t != nil {
		p.title = textOf(t)
	}
	if p.title == "" {
		p.title = path.Base(u.Path)
	}
	p.title = truncate(plain(p.title, false), maxTitle)
	if p.markdown, p.links, err = c.convert(main, u); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	p.markdown = plain(p.markdown, true)
	return p, nil
}

// follow queues the pages in scope a document links to, navigation
// included, up to MaxFound pages in all.
func (c *crawl) follow(doc *html.Node, base *url.URL) {
	walk(doc, func(n *html.Node) {
		if n.DataAtom != atom.A || len(c.seen) >= MaxFound {
			return
		}
		href := attr(n, "href")
		u, err := base.Parse(href)
		if err != nil || href == "" {
			return
		}
		u.Fragment, u.RawFragment = "", ""
		if k := key(u); !c.seen[k] && c.inScope(u) {
			c.seen[k] = true
			c.queue = append(c.queue, u)
		}
	})
}

// convert writes a page's main content as markdown, links and images as
// absolute URLs, and lists its links to pages of the site, which linkPages
// rewrites once the pages imported are known. Markdown longer than the
// limit, counting each link to a page of the site at its longest, is an
// error.
func (c *crawl) convert(main *html.Node, base *url.URL) (string, []string, error) {
	grow := 0
	var links []string
	listed := map[string]bool{}
	walk(main, func(n *html.Node) {
		for i, a := range n.Attr {
			if (a.Key != "href" || n.DataAtom != atom.A) && (a.Key != "src" || n.DataAtom != atom.Img) {
				continue
			}
			u, err := base.Parse(strings.TrimSpace(a.Val))
			if err != nil || a.Val == "" || strings.HasPrefix(a.Val, "#") {
				continue
			}
			link := u.String()
			n.Attr[i].Val = link
			if a.Key == "href" && c.inScope(u) {
				grow += max(0, c.refLen-len(link))
				if !listed[link] {
					listed[link] = true
					links = append(links, link)
				}
			}
		}
	})
	md, err := htmltomarkdown.ConvertNode(main)
	if err != nil {
		return "", nil, err
	}
	out := strings.TrimSpace(string(md)) + "\n"
	if c.lim.Markdown > 0 && len(out)+grow > c.lim.Markdown {
		return "", nil, fmt.Errorf("the page converts to more than %d bytes of markdown", c.lim.Markdown)
	}
	return out, links, nil
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// plain is s as valid UTF-8 without the control characters that pages
// refuse (quire.CheckChars): a form feed or a stray byte in someone's HTML
// must not fail the whole import. Line breaks stay in multi-line text;
// in a title they become spaces.
func plain(s string, multiline bool) string {
	return strings.Map(func(r rune) rune {
		switch {
		case multiline && (r == '\t' || r == '\n' || r == '\r'):
			return r
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// dropped are elements that are not a page's content.
var dropped = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Nav: true, atom.Header: true, atom.Footer: true,
	atom.Aside: true, atom.Form: true, atom.Noscript: true, atom.Iframe: true, atom.Template: true, atom.Svg: true}

// mainContent is the element holding a page's content (main, article or
// role=main, else body), without navigation, scripts and the like. It is
// cleaned in place, once.
func mainContent(doc *html.Node) *html.Node {
	main := find(doc, atom.Main)
	if main == nil {
		main = findFunc(doc, func(n *html.Node) bool { return attr(n, "role") == "main" })
	}
	if main == nil {
		main = find(doc, atom.Article)
	}
	if main == nil {
		main = find(doc, atom.Body)
	}
	if main == nil {
		main = doc
	}
	var drop []*html.Node
	walk(main, func(n *html.Node) {
		if n != main && dropped[n.DataAtom] {
			drop = append(drop, n)
		}
	})
	for _, n := range drop {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	return main
}

func walk(n *html.Node, fn func(*html.Node)) {
	if n.Type == html.ElementNode {
		fn(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func find(n *html.Node, a atom.Atom) *html.Node {
	return findFunc(n, func(n *html.Node) bool { return n.DataAtom == a })
}

func findFunc(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if found := findFunc(c, match); found != nil {
			return found
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var collect func(*html.Node)
	collect = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			collect(c)
		}
	}
	collect(n)
	return strings.Join(strings.Fields(b.String()), " ")
}
