// Package render turns markdown into HTML and the JSON document form, and
// finds and resolves the links inside it. It does no I/O.
package render

import (
	"bufio"
	"bytes"
	"html"
	"net/url"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/quiredocs/quire/content"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// Link is one link or image destination found in markdown.
type Link struct {
	Target string // the destination, with backslash escapes and entities decoded
	Image  bool   // an image rather than a link
	Line   int    // 1-based source line of the link's opening, 0 when unknown
}

// parser is goldmark's CommonMark parser; it is safe for concurrent use.
var parser = goldmark.New().Parser()

// Links returns every link and image destination of markdown in document
// order: inline and reference-style links and images, and autolinks (an
// email autolink gets the "mailto:" scheme). Code spans and code blocks hold
// no links; neither does raw HTML.
func Links(markdown string) []Link {
	src := []byte(markdown)
	doc := parser.Parse(text.NewReader(src))
	starts := lineStarts(src)
	var links []Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var l Link
		switch n := n.(type) {
		case *ast.Link:
			l.Target = decode(n.Destination)
		case *ast.Image:
			l = Link{Target: decode(n.Destination), Image: true}
		case *ast.AutoLink:
			l.Target = string(n.URL(src))
			if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(l.Target), "mailto:") {
				l.Target = "mailto:" + l.Target
			}
		default:
			return ast.WalkContinue, nil
		}
		l.Line = lineOf(starts, offset(n))
		links = append(links, l)
		return ast.WalkContinue, nil
	})
	return links
}

// decode resolves the backslash escapes and character references of a link
// destination or of text, in one pass as CommonMark does: "\&amp;" is
// "&amp;", "&#38;lt;" is "&lt;", and U+0000 is U+FFFD (§2.3). goldmark's
// HTML writer does that pass and escapes what it writes, so
// html.UnescapeString undoes only that escaping. (On its own
// html.UnescapeString would not do: it knows no backslash escapes and
// reads "&amp" without ";" as a reference.)
func decode(v []byte) string {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	ghtml.DefaultWriter.Write(w, v)
	_ = w.Flush()
	return html.UnescapeString(buf.String())
}

// offset returns n's byte offset in the source: its own position, else the
// first line of the block holding it, else -1.
func offset(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	for b := n.Parent(); b != nil; b = b.Parent() {
		if b.Type() == ast.TypeBlock && b.Lines().Len() > 0 {
			return b.Lines().At(0).Start
		}
	}
	return -1
}

// lineStarts returns the byte offset at which each line of src starts.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the 1-based line holding byte offset off, 0 when off < 0.
func lineOf(starts []int, off int) int {
	if off < 0 {
		return 0
	}
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}

// Resolution kinds and statuses.
const (
	KindPage   = "page"
	KindFile   = "file"
	KindURL    = "url"
	KindAnchor = "anchor"

	StatusOK     = "ok"
	StatusBroken = "broken"
	StatusInApp  = "in-app"
)

// Resolution is what a link target points at.
type Resolution struct {
	Kind   string // KindPage, KindFile, KindURL or KindAnchor
	PageID string // the page, for KindPage when found
	FileID string // the file, for KindFile when found
	URL    string // the URL, for KindURL
	Status string // StatusOK, StatusBroken or StatusInApp
}

// Resolver resolves link targets against a revision's content. Set its
// fields before the first Resolve and do not change them afterwards: the
// indexes built from them are kept. A Resolver is safe for concurrent use.
type Resolver struct {
	Tree  *content.Tree
	Paths map[string]string // page id → Git path, as content.GitPaths returns
	// PathsOf, when Paths is nil, gives Paths on the first resolution that
	// needs them: links by id or ref then cost nothing per page of the tree.
	PathsOf  func() map[string]string
	Files    map[string]string // file id → file name
	Refs     map[string]string // batch ref → page id
	FileRefs map[string]string // batch ref → file id
	AppHost  string            // host of the app itself ("quire.example.com" or with a port); "" for none

	once     sync.Once
	byGit    map[string]string // Git path → page id
	bySlug   map[string]string // slug path ("guides/install") → page id
	slugPath map[string]string // page id → slug path
	parent   map[string]string // page id → parent page id ("" at the top level)
	byName   map[string]string // file name → file id (the smallest id on a tie)
}

