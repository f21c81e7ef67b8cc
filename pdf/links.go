package pdf

import (
	"strings"

	"github.com/quiredocs/quire/render"
)

// linkTo is where a link written dest in the current page goes: a page of
// the document (at the heading its fragment names, when there is one), a
// URL outside it, or nowhere (broken, or a file, which a PDF cannot hold).
func (w *writer) linkTo(dest string) link {
	dest = strings.TrimSpace(dest)
	if w.src.Resolver == nil {
		return urlLink(dest)
	}
	res := w.src.Resolver.Resolve(w.page, dest)
	if res.Status == render.StatusBroken {
		return link{}
	}
	_, frag, _ := strings.Cut(dest, "#")
	switch res.Kind {
	case render.KindAnchor:
		return w.anchorLink(w.page, frag)
	case render.KindPage:
		if w.included[res.PageID] {
			return w.anchorLink(res.PageID, frag)
		}
		if w.src.PageURL != nil {
			return urlLink(w.src.PageURL(res.PageID, frag))
		}
		return link{}
	case render.KindFile:
		return link{}
	}
	return urlLink(dest)
}

// anchorLink links to the heading frag of page, or to the page's start
// when it has no such heading.
func (w *writer) anchorLink(page, frag string) link {
	if a := headingAnchor(page, frag); frag != "" && w.anchors[a] {
		return link{anchor: a}
	}
	return link{anchor: pageAnchor(page)}
}

// urlLink links to u when its scheme is one a reader may follow: http,
// https, mailto or tel. Characters a URI may not hold are percent-encoded.
func urlLink(u string) link {
	scheme, _, ok := strings.Cut(u, ":")
	if !ok {
		return link{}
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "mailto", "tel":
	default:
		return link{}
	}
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= ' ' || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}' {
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
			continue
		}
		b.WriteByte(c)
	}
	return link{url: b.String()}
}
