package authoring

import (
	"context"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// VisitorClaimsTTL is how long the claims Ping signs stay valid.
const VisitorClaimsTTL = time.Hour

// VisitorClaimsKey names the server key that signs visitors' claims.
const VisitorClaimsKey = "visitor-claims"

// Ping records that member me was seen and returns their claims for the
// published sites, signed (HS256) with the server key VisitorClaimsKey: this
// server as issuer (PublicURL), the user as subject, their organization and
// role, valid for VisitorClaimsTTL.
func (a *Author) Ping(ctx context.Context, me *quire.Member) (string, error) {
	if err := a.DB.TouchMember(ctx, me.OrgID, me.User.ID); err != nil {
		return "", err
	}
	key, err := a.DB.ServerKey(ctx, VisitorClaimsKey)
	if err != nil {
		return "", err
	}
	now := a.DB.Now()
	claims := jwt.MapClaims{
		"iss": a.PublicURL, "sub": me.User.ID, "org": me.OrgID, "role": wire.Role(me.Role),
		"iat": now.Unix(), "exp": now.Add(VisitorClaimsTTL).Unix(),
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(key)
}
