package published

import (
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quiredocs/quire"
)

func TestVerifyToken(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sign := func(method jwt.SigningMethod, key string, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(method, claims).SignedString([]byte(key))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	auth := quire.SitePublishingAuth{Key: "the key"}
	issued := quire.SitePublishingAuth{Key: "the key", Issuer: "https://auth.example.com"}
	exp := now.Add(time.Hour).Unix()
	tests := []struct {
		name  string
		auth  quire.SitePublishingAuth
		token string
		ok    bool
	}{
		{"valid", auth, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"exp": exp, "plan": "pro"}), true},
		{"another key", auth, sign(jwt.SigningMethodHS256, "another", jwt.MapClaims{"exp": exp}), false},
		{"another method", auth, sign(jwt.SigningMethodHS384, "the key", jwt.MapClaims{"exp": exp}), false},
		{"no exp", auth, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"plan": "pro"}), false},
		{"expired", auth, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"exp": now.Add(-time.Minute).Unix()}), false},
		{"expired within the leeway", auth, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"exp": now.Add(-10 * time.Second).Unix()}), true},
		{"not before later", auth, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"exp": exp, "nbf": now.Add(time.Minute).Unix()}), false},
		{"site without a key", quire.SitePublishingAuth{}, sign(jwt.SigningMethodHS256, "", jwt.MapClaims{"exp": exp}), false},
		{"issuer", issued, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"exp": exp, "iss": "https://auth.example.com"}), true},
		{"another issuer", issued, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"exp": exp, "iss": "https://evil.example"}), false},
		{"too long", auth, sign(jwt.SigningMethodHS256, "the key", jwt.MapClaims{"exp": exp, "pad": strings.Repeat("x", MaxToken)}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claims, expires, err := VerifyToken(tt.auth, tt.token, now)
			if (err == nil) != tt.ok {
				t.Fatalf("err %v, want ok %v", err, tt.ok)
			}
			if tt.ok && (claims["exp"] == nil || expires.IsZero()) {
				t.Errorf("claims %v, expires %v", claims, expires)
			}
		})
	}
}
