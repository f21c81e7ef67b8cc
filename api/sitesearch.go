package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Search and ask over a site (POST SITE/search, SITE/ask, SITE/search/prewarm):
// over what the published site shows a visitor without claims (Config.Sites,
// the published sites' own rules), so that what a site's conditions hide
// stays hidden, whoever asks. Members of the organization (role read) may
// ask; they read the spaces anyway, but not as the site shows them.

// PublishedSites tells what a visitor without claims sees of a published
// site; site.Server is one.
type PublishedSites interface {
	VisibleSpaces(ctx context.Context, siteID string) ([]*quire.SiteSpace, func(v *revision.View, pageID string) bool, error)
}

const (
	siteLookupTimeout  = 5 * time.Second  // what a search, or finding sources, may take
	siteSearchPerSpace = MaxLimit         // pages ranked of one space
	prewarmTimeout     = 10 * time.Second // what warming the site's views may take
)

// visibleSiteSpaces is what a visitor without claims sees of the site, in
// scope; for a site token, what its visitor sees by their claims.
func (s *Server) visibleSiteSpaces(ctx context.Context, site *quire.Site, scope *wire.SiteSearchScope) ([]*quire.SiteSpace, func(*revision.View, string) bool, error) {
	var all []*quire.SiteSpace
	var sees func(*revision.View, string) bool
	var err error
	if g := siteGrantOf(ctx); g != nil {
		all, sees, err = s.siteTokenSpaces(ctx, g)
	} else if s.sites == nil {
		return nil, nil, errors.New("the API server has no published sites (Config.Sites)")
	} else {
		all, sees, err = s.sites.VisibleSpaces(ctx, site.ID)
	}
	if err != nil {
		return nil, nil, err
	}
	var out []*quire.SiteSpace
	for _, ss := range all {
		if scope.Keeps(ss) && len(out) < wire.MaxSiteSearchSpaces {
			out = append(out, ss)
		}
	}
	return out, sees, nil
}

// searchSite answers POST SITE/search: the pages found, best first across
// the site's spaces (scores of one index compare), paged, and grouped by
// space in the order of their best page.
func (s *Server) searchSite(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	var body wire.SearchSiteContent
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), siteLookupTimeout)
	defer cancel()
	spaces, sees, err := s.visibleSiteSpaces(ctx, site, body.SearchScope())
	if err != nil {
		return err
	}
	terms := revision.Terms(body.Query)
	hits, err := s.reader.SearchSpaces(ctx, siteSpacesOf(spaces), terms, revision.SearchLimits{PerSpace: siteSearchPerSpace, Keep: sees})
	if err != nil {
		return err
	}
	list, start := store.PageInOrder(hits, p, revision.Found.Key)
	return writeJSON(w, http.StatusOK, s.spaceResultsJSON(list, start, terms))
}

// askSite answers POST SITE/ask as server-sent events of the reference's
// SearchAIAnswerStream: with a model, the answer as it is written (each
// event holds all of it so far), and the whole answer last.
func (s *Server) askSite(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	doc, err := askParams(r)
	if err != nil {
		return err
	}
	var body wire.StreamAskInSite
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	sources, err := s.siteAskSources(r.Context(), site, body.Scope, body.Question)
	if err != nil {
		return err
	}
	req := askRequest{question: body.Question, document: doc}
	events := s.startEvents(w)
	answer, err := s.answer(r.Context(), req, sources, func(partial *askAnswerJSON) error {
		return events.Send(map[string]any{"type": "answer", "answer": partial})
	})
	if err == nil {
		err = events.Send(map[string]any{"type": "answer", "answer": answer})
	}
	return s.endEvents(events, r, err)
}

// siteAskSources finds the sections of the site's visible pages that best
// hold the words of question, as the published site's ask does.
func (s *Server) siteAskSources(ctx context.Context, site *quire.Site, scope *wire.SiteSearchScope, question string) ([]ask.Source, error) {
	ctx, cancel := context.WithTimeout(ctx, siteLookupTimeout) // the model has its own bound
	defer cancel()
	siteSpaces, sees, err := s.visibleSiteSpaces(ctx, site, scope)
	if err != nil {
		return nil, err
	}
	return s.asker.ScopeSources(ctx, ask.Scope{Spaces: siteSpacesOf(siteSpaces), Keep: sees}, question)
}

// siteSpacesOf are the spaces of site spaces, in order.
func siteSpacesOf(siteSpaces []*quire.SiteSpace) []*quire.Space {
	out := make([]*quire.Space, len(siteSpaces))
	for i, ss := range siteSpaces {
		out[i] = ss.Space
	}
	return out
}

// prewarmSiteSearch answers POST SITE/search/prewarm: it opens the views of
// the site's visible spaces, so that their trees and indexes are in the
// reader's caches when the first search comes.
func (s *Server) prewarmSiteSearch(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), prewarmTimeout)
	defer cancel()
	spaces, _, err := s.visibleSiteSpaces(ctx, site, &wire.SiteSearchScope{Mode: "all"})
	if err != nil {
		return err
	}
	for _, ss := range spaces {
		if _, err := s.reader.Open(ctx, ss.Space, ss.Space.RevisionID, nil); err != nil {
			return err
		}
	}
	return noContent(w)
}
