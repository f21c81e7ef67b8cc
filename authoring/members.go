package authoring

import (
	"context"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
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

// MemberSpace is a space a member can access with their role on it, and
// the role on it of the one who asks, whose the space's flags are.
type MemberSpace struct {
	store.MemberSpace
	ViewerRole quire.Role
}

// MemberSpaces is page p of the spaces member userID of me's organization
// can access, with their role in each and me's.
func (a *Author) MemberSpaces(ctx context.Context, me *quire.Member, userID string, p store.Page) (*store.List[MemberSpace], error) {
	list, err := a.DB.ListMemberSpaces(ctx, me.OrgID, userID, p)
	if err != nil {
		return nil, err
	}
	v, err := a.DB.Viewer(ctx, me.OrgID, me.User.ID, nil)
	if err != nil {
		return nil, err
	}
	out := &store.List[MemberSpace]{Items: make([]MemberSpace, len(list.Items)), Count: list.Count, Next: list.Next}
	for i, ms := range list.Items {
		out.Items[i] = MemberSpace{MemberSpace: *ms, ViewerRole: v.RoleOn(ms.Space.ID, ms.Space.DefaultLevel, ms.Space.Ancestors)}
	}
	return out, nil
}
