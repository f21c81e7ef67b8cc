package site

import (
	"bytes"
	"context"
	"encoding/xml"
	"net/http"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/render"
)

// What robots and language models read: robots.txt, sitemap.xml (public
// sites only), llms.txt, llms-full.txt and each page's markdown. All list
// only what this visitor sees, and only listed pages (not hidden ones).

// serveRobots lets robots in on public sites and keeps them out of all
// others, whose pages carry noindex too.
func (s *Server) serveRobots(w http.ResponseWriter, r *http.Request, rq *request) error {
	key := rq.answerKey("robots", "")
	return s.serveCached(w, r, rq, key, func() ([]byte, string, error) {
		body := "User-agent: *\nDisallow: /\n"
		if rq.site.Visibility == quire.VisibilityPublic {
			body = "User-agent: *\nAllow: /\n\nSitemap: " + rq.address + "sitemap.xml\n"
		}
		return []byte(body), "text/plain; charset=utf-8", nil
	})
}

// serveSitemap lists the listed pages of a public site that allow
// indexing, at their canonical URLs.
func (s *Server) serveSitemap(w http.ResponseWriter, r *http.Request, rq *request) error {
	if rq.site.Visibility != quire.VisibilityPublic {
		return errNotFound
	}
	return s.serveAll(w, r, rq, "sitemap", func(navs []*spaceNav) ([]byte, string, error) {
		var b bytes.Buffer
		b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, n := range navs {
			for _, id := range n.documents(0) {
				p := n.v.Page(id)
				if p.NoIndex || p.NoRobotsIndex {
					continue
				}
				b.WriteString("<url><loc>")
				_ = xml.EscapeText(&b, []byte(rq.absolute(n.url(id))))
				b.WriteString("</loc>")
				if p.UpdatedAt > 0 {
					b.WriteString("<lastmod>" + time.UnixMicro(p.UpdatedAt).UTC().Format(time.RFC3339) + "</lastmod>")
				}
				b.WriteString("</url>\n")
			}
		}
		b.WriteString("</urlset>\n")
		return b.Bytes(), "application/xml; charset=utf-8", nil
	})
}

// serveLLMs answers llms.txt (the site's title, then each listed page's
// markdown link and description by section and site space) or, when full,
// llms-full.txt (every listed page's markdown).
func (s *Server) serveLLMs(w http.ResponseWriter, r *http.Request, rq *request, full bool) error {
	kind := map[bool]string{false: "llms", true: "llms-full"}[full]
	s.countEvent(r, rq, "llms_request", "server", location{}, "", "")
	return s.serveAll(w, r, rq, kind, func(navs []*spaceNav) ([]byte, string, error) {
		var b strings.Builder
		b.WriteString("# " + rq.site.Title + "\n")
		for _, n := range navs {
			if !full {
				b.WriteString("\n## " + n.heading() + "\n\n")
			}
			for _, id := range n.documents(0) {
				p := n.v.Page(id)
				if full {
					b.WriteString("\n---\n\n" + pageMarkdown(p.Title, p.Description, n.markdown(id), rq.absolute(n.url(id))))
					continue
				}
				b.WriteString("- [" + escapeLinkText(p.Title) + "](" + rq.absolute(n.mdURL(id)) + ")")
				if d := strings.Join(strings.Fields(p.Description), " "); d != "" {
					b.WriteString(": " + d)
				}
				b.WriteString("\n")
			}
		}
		return []byte(b.String()), "text/plain; charset=utf-8", nil
	})
}

// serveMarkdown answers page id of n as markdown.
func (s *Server) serveMarkdown(w http.ResponseWriter, r *http.Request, rq *request, n *spaceNav, id string) error {
	key := rq.answerKey("md", rq.visKey(n.conditions()), n.ss.ID, n.v.Revision.ID, id)
	return s.serveCached(w, r, rq, key, func() ([]byte, string, error) {
		p := n.v.Page(id)
		return []byte(pageMarkdown(p.Title, p.Description, n.markdown(id), "")), "text/markdown; charset=utf-8", nil
	})
}

// markdown is page id's markdown with its links to pages and files made
// their published URLs (pages' markdown ones); a link to a page the
// visitor does not see loses its target, so not even its path shows.
func (n *spaceNav) markdown(id string) string {
	md := n.v.Page(id).Markdown
	resolver := n.v.Resolver()
	repl := map[string]string{}
	for _, l := range render.Links(md) {
		res := resolver.Resolve(id, l.Target)
		_, frag, _ := strings.Cut(l.Target, "#")
		switch {
		case res.Kind == render.KindPage && res.PageID != "" && n.visible(res.PageID):
			if repl[l.Target] = n.rq.absolute(n.mdURL(res.PageID)); frag != "" {
				repl[l.Target] += "#" + frag
			}
		case res.Kind == render.KindPage && res.PageID != "":
			repl[l.Target] = ""
		case res.Kind == render.KindFile && res.FileID != "":
			repl[l.Target] = n.rq.absolute(n.fileURL(res.FileID))
		}
	}
	return render.RewriteLinks(md, repl)
}

// pageMarkdown is a page as one markdown document: its title as heading,
// its description, where it is published (when source is not "") and its
// body.
func pageMarkdown(title, description, body, source string) string {
	var b strings.Builder
	b.WriteString("# " + title + "\n\n")
	if description != "" {
		b.WriteString(description + "\n\n")
	}
	if source != "" {
		b.WriteString("Source: " + source + "\n\n")
	}
	b.WriteString(strings.TrimRight(body, "\n") + "\n")
	return b.String()
}

// escapeLinkText keeps a title from closing a markdown link's text.
func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// heading names n's site space in llms.txt: its section, and its title
// when the section has several.
func (n *spaceNav) heading() string {
	title := n.ss.Space.Title
	if n.sec == nil {
		return title
	}
	if len(n.siteSpaces()) > 1 {
		return n.sec.Title + " › " + title
	}
	return n.sec.Title
}

// serveAll answers a cached answer of kind built from every site space
// the visitor sees.
func (s *Server) serveAll(w http.ResponseWriter, r *http.Request, rq *request, kind string, build func([]*spaceNav) ([]byte, string, error)) error {
	navs, err := s.navs(r.Context(), rq)
	if err != nil {
		return err
	}
	var conds []string
	for _, n := range navs {
		conds = append(conds, n.conditions()...)
	}
	return s.serveCached(w, r, rq, rq.answerKey(kind, rq.visKey(conds)), func() ([]byte, string, error) { return build(navs) })
}

// navs opens every site space the visitor sees, in structure order.
func (s *Server) navs(ctx context.Context, rq *request) ([]*spaceNav, error) {
	var out []*spaceNav
	for _, loc := range rq.visibleLocations() {
		n, err := s.nav(ctx, rq, loc.section, loc.siteSpace)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// visibleLocations are the site spaces the visitor sees, each with its
// section (nil on a site without sections), in structure order.
func (rq *request) visibleLocations() []location {
	var out []location
	for _, l := range published.Locations(rq.st, rq.sees) {
		out = append(out, location{section: l.Section, siteSpace: l.SiteSpace})
	}
	return out
}
