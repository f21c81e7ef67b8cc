package api

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/wire"
)

// GET SITE/published (Contract §4.8): the site, its structure and its
// customizations, for the renderer of published sites. It is read far more
// than anything in it changes, so its answers are cached by the reader
// (revision.Reader.PublishedAnswer).

type publishedSiteJSON struct {
	Object         string             `json:"object"`
	Site           wire.Site          `json:"site"`
	Structure      siteStructureJSON  `json:"structure"`
	Customizations customizationsJSON `json:"customizations"`
	Scripts        []struct{}         `json:"scripts"`
}

// siteStructureJSON: type "siteSpaces" with the site spaces of a site
// without sections, or "sections" with its top-level sections and groups.
type siteStructureJSON struct {
	Type      string `json:"type"`
	Structure []any  `json:"structure"`
}

type customizationsJSON struct {
	Site       json.RawMessage            `json:"site"`
	SiteSpaces map[string]json.RawMessage `json:"siteSpaces"`
}

// siteCustomization is the site's customization in effect (authoring.SiteSettings).
func siteCustomization(site *quire.Site) json.RawMessage {
	b, _ := json.Marshal(authoring.SiteSettings(site))
	return b
}

func (s *Server) publishedJSON(site *quire.Site, v *quire.Viewer, st *quire.SiteStructure) publishedSiteJSON {
	return publishedSiteJSON{
		Object: "published-content-site", Site: s.wire.Site(site, siteRole(site, v)), Scripts: []struct{}{},
		Structure:      s.structureJSON(site, v, st, false),
		Customizations: customizationsJSON{Site: siteCustomization(site), SiteSpaces: authoring.SiteSpaceCustomizations(site, st)},
	}
}

// structureJSON is the reference's SiteStructure of site (with its counts)
// as v sees it; withLinks, its external links too (GET SITE/structure),
// which the contract's published site leaves to its renderer.
func (s *Server) structureJSON(site *quire.Site, v *quire.Viewer, st *quire.SiteStructure, withLinks bool) siteStructureJSON {
	rd := s.wire.SiteRenderer(site, v)
	var j siteStructureJSON
	if site.Sections == 0 {
		j.Type = "siteSpaces"
		j.Structure = make([]any, len(st.SiteSpaces))
		for i, ss := range st.SiteSpaces {
			j.Structure[i] = rd.SiteSpace(ss)
		}
		return j
	}
	j.Type = "sections"
	// External links stand among the sections and groups of their level,
	// by position, as the reference's structure has them; drafts only for
	// those who see the site in the organization, not for visitors with
	// its share key.
	links := map[string][]*quire.SiteExternalLink{}
	for _, l := range st.ExternalLinks {
		if withLinks && (!l.Draft || siteRole(site, v).AtLeast(quire.RoleRead)) {
			links[l.GroupID] = append(links[l.GroupID], l)
		}
	}
	var top []placedItem
	for _, it := range st.Items {
		if it.Section != nil {
			top = append(top, placedItem{it.Section.Position, it.Section.ID, rd.Section(it.Section)})
			continue
		}
		g := rd.Group(it.Group)
		var children []placedItem
		for i, sec := range it.Group.Sections {
			children = append(children, placedItem{sec.Position, sec.ID, g.Children[i]})
		}
		g.Children = placeLinks(children, links[it.Group.ID])
		top = append(top, placedItem{it.Group.Position, it.Group.ID, g})
	}
	j.Structure = placeLinks(top, links[""])
	return j
}

// placedItem is an item of a level of a site's structure with its place.
type placedItem struct {
	position int64
	id       string
	json     any
}

// placeLinks merges a level's external links into its items, by position
// then id, as the store orders the level (store.Tx.placeSiteItem).
func placeLinks(items []placedItem, links []*quire.SiteExternalLink) []any {
	for _, l := range links {
		items = append(items, placedItem{l.Position, l.ID, wire.SiteExternalLinkOf(l)})
	}
	slices.SortStableFunc(items, func(a, b placedItem) int {
		return cmp.Or(cmp.Compare(a.position, b.position), cmp.Compare(a.id, b.id))
	})
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it.json
	}
	return out
}

func (s *Server) getPublishedSite(w http.ResponseWriter, r *http.Request) error {
	commits := s.db.Commits() // before reading: a write after this is noticed next time
	site, v, err := s.sharedSiteWith(r, func(ctx context.Context, id string) (*quire.Site, error) {
		return s.reader.PublishedSite(ctx, id, commits)
	})
	if err != nil {
		return err
	}
	st, err := s.reader.PublishedStructure(r.Context(), site, commits)
	if err != nil {
		return err
	}
	siteWithCounts := *site
	siteWithCounts.SiteSpaces, siteWithCounts.Sections = len(st.AllSiteSpaces()), len(st.Sections())
	site = &siteWithCounts
	key := publishedKey(site, v, st, commits)
	body, ok := s.reader.PublishedAnswer(key)
	if !ok {
		if body, err = json.Marshal(s.publishedJSON(site, v, st)); err != nil {
			return err
		}
		body = append(body, '\n')
		s.reader.KeepPublishedAnswer(key, body)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(body)
	return err
}

// publishedKey names one answer: the site at its version, the store at its
// commit count, and the caller's roles on the site and on each space shown.
func publishedKey(site *quire.Site, v *quire.Viewer, st *quire.SiteStructure, commits uint64) string {
	b := make([]byte, 0, 64+len(st.SiteSpaces)+8*len(st.Items))
	b = append(b, site.ID...)
	b = append(b, ':')
	b = strconv.AppendInt(b, site.Version, 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, commits, 10)
	b = append(b, ':', roleByte(siteRole(site, v)))
	for _, ss := range st.AllSiteSpaces() {
		sp := ss.Space
		b = append(b, roleByte(v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors)))
	}
	return string(b)
}

func roleByte(r quire.Role) byte {
	switch r {
	case quire.RoleAdmin:
		return 'a'
	case quire.RoleCreate:
		return 'c'
	case quire.RoleReview:
		return 'v'
	case quire.RoleEdit:
		return 'e'
	case quire.RoleComment:
		return 'm'
	case quire.RoleRead:
		return 'r'
	}
	return '-'
}
