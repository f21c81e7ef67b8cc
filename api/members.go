package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

func (s *Server) listMembers(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.Member], error) {
		f, err := memberFilter(r)
		if err != nil {
			return nil, err
		}
		return s.db.ListMembers(ctx, me.OrgID, f, p)
	}, s.wire.Member)
}

// memberFilter reads the role, search, sort and order parameters of a list
// of members.
func memberFilter(r *http.Request) (f store.MemberFilter, err error) {
	q := query(r)
	if q.Has("role") {
		v := q.Get("role")
		role, ok := quire.ParseRole(v)
		if !ok && v != "guest" {
			return f, errorf(quire.CodeInvalid, "role: must be one of admin, create, review, edit, comment, read, guest")
		}
		f.Role = &role
	}
	f.Search = q.Get("search")
	if err := quire.CheckLen("search", f.Search, 0, 256); err != nil {
		return f, err
	}
	switch sort := store.MemberSort(q.Get("sort")); sort {
	case "", store.SortJoinedAt, store.SortLastSeenAt, store.SortName:
		f.Sort = sort
	default:
		return f, errorf(quire.CodeInvalid, "sort: must be joinedAt, lastSeenAt or name")
	}
	f.Ascending, err = orderParam(r)
	return f, err
}

// orderParam reads order: desc (the reference's default) or asc.
func orderParam(r *http.Request) (ascending bool, err error) {
	switch query(r).Get("order") {
	case "", "desc":
		return false, nil
	case "asc":
		return true, nil
	}
	return false, errorf(quire.CodeInvalid, "order: must be asc or desc")
}

// member loads the caller's membership and the member named by {userId} in
// the same organization.
func (s *Server) member(r *http.Request) (me, m *quire.Member, err error) {
	if me, err = s.membership(r); err != nil {
		return nil, nil, err
	}
	m, err = s.db.Member(r.Context(), me.OrgID, r.PathValue("userId"))
	return me, m, err
}

// orgAdmin is the caller's membership of the organization in the path, for
// operations only its admins may do.
func (s *Server) orgAdmin(r *http.Request) (*quire.Member, error) {
	me, err := s.membership(r)
	if err != nil {
		return nil, err
	}
	return me, requireAdmin(me)
}

// memberFor is member for an action on the member named in the path that
// needs the admin role, unless self allows it on oneself.
func (s *Server) memberFor(r *http.Request, self bool) (me, m *quire.Member, err error) {
	me, m, err = s.member(r)
	if err == nil && (!self || m.User.ID != me.User.ID) {
		err = requireAdmin(me)
	}
	return me, m, err
}

func (s *Server) getMember(w http.ResponseWriter, r *http.Request) error {
	_, m, err := s.member(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Member(m))
}

// removeMember: admins remove anyone; any member may leave. The last admin
// stays (409).
func (s *Server) removeMember(w http.ResponseWriter, r *http.Request) error {
	me, m, err := s.memberFor(r, true)
	if err != nil {
		return err
	}
	if err := s.db.RemoveMember(r.Context(), me.OrgID, m.User.ID, me.User.ID); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) updateMember(w http.ResponseWriter, r *http.Request) error {
	me, m, err := s.memberFor(r, false)
	if err != nil {
		return err
	}
	var body wire.UpdateMemberInOrganization
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if role := body.NewRole(); role != nil {
		if m, err = s.db.UpdateMemberRole(r.Context(), me.OrgID, m.User.ID, *role); err != nil {
			return err
		}
	}
	return writeJSON(w, http.StatusOK, s.wire.Member(m))
}

// ping records that the caller was seen and returns a signed JWT of their
// claims (subject, organization, role) for the published sites
// (authoring.Author.Ping).
func (s *Server) ping(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	signed, err := s.author.Ping(r.Context(), me)
	if err != nil {
		return err
	}
	// The contract names the field serviceVisitorClaims; clients generated from
	// the reference read gitbookVisitorClaims, so both carry it.
	return writeJSON(w, http.StatusOK, map[string]string{"serviceVisitorClaims": signed, "gitbookVisitorClaims": signed})
}

func (s *Server) setMemberSSO(w http.ResponseWriter, r *http.Request) error {
	me, m, err := s.memberFor(r, false)
	if err != nil {
		return err
	}
	if m, err = s.db.SetMemberSSO(r.Context(), me.OrgID, m.User.ID); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Member(m))
}

// listMemberSpaces lists the spaces a member can access with their role in
// each. Admins may list anyone's; members their own.
func (s *Server) listMemberSpaces(w http.ResponseWriter, r *http.Request) error {
	me, m, err := s.memberFor(r, true)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[authoring.MemberSpace], error) {
		if _, err := orderParam(r); err != nil {
			return nil, err
		}
		return s.author.MemberSpaces(ctx, me, m.User.ID, p)
	}, func(ms authoring.MemberSpace) wire.MemberSpace {
		// The permission shown is the member's; the space's flags are the caller's.
		return wire.MemberSpace{Permission: ms.Role, Space: s.wire.Space(ms.Space, ms.ViewerRole)}
	})
}

func (s *Server) listMemberTeams(w http.ResponseWriter, r *http.Request) error {
	me, m, err := s.member(r)
	if err != nil {
		return err
	}
	var team func(*quire.Team) wire.Team
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.TeamMembership], error) {
		list, err := s.db.ListMemberTeams(ctx, me.OrgID, m.User.ID, query(r).Get("title"), p)
		if err != nil {
			return nil, err
		}
		team, err = s.teamsJSON(ctx, me)
		return list, err
	}, func(tm *quire.TeamMembership) wire.MemberTeam {
		return wire.MemberTeam{Team: team(&tm.Team), Member: wire.TeamMember{Role: tm.Role}}
	})
}

func ownerRole(owner bool) quire.TeamRole {
	if owner {
		return quire.TeamOwner
	}
	return ""
}
