package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of spaces and collections (Contract §4.5–§4.7), named
// after the reference's operations and schemas. Each Validate names the
// field and the rule it breaks, in the order the fields are checked.

func checkEmoji(v string) error { return quire.CheckLen("emoji", v, 1, 50) }

// CreateSpace is the body of POST /v1/orgs/{organizationId}/spaces, the
// reference's CreateSpace.
type CreateSpace struct {
	Title    *string `json:"title"`
	Emoji    *string `json:"emoji"`
	Parent   *string `json:"parent"`
	EditMode *string `json:"editMode"`
}

// Validate checks the fields given, in this order.
func (b *CreateSpace) Validate() error {
	if b.Title != nil {
		if err := quire.CheckLen("title", *b.Title, 0, 50); err != nil {
			return err
		}
	}
	if b.Emoji != nil {
		if err := checkEmoji(*b.Emoji); err != nil {
			return err
		}
	}
	if b.EditMode != nil {
		if _, err := quire.ParseEditMode("editMode", *b.EditMode); err != nil {
			return err
		}
	}
	return nil
}

// NewSpace is the space a validated b creates: "Untitled" and live unless
// told otherwise, at the top level without a parent.
func (b *CreateSpace) NewSpace() store.NewSpace {
	n := store.NewSpace{Title: "Untitled", EditMode: quire.EditLive}
	if b.Title != nil {
		n.Title = *b.Title
	}
	if b.Emoji != nil {
		n.Emoji = *b.Emoji
	}
	if b.EditMode != nil {
		n.EditMode = quire.EditMode(*b.EditMode)
	}
	if b.Parent != nil {
		n.ParentID = *b.Parent
	}
	return n
}

// UpdateSpace is the body of PATCH /v1/spaces/{spaceId}, the reference's
// updateSpaceById.
type UpdateSpace struct {
	Title        quire.Optional[string]          `json:"title"`
	Emoji        quire.Optional[string]          `json:"emoji"` // null removes it
	DefaultLevel quire.Optional[string]          `json:"defaultLevel"`
	EditMode     quire.Optional[string]          `json:"editMode"`
	Visibility   quire.Optional[string]          `json:"visibility"`
	MergeRules   quire.Optional[json.RawMessage] `json:"mergeRules"`

	mergeRules json.RawMessage // as Validate re-encodes them
}

// Validate checks the fields given, in this order. Whether in-collection
// suits the space is the service's to say.
func (b *UpdateSpace) Validate() error {
	if err := quire.FirstError(checkString("title", b.Title, 0, 50), checkRemovable(b.Emoji, checkEmoji)); err != nil {
		return err
	}
	if b.DefaultLevel.Set {
		if _, err := quire.ParseDefaultLevelOrNull("defaultLevel", b.DefaultLevel); err != nil {
			return err
		}
	}
	if b.EditMode.Set {
		if _, err := quire.ParseEditMode("editMode", b.EditMode.Value); err != nil {
			return err
		}
	}
	if _, ok := quire.ParseVisibility(b.Visibility.Value); b.Visibility.Set && !ok {
		return quire.Errorf(quire.CodeInvalid, "visibility: must be public, unlisted, share-link, visitor-auth, in-collection or private")
	}
	if b.MergeRules.Set {
		rules, err := quire.CheckSpaceMergeRules("mergeRules", b.MergeRules.Value, b.MergeRules.Null)
		if err != nil {
			return err
		}
		b.mergeRules = rules
	}
	return nil
}

// Update is the store's form of a validated b.
func (b *UpdateSpace) Update() store.SpaceUpdate {
	u := store.SpaceUpdate{Title: setValue(b.Title), Emoji: setValue(b.Emoji), MergeRules: b.mergeRules}
	if b.DefaultLevel.Set {
		l, _ := quire.ParseDefaultLevelOrNull("defaultLevel", b.DefaultLevel)
		u.DefaultLevel = &l
	}
	if b.EditMode.Set {
		m := quire.EditMode(b.EditMode.Value)
		u.EditMode = &m
	}
	if b.Visibility.Set {
		vis, _ := quire.ParseVisibility(b.Visibility.Value)
		u.Visibility = &vis
	}
	return u
}

