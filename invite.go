package quire

import (
	"strings"
	"time"
)

// Invites let people join an organization. Quire sends no mail: whoever
// creates an invite is given its link and passes it on. The link carries a
// secret key, of which the store keeps only a hash; joining is
// POST O/invites/{key} by the signed-in person who holds it.

// InviteTTL is how long an e-mail invite may be used after it is made.
const InviteTTL = 7 * 24 * time.Hour

// InviteKeyPrefix starts every invite key, so leaked ones are easy to
// recognise; keys match the reference's EntityId pattern.
const InviteKeyPrefix = "qinv_"

// Invite is an invitation of one e-mail address to an organization, with
// the role it joins with; it is used once, before it expires.
type Invite struct {
	OrgID     string
	Email     string // normalized
	Role      Role   // RoleGuest for a guest
	SSO       bool   // the member joins marked as an SSO member
	CreatedAt time.Time
	ExpiresAt time.Time
	Key       string // the secret, known only when the invite was just made
}

// InviteTarget is what a link invite lets people join: the organization,
// or one of its spaces or collections.
type InviteTarget string

// Link invite targets, as the reference's CreateOrganizationInvite has them.
const (
	TargetOrganization InviteTarget = "organization"
	TargetSpace        InviteTarget = "space"
	TargetCollection   InviteTarget = "collection"
)

// LinkInvite is a shareable link that lets anyone who holds it join the
// organization with Role, or, for a space or collection, join it (as a
// guest of the organization unless already a member) with Role on that
// content. It works until deleted.
type LinkInvite struct {
	ID        string
	OrgID     string
	Target    InviteTarget
	TargetID  string // the space or collection; "" for the organization
	Role      Role   // the organization role, or the level on the content
	CreatedBy string
	CreatedAt time.Time
	Key       string // the secret, known only when the link was just made
}

// InviteAppURL is where the app lets the holder of an invite key join
// organization orgID: the link an inviter passes on.
func InviteAppURL(publicURL, orgID, key string) string {
	return publicURL + AppPath(AppJoinPath, orgID, key)
}

// IsInviteKey reports whether s has the form of an invite key, which path
// parameters name: anything else is not found without a lookup.
func IsInviteKey(s string) bool {
	rest, ok := strings.CutPrefix(s, InviteKeyPrefix)
	if !ok || rest == "" || len(s) > 64 {
		return false
	}
	for _, r := range rest {
		if !(r >= 'A' && r <= 'Z' || r >= '2' && r <= '7') {
			return false
		}
	}
	return true
}

// Bounds of a user's own profile. The reference's updateUserById.
const (
	MaxDisplayName = 64
	MaxPhotoURL    = 2048
)
