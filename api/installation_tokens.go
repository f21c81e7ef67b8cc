package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

// Installation tokens (POST …/installations/{id}/tokens) act with the
// rights of the admin who installed the integration, narrowed to what the
// installation was granted: only the operations below, each needing one of
// the integration's scopes, and only on the installation's organization and
// the spaces and sites it reaches. Anything else is refused (403) before
// the handler runs; a space, site or organization outside the installation
// is 404, as for what does not exist.

// installationRoute is an operation an installation token may call, and
// the scopes of which it needs one ("" for none: its own installation).
type installationRoute struct {
	prefix bool // the pattern's path and every path below it
	scopes []string
}

var installationRoutes = map[string]installationRoute{
	"GET /v1/spaces/{spaceId}":                                                                 {scopes: []string{"space:metadata:read", "space:content:read"}},
	"PATCH /v1/spaces/{spaceId}":                                                               {scopes: []string{"space:metadata:write"}},
	"GET /v1/spaces/{spaceId}/":                                                                {prefix: true, scopes: []string{"space:content:read"}},
	"GET /v1/orgs/{organizationId}/sites/{siteId}":                                             {prefix: true, scopes: []string{"site:metadata:read"}},
	"GET /v1/orgs/{organizationId}/openapi":                                                    {prefix: true, scopes: []string{"openapi:read"}},
	"PUT /v1/orgs/{organizationId}/openapi/{specSlug}":                                         {scopes: []string{"openapi:write"}},
	"GET /v1/integrations/{integrationName}":                                                   {},
	"GET /v1/integrations/{integrationName}/installations":                                     {prefix: true},
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}":                  {},
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}": {},
	"PATCH /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}":   {},
}

// installationGrant is what an installation token was granted.
type installationGrant = authoring.InstallationGrant

// viaInstallation reports whether the request came with an installation
// token.
func viaInstallation(r *http.Request) bool {
	info := requestInfoOf(r.Context())
	return info != nil && info.grant != nil
}

// installationRouteOf finds the rule for a route pattern.
func installationRouteOf(pattern string) (installationRoute, bool) {
	if rt, ok := installationRoutes[pattern]; ok {
		return rt, true
	}
	for p, rt := range installationRoutes {
		if rt.prefix && strings.HasPrefix(pattern, strings.TrimSuffix(p, "/")+"/") {
			return rt, true
		}
	}
	return installationRoute{}, false
}

// allowInstallation checks a request made with an installation token
// against what the installation was granted.
func (s *Server) allowInstallation(r *http.Request, pattern string, g *installationGrant) error {
	rt, ok := installationRouteOf(pattern)
	if !ok {
		return errorf(quire.CodeForbidden, "an installation token may not call %s", pattern)
	}
	if len(rt.scopes) > 0 && !slices.ContainsFunc(rt.scopes, func(sc string) bool { return slices.Contains(g.Scopes, sc) }) {
		return errorf(quire.CodeForbidden, "the integration's scopes do not allow this: it needs %s", strings.Join(rt.scopes, " or "))
	}
	if name := r.PathValue("integrationName"); name != "" && name != g.Installation.Integration {
		return errorf(quire.CodeForbidden, "an installation token may act only for its own integration")
	}
	if id := r.PathValue("installationId"); id != "" && id != g.Installation.ID {
		return errorf(quire.CodeNotFound, "installation not found")
	}
	if org := r.PathValue("organizationId"); org != "" && org != g.Installation.OrgID {
		return errorf(quire.CodeNotFound, "organization not found")
	}
	if id := r.PathValue("spaceId"); id != "" {
		if err := s.author.CheckReach(r.Context(), g.Installation, store.SpaceInstallations, id); err != nil {
			return err
		}
	}
	if id := r.PathValue("siteId"); id != "" {
		return s.author.CheckReach(r.Context(), g.Installation, store.SiteInstallations, id)
	}
	return nil
}

// installationToken authenticates token as an installation token: the
// installer, and what the installation was granted.
func (s *Server) installationToken(r *http.Request, token string) (*quire.User, *installationGrant, error) {
	g, err := s.author.TokenGrant(r.Context(), token)
	if err != nil {
		return nil, nil, err
	}
	return g.User, g, nil
}
