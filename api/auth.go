package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
)

// authenticate resolves the caller from "Authorization: Bearer <token>",
// and returns the token too, and what an installation token was granted
// (nil for an API token).
func (s *Server) authenticate(r *http.Request) (string, *quire.User, *installationGrant, error) {
	auth := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(auth, " ")
	if auth == "" {
		return "", nil, nil, errorf(quire.CodeUnauthorized, "missing Authorization header: send Authorization: Bearer <token>")
	}
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", nil, nil, errorf(quire.CodeUnauthorized, "Authorization header must be Bearer <token>")
	}
	u, err := s.db.UserByToken(r.Context(), token)
	if quire.ErrorCode(err) == quire.CodeUnauthorized {
		u, grant, err := s.installationToken(r, token)
		return token, u, grant, err
	}
	return token, u, nil, err
}

// caller returns the authenticated user of a request.
func caller(ctx context.Context) *quire.User {
	if info := requestInfoOf(ctx); info != nil {
		return info.caller
	}
	return nil
}

// membership returns the caller's membership of the organization named in
// the path, without counts (see store.Membership). Callers outside the
// organization get 404.
func (s *Server) membership(r *http.Request) (*quire.Member, error) {
	return s.orgMember(r, s.db.Membership)
}

func (s *Server) orgMember(r *http.Request, load func(ctx context.Context, orgID, userID string) (*quire.Member, error)) (*quire.Member, error) {
	me, err := load(r.Context(), r.PathValue("organizationId"), caller(r.Context()).ID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return nil, errorf(quire.CodeNotFound, "organization not found")
	}
	return me, err
}

// org loads the organization named in the path and the caller's full
// membership of it, whose counts the organization's permissions need.
func (s *Server) org(r *http.Request) (*quire.Organization, *quire.Member, error) {
	me, err := s.orgMember(r, s.db.Member)
	if err != nil {
		return nil, nil, err
	}
	org, err := s.db.Organization(r.Context(), me.OrgID)
	return org, me, err
}

// requireAdmin refuses members who are not organization admins.
func requireAdmin(me *quire.Member) error { return quire.RequireOrgAdmin(me) }
