package published

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestSiteToken(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	key := []byte("the key")
	want := SiteToken{Organization: "o", Site: "s", SiteSpace: "ss", Space: "sp", Spaces: []string{"sp", "sp2"},
		Claims: map[string]any{"plan": "pro", "unsigned": map[string]any{}}}
	token, err := SignSiteToken(key, want, now, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := VerifySiteToken(key, token, now.Add(SiteTokenLifetime-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != SiteTokenKind || got.Site != "s" || got.Organization != "o" || got.Space != "sp" || len(got.Spaces) != 2 ||
		got.Claims["plan"] != "pro" || !got.ExpiresAt.Time.Equal(now.Add(SiteTokenLifetime)) {
		t.Errorf("verified %+v", got)
	}
	if _, err := VerifySiteToken(key, token, now.Add(SiteTokenLifetime)); !errors.Is(err, ErrSiteTokenExpired) {
		t.Errorf("at exp: %v, want expired", err)
	}

	// The visitor's token expiring first ends the site token with it.
	soon := now.Add(10 * time.Minute)
	short, _ := SignSiteToken(key, want, now, soon)
	if _, err := VerifySiteToken(key, short, soon.Add(time.Second)); !errors.Is(err, ErrSiteTokenExpired) {
		t.Errorf("after the visitor's exp: %v", err)
	}

	sign := func(method jwt.SigningMethod, k any, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(method, claims).SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	exp := now.Add(time.Hour).Unix()
	valid := jwt.MapClaims{"kind": "site", "site": "s", "organization": "o", "space": "sp", "spaces": []string{"sp"}, "exp": exp}
	with := func(k string, v any) jwt.MapClaims {
		c := jwt.MapClaims{}
		for kk, vv := range valid {
			c[kk] = vv
		}
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	for _, tc := range []struct {
		name, token string
		ok          bool
	}{
		{"valid", sign(jwt.SigningMethodHS256, key, valid), true},
		{"another key", sign(jwt.SigningMethodHS256, []byte("another"), valid), false},
		{"another method", sign(jwt.SigningMethodHS512, key, valid), false},
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, valid), false},
		{"no exp", sign(jwt.SigningMethodHS256, key, with("exp", nil)), false},
		{"issued later", sign(jwt.SigningMethodHS256, key, with("iat", now.Add(time.Minute).Unix())), false},
		{"another kind", sign(jwt.SigningMethodHS256, key, with("kind", "space")), false},
		{"no site", sign(jwt.SigningMethodHS256, key, with("site", nil)), false},
		{"no organization", sign(jwt.SigningMethodHS256, key, with("organization", nil)), false},
		{"spaces not a list", sign(jwt.SigningMethodHS256, key, with("spaces", "sp")), false},
		{"too long", sign(jwt.SigningMethodHS256, key, with("pad", strings.Repeat("x", MaxSiteToken))), false},
		{"junk", "a.b.c", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := VerifySiteToken(key, tc.token, now); (err == nil) != tc.ok {
				t.Errorf("err %v, want ok %v", err, tc.ok)
			}
		})
	}
	if _, err := VerifySiteToken(nil, token, now); err == nil {
		t.Error("verified without a key")
	}
	if _, err := SignSiteToken(nil, want, now, time.Time{}); err == nil {
		t.Error("signed without a key")
	}
	if !LooksLikeSiteToken(token) || LooksLikeSiteToken("quire_ABCDEF") {
		t.Error("LooksLikeSiteToken")
	}
}

// FuzzVerifySiteToken: any bearer is refused or verified without panicking,
// and only a token signed with the key verifies.
func FuzzVerifySiteToken(f *testing.F) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	key := []byte("the key")
	good, _ := SignSiteToken(key, SiteToken{Organization: "o", Site: "s", SiteSpace: "ss", Space: "sp"}, now, time.Time{})
	f.Add(good)
	f.Add("a.b.c")
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Fuzz(func(t *testing.T, token string) {
		got, err := VerifySiteToken(key, token, now)
		if err == nil && (got.Site == "" || got.Kind != SiteTokenKind) {
			t.Errorf("verified %q as %+v", token, got)
		}
	})
}
