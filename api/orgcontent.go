package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Across an organization: searching every space the caller can read (the
// reference's searchOrganizationContent) and listing the change requests of
// those spaces (listChangeRequestsForOrganization).

// maxSearchedSpaces bounds the spaces one organization search reads, in
// tree order, as ask does.
const maxSearchedSpaces = 1000

// searchOrg answers GET O/search: the pages of every space the caller can
// read holding every word of query, ranked together, best first. Pages are
// what is paged (and what count counts); each page of results groups its
// pages by space, in the order of their best page, and every page keeps
// its rank in the whole ranking.
func (s *Server) searchOrg(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	query := query(r).Get("query")
	if err := revision.CheckQuery("query", query); err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	terms := revision.Terms(query)
	spaces, err := s.db.ListSpaces(r.Context(), r.PathValue("organizationId"), store.SpaceFilter{VisibleTo: v}, store.Page{Limit: maxSearchedSpaces})
	if err != nil {
		return err
	}
	hits, err := s.reader.SearchSpaces(r.Context(), spaces.Items, terms, revision.SearchLimits{})
	if err != nil {
		return err
	}
	list, start := store.PageInOrder(hits, p, revision.Found.Key)
	return writeJSON(w, http.StatusOK, s.spaceResultsJSON(list, start, terms))
}

// orgChangeRequestFilter reads the reference's filters of
// listChangeRequestsForOrganization. Quire has no site topics, style guide
// runs or triage findings, so topic and styleguideRun match nothing and
// finding changes nothing.
func orgChangeRequestFilter(r *http.Request, v *quire.Viewer) (f store.OrgChangeRequestFilter, none bool, err error) {
	q := query(r)
	f = store.OrgChangeRequestFilter{VisibleTo: v, Creator: q.Get("creator"), Contributor: q.Get("contributor"), Reviewer: q.Get("requestedReviewer"), Space: q.Get("space"), Site: q.Get("site")}
	for _, v := range q["status"] {
		for name := range strings.SplitSeq(v, ",") {
			st, ok := quire.ParseChangeRequestStatus(name)
			if !ok {
				return f, false, errorf(quire.CodeInvalid, "status: each must be draft, open, archived or merged")
			}
			f.Statuses = append(f.Statuses, st)
		}
	}
	if len(f.Statuses) == 0 {
		f.Statuses = []quire.ChangeRequestStatus{quire.StatusOpen}
	}
	switch q.Get("orderBy") {
	case "", "updatedAt":
	case "createdAt":
		f.ByCreated = true
	default:
		return f, false, errorf(quire.CodeInvalid, "orderBy: must be updatedAt or createdAt")
	}
	if fd := q.Get("finding"); q.Has("finding") && fd != "none" && fd != "all" {
		return f, false, errorf(quire.CodeInvalid, "finding: must be none or all")
	}
	return f, q.Has("topic") || q.Has("styleguideRun"), nil
}

// listOrgChangeRequests answers GET O/change-requests: the change requests
// of every space of the organization the caller can read.
func (s *Server) listOrgChangeRequests(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	spaces := map[string]*quire.Space{}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.ChangeRequest], error) {
		f, none, err := orgChangeRequestFilter(r, v)
		if err != nil || none {
			return &store.List[*quire.ChangeRequest]{Items: []*quire.ChangeRequest{}}, err
		}
		list, err := s.db.ListOrgChangeRequests(ctx, r.PathValue("organizationId"), f, p)
		if err != nil {
			return nil, err
		}
		for _, c := range list.Items {
			if spaces[c.SpaceID] == nil {
				if spaces[c.SpaceID], err = s.db.Space(ctx, c.SpaceID); err != nil {
					return nil, err
				}
			}
		}
		return list, nil
	}, func(c *quire.ChangeRequest) wire.ChangeRequest { return s.wire.ChangeRequest(spaces[c.SpaceID], c) })
}
