package published

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quiredocs/quire"
)

// MaxToken bounds a visitor token, in bytes (browsers keep cookies to
// 4 KB).
const MaxToken = 8 << 10

// tokenLeeway allows for clocks a little apart between a site's backend,
// which signs tokens, and Quire, which checks their exp and nbf.
const tokenLeeway = 30 * time.Second

// VerifyToken checks a visitor token of a site with auth, at now: an HS256
// JWT signed with the site's key, with an exp not past, an nbf (if any)
// reached and, when the site names an issuer, that iss. It returns the
// token's claims, which conditions read, and when it expires. The sites
// and the API's URL lookups heed the same tokens.
func VerifyToken(auth quire.SitePublishingAuth, token string, now time.Time) (map[string]any, time.Time, error) {
	if auth.Key == "" || len(token) > MaxToken {
		return nil, time.Time{}, errors.New("no key, or token too long")
	}
	opts := []jwt.ParserOption{jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(),
		jwt.WithLeeway(tokenLeeway), jwt.WithTimeFunc(func() time.Time { return now })}
	if auth.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(auth.Issuer))
	}
	claims := jwt.MapClaims{}
	if _, err := jwt.NewParser(opts...).ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte(auth.Key), nil }); err != nil {
		return nil, time.Time{}, err
	}
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return nil, time.Time{}, errors.New("no exp")
	}
	return claims, exp.Time, nil
}
