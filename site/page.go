package site

import (
	"html/template"
	"net/http"
	"net/url"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/web"
)

// servePage answers page id of n as HTML, from the cache when it can.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, rq *request, n *spaceNav, id string) error {
	key := rq.answerKey("page", rq.visKey(n.pageConditions(id)), n.ss.ID, n.v.Revision.ID, id)
	return s.serveCached(w, r, rq, key, func() ([]byte, string, error) {
		d, err := s.pageData(rq, n, id)
		if err != nil {
			return nil, "", err
		}
		b, err := execute(d)
		return b, "text/html; charset=utf-8", err
	})
}

// pageData is the layout of page id of n.
func (s *Server) pageData(rq *request, n *spaceNav, id string) (*pageData, error) {
	p := n.v.Page(id)
	body, headings, err := s.renderBody(rq, n, id)
	if err != nil {
		return nil, err
	}
	d := s.chrome(rq, n.sec, n.ss)
	d.Title, d.Description, d.PageEmoji = p.Title, p.Description, render.EmojiText(p.Emoji)
	d.Canonical = rq.absolute(n.url(id))
	d.NoIndex = d.NoIndex || p.NoIndex || p.NoRobotsIndex
	d.Markdown = n.mdURL(id)
	d.Sidebar = n.sidebar(id)
	d.Variants = s.variants(rq, n)
	d.Breadcrumbs = n.breadcrumbs(id)
	d.Prev, d.Next = n.neighbours(id)
	d.Body, d.Rail = template.HTML(body), true
	for _, h := range headings {
		if h.Level == 2 || h.Level == 3 {
			d.TOC = append(d.TOC, h)
		}
	}
	if p.UpdatedAt > 0 {
		t := time.UnixMicro(p.UpdatedAt).UTC()
		d.Updated, d.UpdatedISO = t.Format("January 2, 2006"), t.Format(time.RFC3339)
	}
	return d, nil
}

// chrome is what every page of rq's site shows around its content: title,
// favicon, section tabs (sec current), search.
func (s *Server) chrome(rq *request, sec *quire.SiteSection, ss *quire.SiteSpace) *pageData {
	lk := lookOf(rq.site, ss)
	d := &pageData{
		Lang: "en", SiteTitle: lk.Title, Look: lk, Root: rq.base, Home: rq.base + "/",
		ThemeScript: template.JS(web.ThemeScript), Assets: assetURLsOf(s.assets, rq.base),
		NoIndex: rq.site.Visibility != quire.VisibilityPublic,
	}
	if rq.st != nil && rq.visitor != nil {
		d.Searchable = true
		if spaces := rq.st.AllSiteSpaces(); len(spaces) > 0 {
			d.Emoji = render.EmojiText(spaces[0].Space.Emoji)
		}
		d.Tabs = rq.tabs(sec)
	}
	d.Favicon = favicon(d.Emoji)
	return d
}

// tabs are the visible sections, groups as menus, when there are two or
// more to choose from; current is the section shown.
func (rq *request) tabs(current *quire.SiteSection) []tab {
	external := rq.externalLinks()
	if len(rq.visibleSections()) < 2 && len(external) == 0 {
		return nil
	}
	var out []tab
	rootLinks := external[""]
	for _, it := range rq.st.Items {
		secs := []*quire.SiteSection{it.Section}
		pos := func() int64 { return it.Section.Position }
		if it.Group != nil {
			secs = it.Group.Sections
			pos = func() int64 { return it.Group.Position }
		}
		for len(rootLinks) > 0 && rootLinks[0].Position < pos() {
			out = append(out, tab{link: link{Title: rootLinks[0].Title, URL: rootLinks[0].URL}})
			rootLinks = rootLinks[1:]
		}
		var links []link
		var groupLinks []*quire.SiteExternalLink
		if it.Group != nil {
			groupLinks = external[it.Group.ID]
		}
		for _, sec := range secs {
			for len(groupLinks) > 0 && groupLinks[0].Position < sec.Position {
				links = append(links, link{Title: groupLinks[0].Title, URL: groupLinks[0].URL})
				groupLinks = groupLinks[1:]
			}
			if published.SeesSection(sec, rq.sees) {
				links = append(links, link{Title: sec.Title, URL: rq.url(sec, nil, ""), Current: sec == current})
			}
		}
		for _, l := range groupLinks {
			links = append(links, link{Title: l.Title, URL: l.URL})
		}
		switch {
		case len(links) == 0:
		case it.Group == nil:
			out = append(out, tab{link: links[0]})
		default:
			t := tab{link: link{Title: it.Group.Title}, Items: links}
			for _, l := range links {
				t.Current = t.Current || l.Current
			}
			out = append(out, t)
		}
	}
	for _, l := range rootLinks {
		out = append(out, tab{link: link{Title: l.Title, URL: l.URL}})
	}
	return out
}

// externalLinks are the site's external links the visitor sees (not
// drafts, conditions met), by group ("" for the top level), in order.
func (rq *request) externalLinks() map[string][]*quire.SiteExternalLink {
	out := map[string][]*quire.SiteExternalLink{}
	for _, l := range rq.st.ExternalLinks {
		if !l.Draft && rq.sees(l.Condition) {
			out[l.GroupID] = append(out[l.GroupID], l)
		}
	}
	return out
}

// variants are the site spaces beside n's, when there is a choice.
func (s *Server) variants(rq *request, n *spaceNav) []link {
	spaces := n.siteSpaces()
	if len(spaces) < 2 {
		return nil
	}
	out := make([]link, len(spaces))
	for i, ss := range spaces {
		out[i] = link{Title: ss.Space.Title, URL: rq.url(n.sec, ss, ""), Current: ss == n.ss}
	}
	return out
}

// fileURL is where file id of n's space is served.
func (n *spaceNav) fileURL(id string) string {
	f := n.v.Tree.Files[id]
	if f == nil {
		return ""
	}
	return n.rq.base + "/~files/" + n.ss.ID + "/" + id + "/" + url.PathEscape(f.Name)
}
