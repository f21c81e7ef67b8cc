package authoring_test

import (
	"slices"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// TestIntegrationViewer checks who sees which integration, and that
// installed integrations are found with their owners whoever views them.
func TestIntegrationViewer(t *testing.T) {
	f := newIntegrationFixture(t)
	ctx := t.Context()
	if _, err := f.db.PublishIntegration(ctx, store.IntegrationPublish{Integration: quire.Integration{
		Name: "hidden", OrgID: f.space.OrgID, Title: "hidden", Visibility: "unlisted", Target: "all", Runtime: "v1", Script: "k",
	}}); err != nil {
		t.Fatal(err)
	}
	outsider, err := f.db.InitOrganization(ctx, "Elsewhere", "bob@example.com", "Bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, user, integration string
		want                    quire.Code
		admin                   bool
	}{
		{"publisher's admin, private", f.userID, "closed", "", true},
		{"outsider, public", outsider.User.ID, "open", "", false},
		{"outsider, private", outsider.User.ID, "closed", quire.CodeNotFound, false},
		{"outsider, unlisted", outsider.User.ID, "hidden", "", false},
		{"no such integration", f.userID, "nope", quire.CodeNotFound, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, owner, err := f.author.IntegrationViewer(tc.user).Integration(ctx, tc.integration)
			wantCode(t, "Integration", err, tc.want)
			if err != nil {
				return
			}
			if in.Name != tc.integration || owner.Org.ID != f.space.OrgID || owner.Admin() != tc.admin || (owner.Member == nil) == tc.admin {
				t.Fatalf("got %s owned by %+v", in.Name, owner)
			}
		})
	}
	v := f.author.IntegrationViewer(outsider.User.ID)
	got, err := v.Installed(ctx, []string{"closed", "open", "closed"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["closed"].Integration.Name != "closed" || got["open"].Owner.Org.ID != f.space.OrgID || got["open"].Owner.Member != nil {
		t.Fatalf("installed: %+v", got)
	}
	if _, err := v.Installed(ctx, []string{"nope"}); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Fatalf("installed unknown: %v, want not found", err)
	}
}

// TestSpaceIntegrations lists the integrations reaching a space, found by
// name or title.
func TestSpaceIntegrations(t *testing.T) {
	f := newIntegrationFixture(t)
	ctx := t.Context()
	for _, in := range []*quire.Integration{f.public, f.private} {
		f.install(t, in, f.space.OrgID)
	}
	f.install(t, f.public, f.other.ID)
	for _, tc := range []struct {
		sp     *quire.Space
		search string
		want   []string
	}{
		{f.space, "", []string{"closed", "open"}},
		{f.space, "OPE", []string{"open"}},
		{f.space, "none", nil},
		{f.otherSpace, "", []string{"open"}},
	} {
		got, err := f.author.IntegrationViewer(f.userID).SpaceIntegrations(ctx, tc.sp, tc.search)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, in := range got {
			names = append(names, in.Integration.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s, %q: %v, want %v", tc.sp.Title, tc.search, names, tc.want)
		}
	}
}
