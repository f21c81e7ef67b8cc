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

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Fetcher gets a URL's body, up to max bytes, and its content type.
// outbound.Fetcher is one: it refuses private addresses.
type Fetcher interface {
	Get(ctx context.Context, url string, max int64) ([]byte, string, error)
}

// MaxPageBytes bounds one fetched web page.
const MaxPageBytes = 5 << 20

// Page is an imported page: a batch ref, the ref of its parent ("" at the
// top), its title and its markdown body, whose links to other imported
// pages are written ./<ref>.md.
type Page struct {
	URL, Ref, Parent, Title, Markdown string
}

// Result is what a website import found: the pages imported, in reading
// order, and how many pages it found in all (beyond the limit too).
type Result struct {
	Pages []Page
	Found int
}

// fetched is a page read by the crawl.
type fetched struct {
	url   *url.URL
	doc   *html.Node
	title string
	links []*url.URL // every page it links to, navigation included
}

// Website imports up to max pages of a website: the page at start and the
// pages it leads to, breadth first, on the same host and under the start
// page's folder. Pages that are not HTML, or fail to load, are skipped;
// the start page must load.
func Website(ctx context.Context, f Fetcher, start string, max int) (*Result, error) {
	base, err := url.Parse(start)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, errors.New("must be an http(s) URL")
	}
	base.Fragment = ""
	if base.Path == "" {
		base.Path = "/"
	}
	scope := path.Dir(base.Path + "x") // the start page's folder
	if !strings.HasSuffix(scope, "/") {
		scope += "/"
	}
	inScope := func(u *url.URL) bool {
		return u.Scheme == base.Scheme && u.Host == base.Host && strings.HasPrefix(u.Path+"/", scope)
	}
	seen := map[string]bool{key(base): true}
	queue := []*url.URL{base}
	var pages []*fetched
	for len(queue) > 0 && len(pages) < max {
		u := queue[0]
		queue = queue[1:]
		p, err := fetch(ctx, f, u)
		if err != nil {
			if len(pages) == 0 && u == base {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		pages = append(pages, p)
		for _, link := range p.links {
			if k := key(link); !seen[k] && inScope(link) {
				seen[k] = true
				queue = append(queue, link)
			}
		}
	}
	refs := map[string]string{}
	for i, p := range pages {
		refs[key(p.url)] = "page-" + strconv.Itoa(i+1)
	}
	res := &Result{Found: len(pages) + len(queue)}
	for _, p := range pages {
		md, err := convert(p, refs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.url, err)
		}
		res.Pages = append(res.Pages, Page{URL: p.url.String(), Ref: refs[key(p.url)], Parent: parent(p.url, pages[0].url, refs),
			Title: p.title, Markdown: md})
	}
	// Parents before their children, as a batch inserts them.
	depth := map[string]int{}
	for _, p := range res.Pages {
		depth[p.Ref] = strings.Count(strings.TrimSuffix(p.URL, "/"), "/")
	}
	slices.SortStableFunc(res.Pages, func(a, b Page) int { return depth[a.Ref] - depth[b.Ref] })
	return res, nil
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

// fetch loads and parses one HTML page.
func fetch(ctx context.Context, f Fetcher, u *url.URL) (*fetched, error) {
	body, contentType, err := f.Get(ctx, u.String(), MaxPageBytes)
	if err != nil {
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(contentType); mt != "text/html" && mt != "application/xhtml+xml" {
		return nil, fmt.Errorf("%s is %s, not an HTML page", u, contentType)
	}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	p := &fetched{url: u, doc: doc, links: links(doc, u)}
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
	return p, nil
}

// links are the pages a document links to, resolved against its URL.
func links(doc *html.Node, base *url.URL) []*url.URL {
	var out []*url.URL
	walk(doc, func(n *html.Node) {
		if n.DataAtom != atom.A {
			return
		}
		if u, err := base.Parse(attr(n, "href")); err == nil && attr(n, "href") != "" {
			u.Fragment = ""
			out = append(out, u)
		}
	})
	return out
}

// convert writes a page's main content as markdown: links to imported
// pages become ./<ref>.md, other links and images absolute URLs.
func convert(p *fetched, refs map[string]string) (string, error) {
	main := mainContent(p.doc)
	walk(main, func(n *html.Node) {
		for i, a := range n.Attr {
			if (a.Key != "href" || n.DataAtom != atom.A) && (a.Key != "src" || n.DataAtom != atom.Img) {
				continue
			}
			u, err := p.url.Parse(strings.TrimSpace(a.Val))
			if err != nil || a.Val == "" || strings.HasPrefix(a.Val, "#") {
				continue
			}
			if ref, ok := refs[key(u)]; ok && a.Key == "href" {
				n.Attr[i].Val = "./" + ref + ".md"
			} else {
				n.Attr[i].Val = u.String()
			}
		}
	})
	md, err := htmltomarkdown.ConvertNode(main)
	return strings.TrimSpace(string(md)) + "\n", err
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
