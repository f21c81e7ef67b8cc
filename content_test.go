package quire

import "testing"

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
