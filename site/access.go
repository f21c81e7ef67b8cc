package site

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/published"
	"github.com/quiredocs/quire/store"
)

// Visitor is who reads a published site, as far as the site can tell.
type Visitor struct {
	Member bool           // a member of the site's organization: sees everything
	Claims map[string]any // claims of the visitor's verified token; nil when none
	// Unsigned are the claims the visitor states in ?visitor.<name>=value
	// (on sites with adaptive content), which conditions read as
	// visitor.claims.unsigned.<name>; nil when none.
	Unsigned map[string]any

	conds   *conditions    // compiled conditions; nil compiles each anew
	env     map[string]any // what conditions run against, built on first need
	envOnce sync.Once
}

// Query parameters and cookies of visitor access. Cookies are named per
// site, so that sites sharing a host (under /sites/ of the main address)
// keep theirs apart.
const (
	shareParam     = "share"
	shareKeyParam  = "shareKey" // the API's name for it, in urls.published of share links
	tokenParam     = "jwt_token"
	unsignedPrefix = "visitor."

	shareCookie   = "quire_share_"   // + site id: the share key
	visitorCookie = "quire_visitor_" // + site id: the visitor's token
	claimsCookie  = "quire_claims_"  // + site id: unsigned claims, base64url JSON
)

// Bounds of what a visitor sends.
const (
	maxUnsigned      = 32 // unsigned claims
	maxUnsignedName  = 64
	maxUnsignedValue = 256
)

// memberTTL is how long access remembers whether an API token is a member's
// of an organization, as the API remembers tokens' users (api.tokenTTL).
const memberTTL = 10 * time.Second

// access decides who may read a site.
type access struct {
	db      *store.DB
	conds   *conditions
	members *lru.Cache[[sha256.Size]byte, cachedMember]
	now     func() time.Time
}

// cachedMember is whether an API token was a member's of an organization.
type cachedMember struct {
	member  bool
	expires time.Time
}

func newAccess(db *store.DB) *access {
	return &access{db: db, conds: newConditions(), members: lru.New[[sha256.Size]byte, cachedMember]("site.members"), now: time.Now}
}

// signIn is the cause of a visitor-auth refusal: where to sign in.
type signIn struct{ url string }

func (e *signIn) Error() string { return "visitor token missing or invalid" }

// signInURL is where a visitor refused with err may sign in: the site's
// fallback URL with the page asked for as its location parameter; "" when
// none.
func signInURL(err error) string {
	if s, ok := errors.AsType[*signIn](err); ok {
		return s.url
	}
	return ""
}

// redirect is what admit answers to a request that presented a share key
// or a visitor token in its URL: the cookie is set, and the visitor goes to
// the same URL without it, so that it stays out of the address bar, the
// history and the Referer of links followed.
type redirect struct{ url string }

func (e *redirect) Error() string { return "redirect to " + e.url }

// redirectURL is where a request admit answered with err must go; "" when
// err is no such answer.
func redirectURL(err error) string {
	if r, ok := errors.AsType[*redirect](err); ok {
		return r.url
	}
	return ""
}

// admit decides whether r may read site and who the visitor is, setting the
// cookies that keep a visitor admitted. A refusal is quire.CodeNotFound, so
// nothing tells that a site exists to whom may not read it, except on a
// visitor-auth site, which answers quire.CodeUnauthorized (see signInURL).
// When r carries a valid key or token in its URL, the answer is an error
// for which redirectURL gives where to send the visitor.
//
// Members of the site's organization, calling with their API token
// (Authorization: Bearer) or signed in to the app, read every published
// site of it.
func (a *access) admit(w http.ResponseWriter, r *http.Request, site *quire.Site) (*Visitor, error) {
	v := &Visitor{conds: a.conds}
	if a.isMember(r, site) {
		v.Member = true
		return v, nil
	}
	presented := false // a key or token in the URL, admitted
	switch site.Visibility {
	case quire.VisibilityPublic, quire.VisibilityUnlisted:
	case quire.VisibilityShareLink:
		ok, inURL := a.shareKey(w, r, site)
		if !ok {
			return nil, quire.Errorf(quire.CodeNotFound, "site not found")
		}
		presented = inURL
	case quire.VisibilityVisitorAuth:
		claims, inURL, err := a.visitorToken(w, r, site)
		if err != nil {
			return nil, &quire.Error{Code: quire.CodeUnauthorized, Message: "sign-in needed: this site is for signed-in visitors", Err: &signIn{url: fallbackURL(r, site)}}
		}
		v.Claims, presented = claims, inURL
	default:
		return nil, quire.Errorf(quire.CodeNotFound, "site not found")
	}
	if site.AdaptiveContent {
		if site.Visibility != quire.VisibilityVisitorAuth {
			// Contract §2: adaptive content adapts public sites too, to
			// visitors who bring a token signed with the site's key; a bad
			// one only goes unheeded.
			if claims, inURL, err := a.visitorToken(w, r, site); err == nil {
				v.Claims, presented = claims, presented || inURL
			}
		}
		v.Unsigned = a.unsignedClaims(w, r, site)
	}
	if presented && (r.Method == http.MethodGet || r.Method == http.MethodHead) && !strings.Contains(r.URL.Path, "/~") {
		return nil, &redirect{url: withoutSecrets(r)}
	}
	return v, nil
}

