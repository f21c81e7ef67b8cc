package authoring_test

import (
	"slices"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// TestTeams lists teams by title and by who can manage them.
func TestTeams(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	org := f.space.OrgID
	bob, err := f.db.AddUser(ctx, org, "bob@example.com", "Bob", quire.RoleEdit)
	if err != nil {
		t.Fatal(err)
	}
	cy, err := f.db.AddUser(ctx, org, "cy@example.com", "Cy", quire.RoleEdit)
	if err != nil {
		t.Fatal(err)
	}
	var writers *quire.Team
	for _, title := range []string{"Writers", "Reviewers", "Designers"} {
		team, err := f.db.CreateTeam(ctx, org, title, nil)
		if err != nil {
			t.Fatal(err)
		}
		if title == "Writers" {
			writers = team
		}
	}
	if err := f.db.PutTeamMember(ctx, org, writers.ID, bob.User.ID, quire.TeamOwner); err != nil {
		t.Fatal(err)
	}
	if err := f.db.PutTeamMember(ctx, org, writers.ID, cy.User.ID, quire.TeamMember); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		title string
		owner *string
		want  []string
		code  quire.Code
	}{
		{"all", "", nil, []string{"Designers", "Reviewers", "Writers"}, ""},
		{"by title, any case", "VIEW", nil, []string{"Reviewers"}, ""},
		{"managed by an admin", "", &f.userID, []string{"Designers", "Reviewers", "Writers"}, ""},
		{"managed by their owner", "", &bob.User.ID, []string{"Writers"}, ""},
		{"managed by a mere member", "", &cy.User.ID, nil, ""},
		{"owner not a member", "", new("nobody"), nil, quire.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list, err := f.author.Teams(ctx, org, tc.title, tc.owner, store.Page{Limit: 10})
			wantCode(t, "Teams", err, tc.code)
			if err != nil {
				return
			}
			var got []string
			for _, team := range list.Items {
				got = append(got, team.Title)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("teams %v, want %v", got, tc.want)
			}
		})
	}
}
