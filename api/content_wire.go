package api

import (
	"encoding/json"

	"github.com/quiredocs/quire"
)

type spaceURLsJSON struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Published string `json:"published,omitempty"`
}

type spacePermsJSON struct {
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

type spaceJSON struct {
	Object              string          `json:"object"`
	ID                  string          `json:"id"`
	Title               string          `json:"title"`
	Emoji               string          `json:"emoji"`
	Visibility          string          `json:"visibility"`
	CreatedAt           string          `json:"createdAt"`
	UpdatedAt           string          `json:"updatedAt"`
	DeletedAt           string          `json:"deletedAt,omitempty"`
	EditMode            string          `json:"editMode"`
	MergeRules          json.RawMessage `json:"mergeRules"`
	URLs                spaceURLsJSON   `json:"urls"`
	Organization        string          `json:"organization"`
	Parent              string          `json:"parent,omitempty"`
	Revision            string          `json:"revision"`
	DefaultLevel        *string         `json:"defaultLevel"`
	Comments            int             `json:"comments"`
	ChangeRequests      int             `json:"changeRequests"`
	ChangeRequestsOpen  int             `json:"changeRequestsOpen"`
	ChangeRequestsDraft int             `json:"changeRequestsDraft"`
	Permissions         spacePermsJSON  `json:"permissions"`
	// GitSync is the space's Git sync state (GET S/git/info), set when a
	// single space is read and a repository is connected.
	GitSync *gitInfoJSON `json:"gitSync,omitempty"`
}

// levelJSON is a default level: a role, "inherit", or null.
func levelJSON(l quire.DefaultLevel) *string {
	if l == quire.LevelNone {
		return nil
	}
	s := string(l)
	return &s
}

// inheritMergeRules: spaces follow their organization's merge rules.
var inheritMergeRules = json.RawMessage(`{"type":"inherit"}`)

// mergeRulesJSON is a space's merge rules; spaces read without them
// inherit their organization's.
func mergeRulesJSON(sp *quire.Space) json.RawMessage {
	if len(sp.MergeRules) == 0 {
		return inheritMergeRules
	}
	return sp.MergeRules
}

// spaceJSON renders a space for a caller whose role on it is role.
func (s *Server) spaceJSON(sp *quire.Space, role quire.Role) spaceJSON {
	p := quire.SpacePermissionsOf(role)
	return spaceJSON{
		Object: "space", ID: sp.ID, Title: sp.Title, Emoji: sp.Emoji, Visibility: string(sp.Visibility),
		CreatedAt: timeJSON(sp.CreatedAt), UpdatedAt: timeJSON(sp.UpdatedAt), EditMode: string(sp.EditMode),
		MergeRules:   mergeRulesJSON(sp),
		URLs:         spaceURLsJSON{Location: s.url("/spaces/" + sp.ID), App: sp.AppURL(s.publicURL)},
		Organization: sp.OrgID, Parent: sp.ParentID, Revision: sp.RevisionID, DefaultLevel: levelJSON(sp.DefaultLevel),
		Comments: sp.Comments, ChangeRequests: sp.ChangeRequests, ChangeRequestsOpen: sp.ChangeRequestsOpen,
		ChangeRequestsDraft: sp.ChangeRequestsDraft, DeletedAt: optTimeJSON(sp.DeletedAt),
		Permissions: spacePermsJSON{
			View: p.View, Access: p.Access, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks, Edit: p.Edit,
			TriggerGitSync: p.TriggerGitSync, Comment: p.Comment, Merge: p.Merge, Review: p.Review,
			InstallIntegration: p.InstallIntegration,
		},
	}
}

type collectionPermsJSON struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

type collectionJSON struct {
	Object       string              `json:"object"`
	ID           string              `json:"id"`
	Title        string              `json:"title"`
	Description  string              `json:"description,omitempty"`
	Organization string              `json:"organization"`
	Parent       string              `json:"parent,omitempty"`
	DefaultLevel *string             `json:"defaultLevel"`
	URLs         urlsJSON            `json:"urls"`
	Permissions  collectionPermsJSON `json:"permissions"`
}

func (s *Server) collectionJSON(c *quire.Collection, role quire.Role) collectionJSON {
	p := quire.CollectionPermissionsOf(role)
	return collectionJSON{
		Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description, Organization: c.OrgID,
		Parent: c.ParentID, DefaultLevel: levelJSON(c.DefaultLevel),
		URLs:        urlsJSON{Location: s.url("/collections/" + c.ID), App: quire.AppCollectionURL(s.publicURL, c.ID)},
		Permissions: collectionPermsJSON{View: p.View, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks, Create: p.Create},
	}
}
