package wire_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

var links = wire.Links{PublicURL: "https://quire.example"}

func TestTimes(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891234567, time.FixedZone("CET", 3600))
	for _, tt := range []struct {
		name     string
		in       time.Time
		time     string
		optional string
	}{
		{"zone and nanoseconds", at, "2026-03-04T04:06:07.891Z", "2026-03-04T04:06:07.891Z"},
		{"whole seconds", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"},
		{"never", time.Time{}, "0001-01-01T00:00:00.000Z", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := wire.Time(tt.in); got != tt.time {
				t.Errorf("Time = %q, want %q", got, tt.time)
			}
			if got := wire.OptTime(tt.in); got != tt.optional {
				t.Errorf("OptTime = %q, want %q", got, tt.optional)
			}
		})
	}
}

// str is the JSON of a nullable string: null, or its value.
func str(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

func TestRolesAndLevels(t *testing.T) {
	for _, tt := range []struct {
		role quire.Role
		want string
	}{{quire.RoleGuest, "null"}, {quire.RoleRead, "read"}, {quire.RoleAdmin, "admin"}} {
		if got := str(wire.Role(tt.role)); got != tt.want {
			t.Errorf("Role(%q) = %s, want %s", tt.role, got, tt.want)
		}
	}
	for _, tt := range []struct {
		level quire.DefaultLevel
		want  string
	}{{quire.LevelNone, "null"}, {quire.LevelInherit, "inherit"}, {quire.DefaultLevel(quire.RoleEdit), "edit"}} {
		if got := str(wire.Level(tt.level)); got != tt.want {
			t.Errorf("Level(%q) = %s, want %s", tt.level, got, tt.want)
		}
	}
}

func TestSpacePermissions(t *testing.T) {
	type perms = wire.SpacePermissions
	for _, tt := range []struct {
		role quire.Role
		want perms
	}{
		{quire.RoleGuest, perms{}},
		{quire.RoleRead, perms{View: true, Access: true}},
		{quire.RoleComment, perms{View: true, Access: true, Comment: true}},
		{quire.RoleEdit, perms{View: true, Access: true, Comment: true, Edit: true, TriggerGitSync: true}},
		{quire.RoleReview, perms{View: true, Access: true, Comment: true, Edit: true, TriggerGitSync: true, Review: true, Merge: true}},
		{quire.RoleAdmin, perms{View: true, Access: true, Comment: true, Edit: true, TriggerGitSync: true, Review: true, Merge: true,
			Admin: true, ViewInviteLinks: true, InstallIntegration: true}},
	} {
		t.Run(string(tt.role), func(t *testing.T) {
			got := links.Space(&quire.Space{ID: "s1", OrgID: "o1"}, tt.role).Permissions
			if got != tt.want {
				t.Errorf("permissions = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestOrganizationPermissions(t *testing.T) {
	type perms = wire.OrganizationPermissions
	for _, tt := range []struct {
		name string
		me   *quire.Member
		want perms
	}{
		{"not a member", nil, perms{}},
		{"disabled", &quire.Member{Role: quire.RoleAdmin, Disabled: true}, perms{}},
		{"guest", &quire.Member{Role: quire.RoleGuest}, perms{View: true, ListMembers: true, ListTeams: true}},
		{"reader", &quire.Member{Role: quire.RoleRead}, perms{View: true, Access: true, ListMembers: true, ListTeams: true, ListIntegrations: true}},
		{"creator owning a team", &quire.Member{Role: quire.RoleCreate, TeamsOwned: 1}, perms{View: true, Access: true, OwnTeam: true,
			CreateContent: true, CreateOpenAPISpec: true, ListMembers: true, ListTeams: true, ListIntegrations: true}},
		{"admin", &quire.Member{Role: quire.RoleAdmin}, perms{View: true, Access: true, Admin: true, CreateContent: true,
			CreateOpenAPISpec: true, ViewBilling: true, ListMembers: true, ListTeams: true, ListIntegrations: true,
			ListInstallations: true, InstallIntegration: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := links.Organization(&quire.Organization{ID: "o1"}, tt.me).Permissions
			if got != tt.want {
				t.Errorf("permissions = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSitePermissions(t *testing.T) {
	type perms = wire.SitePermissions
	for _, tt := range []struct {
		role quire.Role
		want perms
	}{
		{quire.RoleGuest, perms{}},
		{quire.RoleRead, perms{View: true, Access: true, ViewAdaptiveSchema: true}},
		{quire.RoleEdit, perms{View: true, Access: true, Edit: true, ViewAdaptiveSchema: true}},
		{quire.RoleCreate, perms{View: true, Access: true, Edit: true, Create: true, Admin: true, ViewAdaptiveSchema: true, EditAdaptiveSchema: true}},
		{quire.RoleAdmin, perms{View: true, Access: true, Edit: true, Create: true, Admin: true, InstallIntegration: true,
			ViewAdaptiveSchema: true, EditAdaptiveSchema: true}},
	} {
		t.Run(string(tt.role), func(t *testing.T) {
			got := links.Site(&quire.Site{ID: "site1", OrgID: "o1"}, tt.role).Permissions
			if got != tt.want {
				t.Errorf("permissions = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestURLs(t *testing.T) {
	sp := &quire.Space{ID: "s1", OrgID: "o1"}
	for _, tt := range []struct {
		name, got, want string
	}{
		{"user", links.User(&quire.User{ID: "u1"}).URLs.Location, "https://quire.example/v1/users/u1"},
		{"member", links.Member(&quire.Member{OrgID: "o1", User: quire.User{ID: "u1"}}).URLs.Location, "https://quire.example/v1/orgs/o1/members/u1"},
		{"space", links.Space(sp, quire.RoleRead).URLs.Location, "https://quire.example/v1/spaces/s1"},
		{"space in the app", links.Space(sp, quire.RoleRead).URLs.App, sp.AppURL("https://quire.example")},
		{"space to a Location header", links.Space(sp, quire.RoleRead).Location(), "https://quire.example/v1/spaces/s1"},
		{"collection", links.Collection(&quire.Collection{ID: "c1"}, quire.RoleRead).Location(), "https://quire.example/v1/collections/c1"},
		{"change request", links.ChangeRequest(sp, &quire.ChangeRequest{ID: "cr1", SpaceID: "s1"}).URLs.Location,
			"https://quire.example/v1/spaces/s1/change-requests/cr1"},
		{"review", links.Review("s1", &quire.Review{ID: "r1", ChangeRequestID: "cr1"}, nil).URLs.Location,
			"https://quire.example/v1/spaces/s1/change-requests/cr1/reviews/r1"},
		{"site at its address", links.SitePublicURL(&quire.Site{ID: "site1"}), "https://quire.example/sites/site1/"},
		{"site behind a proxy", links.SitePublicURL(&quire.Site{ID: "site1", Proxy: "docs.example.com"}), "https://docs.example.com/"},
		{"unpublished site", links.Site(&quire.Site{ID: "site1"}, quire.RoleRead).URLs.Published, ""},
		{"published site", links.Site(&quire.Site{ID: "site1", Published: true}, quire.RoleRead).URLs.Published, "https://quire.example/sites/site1/"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestChangeRequestOutdated(t *testing.T) {
	for _, tt := range []struct {
		name  string
		space string // the space's revision
		c     quire.ChangeRequest
		want  bool
	}{
		{"on the space's revision", "r1", quire.ChangeRequest{RevisionInitial: "r1", Status: quire.StatusOpen}, false},
		{"behind the space", "r2", quire.ChangeRequest{RevisionInitial: "r1", Status: quire.StatusOpen}, true},
		{"merged", "r2", quire.ChangeRequest{RevisionInitial: "r1", Status: quire.StatusMerged}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := links.ChangeRequest(&quire.Space{RevisionID: tt.space}, &tt.c).Outdated; got != tt.want {
				t.Errorf("outdated = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReviewRequestedBy(t *testing.T) {
	v := &quire.Review{ID: "r1", Reviewer: quire.User{ID: "u1"}}
	if got := links.Review("s1", v, nil).RequestedBy; got != nil {
		t.Errorf("unrequested review: requestedBy = %+v", got)
	}
	v.RequestedBy = &quire.User{ID: "u2"}
	if got := links.Review("s1", v, json.RawMessage(`{}`)); got.RequestedBy == nil || got.RequestedBy.ID != "u2" || string(got.Comment) != "{}" {
		t.Errorf("requested review: %+v", got)
	}
}

func TestMergeRules(t *testing.T) {
	for _, tt := range []struct {
		rules json.RawMessage
		want  string
	}{{nil, `{"type":"inherit"}`}, {json.RawMessage(`{"type":"none"}`), `{"type":"none"}`}} {
		if got := string(wire.MergeRules(&quire.Space{MergeRules: tt.rules})); got != tt.want {
			t.Errorf("MergeRules(%s) = %s, want %s", tt.rules, got, tt.want)
		}
	}
}

func TestSiteAccessOrigin(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    store.Access
		want wire.SiteOrigin
	}{
		{"from the organization", store.Access{Role: quire.RoleRead}, wire.SiteOrigin{Type: "organization", Organization: "o1"}},
		{"granted to a team", store.Access{Role: quire.RoleEdit, Granted: true}, wire.SiteOrigin{Type: "site", Site: "site1", Reason: "team"}},
		{"granted to them", store.Access{Role: quire.RoleAdmin, Granted: true, Direct: true}, wire.SiteOrigin{Type: "site", Site: "site1", Reason: "member"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := links.SiteAccess("o1", "site1", &tt.a)
			if got.Origin != tt.want || got.Permission != tt.a.Role {
				t.Errorf("access = %+v, want origin %+v and permission %q", got, tt.want, tt.a.Role)
			}
		})
	}
}

func TestCustomHostnameActive(t *testing.T) {
	at := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name       string
		published  bool
		verifiedAt time.Time
		active     bool
		since      string
	}{
		{"verified on a published site", true, at, true, "2026-02-01T00:00:00.000Z"},
		{"verified on a draft site", false, at, false, "2026-02-01T00:00:00.000Z"},
		{"not verified", true, time.Time{}, false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := links.CustomHostname(&quire.Site{ID: "site1", Published: tt.published}, "docs.example.com", "tok",
				&store.HostnameCheck{CheckedAt: at}, tt.verifiedAt, "quire.example")
			if got.IsActive != tt.active || got.DNS.VerifiedAt != tt.since || got.DNS.CNAME.Value != "quire.example" {
				t.Errorf("hostname = %+v", got)
			}
			if want := "https://quire.example/v1/custom-hostnames/docs.example.com"; got.URLs["location"] != want {
				t.Errorf("location = %q, want %q", got.URLs["location"], want)
			}
		})
	}
}

func TestPage(t *testing.T) {
	sp := &quire.Space{ID: "s1", OrgID: "o1"}
	x := &content.Index{Path: map[string]string{"p1": "guide", "g1": "part"}, Git: map[string]string{"p1": "guide.md"}}
	doc := &content.Page{ID: "p1", Title: "Guide", Markdown: "Hi.", CreatedAt: 1_700_000_000_000_000, UpdatedAt: 1_700_000_001_000_000}
	group := &content.Page{ID: "g1", Title: "Part", Kind: content.KindGroup}
	for _, tt := range []struct {
		name             string
		p                *content.Page
		git              bool
		kind, created    string
		hasURLs, hasGit  bool
		documentID, path string
	}{
		{"document", doc, false, "sheet", "2023-11-14T22:13:20.000Z", true, false, "d1", "guide"},
		{"document with its Git blob", doc, true, "sheet", "2023-11-14T22:13:20.000Z", true, true, "d1", "guide"},
		{"group, never timed", group, true, "group", "", false, false, "", "part"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := links.Page(sp, tt.p, x, tt.p.Title, "d1", tt.git)
			if got.Kind != tt.kind || got.CreatedAt != tt.created || (got.URLs != nil) != tt.hasURLs ||
				(got.Git != nil) != tt.hasGit || got.DocumentID != tt.documentID || got.Path != tt.path {
				t.Errorf("page = %+v", got)
			}
			if got.Markdown != nil || got.Document != nil || got.Pages == nil || got.Tags == nil {
				t.Errorf("body or lists: %+v", got)
			}
			if tt.hasGit && got.Git.Path != "guide.md" {
				t.Errorf("git path = %q", got.Git.Path)
			}
		})
	}
}
