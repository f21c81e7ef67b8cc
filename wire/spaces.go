package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
)

// SpaceURLs is how the API shows the addresses of a space: in the API, the
// app and, when published, its site.
type SpaceURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Published string `json:"published,omitempty"`
}

// SpacePermissions is how the API shows what the caller may do in a space.
type SpacePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	ViewInviteLinks    bool `json:"viewInviteLinks"`
	Edit               bool `json:"edit"`
	TriggerGitSync     bool `json:"triggerGitSync"`
	Comment            bool `json:"comment"`
	Merge              bool `json:"merge"`
	Review             bool `json:"review"`
	InstallIntegration bool `json:"installIntegration"`
}

// Space is how the API shows a space, with what the caller may do in it.
type Space struct {
	Object              string           `json:"object"`
	ID                  string           `json:"id"`
	Title               string           `json:"title"`
	Emoji               string           `json:"emoji"`
	Visibility          string           `json:"visibility"`
	CreatedAt           string           `json:"createdAt"`
	UpdatedAt           string           `json:"updatedAt"`
	DeletedAt           string           `json:"deletedAt,omitempty"`
	EditMode            string           `json:"editMode"`
	MergeRules          json.RawMessage  `json:"mergeRules"`
	URLs                SpaceURLs        `json:"urls"`
	Organization        string           `json:"organization"`
	Parent              string           `json:"parent,omitempty"`
	Revision            string           `json:"revision"`
	DefaultLevel        *string          `json:"defaultLevel"`
	Comments            int              `json:"comments"`
	ChangeRequests      int              `json:"changeRequests"`
	ChangeRequestsOpen  int              `json:"changeRequestsOpen"`
	ChangeRequestsDraft int              `json:"changeRequestsDraft"`
	Permissions         SpacePermissions `json:"permissions"`
	// GitSync is the space's Git sync state (GET S/git/info), set when a
	// single space is read and a repository is connected.
	GitSync *GitSyncState `json:"gitSync,omitempty"`
}

// Level is a default level: a role, "inherit", or null.
func Level(l quire.DefaultLevel) *string {
	if l == quire.LevelNone {
		return nil
	}
	s := string(l)
	return &s
}

// inheritMergeRules: spaces follow their organization's merge rules.
var inheritMergeRules = json.RawMessage(`{"type":"inherit"}`)

// MergeRules is a space's merge rules; spaces read without them
// inherit their organization's.
func MergeRules(sp *quire.Space) json.RawMessage {
	if len(sp.MergeRules) == 0 {
		return inheritMergeRules
	}
	return sp.MergeRules
}

// Space renders a space for a caller whose role on it is role.
func (l Links) Space(sp *quire.Space, role quire.Role) Space {
	p := quire.SpacePermissionsOf(role)
	return Space{
		Object: "space", ID: sp.ID, Title: sp.Title, Emoji: sp.Emoji, Visibility: string(sp.Visibility),
		CreatedAt: Time(sp.CreatedAt), UpdatedAt: Time(sp.UpdatedAt), EditMode: string(sp.EditMode),
		MergeRules:   MergeRules(sp),
		URLs:         SpaceURLs{Location: l.API("/spaces/" + sp.ID), App: sp.AppURL(l.PublicURL)},
		Organization: sp.OrgID, Parent: sp.ParentID, Revision: sp.RevisionID, DefaultLevel: Level(sp.DefaultLevel),
		Comments: sp.Comments, ChangeRequests: sp.ChangeRequests, ChangeRequestsOpen: sp.ChangeRequestsOpen,
		ChangeRequestsDraft: sp.ChangeRequestsDraft, DeletedAt: OptTime(sp.DeletedAt),
		Permissions: SpacePermissions{
			View: p.View, Access: p.Access, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks, Edit: p.Edit,
			TriggerGitSync: p.TriggerGitSync, Comment: p.Comment, Merge: p.Merge, Review: p.Review,
			InstallIntegration: p.InstallIntegration,
		},
	}
}

// CollectionPermissions is how the API shows what the caller may do with a
// collection.
type CollectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// Collection is how the API shows a collection, with what the caller may do
// with it.
type Collection struct {
	Object       string                `json:"object"`
	ID           string                `json:"id"`
	Title        string                `json:"title"`
	Description  string                `json:"description,omitempty"`
	Organization string                `json:"organization"`
	Parent       string                `json:"parent,omitempty"`
	DefaultLevel *string               `json:"defaultLevel"`
	URLs         URLs                  `json:"urls"`
	Permissions  CollectionPermissions `json:"permissions"`
}

// Collection shows a collection, with what the caller may do with it as the
// API answers it.
func (l Links) Collection(c *quire.Collection, role quire.Role) Collection {
	p := quire.CollectionPermissionsOf(role)
	return Collection{
		Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description, Organization: c.OrgID,
		Parent: c.ParentID, DefaultLevel: Level(c.DefaultLevel),
		URLs:        URLs{Location: l.API("/collections/" + c.ID), App: quire.AppCollectionURL(l.PublicURL, c.ID)},
		Permissions: CollectionPermissions{View: p.View, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks, Create: p.Create},
	}
}

// Location is where the space is in the API (the Location header of a 201).
func (j Space) Location() string { return j.URLs.Location }

// Location is where the collection is in the API (the Location header of a
// 201).
func (j Collection) Location() string { return j.URLs.Location }
