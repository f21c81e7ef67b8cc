package api

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/wire"
)

// Site API tokens (published.SiteToken): /v1/urls/published mints one for
// the site space it resolved, and GitBook's renderer sends it as bearer for
// the reads of the page it renders. A site token stands for one visitor of
// one published site: it is read-only and reaches only the routes below,
// only that site, and only the spaces of it the visitor saw when it was
// minted that the site still publishes (a change request or revision only
// for the preview it was minted for). Anything else is refused before the
// handler runs: 403 for an operation a site token may never call, 404 for
// another organization, site, space, change request or revision, as for
// what does not exist. Handlers run with a read-only visitor (siteGrant.viewer),
// so no handler sees a nil caller and no role check passes above read.

// siteTokenKeyName names the key site tokens are signed with (store.DB.ServerKey).
const siteTokenKeyName = "site-api-token"

// siteTokenRoutes are the operations a site token may call: the reads of
// the published site and of its spaces' content that the renderer makes
// (embeds' previews and computed documents among them), and the site's
// search, ask and insights events, the only POSTs besides computing a
// document, which reads.
var siteTokenRoutes = func() map[string]bool {
	site := "/v1/orgs/{organizationId}/sites/{siteId}"
	rev := "/v1/spaces/{spaceId}/revisions/{revisionId}"
	space := "/v1/spaces/{spaceId}/content"
	cr := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
	m := map[string]bool{
		"GET " + site + "/published": true, "GET " + site + "/redirect": true,
		"POST " + site + "/search": true, "POST " + site + "/ask": true,
		"GET " + site + "/ask/questions": true, "POST " + site + "/insights/events": true,
		"GET /v1/spaces/{spaceId}": true, "GET /v1/spaces/{spaceId}/documents/{documentId}": true,
		"GET /v1/spaces/{spaceId}/embed": true, "POST " + space + "/computed/document": true,
		"GET " + space + "/path/{pagePath...}": true, "GET " + cr: true, "GET " + cr + "/changes": true,
		"GET " + cr + "/content/path/{pagePath...}": true,
		"GET " + rev + "/changes":                   true, "GET " + rev + "/files/{fileId}/download": true,
		"GET " + rev + "/path/{pagePath...}": true, "GET " + rev + "/page/{pageId}/document": true,
		"GET " + rev + "/reusable-contents/{reusableContentId}/document": true,
	}
	for _, prefix := range []string{space, cr + "/content", rev} {
		for _, tail := range []string{"", "/pages", "/files", "/files/{fileId}", "/page/{pageId}",
			"/page/{pageId}/meta-links", "/reusable-contents/{reusableContentId}"} {
			m["GET "+prefix+tail] = true
		}
	}
	return m
}()

// siteGrant is what an accepted site token reaches.
type siteGrant struct {
	token  *published.SiteToken
	site   *quire.Site
	spaces map[string]bool // the token's spaces that the site still publishes
	sees   published.Sees  // the visitor, judging pages' conditions by the token's claims
}

// siteGrantOf is the site token a request came with; nil for any other.
func siteGrantOf(ctx context.Context) *siteGrant {
	if info := requestInfoOf(ctx); info != nil {
		return info.site
	}
	return nil
}

// siteTokenKeys keeps the signing key once read: it never changes, and
// reading it is a transaction.
type siteTokenKeys struct {
	mu  sync.Mutex
	key []byte
}

func (s *Server) siteTokenKey(ctx context.Context) ([]byte, error) {
	s.siteKeys.mu.Lock()
	defer s.siteKeys.mu.Unlock()
	if s.siteKeys.key == nil {
		key, err := s.db.ServerKey(ctx, siteTokenKeyName)
		if err != nil {
			return nil, err
		}
		s.siteKeys.key = key
	}
	return s.siteKeys.key, nil
}

// mintSiteToken is the apiToken of a URL lookup's answer out: for the
// spaces of the site the visitor sees (locs), with their claims, expiring
// no later than their own token (notAfter, zero for none).
func (s *Server) mintSiteToken(ctx context.Context, out *wire.PublishedSiteContent, locs []published.Location, claims map[string]any, notAfter time.Time) (string, error) {
	key, err := s.siteTokenKey(ctx)
	if err != nil {
		return "", err
	}
	t := published.SiteToken{Organization: out.Organization, Site: out.Site, SiteSection: out.SiteSection,
		SiteSpace: out.SiteSpace, Space: out.Space, ChangeRequest: out.ChangeRequest, Revision: out.Revision,
		Draft: out.Preview, Claims: claims}
	for _, l := range locs {
		if sp := l.SiteSpace.Space; sp != nil && !slices.Contains(t.Spaces, sp.ID) {
			t.Spaces = append(t.Spaces, sp.ID)
		}
	}
	return published.SignSiteToken(key, t, s.db.Now(), notAfter)
}

