package authoring_test

import (
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// TestOrganizations creates, lists in pages and updates organizations,
// each with the user's membership as it is.
func TestOrganizations(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	made, err := f.author.CreateOrganization(ctx, "Second", []string{"example.com"}, f.userID)
	if err != nil {
		t.Fatal(err)
	}
	if made.Org.Title != "Second" || made.Member.Role != quire.RoleAdmin || made.Member.OrgID != made.Org.ID {
		t.Fatalf("created %+v with %+v", made.Org, made.Member)
	}
	if _, err := f.author.CreateOrganization(ctx, "Third", nil, "nobody"); err == nil {
		t.Fatal("an organization of no user was created")
	}
	bob, err := f.db.AddUser(ctx, made.Org.ID, "bob@example.com", "Bob", quire.RoleEdit)
	if err != nil {
		t.Fatal(err)
	}

	seen := map[string]quire.Role{}
	p := store.Page{Limit: 1}
	for {
		list, err := f.author.UserOrganizations(ctx, f.userID, p)
		if err != nil {
			t.Fatal(err)
		}
		if list.Count != 2 || len(list.Items) != 1 {
			t.Fatalf("page of %d of %d, want 1 of 2", len(list.Items), list.Count)
		}
		m := list.Items[0]
		if m.Member.OrgID != m.Org.ID || m.Member.User.ID != f.userID {
			t.Fatalf("membership %+v of %s", m.Member, m.Org.ID)
		}
		seen[m.Org.ID] = m.Member.Role
		if list.Next == nil {
			break
		}
		p.After = list.Next
	}
	if len(seen) != 2 || seen[made.Org.ID] != quire.RoleAdmin || seen[f.space.OrgID] != quire.RoleAdmin {
		t.Fatalf("listed %v", seen)
	}
	if list, err := f.author.UserOrganizations(ctx, bob.User.ID, store.Page{Limit: 10}); err != nil || len(list.Items) != 1 || list.Items[0].Member.Role != quire.RoleEdit {
		t.Fatalf("Bob's organizations: %+v, %v", list, err)
	}

	title := "Renamed"
	up, err := f.author.UpdateOrganization(ctx, made.Member, store.OrganizationUpdate{Title: &title})
	if err != nil || up.Org.Title != title || up.Member.User.ID != f.userID {
		t.Fatalf("updated %+v, %v", up, err)
	}
}
