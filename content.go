package quire

import (
	"encoding/json"
	"slices"
	"time"
)

// Visibility says who may read a space's published content. Contract §2 Space.
type Visibility string

// Visibilities.
const (
	VisibilityPublic       Visibility = "public"
	VisibilityUnlisted     Visibility = "unlisted"
	VisibilityShareLink    Visibility = "share-link"
	VisibilityVisitorAuth  Visibility = "visitor-auth"
	VisibilityInCollection Visibility = "in-collection" // only for spaces in a collection
	VisibilityPrivate      Visibility = "private"
)

// ParseVisibility accepts one of the six visibilities.
func ParseVisibility(s string) (Visibility, bool) {
	switch v := Visibility(s); v {
	case VisibilityPublic, VisibilityUnlisted, VisibilityShareLink, VisibilityVisitorAuth, VisibilityInCollection, VisibilityPrivate:
		return v, true
	}
	return "", false
}

// EditMode says whether a space's content may be edited.
type EditMode string

// Edit modes.
const (
	EditLive   EditMode = "live"
	EditLocked EditMode = "locked" // every edit of the content is refused
)

// ParseEditMode reads an edit mode, in the field field.
func ParseEditMode(field, v string) (EditMode, error) {
	switch m := EditMode(v); m {
	case EditLive, EditLocked:
		return m, nil
	}
	return "", Errorf(CodeInvalid, "%s: must be live or locked", field)
}

// DefaultLevel is the role org members get on content: a role, LevelInherit
// (the parent collection's level), or LevelNone (null: nothing by default).
type DefaultLevel string

// Default levels beyond the roles.
const (
	LevelInherit DefaultLevel = "inherit"
	LevelNone    DefaultLevel = ""
)

// ParseDefaultLevel accepts a role or "inherit"; null is LevelNone.
func ParseDefaultLevel(s string) (DefaultLevel, bool) {
	if s == string(LevelInherit) {
		return LevelInherit, true
	}
	r, ok := ParseRole(s)
	return DefaultLevel(r), ok
}

// ParseDefaultLevelOrNull reads a default level given in the field field as
// a role, "inherit" or null (LevelNone).
func ParseDefaultLevelOrNull(field string, v Optional[string]) (DefaultLevel, error) {
	if v.Null {
		return LevelNone, nil
	}
	l, ok := ParseDefaultLevel(v.Value)
	if !ok {
		return "", Errorf(CodeInvalid, "%s: must be a role (admin, create, review, edit, comment, read), inherit or null", field)
	}
	return l, nil
}

// Space is a body of documentation content.
type Space struct {
	ID           string
	OrgID        string
	ParentID     string   // "" at the top level of the organization
	Ancestors    []string // collection ids from the outermost to the parent
	Title        string
	Emoji        string
	Visibility   Visibility
	EditMode     EditMode
	DefaultLevel DefaultLevel
	ShareKey     string
	RevisionID   string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DeletedAt    time.Time       // zero unless deleted
	MergeRules   json.RawMessage // {"type":"inherit"}, {"type":"none"} or {"type":"rules",…}

	// Counts of what belongs to the space.
	Comments, ChangeRequests, ChangeRequestsOpen, ChangeRequestsDraft int
}

// AppURL is where the web app shows the space, on the main address
// publicURL (no trailing slash).
func (sp *Space) AppURL(publicURL string) string { return AppSpaceURL(publicURL, sp.ID) }

// PageAppURL is where the web app shows the page at path of the space, or
// its section anchor when that is not "".
func (sp *Space) PageAppURL(publicURL, path, anchor string) string {
	return AppPageURL(publicURL, sp.ID, path, anchor)
}

// Collection groups spaces and collections.
type Collection struct {
	ID           string
	OrgID        string
	ParentID     string
	Ancestors    []string
	Title        string
	Description  string
	DefaultLevel DefaultLevel
	CreatedAt    time.Time
	UpdatedAt    time.Time
	DeletedAt    time.Time
}

// Viewer is what decides one person's role on the content of one
// organization: their organization role and the grants to them or their teams.
type Viewer struct {
	UserID  string
	OrgRole Role            // RoleGuest for guests and for people outside the organization
	Member  bool            // a member of the organization, guest or not
	Grants  map[string]Role // content id → strongest role granted to the user or their teams
	// Levels are the default levels of collections, by id, as far as loaded;
	// collections that inherit may be left out, so that loading a deep
	// collection's ancestors reads only the few levels that are set.
	Levels map[string]DefaultLevel
}

// RoleOnSite is the viewer's role on a docs site: the strongest of the
// organization role and the site's grants to the user or their teams;
// RoleGuest outside the organization.
func (v *Viewer) RoleOnSite(siteID string) Role {
	if v == nil || !v.Member {
		return RoleGuest
	}
	return v.OrgRole.Max(v.Grants[siteID])
}

