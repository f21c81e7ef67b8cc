package published

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Site API tokens: what GET and POST /v1/urls/published answer as apiToken,
// and GitBook's renderer then sends as bearer for every read of the page it
// renders. A token is the reference's SiteAPIToken signed by Quire (HS256,
// a key every server of one database shares): read-only, for exactly one
// site, its organization, and the spaces the visitor saw of it when it was
// minted. Package api decides what a token may call; these are its claims
// and their signature.

// SiteTokenLifetime is how long a site token lives. An hour, not GitBook's
// day: the token is a bearer credential that a renderer keeps in its
// caches and pages, it carries the visitor's claims (which come from a
// token of their own that expires), and the renderer refreshes a token
// near its end by looking the URL up again (lib/api-token.ts), so a short
// life costs one lookup an hour.
const SiteTokenLifetime = time.Hour

// MaxSiteToken bounds a site token, in bytes: one with the claims of a
// visitor token (MaxToken) and the spaces of a large site.
const MaxSiteToken = 64 << 10

// SiteTokenKind is the kind of site tokens, the reference's "site".
const SiteTokenKind = "site"

// SiteToken is the reference's SiteAPIToken, with exp and iat. Previews
// add the change request or revision they show (not in the reference's
// schema), so that a preview's token reads that draft and no other.
type SiteToken struct {
	Kind          string   `json:"kind"`
	Organization  string   `json:"organization"`
	Spaces        []string `json:"spaces"` // the spaces the visitor saw of the site
	Site          string   `json:"site"`
	SiteSection   string   `json:"siteSection,omitempty"`
	SiteSpace     string   `json:"siteSpace"`
	Space         string   `json:"space"`
	Draft         bool     `json:"draft,omitempty"`
	ChangeRequest string   `json:"changeRequest,omitempty"`
	Revision      string   `json:"revision,omitempty"`
	// Claims are the visitor's, as conditions read them (signed claims
	// with "unsigned" holding the stated ones); only on sites with
	// adaptive content. The renderer reads them from here
	// (lib/adaptive.ts getVisitorAuthClaimsFromToken).
	Claims map[string]any `json:"claims,omitempty"`
	jwt.RegisteredClaims
}

// SignSiteToken signs t with key, issued at now and expiring
// SiteTokenLifetime later, or at notAfter when that is sooner and not zero
// (the visitor's own token expiring first).
func SignSiteToken(key []byte, t SiteToken, now, notAfter time.Time) (string, error) {
	if len(key) == 0 {
		return "", errors.New("site token: no key")
	}
	exp := now.Add(SiteTokenLifetime)
	if !notAfter.IsZero() && notAfter.Before(exp) {
		exp = notAfter
	}
	t.Kind = SiteTokenKind
	if t.Spaces == nil {
		t.Spaces = []string{}
	}
	t.RegisteredClaims = jwt.RegisteredClaims{IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp)}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, &t).SignedString(key)
}

// ErrSiteTokenExpired is a site token past its exp: its holder looks the
// URL up again for a new one.
var ErrSiteTokenExpired = errors.New("the site token has expired")

// VerifySiteToken checks a site token with key at now: signed with HS256
// by key, of kind site, naming a site and an organization, with an exp not
// past. Expired tokens are ErrSiteTokenExpired, any other refusal another
// error. No leeway: Quire both signs and checks.
func VerifySiteToken(key []byte, token string, now time.Time) (*SiteToken, error) {
	if len(key) == 0 || len(token) > MaxSiteToken {
		return nil, errors.New("site token: no key, or too long")
	}
	var t SiteToken
	p := jwt.NewParser(jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(), jwt.WithIssuedAt(),
		jwt.WithTimeFunc(func() time.Time { return now }))
	if _, err := p.ParseWithClaims(token, &t, func(*jwt.Token) (any, error) { return key, nil }); err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, ErrSiteTokenExpired
		}
		return nil, err
	}
	if t.Kind != SiteTokenKind || t.Site == "" || t.Organization == "" || t.Space == "" {
		return nil, errors.New("site token: not a site token")
	}
	return &t, nil
}

// LooksLikeSiteToken tells a bearer that may be a site token (a JWT:
// three parts) from Quire's other tokens, which have no dots.
func LooksLikeSiteToken(token string) bool {
	dots := 0
	for i := 0; i < len(token); i++ {
		if token[i] == '.' {
			dots++
		}
	}
	return dots == 2
}