// MoveContent is the body of the reference's moveSpace and moveCollection
// (Contract §4.6, §4.7): a parent, null for the top level, and a position
// before or after a sibling.
type MoveContent struct {
	Parent   quire.Optional[string] `json:"parent"`
	Position *struct {
		Before *ContentPointer `json:"before"`
		After  *ContentPointer `json:"after"`
	} `json:"position"`

	pos quire.Position // set by Validate
}

// ContentPointer names a space or a collection: {"type":"space","space":id}
// or {"type":"collection","collection":id}.
type ContentPointer struct {
	Type       string `json:"type"`
	Space      string `json:"space"`
	Collection string `json:"collection"`
}

// sibling is the space or collection p names, nil for none.
func (p *ContentPointer) sibling(field string) (*quire.Sibling, error) {
	if p == nil {
		return nil, nil
	}
	switch {
	case p.Type == "space" && p.Space != "":
		return &quire.Sibling{Kind: "space", ID: p.Space}, nil
	case p.Type == "collection" && p.Collection != "":
		return &quire.Sibling{Kind: "collection", ID: p.Collection}, nil
	}
	return nil, quire.Errorf(quire.CodeInvalid, `%s: must be {"type":"space","space":ID} or {"type":"collection","collection":ID}`, field)
}

// Validate checks the position: before or after, each a pointer.
func (b *MoveContent) Validate() (err error) {
	b.pos = quire.Position{}
	if b.Position == nil {
		return nil
	}
	if b.Position.Before != nil && b.Position.After != nil {
		return quire.Errorf(quire.CodeInvalid, "position: give before or after, not both")
	}
	if b.pos.Before, err = b.Position.Before.sibling("position.before"); err != nil {
		return err
	}
	b.pos.After, err = b.Position.After.sibling("position.after")
	return err
}

// Target is the parent a validated b moves to (current when absent, "" for
// the top level) and the position there.
func (b *MoveContent) Target(current string) (string, quire.Position) {
	if b.Parent.Set {
		return b.Parent.Value, b.pos // null: the top level
	}
	return current, b.pos
}

// TransferContent is the body of the reference's transferSpace and
// transferCollection: the organization to move to.
type TransferContent struct {
	Organization *string `json:"organization"`
}

// Validate checks the organization, which is required.
func (b *TransferContent) Validate() error {
	return quire.CheckRequired("organization", b.Organization != nil)
}

// CreateCollection is the body of POST O/collections, the reference's
// createCollection: title "Untitled" and the top level (no parent) unless
// told otherwise.
type CreateCollection struct {
	Title  *string `json:"title"`
	Parent *string `json:"parent"`
}

// Validate checks the title, when given.
func (b *CreateCollection) Validate() error {
	if b.Title == nil {
		return nil
	}
	return quire.CheckLen("title", *b.Title, 0, 50)
}

// TitleAndParent are the title and parent ("" for the top level) a
// validated b creates the collection with.
func (b *CreateCollection) TitleAndParent() (title, parent string) {
	title = "Untitled"
	if b.Title != nil {
		title = *b.Title
	}
	if b.Parent != nil {
		parent = *b.Parent
	}
	return title, parent
}

// UpdateCollection is the body of PATCH /v1/collections/{collectionId},
// the reference's updateCollectionById.
type UpdateCollection struct {
	Title        quire.Optional[string] `json:"title"`
	Description  quire.Optional[string] `json:"description"` // null clears it
	DefaultLevel quire.Optional[string] `json:"defaultLevel"`
}

// Validate checks the fields given, in this order.
func (b *UpdateCollection) Validate() error {
	if err := checkString("title", b.Title, 0, 50); err != nil {
		return err
	}
	if b.Description.Set {
		if err := quire.CheckText("description", b.Description.Value, 0, 100); err != nil {
			return err
		}
	}
	if b.DefaultLevel.Set {
		if _, err := quire.ParseDefaultLevelOrNull("defaultLevel", b.DefaultLevel); err != nil {
			return err
		}
	}
	return nil
}

// Update is the store's form of a validated b.
func (b *UpdateCollection) Update() store.CollectionUpdate {
	u := store.CollectionUpdate{Title: setValue(b.Title), Description: setValue(b.Description)}
	if b.DefaultLevel.Set {
		l, _ := quire.ParseDefaultLevelOrNull("defaultLevel", b.DefaultLevel)
		u.DefaultLevel = &l
	}
	return u
}
