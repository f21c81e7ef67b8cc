package store_test

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
	if err := db.VerifyEmailDomain(ctx, org, "example.com", store.VerifiedByOperator); err != nil {
		t.Fatal(err)
	}
	signIn := func(requestID, assertionID string, requestTTL time.Duration) (*store.SAMLSession, error) {
		return db.SignInWithSAML(ctx, store.SAMLSignIn{
			OrgID: org, ProviderID: p.ID, RequestID: requestID, RequestExpires: now.Add(requestTTL), AssertionID: assertionID,
			Expires: now.Add(5 * time.Minute), Email: "Sam@Example.com", DisplayName: "Sam",
		})
	}

	s, err := signIn("r1", "a1", 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Joined || s.Member.Role != quire.RoleRead || !s.Member.SSO || s.Member.Teams != 1 || s.Member.User.Email != "sam@example.com" || s.Token == "" {
		t.Errorf("first sign-in: %+v, member %+v", s, s.Member)
	}
	if u, err := db.UserByToken(ctx, s.Token); err != nil || u.ID != s.Member.User.ID {
		t.Errorf("token is not the member's: %v, %v", u, err)
	}

	if _, err := signIn("r2", "a1", 10*time.Minute); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("replayed assertion: %v, want unauthorized", err)
	}
	if _, err := signIn("r1", "a2", 10*time.Minute); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("request answered twice: %v, want unauthorized", err)
	}
	// The refusals used up nothing: r2 still answers, with a new assertion.
	if s, err := signIn("r2", "a2", 10*time.Minute); err != nil || s.Joined {
		t.Errorf("sign-in after refusals: %+v, %v", s, err)
	}

	if _, err := signIn("r3", "a3", -time.Second); quire.ErrorCode(err) != quire.CodeUnauthorized {
		t.Errorf("expired request: %v, want unauthorized", err)
	}
	// Once an assertion and a request have expired (the library and the
	// browser's cookie refuse them by then), their ids are forgotten.
	now = now.Add(15 * time.Minute)
	if _, err := signIn("r1", "a1", time.Minute); err != nil {
		t.Errorf("request and assertion ids after expiry: %v", err)
	}

	// Deleting the provider takes its bookkeeping along; members stay.
	if err := db.DeleteSAMLProvider(ctx, org, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Member(ctx, org, s.Member.User.ID); err != nil {
		t.Errorf("member after the provider was deleted: %v", err)
	}
}

// TestSAMLProviderUpdateProvider: a new provider takes the fields an update
// gives; "" names no default team.
func TestSAMLProviderUpdateProvider(t *testing.T) {
	t.Parallel()
	label, entity, none, team, role := "Okta", "https://idp.example/entity", "", "t1", quire.RoleEdit
	got := store.SAMLProviderUpdate{Label: &label, EntityID: &entity, DefaultTeam: &none, DefaultRole: &role}.Provider()
	want := quire.SAMLProvider{Label: label, EntityID: entity, DefaultRole: role}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p := (store.SAMLProviderUpdate{DefaultTeam: &team}).Provider(); p.DefaultTeam == nil || p.DefaultTeam.ID != team {
		t.Errorf("default team %+v", p.DefaultTeam)
	}
}
