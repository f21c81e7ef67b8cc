package site

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
)

// VisibleSpaces is what a visitor without claims sees of published site
// id, for the API's site search and ask (which take no visitor): the site
// spaces of distinct spaces they see, in structure order, and whether they
// see a page of one of them (its conditions and those above it hold). The
// same rules as for the site's own search and ask, so that what a
// condition hides stays hidden. An unpublished site shows nothing.
func (s *Server) VisibleSpaces(ctx context.Context, id string) ([]*quire.SiteSpace, func(v *revision.View, pageID string) bool, error) {
	commits := s.db.Commits()
	site, err := s.cfg.Reader.PublishedSite(ctx, id, commits)
	if err != nil {
		return nil, nil, err
	}
	if !site.Published {
		return nil, func(*revision.View, string) bool { return false }, nil
	}
	st, err := s.cfg.Reader.PublishedStructure(ctx, site, commits)
	if err != nil {
		return nil, nil, err
	}
	rq := &request{site: site, st: st, commits: commits, visitor: &Visitor{conds: s.access.conds}}
	var out []*quire.SiteSpace
	for _, vs := range rq.distinctSpaces() {
		out = append(out, vs.siteSpace)
	}
	return out, rq.seesPage, nil
}