// isMember reports whether r carries the API token of a member of site's
// organization (not a guest, not disabled).
func (a *access) isMember(r *http.Request, site *quire.Site) bool {
	token, ok := bearer(r)
	if !ok || !strings.HasPrefix(token, store.TokenPrefix) {
		return a.isSignedInMember(r, site)
	}
	key, now := sha256.Sum256([]byte(site.OrgID+"\x00"+token)), a.now()
	if e, ok := a.members.Get(key); ok && now.Before(e.expires) {
		return e.member
	}
	member := false
	if u, err := a.db.UserByToken(r.Context(), token); err == nil {
		m, err := a.db.Membership(r.Context(), site.OrgID, u.ID)
		member = err == nil && !m.Disabled && m.Role.AtLeast(quire.RoleRead)
	}
	a.members.Add(key, cachedMember{member: member, expires: now.Add(memberTTL)}, 64)
	return member
}

// isSignedInMember reports whether r comes from a browser signed in to the
// app (the cookie quire.SessionCookie, on the main address) as a member of
// site's organization. Sessions are not cached: signing out takes effect at
// once.
func (a *access) isSignedInMember(r *http.Request, site *quire.Site) bool {
	c, err := r.Cookie(quire.SessionCookie)
	if err != nil || c.Value == "" {
		return false
	}
	_, u, err := a.db.SessionUser(r.Context(), c.Value)
	if err != nil {
		return false
	}
	m, err := a.db.Membership(r.Context(), site.OrgID, u.ID)
	return err == nil && !m.Disabled && m.Role.AtLeast(quire.RoleRead)
}

// bearer is the token of r's "Authorization: Bearer" header.
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != ""
}

// shareKey reports whether r shows site's share key, in its URL (inURL,
// then kept in a cookie) or in the cookie.
func (a *access) shareKey(w http.ResponseWriter, r *http.Request, site *quire.Site) (ok, inURL bool) {
	if len(site.ShareKeys) == 0 {
		return false, false
	}
	q := r.URL.Query()
	key := q.Get(shareParam)
	if key == "" {
		key = q.Get(shareKeyParam)
	}
	if key != "" {
		if !activeKey(site, key) {
			return false, false
		}
		setCookie(w, r, site, shareCookie, key, time.Time{})
		return true, true
	}
	return hasShareCookie(r, site), false
}

// sameSecret compares secrets in time that does not tell how much of them
// matched.
func sameSecret(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// visitorToken returns the claims of the visitor's token, signed with the
// site's key: from ?jwt_token= (inURL, then kept in a cookie until it
// expires), else "Authorization: Bearer" (for programs, such as MCP
// clients), else the cookie, re-verified on every request so that a new key
// refuses it at once. A token in the URL that does not verify gives way to
// the others (an old link may carry an expired one); a cookie that does not
// is cleared.
func (a *access) visitorToken(w http.ResponseWriter, r *http.Request, site *quire.Site) (claims map[string]any, inURL bool, err error) {
	if token := r.URL.Query().Get(tokenParam); token != "" {
		claims, exp, err := a.verify(site, token)
		if err == nil {
			setCookie(w, r, site, visitorCookie, token, exp)
			return claims, true, nil
		}
	}
	if token, ok := bearer(r); ok && !strings.HasPrefix(token, store.TokenPrefix) {
		claims, _, err := a.verify(site, token)
		return claims, false, err
	}
	c, err := r.Cookie(visitorCookie + site.ID)
	if err != nil {
		return nil, false, err
	}
	claims, _, err = a.verify(site, c.Value)
	if err != nil {
		clearCookie(w, r, site, visitorCookie)
	}
	return claims, false, err
}

// verify checks a visitor token of site, as published.VerifyToken does.
func (a *access) verify(site *quire.Site, token string) (map[string]any, time.Time, error) {
	return published.VerifyToken(site.PublishingAuth, token, a.now())
}

// unsignedName is what an unsigned claim may be called.
var unsignedName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// unsignedClaims returns the claims the visitor states in ?visitor.<name>=
// parameters, with those of earlier requests kept in a session cookie;
// new values replace old ones of the same name. "true" and "false" are
// booleans, numbers written as Go would write them are numbers, and the
// rest is text.
func (a *access) unsignedClaims(w http.ResponseWriter, r *http.Request, site *quire.Site) map[string]any {
	claims := map[string]any{}
	if c, err := r.Cookie(claimsCookie + site.ID); err == nil {
		if b, err := base64.RawURLEncoding.DecodeString(c.Value); err == nil {
			_ = json.Unmarshal(b, &claims)
		}
	}
	changed := false
	for name, values := range r.URL.Query() {
		name, ok := strings.CutPrefix(name, unsignedPrefix)
		if !ok || !unsignedName.MatchString(name) || len(values[0]) > maxUnsignedValue {
			continue
		}
		if _, had := claims[name]; !had && len(claims) >= maxUnsigned {
			continue
		}
		claims[name], changed = unsignedValue(values[0]), true
	}
	if changed {
		b, _ := json.Marshal(claims)
		setCookie(w, r, site, claimsCookie, base64.RawURLEncoding.EncodeToString(b), time.Time{})
	}
	if len(claims) == 0 {
		return nil
	}
	return claims
}

// unsignedValue reads an unsigned claim's text as a boolean, a number or text.
func unsignedValue(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == s {
		return f
	}
	return s
}

// setCookie sets one of site's cookies, named prefix + site id: HttpOnly,
// SameSite=Lax, Secure when r came over TLS (a proxy that ends TLS in front
// of Quire is not trusted to say so), under the site's path, expiring at
// expires (zero: with the browser session).
func setCookie(w http.ResponseWriter, r *http.Request, site *quire.Site, prefix, value string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: prefix + site.ID, Value: value, Path: sitePath(r, site), HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode, Expires: expires})
}

