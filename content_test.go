package quire

import (
	"strings"
	"testing"
	"time"
)

// TestRoleOnLevels: a member's role from default levels walks up the
// ancestors past those that inherit, whether Levels lists them as inherit
// or leaves them out (as store.Viewer does), and stops at the first one set,
// null included.
func TestRoleOnLevels(t *testing.T) {
	ancestors := []string{"top", "mid", "low"}
	tests := []struct {
		name   string
		level  DefaultLevel
		levels map[string]DefaultLevel
		want   Role
	}{
		{"own level", DefaultLevel(RoleEdit), map[string]DefaultLevel{"low": LevelInherit}, RoleEdit},
		{"inherit listed", LevelInherit, map[string]DefaultLevel{"top": DefaultLevel(RoleComment), "mid": LevelInherit, "low": LevelInherit}, RoleComment},
		{"inherit left out", LevelInherit, map[string]DefaultLevel{"top": DefaultLevel(RoleComment)}, RoleComment},
		{"nearest set wins", LevelInherit, map[string]DefaultLevel{"top": DefaultLevel(RoleAdmin), "mid": DefaultLevel(RoleComment)}, RoleComment},
		{"null stops the walk", LevelInherit, map[string]DefaultLevel{"top": DefaultLevel(RoleAdmin), "mid": LevelNone}, RoleRead},
		{"all inherit", LevelInherit, nil, RoleRead},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := &Viewer{UserID: "u", OrgRole: RoleRead, Member: true, Levels: tt.levels}
			if got := v.RoleOn("sp", tt.level, ancestors); got != tt.want {
				t.Errorf("RoleOn = %q, want %q", got, tt.want)
			}
			guest := &Viewer{UserID: "u", OrgRole: RoleGuest, Member: true, Levels: tt.levels}
			if got := guest.RoleOn("sp", tt.level, ancestors); got != RoleGuest {
				t.Errorf("guest RoleOn = %q, want no role", got)
			}
		})
	}
}

func TestSpaceAppURLs(t *testing.T) {
	sp := &Space{ID: "s1"}
	for _, tt := range []struct{ got, want string }{
		{sp.AppURL("https://docs.example.com"), "https://docs.example.com/s/s1"},
		{sp.PageAppURL("https://docs.example.com", "guides/install", ""), "https://docs.example.com/s/s1/guides/install"},
		{sp.PageAppURL("", "guides", "setup"), "/s/s1/guides#setup"},
	} {
		if tt.got != tt.want {
			t.Errorf("%q, want %q", tt.got, tt.want)
		}
	}
}

// TestCheckCreateIn: the organization role decides at the top level; in a
// collection, the role on it, and a collection not seen is no parent.
func TestCheckCreateIn(t *testing.T) {
	t.Parallel()
	col := &Collection{ID: "c1", OrgID: "o1", DefaultLevel: LevelInherit}
	creator := &Viewer{Member: true, OrgRole: RoleCreate}
	editor := &Viewer{Member: true, OrgRole: RoleEdit}
	granted := &Viewer{Member: true, OrgRole: RoleRead, Grants: map[string]Role{"c1": RoleAdmin}}
	stranger := &Viewer{}
	deleted := *col
	deleted.DeletedAt = time.Unix(1, 0)
	tests := []struct {
		name   string
		v      *Viewer
		parent string
		c      *Collection
		want   string
	}{
		{"top, create", creator, "", nil, ""},
		{"top, edit", editor, "", nil, "creating content at the top level needs the create role"},
		{"in, create", creator, "c1", col, ""},
		{"in, granted", granted, "c1", col, ""},
		{"in, edit", editor, "c1", col, "creating content in this collection needs the create role on it"},
		{"in, unseen", stranger, "c1", col, `parent: no collection "c1" in the organization`},
		{"missing", creator, "c9", nil, `parent: no collection "c9" in the organization`},
		{"other org", creator, "c1", &Collection{ID: "c1", OrgID: "o2"}, `parent: no collection "c1"`},
		{"deleted", creator, "c1", &deleted, `parent: no collection "c1"`},
	}
	for _, tt := range tests {
		got := errText(tt.v.CheckCreateIn("o1", tt.parent, tt.c))
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
