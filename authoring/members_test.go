package authoring_test

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quiredocs/quire/authoring"
)

// TestPing checks the claims signed for the sites and that the member is
// recorded as seen.
func TestPing(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.author.PublicURL = "https://docs.example.com"
	me, err := f.db.Member(ctx, f.space.OrgID, f.userID)
	if err != nil {
		t.Fatal(err)
	}
	if !me.LastSeenAt.IsZero() {
		t.Fatalf("seen before the ping: %v", me.LastSeenAt)
	}
	signed, err := f.author.Ping(ctx, me)
	if err != nil {
		t.Fatal(err)
	}
	key, err := f.db.ServerKey(ctx, authoring.VisitorClaimsKey)
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.MapClaims{}
	if _, err := jwt.ParseWithClaims(signed, claims, func(*jwt.Token) (any, error) { return key, nil }, jwt.WithValidMethods([]string{"HS256"})); err != nil {
		t.Fatalf("claims do not verify: %v", err)
	}
	if claims["iss"] != "https://docs.example.com" || claims["sub"] != f.userID || claims["org"] != f.space.OrgID || claims["role"] != "admin" {
		t.Fatalf("claims %v", claims)
	}
	iat, exp := claims["iat"].(float64), claims["exp"].(float64)
	if time.Duration(exp-iat)*time.Second != authoring.VisitorClaimsTTL {
		t.Fatalf("valid for %v s, want %v", exp-iat, authoring.VisitorClaimsTTL)
	}
	if me, err = f.db.Member(ctx, f.space.OrgID, f.userID); err != nil || me.LastSeenAt.IsZero() {
		t.Fatalf("not seen after the ping: %+v, %v", me, err)
	}
}
