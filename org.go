package quire

import (
	"encoding/json"
	"time"
)

// User is a person who signs in to Quire.
type User struct {
	ID          string
	DisplayName string
	Email       string
	PhotoURL    string
	CreatedAt   time.Time
}

// Organization owns members, teams and content.
type Organization struct {
	ID           string
	Title        string
	CreatedAt    time.Time
	EmailDomains []string
	Hostname     string
	DefaultRole  Role
	SSO          bool
	AI           bool
	InviteLinks  bool
	MergeRules   json.RawMessage // {"type":"none"} or {"type":"rules","rules":[…]}
}

// Member is a user's membership of an organization.
type Member struct {
	OrgID      string
	User       User
	Role       Role // RoleGuest for guests
	Disabled   bool
	JoinedAt   time.Time
	LastSeenAt time.Time // zero when never seen
	SSO        bool
	Spaces     int // spaces the member can access
	Sites      int // sites of the organization the member can manage or read
	Teams      int // teams of the organization the member belongs to
	TeamsOwned int // teams the member owns
}

// Team is a named group of members of one organization.
type Team struct {
	ID        string
	OrgID     string
	Title     string
	CreatedAt time.Time
	Members   int
	Spaces    int // spaces the team has been granted
}

// TeamMembership is one member's place in a team.
type TeamMembership struct {
	Team   Team
	Member Member
	Role   TeamRole
}

// OrgPermissions are what a caller may do in an organization, computed from
// their membership. Contract §5.4.
type OrgPermissions struct {
	View, Access, Admin, OwnTeam, CreateContent bool
}

// PermissionsOf computes a member's organization permissions.
func PermissionsOf(m *Member) OrgPermissions {
	if m == nil || m.Disabled {
		return OrgPermissions{}
	}
	return OrgPermissions{
		View:          true,
		Access:        m.Role != RoleGuest,
		Admin:         m.Role == RoleAdmin,
		OwnTeam:       m.TeamsOwned > 0,
		CreateContent: m.Role.AtLeast(RoleCreate),
	}
}

// CanManageTeam reports whether a member may manage a team's members: org
// admins and the team's owners.
func CanManageTeam(m *Member, teamRole TeamRole) bool {
	return m != nil && (m.Role == RoleAdmin || teamRole == TeamOwner)
}
