package authoring_test

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
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

// TestMemberSpaces lists a member's spaces with their role and the asker's.
func TestMemberSpaces(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	org := f.space.OrgID
	guest, err := f.db.AddUser(ctx, org, "gus@example.com", "Gus", quire.RoleGuest)
	if err != nil {
		t.Fatal(err)
	}
	hidden, err := f.db.CreateSpace(ctx, org, store.NewSpace{Title: "Hidden"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.GrantRoles(ctx, store.Content{Kind: "space", ID: f.space.ID, OrgID: org, Level: f.space.DefaultLevel}, []string{guest.User.ID}, nil, quire.RoleEdit); err != nil {
		t.Fatal(err)
	}
	admin, err := f.db.Member(ctx, org, f.userID)
	if err != nil {
		t.Fatal(err)
	}
	list, err := f.author.MemberSpaces(ctx, admin, guest.User.ID, store.Page{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Count != 1 {
		t.Fatalf("Gus's spaces: %+v", list.Items)
	}
	ms := list.Items[0]
	if ms.Space.ID != f.space.ID || ms.Role != quire.RoleEdit || ms.ViewerRole != quire.RoleAdmin {
		t.Fatalf("Gus's space %s with %s, asked by a %s", ms.Space.Title, ms.Role, ms.ViewerRole)
	}
	if list, err = f.author.MemberSpaces(ctx, admin, f.userID, store.Page{Limit: 10}); err != nil || len(list.Items) != 2 {
		t.Fatalf("the admin's own spaces: %+v, %v; want Docs and %s", list, err, hidden.Title)
	}
}
