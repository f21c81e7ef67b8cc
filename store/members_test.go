package store_test

import (
	"testing"

	"github.com/quiredocs/quire"
)

// TestMemberSomewhere: a user is a member somewhere while an enabled
// member, not a guest, of at least one organization.
func TestMemberSomewhere(t *testing.T) {
	t.Parallel()
	db, raw, _, _ := openRaw(t)
	ctx := t.Context()
	b, err := db.InitIfEmpty(ctx, "Acme", "owner@acme.example", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	guest, err := db.AddUser(ctx, b.Organization.ID, "guest@acme.example", "Guest", quire.RoleGuest)
	if err != nil {
		t.Fatal(err)
	}
	reader, err := db.AddUser(ctx, b.Organization.ID, "reader@acme.example", "Reader", quire.RoleRead)
	if err != nil {
		t.Fatal(err)
	}
	want := func(userID string, want bool) {
		t.Helper()
		if got, err := db.MemberSomewhere(ctx, userID); got != want || err != nil {
			t.Errorf("MemberSomewhere(%s) = %t, %v; want %t", userID, got, err, want)
		}
	}
	want(b.User.ID, true)
	want(reader.User.ID, true)
	want(guest.User.ID, false)
	want("nobody", false)
	if _, err := raw.ExecContext(ctx, "UPDATE members SET disabled = TRUE WHERE user_id = '"+reader.User.ID+"'"); err != nil {
		t.Fatal(err)
	}
	want(reader.User.ID, false)
}
