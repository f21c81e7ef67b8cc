package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/published"
)

// authenticated is who a request's token stands for.
type authenticated struct {
	token string
	user  *quire.User
	grant *installationGrant // what an installation token was granted; nil for others
	site  *siteGrant         // what a site token reaches; nil for others
}

// limitKey is what the caller's requests are counted by: the API or
// installation token, or a site token's site, so that a renderer serving
// every visitor of a site from one address has the site's budget.
func (a authenticated) limitKey() string {
	if a.site != nil {
		return "site:" + a.site.site.ID
	}
	return a.token
}

// authenticate resolves the caller from "Authorization: Bearer <token>":
// an API token, an installation token or a site token (sitetokens.go).
func (s *Server) authenticate(r *http.Request) (authenticated, error) {
	auth := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(auth, " ")
	if auth == "" {
		return authenticated{}, errorf(quire.CodeUnauthorized, "missing Authorization header: send Authorization: Bearer <token>")
	}
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return authenticated{}, errorf(quire.CodeUnauthorized, "Authorization header must be Bearer <token>")
	}
	if published.LooksLikeSiteToken(token) {
		u, g, err := s.acceptSiteToken(r, token)
		return authenticated{token: token, user: u, site: g}, err
	}
	u, err := s.db.UserByToken(r.Context(), token)
	if quire.ErrorCode(err) == quire.CodeUnauthorized {
		u, grant, err := s.installationToken(r, token)
		return authenticated{token: token, user: u, grant: grant}, err
	}
	return authenticated{token: token, user: u}, err
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
