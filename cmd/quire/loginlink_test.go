package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

func TestAdminLoginLink(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	var acme initOut
	s.admin(t, &acme, "init", "--org", "Acme", "--email", "alice@example.com", "--name", "Alice")
	var out struct{ URL, ExpiresAt string }
	s.admin(t, &out, "login-link", "--email", "Alice@Example.com", "--public-url", "https://docs.example.com/")
	u, err := url.Parse(out.URL)
	if err != nil || !strings.HasPrefix(out.URL, "https://docs.example.com/signin/link?token=") || out.ExpiresAt == "" {
		t.Fatalf("login-link printed %+v", out)
	}
	db := s.open(t)
	token := u.Query().Get("token")
	if id, err := db.UseLoginLink(t.Context(), token); err != nil || id != acme.User.ID {
		t.Fatalf("use the link: %q, %v; want %s", id, err, acme.User.ID)
	}
	if _, err := db.UseLoginLink(t.Context(), token); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("use it again: %v, want unauthorized", err)
	}
	if _, _, err := runCLI(t, s.args("admin", "login-link", "--email", "nobody@example.com")...); err == nil {
		t.Error("login-link for an unknown user succeeded")
	}
}
