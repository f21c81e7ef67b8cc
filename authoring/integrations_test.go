package authoring_test

import (
	"reflect"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

// integrationFixture is a fixture with a second organization (other) and
// an integration of each visibility published by the first.
type integrationFixture struct {
	*fixture
	other             *quire.Organization
	public, private   *quire.Integration
	otherSpace, trash *quire.Space
}

func newIntegrationFixture(t *testing.T) *integrationFixture {
	t.Helper()
	f := &integrationFixture{fixture: newFixture(t)}
	ctx := t.Context()
	var err error
	if f.other, err = f.db.CreateOrganization(ctx, "Other", nil, f.userID); err != nil {
		t.Fatal(err)
	}
	for _, in := range []struct {
		to   **quire.Integration
		name string
		vis  string
	}{{&f.public, "open", "public"}, {&f.private, "closed", "private"}} {
		*in.to, err = f.db.PublishIntegration(ctx, store.IntegrationPublish{Integration: quire.Integration{
			Name: in.name, OrgID: f.space.OrgID, Title: in.name, Visibility: in.vis, Target: "all", Runtime: "v1", Script: "k",
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if f.otherSpace, err = f.db.CreateSpace(ctx, f.other.ID, store.NewSpace{Title: "Theirs"}); err != nil {
		t.Fatal(err)
	}
	if f.trash, err = f.db.CreateSpace(ctx, f.space.OrgID, store.NewSpace{Title: "Deleted"}); err != nil {
		t.Fatal(err)
	}
	if err := f.db.DeleteSpace(ctx, f.trash.ID); err != nil {
		t.Fatal(err)
	}
	return f
}

// install installs in on organization orgID as the fixture's user.
func (f *integrationFixture) install(t *testing.T, in *quire.Integration, orgID string) *quire.IntegrationInstallation {
	t.Helper()
	inst, err := f.author.InstallIntegration(t.Context(), in, orgID, f.userID)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func wantCode(t *testing.T, what string, err error, want quire.Code) {
	t.Helper()
	if got := quire.ErrorCode(err); (err == nil) != (want == "") || (err != nil && got != want) {
		t.Fatalf("%s: %v, want code %q", what, err, want)
	}
}

func TestInstallIntegration(t *testing.T) {
	f := newIntegrationFixture(t)
	for _, tc := range []struct {
		name string
		in   *quire.Integration
		org  func() string
		want quire.Code
	}{
		{"public elsewhere", f.public, func() string { return f.other.ID }, ""},
		{"private at home", f.private, func() string { return f.space.OrgID }, ""},
		{"private elsewhere", f.private, func() string { return f.other.ID }, quire.CodeForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inst, err := f.author.InstallIntegration(t.Context(), tc.in, tc.org(), f.userID)
			wantCode(t, "InstallIntegration", err, tc.want)
			if err == nil && (inst.OrgID != tc.org() || inst.Integration != tc.in.Name) {
				t.Fatalf("installed %+v", inst)
			}
		})
	}
}

func TestUpdateInstallation(t *testing.T) {
	f := newIntegrationFixture(t)
	ctx := t.Context()
	inst := f.install(t, f.public, f.other.ID)
	selected, ids := "selected", []string{"x-1"}
	for _, tc := range []struct {
		name string
		by   authoring.InstallationEditor
		u    store.InstallationUpdate
		want quire.Code
	}{
		{"publisher sets external ids", authoring.InstallationEditor{}, store.InstallationUpdate{ExternalIDs: &ids}, ""},
		{"publisher selects spaces", authoring.InstallationEditor{}, store.InstallationUpdate{SpaceSelection: &selected}, quire.CodeForbidden},
		{"token selects sites", authoring.InstallationEditor{OrgAdmin: true, ViaToken: true}, store.InstallationUpdate{SiteSelection: &selected}, quire.CodeForbidden},
		{"admin selects spaces", authoring.InstallationEditor{OrgAdmin: true}, store.InstallationUpdate{SpaceSelection: &selected}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.author.UpdateInstallation(ctx, f.public.Name, inst, tc.by, tc.u)
			wantCode(t, "UpdateInstallation", err, tc.want)
		})
	}
	got, err := f.db.IntegrationInstallationByID(ctx, f.public.Name, inst.ID)
	if err != nil || got.SpaceSelection != "selected" || got.SiteSelection == "selected" || len(got.ExternalIDs) != 1 {
		t.Fatalf("after the updates: %+v, %v", got, err)
	}
}

func TestInstallOnContent(t *testing.T) {
	f := newIntegrationFixture(t)
	ctx := t.Context()
	inst := f.install(t, f.public, f.space.OrgID)
	for _, tc := range []struct {
		name string
		kind store.ContentKind
		id   string
		want quire.Code
	}{
		{"own space", store.SpaceInstallations, f.space.ID, ""},
		{"another organization's space", store.SpaceInstallations, f.otherSpace.ID, quire.CodeNotFound},
		{"deleted space", store.SpaceInstallations, f.trash.ID, quire.CodeNotFound},
		{"no such space", store.SpaceInstallations, "nope", quire.CodeNotFound},
		{"no such site", store.SiteInstallations, "nope", quire.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.author.InstallOnContent(ctx, tc.kind, inst, tc.id)
			wantCode(t, "InstallOnContent", err, tc.want)
		})
	}
}

func TestInstallationToken(t *testing.T) {
	f := newIntegrationFixture(t)
	ctx := t.Context()
	inst := f.install(t, f.public, f.space.OrgID)
	paused, gone := *inst, *inst
	paused.Status, gone.InstalledBy = "paused", ""
	for _, tc := range []struct {
		name string
		inst *quire.IntegrationInstallation
		want quire.Code
	}{
		{"active", inst, ""},
		{"paused", &paused, quire.CodeInvalid},
		{"installer gone", &gone, quire.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			token, err := f.author.InstallationToken(ctx, tc.inst)
			wantCode(t, "InstallationToken", err, tc.want)
			if err == nil && token == "" {
				t.Fatal("no token")
			}
		})
	}
}

// TestCheckReach checks which spaces and sites an installation reaches:
// those of its organization its selection takes in, nothing else. (With
// the selection "all", a site is not looked up here: the handler finds it.)
func TestCheckReach(t *testing.T) {
	f := newIntegrationFixture(t)
	ctx := t.Context()
	inst := f.install(t, f.public, f.space.OrgID)
	second, err := f.db.CreateSpace(ctx, f.space.OrgID, store.NewSpace{Title: "Second"})
	if err != nil {
		t.Fatal(err)
	}
	selected := "selected"
	if inst, err = f.author.UpdateInstallation(ctx, f.public.Name, inst, authoring.InstallationEditor{OrgAdmin: true}, store.InstallationUpdate{SpaceSelection: &selected, SiteSelection: &selected}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.author.InstallOnContent(ctx, store.SpaceInstallations, inst, f.space.ID); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		kind store.ContentKind
		id   string
		want quire.Code
	}{
		{"a space it is set up on", store.SpaceInstallations, f.space.ID, ""},
		{"a space it is not set up on", store.SpaceInstallations, second.ID, quire.CodeNotFound},
		{"another organization's space", store.SpaceInstallations, f.otherSpace.ID, quire.CodeNotFound},
		{"no such space", store.SpaceInstallations, "nope", quire.CodeNotFound},
		{"no such site", store.SiteInstallations, "nope", quire.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, "CheckReach", f.author.CheckReach(ctx, inst, tc.kind, tc.id), tc.want)
		})
	}
}

// TestTokenGrant authenticates a minted token as its installation, its
// installer and its integration's scopes.
func TestTokenGrant(t *testing.T) {
	f := newIntegrationFixture(t)
	ctx := t.Context()
	inst := f.install(t, f.public, f.space.OrgID)
	token, err := f.author.InstallationToken(ctx, inst)
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.author.TokenGrant(ctx, token)
	if err != nil || g.User.ID != f.userID || g.Installation.ID != inst.ID || !reflect.DeepEqual(g.Scopes, f.public.Scopes) {
		t.Fatalf("grant %+v, %v", g, err)
	}
	if _, err := f.author.TokenGrant(ctx, token+"x"); err == nil {
		t.Fatal("a wrong token was granted")
	}
}