// clearCookie removes one of site's cookies.
func clearCookie(w http.ResponseWriter, r *http.Request, site *quire.Site, prefix string) {
	http.SetCookie(w, &http.Cookie{Name: prefix + site.ID, Path: sitePath(r, site), HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// sitePath is the path under which r reached site: /sites/{id}/, else its
// basename's, else the root of its host.
func sitePath(r *http.Request, site *quire.Site) string {
	if p := "/sites/" + site.ID + "/"; strings.HasPrefix(r.URL.Path, p) {
		return p
	}
	if site.Basename != "" {
		return "/" + site.Basename + "/"
	}
	return "/"
}

// withoutSecrets is r's path and query, without share keys and tokens.
func withoutSecrets(r *http.Request) string {
	q := r.URL.Query()
	q.Del(shareParam)
	q.Del(shareKeyParam)
	q.Del(tokenParam)
	u := url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: q.Encode()}
	return u.RequestURI()
}

// fallbackURL is the site's sign-in URL for a visitor refused at r, with
// location set to where they were going (the path and query, without
// secrets), for the sign-in backend to send them back to with a token; ""
// when the site has none.
func fallbackURL(r *http.Request, site *quire.Site) string {
	u, err := url.Parse(site.PublishingAuth.FallbackURL)
	if site.PublishingAuth.FallbackURL == "" || err != nil {
		return ""
	}
	q := u.Query()
	q.Set("location", withoutSecrets(r))
	u.RawQuery = q.Encode()
	return u.String()
}

// buildEnv is what conditions see of v: {"visitor": {"claims": its signed
// claims, with "unsigned": its unsigned ones}}. The unsigned claims never
// mix with the signed ones, so a visitor cannot pose as what a token says.
func (v *Visitor) buildEnv() map[string]any { return condition.VisitorEnv(v.Claims, v.Unsigned) }

// logoutPath, below a site's root, signs a visitor out.
const logoutPath = "/~logout"

// serveLogout signs the visitor out of rq's site: it clears the site's
// visitor cookies (share key, token, unsigned claims) and sends them to
// the site's logout URL, for their sign-in backend to sign them out too,
// else to the site's root. It comes before admit, so that a visitor whose
// token has expired, or whose key was rotated, can still clear it; on a
// share-link site, a request without the key (nor a member's token) is
// answered the 404 of anyone refused, cookies cleared all the same, so
// that the path tells a stranger nothing.
func (s *Server) serveLogout(w http.ResponseWriter, r *http.Request, rq *request) error {
	if err := allowMethods(w, r, http.MethodGet); err != nil {
		return err
	}
	site := rq.site
	for _, prefix := range []string{shareCookie, visitorCookie, claimsCookie} {
		clearCookie(w, r, site, prefix)
	}
	if site.Visibility == quire.VisibilityShareLink && !hasShareCookie(r, site) && !s.access.isMember(r, site) {
		return quire.Errorf(quire.CodeNotFound, "site not found")
	}
	to := site.PublishingAuth.LogoutURL
	if to == "" {
		to = rq.base + "/"
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusFound)
	return nil
}

// hasShareCookie reports whether r keeps the key of one of site's active
// share links in its cookie: revoking a link shuts out its cookies too.
func hasShareCookie(r *http.Request, site *quire.Site) bool {
	c, err := r.Cookie(shareCookie + site.ID)
	return err == nil && activeKey(site, c.Value)
}

// activeKey reports whether key is the key of one of site's active share
// links, comparing with each in constant time.
func activeKey(site *quire.Site, key string) bool {
	found := false
	for _, k := range site.ShareKeys {
		if sameSecret(key, k) {
			found = true
		}
	}
	return key != "" && found
}