// acceptSiteToken authenticates token as a site token: the read-only
// visitor it stands for and what it reaches. A bad or expired one is 401;
// one of a site no longer published to anyone is 404.
func (s *Server) acceptSiteToken(r *http.Request, token string) (*quire.User, *siteGrant, error) {
	key, err := s.siteTokenKey(r.Context())
	if err != nil {
		return nil, nil, err
	}
	t, err := published.VerifySiteToken(key, token, s.db.Now())
	if errors.Is(err, published.ErrSiteTokenExpired) {
		return nil, nil, errorf(quire.CodeUnauthorized, "the site token has expired: look the URL up again for a new one")
	} else if err != nil {
		return nil, nil, errorf(quire.CodeUnauthorized, "invalid API token")
	}
	commits := s.db.Commits()
	site, err := s.reader.PublishedSite(r.Context(), t.Site, commits)
	if quire.ErrorCode(err) == quire.CodeNotFound || (err == nil && (site.OrgID != t.Organization || !site.VisibleWithKey(""))) {
		return nil, nil, errorf(quire.CodeNotFound, "site not found")
	} else if err != nil {
		return nil, nil, err
	}
	st, err := s.reader.PublishedStructure(r.Context(), site, commits)
	if err != nil {
		return nil, nil, err
	}
	g := &siteGrant{token: t, site: site, spaces: map[string]bool{}, sees: seesOf(splitClaims(t.Claims))}
	for _, ss := range st.AllSiteSpaces() {
		if ss.Space != nil && slices.Contains(t.Spaces, ss.Space.ID) {
			g.spaces[ss.Space.ID] = true
		}
	}
	return g.visitor(), g, nil
}

// visitor is the caller a site token's handlers run as: no account, named
// after the site (an id no user has).
func (g *siteGrant) visitor() *quire.User {
	return &quire.User{ID: "site:" + g.site.ID, DisplayName: g.site.Title}
}

// viewer is the visitor's Viewer of orgID's content: a guest granted read
// on the site and its spaces the token reaches, nothing more; outside the
// site's organization, no member.
func (g *siteGrant) viewer(orgID string) *quire.Viewer {
	v := &quire.Viewer{UserID: g.visitor().ID}
	if orgID != g.site.OrgID {
		return v
	}
	v.Member, v.OrgRole = true, quire.RoleGuest
	v.Grants = map[string]quire.Role{g.site.ID: quire.RoleRead}
	for id := range g.spaces {
		v.Grants[id] = quire.RoleRead
	}
	return v
}

// viewer is the caller's Viewer of orgID's content, with the roles on ids
// and their collections loaded (store.DB.Viewer); for a site token, the
// visitor's (siteGrant.viewer).
func (s *Server) viewer(ctx context.Context, orgID string, ids []string) (*quire.Viewer, error) {
	if g := siteGrantOf(ctx); g != nil {
		return g.viewer(orgID), nil
	}
	return s.db.Viewer(ctx, orgID, caller(ctx).ID, ids)
}

// allowSiteToken checks a request made with a site token against what the
// token reaches.
func (s *Server) allowSiteToken(r *http.Request, pattern string, g *siteGrant) error {
	if !siteTokenRoutes[pattern] {
		return errorf(quire.CodeForbidden, "a site API token is read-only and may not call %s", pattern)
	}
	if id := r.PathValue("organizationId"); id != "" && id != g.site.OrgID {
		return errorf(quire.CodeNotFound, "organization not found")
	}
	if id := r.PathValue("siteId"); id != "" && id != g.site.ID {
		return errorf(quire.CodeNotFound, "site not found")
	}
	spaceID := r.PathValue("spaceId")
	if spaceID != "" && !g.spaces[spaceID] {
		return errorf(quire.CodeNotFound, "space not found")
	}
	if id := r.PathValue("changeRequestId"); id != "" && (id != g.token.ChangeRequest || spaceID != g.token.Space) {
		return errorf(quire.CodeNotFound, "change request not found")
	}
	if id := r.PathValue("revisionId"); id != "" {
		ok, err := s.siteTokenRevision(r.Context(), g, spaceID, id)
		if err != nil || !ok {
			return cmpErr(err, errorf(quire.CodeNotFound, "revision not found"))
		}
	}
	return nil
}

// siteTokenRevision reports whether a site token reads revision id of
// space spaceID: the space's current one (what the site publishes), or
// the one its preview shows.
func (s *Server) siteTokenRevision(ctx context.Context, g *siteGrant, spaceID, id string) (bool, error) {
	if spaceID == g.token.Space && id == g.token.Revision {
		return true, nil
	}
	if spaceID == g.token.Space && g.token.ChangeRequest != "" {
		cr, err := s.db.ChangeRequest(ctx, spaceID, g.token.ChangeRequest)
		if err != nil {
			return false, err
		}
		if id == cr.RevisionID {
			return true, nil
		}
	}
	sp, err := s.db.Space(ctx, spaceID)
	if err != nil {
		return false, err
	}
	return id == sp.RevisionID, nil
}

// cmpErr is err, unless nil or a not found, then fallback: a not found
// says nothing of what the token does not reach.
func cmpErr(err, fallback error) error {
	if err == nil || quire.ErrorCode(err) == quire.CodeNotFound {
		return fallback
	}
	return err
}

