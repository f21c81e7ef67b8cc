package store_test

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestInviteUsedOnce: joins racing with one invite's key let exactly one
// through, and the key's hash, not the key, is what the store keeps.
func TestInviteUsedOnce(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	a, err := db.InitOrganization(ctx, "Acme", "owner@acme.example", "Acme Owner")
	if err != nil {
		t.Fatal(err)
	}
	ann, err := db.InitOrganization(ctx, "Ann's", "ann@example.com", "Ann")
	if err != nil {
		t.Fatal(err)
	}
	made, err := db.CreateInvites(ctx, a.Organization.ID, a.User.ID, []store.NewInvite{{Email: "ANN@example.com", Role: quire.RoleEdit}}, false)
	if err != nil || len(made) != 1 {
		t.Fatalf("invite: %v %v", made, err)
	}
	key := made[0].Key
	sum := sha256.Sum256([]byte(key))
	if hashes, err := db.InviteHashes(ctx, a.Organization.ID); err != nil || len(hashes) != 1 || hashes[0] != hex.EncodeToString(sum[:]) {
		t.Fatalf("stored %v (%v), want only the key's SHA-256", hashes, err)
	}

	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = db.JoinWithInvite(ctx, a.Organization.ID, key, ann.User) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch quire.ErrorCode(err) {
		case "":
			if err == nil {
				ok++
			} else {
				t.Errorf("join: %v", err)
			}
		case quire.CodeConflict:
		default:
			t.Errorf("join: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d joins went through, want 1", ok)
	}
	m, err := db.Membership(ctx, a.Organization.ID, ann.User.ID)
	if err != nil || m.Role != quire.RoleEdit {
		t.Errorf("ann's membership %+v, %v", m, err)
	}
}