func (r *Resolver) index() {
	if r.Paths == nil && r.PathsOf != nil {
		r.Paths = r.PathsOf()
	}
	r.byGit = make(map[string]string, len(r.Paths))
	for id, p := range r.Paths {
		if old, ok := r.byGit[p]; !ok || id < old {
			r.byGit[p] = id
		}
	}
	r.byName = make(map[string]string, len(r.Files))
	for id, name := range r.Files {
		if old, ok := r.byName[name]; !ok || id < old {
			r.byName[name] = id
		}
	}
	r.bySlug = map[string]string{}
	r.slugPath = map[string]string{}
	r.parent = map[string]string{}
	if r.Tree == nil {
		return
	}
	var walk func(dir, parent string, ids []string)
	walk = func(dir, parent string, ids []string) {
		for _, id := range ids {
			p := r.Tree.Pages[id]
			if p == nil {
				continue
			}
			if _, seen := r.slugPath[id]; seen {
				continue // placed twice or in a cycle: keep the first place
			}
			seg := p.Slug
			if seg == "" {
				seg = p.ID
			}
			sp := seg
			if dir != "" {
				sp = dir + "/" + seg
			}
			r.slugPath[id] = sp
			r.parent[id] = parent
			if _, taken := r.bySlug[sp]; !taken { // the first sibling wins
				r.bySlug[sp] = id
			}
			walk(sp, id, p.Children)
		}
	}
	walk("", "", r.Tree.Root)
}

func (r *Resolver) hasPage(id string) bool {
	if r.Tree == nil {
		return false
	}
	p, ok := r.Tree.Pages[id]
	return ok && p != nil
}

func page(id string, ok bool) Resolution {
	if !ok {
		return Resolution{Kind: KindPage, Status: StatusBroken}
	}
	return Resolution{Kind: KindPage, PageID: id, Status: StatusOK}
}

// Resolve says what target, a link destination in the page fromPageID,
// points at. In order:
//   - "#anchor": an anchor in the same page, ok.
//   - an absolute URL ("https://…", "mailto:…", "//host/…"): a URL, in-app
//     when its host is AppHost, else ok (it is not fetched).
//   - "ref:<name>", or a batch ref written bare or as "./<ref>.md" (a page)
//     or "./<ref>" (a file): the batch's page or file.
//   - "/pages/<id>", "/files/<id>": that page or file.
//   - a path ending in ".md": the page with that Git path, from the space
//     root when it starts with "/", else from the linking page's own Git path.
//   - any other path: the page with that path of slugs, from the root when it
//     starts with "/", else from the linking page's parent; failing that, the
//     file with the path's last segment as its name.
//
// A "#fragment" and a "?query" are ignored, and the path is percent-decoded.
// What cannot be resolved is broken, with the kind it looked like.
func (r *Resolver) Resolve(fromPageID, target string) Resolution {
	t := strings.TrimSpace(target)
	if t == "" {
		return Resolution{Kind: KindPage, Status: StatusBroken}
	}
	if strings.HasPrefix(t, "#") {
		return Resolution{Kind: KindAnchor, Status: StatusOK}
	}
	if name, ok := strings.CutPrefix(t, "ref:"); ok {
		id, found := r.Refs[name]
		return page(id, found)
	}
	if HasScheme(t) || strings.HasPrefix(t, "//") {
		return r.external(t)
	}
	if res, ok := r.batchRef(t); ok {
		return res
	}

	p := t
	p, _, _ = strings.Cut(p, "#")
	p, _, _ = strings.Cut(p, "?")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	if p == "" { // "?query" alone: the page itself
		return page(fromPageID, r.hasPage(fromPageID))
	}
	if res, ok := r.resolveID(p); ok {
		return res
	}
	if strings.HasSuffix(strings.ToLower(p), ".md") {
		return r.resolveGitPath(fromPageID, p)
	}
	return r.resolveSlugPath(fromPageID, p)
}

// batchRef resolves a batch ref, bare or written as a relative path: "name",
// "./name.md" for a page, "./name" for a file; ok is false when t is none.
func (r *Resolver) batchRef(t string) (res Resolution, ok bool) {
	refPart, _, _ := strings.Cut(t, "#")
	bare := strings.TrimPrefix(refPart, "./")
	if bare == "" || strings.ContainsAny(bare, "/?") {
		return Resolution{}, false
	}
	if id, ok := r.FileRefs[bare]; ok {
		return Resolution{Kind: KindFile, FileID: id, Status: StatusOK}, true
	}
	if id, ok := r.Refs[bare]; ok {
		return page(id, true), true
	}
	if id, ok := r.Refs[strings.TrimSuffix(bare, ".md")]; ok && strings.HasSuffix(bare, ".md") {
		return page(id, true), true
	}
	return Resolution{}, false
}