// siteTokenSpaces is what a site token's visitor sees of its site, as
// PublishedSites.VisibleSpaces tells it for a visitor without claims: the
// site spaces seen by their claims, one per space, of the spaces the token
// reaches, and whether they see a page.
func (s *Server) siteTokenSpaces(ctx context.Context, g *siteGrant) ([]*quire.SiteSpace, func(*revision.View, string) bool, error) {
	st, err := s.reader.PublishedStructure(ctx, g.site, s.db.Commits())
	if err != nil {
		return nil, nil, err
	}
	var out []*quire.SiteSpace
	seen := map[string]bool{}
	for _, l := range published.Locations(st, g.sees) {
		if sp := l.SiteSpace.Space; sp != nil && g.spaces[sp.ID] && !seen[sp.ID] {
			seen[sp.ID] = true
			out = append(out, l.SiteSpace)
		}
	}
	return out, func(v *revision.View, id string) bool {
		return published.Pages{Tree: v.Tree, Parent: v.Index().Parent, Sees: g.sees}.Visible(id)
	}, nil
}

// pagesSeen is the pages of v as a site token's visitor finds them; ok is
// false when the request came with no site token, or the visitor sees
// every page of v.
func pagesSeen(ctx context.Context, v *revision.View) (published.Pages, bool) {
	g := siteGrantOf(ctx)
	if g == nil {
		return published.Pages{}, false
	}
	ps := published.Pages{Tree: v.Tree, Parent: v.Index().Parent, Sees: g.sees}
	for _, p := range v.Tree.Pages {
		if !ps.Meets(p) {
			return ps, true
		}
	}
	return published.Pages{}, false
}

// checkPageSeen answers 404 for a page of v (named by the path's pageId,
// pagePath or documentId) that a site token's visitor does not see, as the
// published site would.
func checkPageSeen(r *http.Request, v *revision.View) error {
	ps, ok := pagesSeen(r.Context(), v)
	if !ok {
		return nil
	}
	id, named := r.PathValue("pageId"), false
	if id != "" {
		named = true
	} else if path := r.PathValue("pagePath"); path != "" {
		id, named = v.PageAt(path)
	} else if doc := r.PathValue("documentId"); doc != "" {
		id, named = v.PageOfDocument(doc)
	}
	if named && !ps.Visible(id) {
		return errorf(quire.CodeNotFound, "page not found")
	}
	return nil
}

// seenPagesJSON is pages without those (and their children) ps does not
// show the visitor.
func seenPagesJSON(pages []wire.Page, ps published.Pages) []wire.Page {
	out := make([]wire.Page, 0, len(pages))
	for _, p := range pages {
		if !ps.Meets(ps.Tree.Pages[p.ID]) {
			continue
		}
		p.Pages = seenPagesJSON(p.Pages, ps)
		out = append(out, p)
	}
	return out
}

// visitorClaims are a URL lookup's visitor's claims (a SiteVisitorPayload)
// on site: on a site with adaptive content, those of the payload's jwtToken
// when it verifies with the site's key (a bad one goes unheeded), expiring
// with it, and its unsignedClaims; none elsewhere.
func (s *Server) visitorClaims(site *quire.Site, visitor map[string]any) (signed, unsigned map[string]any, expires time.Time) {
	if !site.AdaptiveContent {
		return nil, nil, time.Time{}
	}
	if token, _ := visitor["jwtToken"].(string); token != "" {
		var err error
		if signed, expires, err = published.VerifyToken(site.PublishingAuth, token, s.db.Now()); err != nil {
			signed, expires = nil, time.Time{}
		}
	}
	unsigned, _ = visitor["unsignedClaims"].(map[string]any)
	return signed, unsigned, expires
}

// tokenClaims are the claims a site token carries (SiteToken.Claims), as
// conditions read them: the signed ones, with the unsigned under
// "unsigned" (condition.VisitorEnv); splitClaims takes them apart again.
func tokenClaims(signed, unsigned map[string]any) map[string]any {
	out := maps.Clone(signed)
	if out == nil {
		out = map[string]any{}
	}
	if unsigned == nil {
		unsigned = map[string]any{}
	}
	out["unsigned"] = unsigned
	return out
}

func splitClaims(claims map[string]any) (signed, unsigned map[string]any) {
	signed = maps.Clone(claims)
	if signed != nil {
		unsigned, _ = signed["unsigned"].(map[string]any)
		delete(signed, "unsigned")
	}
	return signed, unsigned
}

// seesOf is how a visitor with these claims judges conditions, each
// condition judged once.
func seesOf(signed, unsigned map[string]any) published.Sees {
	env := condition.VisitorEnv(signed, unsigned)
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(cond string) bool {
		mu.Lock()
		defer mu.Unlock()
		ok, asked := seen[cond]
		if !asked {
			ok = condition.Holds(cond, env)
			seen[cond] = ok
		}
		return ok
	}
}