// Granted lists, sorted, the ids of the content and sites granted to the
// viewer or their teams with at least role min; never nil.
func (v *Viewer) Granted(min Role) []string {
	ids := []string{}
	for id, role := range v.Grants {
		if role.AtLeast(min) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// RoleOn computes the viewer's role on content with its own id and default
// level, below the ancestor collections given outermost first. Contract §5 /
// DESIGN: the strongest of the org role, grants on the content or any
// ancestor, and — for members who are not guests — the content's effective
// default level (inherit walks up to the nearest set level).
func (v *Viewer) RoleOn(id string, level DefaultLevel, ancestors []string) Role {
	if v == nil || !v.Member {
		return RoleGuest
	}
	role := v.OrgRole
	role = role.Max(v.Grants[id])
	for _, a := range ancestors {
		role = role.Max(v.Grants[a])
	}
	if v.OrgRole != RoleGuest {
		for i := len(ancestors) - 1; level == LevelInherit && i >= 0; i-- {
			if l, ok := v.Levels[ancestors[i]]; ok {
				level = l
			}
		}
		if level != LevelInherit {
			role = role.Max(Role(level))
		}
	}
	return role
}

// CheckCreateIn checks that the viewer may create content (a space or a
// collection) of organization orgID in collection parentID, c (nil when
// not found), or at the top level when parentID is "", where the
// organization role decides. A parent that is not a live collection of the
// organization that the viewer sees is a bad request naming it.
func (v *Viewer) CheckCreateIn(orgID, parentID string, c *Collection) error {
	if parentID == "" {
		if !v.OrgRole.AtLeast(RoleCreate) {
			return Errorf(CodeForbidden, "creating content at the top level needs the create role in the organization")
		}
		return nil
	}
	role := RoleGuest
	if c != nil && c.OrgID == orgID && c.DeletedAt.IsZero() {
		role = v.RoleOn(c.ID, c.DefaultLevel, c.Ancestors)
	}
	if !role.AtLeast(RoleRead) {
		return Errorf(CodeInvalid, "parent: no collection %q in the organization", parentID)
	}
	if !role.AtLeast(RoleCreate) {
		return Errorf(CodeForbidden, "creating content in this collection needs the create role on it")
	}
	return nil
}

// SpacePermissions are the space flags of Contract §5.4, from one role.
type SpacePermissions struct {
	View, Access, Admin, ViewInviteLinks, Edit, TriggerGitSync, Comment, Merge, Review, InstallIntegration bool
}

// SpacePermissionsOf derives a space's permission flags from a role.
func SpacePermissionsOf(r Role) SpacePermissions {
	return SpacePermissions{
		View: r.AtLeast(RoleRead), Access: r.AtLeast(RoleRead),
		Comment: r.AtLeast(RoleComment),
		Edit:    r.AtLeast(RoleEdit), TriggerGitSync: r.AtLeast(RoleEdit),
		Review: r.AtLeast(RoleReview), Merge: r.AtLeast(RoleReview),
		Admin: r == RoleAdmin, ViewInviteLinks: r == RoleAdmin, InstallIntegration: r == RoleAdmin,
	}
}

// CollectionPermissions are a collection's flags of Contract §5.4.
type CollectionPermissions struct {
	View, Admin, ViewInviteLinks, Create bool
}

// CollectionPermissionsOf derives a collection's permission flags from a role.
func CollectionPermissionsOf(r Role) CollectionPermissions {
	return CollectionPermissions{View: r.AtLeast(RoleRead), Admin: r == RoleAdmin, ViewInviteLinks: r == RoleAdmin, Create: r.AtLeast(RoleCreate)}
}

// RequireRole answers 404 to a viewer who cannot see content (role below
// read) and 403 to one who can see it but whose role is below need.
func RequireRole(role, need Role, what string) error {
	if !role.AtLeast(RoleRead) {
		return Errorf(CodeNotFound, "%s not found", what)
	}
	if !role.AtLeast(need) {
		return Errorf(CodeForbidden, "this needs the %s role on the %s", need, what)
	}
	return nil
}

// CheckEditable refuses edits of a locked space's content.
func CheckEditable(s *Space) error {
	if s.EditMode == EditLocked {
		return Errorf(CodeForbidden, "the space is locked: unlock it (editMode live) to edit")
	}
	return nil
}

// ChangeRequestStatus is where a change request stands.
type ChangeRequestStatus string

// Change request statuses; merged is reached only by merging.
const (
	StatusDraft    ChangeRequestStatus = "draft"
	StatusOpen     ChangeRequestStatus = "open"
	StatusArchived ChangeRequestStatus = "archived"
	StatusMerged   ChangeRequestStatus = "merged"
)

// ParseChangeRequestStatus accepts one of the four statuses.
func ParseChangeRequestStatus(s string) (ChangeRequestStatus, bool) {
	switch st := ChangeRequestStatus(s); st {
	case StatusDraft, StatusOpen, StatusArchived, StatusMerged:
		return st, true
	}
	return "", false
}

// ChangeRequest proposes changes to a space's content.
type ChangeRequest struct {
	ID                     string
	SpaceID                string
	Number                 int
	Status                 ChangeRequestStatus
	Subject                string
	Description            string // markdown, as a page's body; "" for none
	CreatedBy              User
	CreatedAt, UpdatedAt   time.Time
	RevisionID             string // the request's own head
	RevisionInitial        string // the space's revision it forked from
	RevisionMergedAncestor string // the space's revision last pulled in by update
	RevisionMerged         string // the space's revision its merge made
	Comments               int
}

// CheckChangeRequestSubject validates a change request's subject
// (reference: ChangeRequestSubject, at most 100 characters; "" for none).
func CheckChangeRequestSubject(v string) error { return CheckLen("subject", v, 0, 100) }

// Base is the space revision the request's changes are relative to.
func (c *ChangeRequest) Base() string {
	if c.RevisionMergedAncestor != "" {
		return c.RevisionMergedAncestor
	}
	return c.RevisionInitial
}