// resolveID resolves the path "/pages/<id>" or "/files/<id>"; ok is false when p
// is neither.
func (r *Resolver) resolveID(p string) (res Resolution, ok bool) {
	if rest, ok := strings.CutPrefix(p, "/pages/"); ok {
		id := strings.TrimSuffix(rest, "/")
		return page(id, id != "" && !strings.Contains(id, "/") && r.hasPage(id)), true
	}
	if rest, ok := strings.CutPrefix(p, "/files/"); ok {
		id := strings.TrimSuffix(rest, "/")
		if _, found := r.Files[id]; found && id != "" && !strings.Contains(id, "/") {
			return Resolution{Kind: KindFile, FileID: id, Status: StatusOK}, true
		}
		return Resolution{Kind: KindFile, Status: StatusBroken}, true
	}
	return Resolution{}, false
}

// fromRootOr is path p from the root when it starts with "/", else from the
// directory dir gives; ok is false when dir has none.
func fromRootOr(p string, dir func() (string, bool)) (full string, ok bool) {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)[1:], true
	}
	d, ok := dir()
	if !ok {
		return "", false
	}
	return path.Join(d, p), true
}

// resolveGitPath resolves a path to a ".md" file: the page with that Git path,
// from the space root when it starts with "/", else from the linking page's
// own Git path.
func (r *Resolver) resolveGitPath(fromPageID, p string) Resolution {
	r.once.Do(r.index) // the indexes of paths, built on first need
	full, ok := fromRootOr(p, func() (string, bool) {
		from, ok := r.Paths[fromPageID]
		return path.Dir(from), ok
	})
	if !ok {
		return page("", false)
	}
	id, found := r.byGit[full]
	return page(id, found && r.hasPage(id))
}

// resolveSlugPath resolves any other path: the page with that path of slugs, from
// the root when it starts with "/", else from the linking page's parent;
// failing that, the file with the path's last segment as its name.
func (r *Resolver) resolveSlugPath(fromPageID, p string) Resolution {
	r.once.Do(r.index)
	full, ok := fromRootOr(p, func() (string, bool) {
		parent, placed := r.parent[fromPageID]
		return r.slugPath[parent], placed
	})
	if !ok {
		return page("", false)
	}
	if id, ok := r.bySlug[full]; ok && full != "" && full != "." && !strings.HasPrefix(full, "../") && full != ".." {
		return page(id, true)
	}
	base := path.Base(p)
	if id, ok := r.byName[base]; ok && base != "" && base != "." && base != "/" {
		return Resolution{Kind: KindFile, FileID: id, Status: StatusOK}
	}
	if ext := path.Ext(base); ext != "" && ext != base {
		return Resolution{Kind: KindFile, Status: StatusBroken}
	}
	return page("", false)
}

// external resolves an absolute URL.
func (r *Resolver) external(t string) Resolution {
	u, err := url.Parse(t)
	if err != nil {
		return Resolution{Kind: KindURL, URL: t, Status: StatusBroken}
	}
	status := StatusOK
	if r.AppHost != "" && u.Host != "" && sameHost(u, r.AppHost) {
		status = StatusInApp
	}
	return Resolution{Kind: KindURL, URL: t, Status: status}
}

// sameHost reports whether u is on app, a host with or without a port: with
// a port both must match, without one only the host name is compared.
func sameHost(u *url.URL, app string) bool {
	a, err := url.Parse("//" + app)
	if err != nil || a.Host == "" {
		return strings.EqualFold(u.Host, app)
	}
	if a.Port() != "" {
		return strings.EqualFold(u.Hostname(), a.Hostname()) && u.Port() == a.Port()
	}
	return strings.EqualFold(u.Hostname(), a.Hostname())
}

// HasScheme reports whether t starts with a URL scheme of two or more
// characters followed by ':' (one letter would be a Windows drive).
func HasScheme(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':':
			return i >= 2
		default:
			return false
		}
	}
	return false
}
