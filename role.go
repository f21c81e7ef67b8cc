package quire

// Role is an organization or content role. The zero value, RoleGuest, stands
// for guests (null on the wire).
type Role string

// Roles, strongest first. Contract §2 Role.
const (
	RoleAdmin   Role = "admin"
	RoleCreate  Role = "create"
	RoleReview  Role = "review"
	RoleEdit    Role = "edit"
	RoleComment Role = "comment"
	RoleRead    Role = "read"
	RoleGuest   Role = ""
)

var roleRank = map[Role]int{
	RoleGuest: 0, RoleRead: 1, RoleComment: 2, RoleEdit: 3, RoleReview: 4, RoleCreate: 5, RoleAdmin: 6,
}

// ParseRole accepts one of the six role names. Anything else gives
// RoleGuest and false, never an unknown Role.
func ParseRole(s string) (Role, bool) {
	r := Role(s)
	if _, ok := roleRank[r]; !ok || r == RoleGuest {
		return RoleGuest, false
	}
	return r, true
}

// ParseRoleOrNull reads a role given as one of the six names or as null,
// which stands for guests (RoleGuest).
func ParseRoleOrNull(field string, v Optional[string]) (Role, error) {
	if v.Null {
		return RoleGuest, nil
	}
	r, ok := ParseRole(v.Value)
	if !ok {
		return RoleGuest, Errorf(CodeInvalid, "%s: must be one of admin, create, review, edit, comment, read or null", field)
	}
	return r, nil
}

// AtLeast reports whether r is as strong as min.
func (r Role) AtLeast(min Role) bool { return roleRank[r] >= roleRank[min] }

// Max returns the stronger of two roles.
func (r Role) Max(o Role) Role {
	if roleRank[o] > roleRank[r] {
		return o
	}
	return r
}

// TeamRole is a member's role within a team. Contract §2 Team role.
type TeamRole string

// Team roles.
const (
	TeamOwner  TeamRole = "owner"
	TeamMember TeamRole = "member"
)

// ParseTeamRole reads "owner" or "member", in the field field.
func ParseTeamRole(field, s string) (TeamRole, error) {
	if r := TeamRole(s); r == TeamOwner || r == TeamMember {
		return r, nil
	}
	return "", Errorf(CodeInvalid, "%s: must be owner or member", field)
}
