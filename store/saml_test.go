package store_test

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestServerSecret checks that a secret is made once: servers asking at the
// same time all get the first one stored, and later calls make none.
func TestServerSecret(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	var made atomic.Int64
	generate := func() ([]byte, error) { return fmt.Appendf(nil, "secret %d", made.Add(1)), nil }
	got := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			b, err := db.ServerSecret(t.Context(), "test", generate)
			if err != nil {
				t.Error(err)
			}
			got[i] = b
		})
	}
	wg.Wait()
	for _, b := range got {
		if !bytes.Equal(b, got[0]) {
			t.Fatalf("servers got different secrets: %q and %q", got[0], b)
		}
	}
	n := made.Load()
	again, err := db.ServerSecret(t.Context(), "test", generate)
	if err != nil || !bytes.Equal(again, got[0]) || made.Load() != n {
		t.Errorf("second call: %q, %v; generated %d more", again, err, made.Load()-n)
	}
}

// TestSignInWithSAML checks the bookkeeping of SAML sign-ins: each request
// is answered once and before it expires, each assertion is used once until
// it expires, and refusals change nothing.
func TestSignInWithSAML(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	now := time.Now().UTC().Truncate(time.Second)
	db.Now = func() time.Time { return now }
	b, err := db.InitOrganization(ctx, "Org", "owner@example.com", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	org := b.Organization.ID
	team, err := db.CreateTeam(ctx, org, "SSO", nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.CreateSAMLProvider(ctx, org, quire.SAMLProvider{Label: "IdP", DefaultRole: quire.RoleRead, DefaultTeam: &quire.Team{ID: team.ID}})
	if err != nil {
		t.Fatal(err)
	}
	request := func(id string, ttl time.Duration) {
		t.Helper()
		if err := db.CreateSAMLRequest(ctx, p.ID, id, now.Add(ttl)); err != nil {
			t.Fatal(err)
		}
	}
	signIn := func(requestID, assertionID string) (*store.SAMLSession, error) {
		return db.SignInWithSAML(ctx, store.SAMLSignIn{
			OrgID: org, ProviderID: p.ID, RequestID: requestID, AssertionID: assertionID,
			Expires: now.Add(5 * time.Minute), Email: "Sam@Example.com", DisplayName: "Sam",
		})
	}

	request("r1", 10*time.Minute)
	s, err := signIn("r1", "a1")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Joined || s.Member.Role != quire.RoleRead || !s.Member.SSO || s.Member.Teams != 1 || s.Member.User.Email != "sam@example.com" || s.Token == "" {
		t.Errorf("first sign-in: %+v, member %+v", s, s.Member)
	}
	if u, err := db.UserByToken(ctx, s.Token); err != nil || u.ID != s.Member.User.ID {
		t.Errorf("token is not the member's: %v, %v", u, err)
	}

	request("r2", 10*time.Minute)
	if _, err := signIn("r2", "a1"); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("replayed assertion: %v, want unauthorized", err)
	}
	if _, err := signIn("r1", "a2"); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("request answered twice: %v, want unauthorized", err)
	}
	// The refusals used up nothing: r2 still answers, with a new assertion.
	if s, err := signIn("r2", "a2"); err != nil || s.Joined {
		t.Errorf("sign-in after refusals: %+v, %v", s, err)
	}

	request("r3", time.Minute)
	now = now.Add(2 * time.Minute)
	if _, err := signIn("r3", "a3"); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("expired request: %v, want unauthorized", err)
	}
	// Once an assertion has expired (the library refuses it by then), its id
	// is forgotten.
	now = now.Add(10 * time.Minute)
	request("r4", time.Minute)
	if _, err := signIn("r4", "a1"); err != nil {
		t.Errorf("assertion id after expiry: %v", err)
	}

	// Deleting the provider takes its bookkeeping along; members stay.
	if err := db.DeleteSAMLProvider(ctx, org, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Member(ctx, org, s.Member.User.ID); err != nil {
		t.Errorf("member after the provider was deleted: %v", err)
	}
}

// TestPendingSAMLRequestsBounded: a provider takes at most
// MaxPendingSAMLRequests waiting sign-ins; more are refused (429) until
// some expire.
func TestPendingSAMLRequestsBounded(t *testing.T) {
	t.Parallel()
	db, raw, _, _ := openRaw(t)
	ctx := t.Context()
	b, err := db.InitOrganization(ctx, "Org", "owner@example.com", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.CreateSAMLProvider(ctx, b.Organization.ID, quire.SAMLProvider{Label: "IdP"})
	if err != nil {
		t.Fatal(err)
	}
	soon := time.Now().Add(time.Minute)
	// All but one are written at once: through the store it would take
	// minutes under the race detector.
	tx, err := raw.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range store.MaxPendingSAMLRequests - 1 {
		if _, err := tx.ExecContext(ctx, rebind(db, "INSERT INTO saml_requests (id, provider_id, expires_at) VALUES (?, ?, ?)"),
			fmt.Sprintf("r%d", i), p.ID, soon.UnixMicro()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateSAMLRequest(ctx, p.ID, "last", soon); err != nil {
		t.Fatalf("the last request allowed: %v", err)
	}
	wantCode(t, db.CreateSAMLRequest(ctx, p.ID, "one-too-many", soon), quire.CodeTooManyRequests)
	if _, err := raw.ExecContext(ctx, rebind(db, "UPDATE saml_requests SET expires_at = ? WHERE id = ?"), time.Now().Add(-time.Minute).UnixMicro(), "r0"); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateSAMLRequest(ctx, p.ID, "after-expiry", soon); err != nil {
		t.Errorf("a request after one expired: %v", err)
	}
}
