package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestRogueIdentityProvider: org B's admin connects an identity provider of
// her own that signs for org A's addresses. Nothing it yields may ever work
// in org A, and nothing org A's admins do may hand org B an account of A.
func TestRogueIdentityProvider(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	a, err := db.InitOrganization(ctx, "Acme", "owner@acme.example", "Acme Owner")
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.InitOrganization(ctx, "Rogue", "mallory@rogue.example", "Mallory")
	if err != nil {
		t.Fatal(err)
	}
	rogue, err := db.CreateSAMLProvider(ctx, b.Organization.ID, quire.SAMLProvider{Label: "Rogue IdP", DefaultRole: quire.RoleEdit})
	if err != nil {
		t.Fatal(err)
	}
	verify := func(org, domain string) {
		t.Helper()
		if err := db.VerifyEmailDomain(ctx, org, domain, store.VerifiedByDNS); err != nil {
			t.Fatal(err)
		}
	}
	verify(b.Organization.ID, "rogue.example")
	n := 0
	signIn := func(email string) (*store.SAMLSession, error) {
		n++
		return db.SignInWithSAML(ctx, store.SAMLSignIn{
			OrgID: b.Organization.ID, ProviderID: rogue.ID,
			RequestID: fmt.Sprintf("r%d", n), RequestExpires: time.Now().Add(time.Minute),
			AssertionID: fmt.Sprintf("a%d", n), Expires: time.Now().Add(time.Minute), Email: email, DisplayName: "Someone",
		})
	}
	memberOfA := func(userID string) bool {
		t.Helper()
		_, err := db.Membership(ctx, a.Organization.ID, userID)
		if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
			t.Fatal(err)
		}
		return err == nil
	}

	t.Run("an address at a domain B has not proved is refused", func(t *testing.T) {
		_, err := signIn("newhire@acme.example")
		wantCode(t, err, quire.CodeForbidden)
		if _, err := db.UserByEmail(ctx, "newhire@acme.example"); quire.ErrorCode(err) != quire.CodeNotFound {
			t.Errorf("the refused sign-in made an account: %v", err)
		}
		if _, err := db.AddUser(ctx, a.Organization.ID, "newhire@acme.example", "New Hire", quire.RoleEdit); err != nil {
			t.Errorf("A adds its new hire: %v", err)
		}
	})

	t.Run("an account B managed while it had proved A's domain is B's no more", func(t *testing.T) {
		// As an account squatted before domains were proved: B's mark
		// stays on it but counts only where B proved the domain.
		verify(b.Organization.ID, "acme.example")
		s, err := signIn("ceo@acme.example")
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.AddUser(ctx, a.Organization.ID, "ceo@acme.example", "CEO", quire.RoleRead)
		wantCode(t, err, quire.CodeConflict) // B manages it while B proves acme.example
		if tokens, err := db.ListManagedTokens(ctx, b.Organization.ID, store.Page{Limit: 10}); err != nil || tokens.Count != 1 {
			t.Errorf("B's managed tokens: %+v, %v", tokens, err)
		}
		if removed, err := db.RemoveVerifiedEmailDomain(ctx, b.Organization.ID, "acme.example"); err != nil || !removed {
			t.Fatalf("removing the domain: %v, %v", removed, err)
		}
		if _, err := signIn("ceo@acme.example"); quire.ErrorCode(err) != quire.CodeForbidden {
			t.Errorf("B signs in an address it no longer proves: %v", err)
		}
		if tokens, err := db.ListManagedTokens(ctx, b.Organization.ID, store.Page{Limit: 10}); err != nil || tokens.Count != 0 {
			t.Errorf("B still sees tokens of the account: %+v, %v", tokens, err)
		}
		if _, err := db.AddUser(ctx, a.Organization.ID, "ceo@acme.example", "CEO", quire.RoleRead); err != nil {
			t.Errorf("A adds the account B no longer manages: %v", err)
		}
		// The token B's provider issued does not follow the account into A.
		if _, err := db.UserByToken(ctx, s.Token); quire.ErrorCode(err) != quire.CodeUnauthorized && quire.ErrorCode(err) != quire.CodeNotFound {
			t.Errorf("B's token for the account still works: %v", err)
		}
		if !memberOfA(s.Member.User.ID) {
			t.Error("not a member of A")
		}
	})

	t.Run("an account that left every organization is not claimed", func(t *testing.T) {
		left, err := db.AddUser(ctx, a.Organization.ID, "leaver@acme.example", "Leaver", quire.RoleRead)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.RemoveMember(ctx, a.Organization.ID, left.User.ID, left.User.ID); err != nil {
			t.Fatal(err)
		}
		_, err = signIn("leaver@acme.example")
		wantCode(t, err, quire.CodeForbidden)
		if _, err := db.Membership(ctx, b.Organization.ID, left.User.ID); quire.ErrorCode(err) != quire.CodeNotFound {
			t.Errorf("the refused account joined the rogue organization: %v", err)
		}
		// So A can take them back, with a token only they and A see.
		back, err := db.AddUser(ctx, a.Organization.ID, "leaver@acme.example", "Leaver", quire.RoleRead)
		if err != nil || back.Token == "" {
			t.Fatalf("adding the leaver back: %+v, %v", back, err)
		}
	})

	t.Run("a member of A is not signed in", func(t *testing.T) {
		m, err := db.AddUser(ctx, a.Organization.ID, "alice@acme.example", "Alice", quire.RoleAdmin)
		if err != nil {
			t.Fatal(err)
		}
		_, err = signIn("alice@acme.example")
		wantCode(t, err, quire.CodeForbidden)
		_, err = signIn("owner@acme.example")
		wantCode(t, err, quire.CodeForbidden)
		if _, err := db.Membership(ctx, b.Organization.ID, m.User.ID); quire.ErrorCode(err) != quire.CodeNotFound {
			t.Errorf("A's member joined the rogue organization: %v", err)
		}
	})

	t.Run("B's own member, once signed in by B, is B's", func(t *testing.T) {
		m, err := db.AddUser(ctx, b.Organization.ID, "bob@rogue.example", "Bob", quire.RoleRead)
		if err != nil {
			t.Fatal(err)
		}
		s, err := signIn("bob@rogue.example")
		if err != nil || s.Joined {
			t.Fatalf("B's member signs in through B: %+v, %v", s, err)
		}
		_, err = db.AddUser(ctx, a.Organization.ID, "bob@rogue.example", "Bob", quire.RoleRead)
		wantCode(t, err, quire.CodeConflict)
		if memberOfA(m.User.ID) {
			t.Error("an account B manages joined A")
		}
		// An organization Bob creates himself does not lock him out of B.
		if _, err := db.CreateOrganization(ctx, "Bob's own", nil, m.User.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := signIn("bob@rogue.example"); err != nil {
			t.Errorf("B's account with an organization of its own signs in through B: %v", err)
		}
	})

	t.Run("adding a member of another organization issues no token", func(t *testing.T) {
		// Carol is in B without B's single sign-on; A may add her, but a
		// token A's admin is handed would work in B too.
		if _, err := db.AddUser(ctx, b.Organization.ID, "carol@example.com", "Carol", quire.RoleRead); err != nil {
			t.Fatal(err)
		}
		c, err := db.AddUser(ctx, a.Organization.ID, "carol@example.com", "Carol", quire.RoleRead)
		if err != nil || c.Token != "" || !memberOfA(c.User.ID) {
			t.Errorf("adding Carol to A: %+v, %v", c, err)
		}
	})
}
