package quire

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"
	"unicode/utf8"
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

// OrgCreation says who may create organizations with the API. Whatever it
// says, `quire admin init` creates them.
type OrgCreation string

const (
	// OrgCreationAnyone lets any token holder, a guest included, create
	// organizations, as GitBook does. It is the default ("" means it too).
	OrgCreationAnyone OrgCreation = "anyone"
	// OrgCreationMembers lets members of some organization create them, but
	// not guests, nor users who belong to none.
	OrgCreationMembers OrgCreation = "members"
	// OrgCreationNone lets nobody create them through the API.
	OrgCreationNone OrgCreation = "none"
)

// ParseOrgCreation reads a setting of who may create organizations; "" is
// anyone.
func ParseOrgCreation(s string) (OrgCreation, error) {
	switch o := OrgCreation(s); o {
	case "":
		return OrgCreationAnyone, nil
	case OrgCreationAnyone, OrgCreationMembers, OrgCreationNone:
		return o, nil
	}
	return "", fmt.Errorf("org creation %q: must be anyone, members or none", s)
}

// Check refuses (CodeForbidden) a user whom the setting does not let create
// organizations; an unknown setting lets nobody, as none. memberSomewhere
// reports whether the user is an enabled member, not a guest, of some
// organization; it is asked only when the setting depends on it.
func (o OrgCreation) Check(memberSomewhere func() (bool, error)) error {
	switch o {
	case OrgCreationAnyone, "":
		return nil
	case OrgCreationMembers:
		member, err := memberSomewhere()
		if err != nil || member {
			return err
		}
		return Errorf(CodeForbidden, "on this server only members of an organization, not guests, may create organizations")
	}
	return Errorf(CodeForbidden, "on this server organizations are not created through the API; its operators create them")
}

// orgTitlePattern is the reference's OrganizationTitle: no blank ends.
var orgTitlePattern = regexp.MustCompile(`^\S(.*\S)?$`)

// CheckOrgTitle validates an organization's title: 2 to 255 characters,
// not starting or ending with spaces.
func CheckOrgTitle(field, title string) error {
	if err := CheckLen(field, title, 2, 255); err != nil {
		return err
	}
	if !orgTitlePattern.MatchString(title) {
		return Errorf(CodeInvalid, "%s: must not start or end with spaces", field)
	}
	return nil
}

var domainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

// CheckEmailDomains validates the e-mail domains of an organization: at
// most 100 lower-case domain names.
func CheckEmailDomains(field string, domains []string) error {
	if len(domains) > 100 {
		return Errorf(CodeInvalid, "%s: must have at most 100 entries", field)
	}
	for i, d := range domains {
		if err := CheckEmailDomain(fmt.Sprintf("%s[%d]", field, i), d); err != nil {
			return err
		}
	}
	return nil
}

// CheckEmailDomain validates one e-mail domain.
func CheckEmailDomain(field, d string) error {
	if !domainPattern.MatchString(d) {
		return Errorf(CodeInvalid, "%s: must be a lower-case domain name such as example.com", field)
	}
	return nil
}

var orgHostnamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*[a-z0-9]$`)

// CheckOrgHostname validates an organization's hostname: 3 to 32
// lower-case letters, digits and inner hyphens.
func CheckOrgHostname(field, h string) error {
	if err := CheckLen(field, h, 3, 32); err != nil {
		return err
	}
	if !orgHostnamePattern.MatchString(h) {
		return Errorf(CodeInvalid, "%s: must be lower-case letters, digits and inner hyphens", field)
	}
	return nil
}

// mergeRuleNames are the rules of the reference's MergeRule.
var mergeRuleNames = map[string]bool{
	"require_specific_reviewers": true, "require_one_of_specific_reviewers": true, "allow_bypass": true,
	"require_at_least_one_review": true, "require_at_least_one_approved_review": true,
	"require_all_reviews_approved": true, "require_agent_review": true, "require_up_to_date_change_request": true,
	"require_change_request_subject": true, "require_change_request_description": true,
	"require_author_to_merge": true, "custom": true,
}

// CheckMergeRules validates an organization's merge rules, {"type":"none"}
// or {"type":"rules","rules":[{"rule":…}, …]} (null is refused), and
// returns them re-encoded, each rule kept as given.
func CheckMergeRules(field string, raw json.RawMessage, null bool) (json.RawMessage, error) {
	var v struct {
		Type  string            `json:"type"`
		Rules []json.RawMessage `json:"rules"`
	}
	if null || DecodeJSON(raw, &v) != nil {
		return nil, Errorf(CodeInvalid, `%s: must be {"type":"none"} or {"type":"rules","rules":[…]}`, field)
	}
	switch v.Type {
	case "none":
		return json.RawMessage(`{"type":"none"}`), nil
	case "rules":
		if v.Rules == nil {
			v.Rules = []json.RawMessage{}
		}
		for i, raw := range v.Rules {
			if err := checkMergeRule(fmt.Sprintf("%s.rules[%d]", field, i), raw); err != nil {
				return nil, err
			}
		}
		return json.Marshal(v)
	}
	return nil, Errorf(CodeInvalid, `%s.type: must be "none" or "rules"`, field)
}

// checkMergeRule validates one rule of the reference's MergeRule: the
// reviewer rules need users, a custom rule an expression of at most 1024
// characters, so that what is stored is what the reference describes.
func checkMergeRule(field string, raw json.RawMessage) error {
	var rule struct {
		Rule       string          `json:"rule"`
		Users      json.RawMessage `json:"users"`
		Expression json.RawMessage `json:"expression"`
		Message    json.RawMessage `json:"message"`
	}
	if DecodeJSON(raw, &rule) != nil || !mergeRuleNames[rule.Rule] {
		return Errorf(CodeInvalid, "%s.rule: must be a known merge rule", field)
	}
	switch rule.Rule {
	case "require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass":
		var users []string
		if json.Unmarshal(rule.Users, &users) != nil || users == nil {
			return Errorf(CodeInvalid, "%s.users: must be an array of user ids", field)
		}
	case "custom":
		var expr string
		if json.Unmarshal(rule.Expression, &expr) != nil || utf8.RuneCountInString(expr) > 1024 {
			return Errorf(CodeInvalid, "%s.expression: must be a string of at most 1024 characters", field)
		}
		var msg string
		if rule.Message != nil && json.Unmarshal(rule.Message, &msg) != nil {
			return Errorf(CodeInvalid, "%s.message: must be a string", field)
		}
	}
	return nil
}

// RequireOrgAdmin refuses (CodeForbidden) a member who is not an admin of
// their organization, for what only its admins do.
func RequireOrgAdmin(m *Member) error {
	if m.Role != RoleAdmin {
		return Errorf(CodeForbidden, "only organization admins may do this")
	}
	return nil
}
