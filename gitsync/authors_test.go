package gitsync_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// TestGitAuthorsAreQuireUsers: a commit pushed with git by an author whose
// address is a member's of the space's organization (in any case) is
// imported as that member's: the change request, its revision and the
// merge. Other authors (unknown addresses, users of another organization,
// guests) fall back to who connected the space. A Quire merge is pushed as
// the merger's commit, not the change request's author's.
func TestGitAuthorsAreQuireUsers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob, err := f.db.AddUser(f.ctx, f.space.OrgID, "bob@example.com", "Bob Builder", quire.RoleEdit)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.InitOrganization(f.ctx, "Other", "olga@example.com", "Olga Other"); err != nil {
		t.Fatal(err)
	}
	f.merge("Start", func(tr *content.Tree) { addPage(tr, "home", "Welcome", "welcome", "Hello.\n") })
	f.connect()
	work := f.clone()

	// latest is the change request the latest import made, with the
	// revisions it made.
	latest := func(subject string) (cr *quire.ChangeRequest, edits, merge *store.Revision) {
		t.Helper()
		list, err := f.db.ListChangeRequests(f.ctx, f.space.ID, store.ChangeRequestFilter{Status: quire.StatusMerged}, store.Page{Limit: 1})
		if err != nil || len(list.Items) == 0 || list.Items[0].Subject != subject {
			t.Fatalf("latest merged change request: %+v, %v; want %q", list, err, subject)
		}
		cr = list.Items[0]
		if edits, err = f.db.Revision(f.ctx, f.space.ID, cr.RevisionID); err != nil {
			t.Fatal(err)
		}
		if merge, err = f.db.Revision(f.ctx, f.space.ID, cr.RevisionMerged); err != nil {
			t.Fatal(err)
		}
		return cr, edits, merge
	}
	commit := func(i int, author string) string {
		t.Helper()
		path := filepath.Join(work, "README.md")
		writeFile(t, path, strings.Replace(readFile(t, path), "Hello.", "Hello.\n\nEdit "+string(rune('a'+i))+".", 1))
		subject := "Edit " + string(rune('a'+i)) + " by " + author
		git(t, work, "commit", "--quiet", "-am", subject, "--author="+author)
		git(t, work, "push", "--quiet")
		f.run()
		f.wantState(store.GitSuccess)
		return subject
	}
	for i, c := range []struct {
		author string
		want   string // user id
	}{
		{"Bob B. <BOB@Example.COM>", bob.User.ID},      // a member, the address in another case
		{"Nobody <nobody@example.com>", f.user.ID},     // no such user
		{"Olga <olga@example.com>", f.user.ID},         // a user, of another organization
		{"Ada's Laptop <ada@example.com>", f.user.ID},  // the admin, who connected the space
		{"Bob <bob@example.com.evil.test>", f.user.ID}, // not the same address
		{"Bob Again <bob@example.com>", bob.User.ID},   // a member again
	} {
		cr, edits, merge := latest(commit(i, c.author))
		if cr.CreatedBy.ID != c.want || edits.CreatedBy != c.want || merge.CreatedBy != c.want {
			t.Errorf("%s: change request by %s, revisions by %s and %s; want %s", c.author, cr.CreatedBy.ID, edits.CreatedBy, merge.CreatedBy, c.want)
		}
	}

	// A Quire change request Bob wrote and Ada merged is pushed as Ada's.
	git(t, work, "pull", "--quiet")
	cr, err := f.db.CreateChangeRequest(f.ctx, f.space.ID, "Bob's words", bob.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.EditChangeRequest(f.ctx, f.space.ID, cr.ID, bob.User.ID, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		addPage(tr, "faq", "FAQ", "faq", "Ask Bob.\n")
		return tr, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.MergeChangeRequest(f.ctx, f.space.ID, cr.ID, f.user.ID); err != nil {
		t.Fatal(err)
	}
	f.run()
	f.wantState(store.GitSuccess)
	git(t, work, "pull", "--quiet")
	if got := git(t, work, "log", "-1", "--format=%an <%ae>|%s"); got != "Ada Lovelace <ada@example.com>|Bob's words\n" {
		t.Errorf("pushed merge = %q, want the merger's name and address", got)
	}

	// Bob, no longer a member, is not taken for the author.
	if err := f.db.RemoveMember(f.ctx, f.space.OrgID, bob.User.ID, f.user.ID); err != nil {
		t.Fatal(err)
	}
	if cr, _, _ := latest(commit(10, "Bob <bob@example.com>")); cr.CreatedBy.ID != f.user.ID {
		t.Errorf("a former member's commit: change request by %s, want %s", cr.CreatedBy.ID, f.user.ID)
	}
}
