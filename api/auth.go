package api

import (
	"context"
	"crypto/sha256"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire"
)

type callerKey struct{}

// authenticate resolves the caller from "Authorization: Bearer <token>".
func (s *Server) authenticate(r *http.Request) (*quire.User, error) {
	auth := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(auth, " ")
	if auth == "" {
		return nil, errorf(quire.CodeUnauthorized, "missing Authorization header: send Authorization: Bearer <token>")
	}
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, errorf(quire.CodeUnauthorized, "Authorization header must be Bearer <token>")
	}
	token = strings.TrimSpace(token)
	key, now, revoked := sha256.Sum256([]byte(token)), time.Now(), s.db.TokenRevocations()
	if u := s.tokens.get(key, now, revoked); u != nil {
		return u, nil
	}
	u, err := s.db.UserByToken(r.Context(), token)
	if err == nil {
		s.tokens.put(key, u, now, revoked)
	}
	return u, err
}

// tokenTTL is how long a server remembers whose a token is. A token revoked
// through this server's store is forgotten at once (the cache starts over
// when store.DB.TokenRevocations moves); one revoked through another server
// may keep working here this long, if this server had just seen it. A
// user's own profile change clears it on the server that made it
// (forgetUser); others may show the old name and photo this long.
const tokenTTL = 10 * time.Second

// maxCachedTokens bounds the cache: once full, it starts over.
const maxCachedTokens = 10_000

// tokenCache remembers the users of recently seen API tokens, by their
// SHA-256, which spares most requests the token query: one of the three
// queries of GET S.
type tokenCache struct {
	mu      sync.RWMutex
	m       map[[sha256.Size]byte]cachedUser
	revoked uint64 // the store's TokenRevocations when m was begun
}

type cachedUser struct {
	user    quire.User
	expires time.Time
}

// get returns a copy of the user of a token seen less than tokenTTL ago,
// and no revocation ago, or nil.
func (c *tokenCache) get(key [sha256.Size]byte, now time.Time, revoked uint64) *quire.User {
	c.mu.RLock()
	e, ok := c.m[key]
	fresh := c.revoked == revoked
	c.mu.RUnlock()
	if !ok || !fresh || !now.Before(e.expires) {
		return nil
	}
	return &e.user
}

func (c *tokenCache) put(key [sha256.Size]byte, u *quire.User, now time.Time, revoked uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedTokens || c.revoked != revoked {
		c.m, c.revoked = map[[sha256.Size]byte]cachedUser{}, revoked
	}
	c.m[key] = cachedUser{user: *u, expires: now.Add(tokenTTL)}
}

// forgetUser drops what the cache remembers of a user's tokens, whose
// profile has just changed on this server.
func (c *tokenCache) forgetUser(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.m {
		if e.user.ID == id {
			delete(c.m, k)
		}
	}
}

// caller returns the authenticated user of a request.
func caller(ctx context.Context) *quire.User {
	u, _ := ctx.Value(callerKey{}).(*quire.User)
	return u
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
func requireAdmin(me *quire.Member) error {
	if me.Role != quire.RoleAdmin {
		return errorf(quire.CodeForbidden, "only organization admins may do this")
	}
	return nil
}
