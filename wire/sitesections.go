package wire

import (
	"github.com/quiredocs/quire"
)

// PublishedURL is how the API shows where something is published, if it is.
type PublishedURL struct {
	Published string `json:"published,omitempty"`
}

// SiteSection is how the API shows a section of a site.
type SiteSection struct {
	Object       string       `json:"object"`
	ID           string       `json:"id"`
	Title        string       `json:"title"`
	Description  string       `json:"description,omitempty"`
	Default      bool         `json:"default"`
	Draft        bool         `json:"draft"`
	Path         string       `json:"path"`
	Condition    string       `json:"condition,omitempty"`
	SectionGroup string       `json:"sectionGroup,omitempty"`
	SiteSpaces   []SiteSpace  `json:"siteSpaces"`
	URLs         PublishedURL `json:"urls"`
	Icon         string       `json:"icon,omitempty"`
}

// SiteSectionGroup is how the API shows a group of sections of a site.
type SiteSectionGroup struct {
	Object   string        `json:"object"`
	ID       string        `json:"id"`
	Title    string        `json:"title"`
	Draft    bool          `json:"draft"`
	Sections []SiteSection `json:"sections"`
	Children []any         `json:"children"` // sections, and in a structure the group's external links

	Icon string `json:"icon,omitempty"`
}

// SiteSpace is how the API shows a space of a site.
type SiteSpace struct {
	Object    string       `json:"object"`
	ID        string       `json:"id"`
	Path      string       `json:"path"`
	Section   string       `json:"section,omitempty"`
	Space     Space        `json:"space"`
	Title     string       `json:"title"`
	Default   bool         `json:"default"`
	Condition string       `json:"condition,omitempty"`
	Draft     bool         `json:"draft"`
	URLs      PublishedURL `json:"urls"`
}

// SiteRenderer renders what is in one site for one caller.
type SiteRenderer struct {
	l    Links
	site *quire.Site
	v    *quire.Viewer
	base string // the site's public URL
}

// SiteRenderer renders what is in site for a caller whom v describes.
func (l Links) SiteRenderer(site *quire.Site, v *quire.Viewer) *SiteRenderer {
	return &SiteRenderer{l: l, site: site, v: v, base: l.SitePublicURL(site)}
}

// SectionURL is where a section is published: the site's root for the
// default section, else its path below.
func (rd *SiteRenderer) SectionURL(sec *quire.SiteSection) string {
	if sec == nil || sec.Default {
		return rd.base
	}
	return rd.base + sec.Path + "/"
}

func (rd *SiteRenderer) published(url string) PublishedURL {
	if !rd.site.Published {
		return PublishedURL{}
	}
	return PublishedURL{Published: url}
}

// SiteSpace shows a space of a site as the API answers it.
func (rd *SiteRenderer) SiteSpace(ss *quire.SiteSpace) SiteSpace {
	url := rd.SectionURL(ss.Section)
	if !ss.Default {
		url += ss.Path + "/"
	}
	sp := ss.Space
	return SiteSpace{
		Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.SectionID, Title: sp.Title,
		Space:   rd.l.Space(sp, rd.v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors)),
		Default: ss.Default, Condition: ss.Condition, URLs: rd.published(url),
	}
}

// Section shows a section of a site as the API answers it.
func (rd *SiteRenderer) Section(sec *quire.SiteSection) SiteSection {
	j := SiteSection{
		Object: "site-section", ID: sec.ID, Title: sec.Title, Description: sec.Description, Default: sec.Default,
		Path: sec.Path, Condition: sec.Condition, SectionGroup: sec.GroupID, Icon: sec.Icon,
		SiteSpaces: make([]SiteSpace, len(sec.SiteSpaces)), URLs: rd.published(rd.SectionURL(sec)),
	}
	for i, ss := range sec.SiteSpaces {
		j.SiteSpaces[i] = rd.SiteSpace(ss)
	}
	return j
}

// Group shows a group of sections of a site as the API answers it.
func (rd *SiteRenderer) Group(g *quire.SiteSectionGroup) SiteSectionGroup {
	j := SiteSectionGroup{Object: "site-section-group", ID: g.ID, Title: g.Title, Icon: g.Icon,
		Sections: make([]SiteSection, len(g.Sections))}
	for i, sec := range g.Sections {
		j.Sections[i] = rd.Section(sec)
	}
	j.Children = make([]any, len(j.Sections))
	for i, sec := range j.Sections {
		j.Children[i] = sec
	}
	return j
}
