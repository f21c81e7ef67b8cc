package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// space loads the live space named in the path and the caller's role on it,
// answering 404 unless the caller can see it and 403 unless their role is at
// least need.
func (s *Server) space(r *http.Request, need quire.Role) (*quire.Space, quire.Role, error) {
	return spaces.load(s, r, need)
}

// roleOn computes the caller's role on a space or collection, loading only
// what its chain of ancestors needs.
func (s *Server) roleOn(r *http.Request, orgID, id string, level quire.DefaultLevel, ancestors []string) (quire.Role, error) {
	v, err := s.db.Viewer(r.Context(), orgID, caller(r.Context()).ID, append(append([]string{}, ancestors...), id))
	if err != nil {
		return "", err
	}
	return v.RoleOn(id, level, ancestors), nil
}

// orgViewer loads the caller's viewer for all content of the organization in
// the path; callers outside it get 404.
func (s *Server) orgViewer(r *http.Request) (*quire.Viewer, error) {
	v, err := s.db.Viewer(r.Context(), r.PathValue("organizationId"), caller(r.Context()).ID, nil)
	if err == nil && !v.Member {
		err = errorf(quire.CodeNotFound, "organization not found")
	}
	return v, err
}

func (s *Server) listSpaces(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	return s.listSpacesOf(w, r, r.PathValue("organizationId"), func(context.Context) (store.SpaceFilter, error) {
		return store.SpaceFilter{VisibleTo: v}, nil
	})
}

// listSpacesOf answers a page of the organization's spaces that the filter
// from filter (made once the page parameters are checked) selects, each with
// the role of its viewer on it.
func (s *Server) listSpacesOf(w http.ResponseWriter, r *http.Request, orgID string, filter func(context.Context) (store.SpaceFilter, error)) error {
	var v *quire.Viewer
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.Space], error) {
		f, err := filter(ctx)
		if err != nil {
			return nil, err
		}
		v = f.VisibleTo
		return s.db.ListSpaces(ctx, orgID, f, p)
	}, func(sp *quire.Space) wire.Space {
		return s.wire.Space(sp, v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors))
	})
}

// requireCreateIn checks that the viewer may create content in a parent
// collection ("" for the top level) of the organization
// (authoring.Author.CheckCreateIn).
func (s *Server) requireCreateIn(r *http.Request, v *quire.Viewer, orgID, parentID string) error {
	return s.author.CheckCreateIn(r.Context(), v, orgID, parentID)
}

func checkEmoji(v string) error { return quire.CheckLen("emoji", v, 1, 50) }

// spaceCreateRequest is the body of POST /v1/orgs/{organizationId}/spaces.
type spaceCreateRequest struct {
	Title    *string `json:"title"`
	Emoji    *string `json:"emoji"`
	Parent   *string `json:"parent"`
	EditMode *string `json:"editMode"`
}

func (b *spaceCreateRequest) Validate() error {
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

// newSpace is the space a validated b creates: "Untitled" and live unless
// told otherwise, at the top level without a parent.
func (b *spaceCreateRequest) newSpace() store.NewSpace {
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

func (s *Server) createSpace(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	var body spaceCreateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	sp, err := s.author.CreateSpace(r.Context(), v, r.PathValue("organizationId"), body.newSpace())
	if err != nil {
		return err
	}
	return spaces.write(s, w, r, http.StatusCreated, sp)
}

func (s *Server) getSpace(w http.ResponseWriter, r *http.Request) error {
	if err := quire.CheckLen("shareKey", query(r).Get("shareKey"), 0, 256); err != nil {
		return err
	}
	// The answer depends on the space and the caller's role on it only: kept
	// encoded for as long as nothing changes (the count is read first, so a
	// change during the read is a miss next time).
	changes, trusted := s.db.ChangeCount()
	sp, role, err := s.space(r, quire.RoleRead)
	if err != nil {
		return err
	}
	// One space read alone shows its Git sync state, as the reference's
	// Space has it (lists leave it out: a read per space).
	answer := func() (wire.Space, error) {
		out := s.wire.Space(sp, role)
		var err error
		out.GitSync, err = s.gitSyncState(r.Context(), sp)
		return out, err
	}
	if !trusted {
		out, err := answer()
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, out)
	}
	key := "space\x00" + sp.ID + "\x00" + string(role) + "\x00" + strconv.FormatUint(changes, 10)
	return serveAnswer(w, r, s.reader.Answers(), key, encoded(func() ([]byte, error) {
		out, err := answer()
		if err != nil {
			return nil, err
		}
		return encodeJSON(out)
	}))
}

func (s *Server) deleteSpace(w http.ResponseWriter, r *http.Request) error {
	return spaces.delete(s, w, r, (*store.DB).DeleteSpace)
}

// spaceUpdateRequest is the body of PATCH /v1/spaces/{spaceId}.
type spaceUpdateRequest struct {
	Title        quire.Optional[string]          `json:"title"`
	Emoji        quire.Optional[string]          `json:"emoji"` // null removes it
	DefaultLevel quire.Optional[string]          `json:"defaultLevel"`
	EditMode     quire.Optional[string]          `json:"editMode"`
	Visibility   quire.Optional[string]          `json:"visibility"`
	MergeRules   quire.Optional[json.RawMessage] `json:"mergeRules"`

	mergeRules json.RawMessage // as validate re-encodes them
}

// Validate checks the fields given, in this order. Whether in-collection
// suits the space is the service's to say.
func (b *spaceUpdateRequest) Validate() error {
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
		return errorf(quire.CodeInvalid, "visibility: must be public, unlisted, share-link, visitor-auth, in-collection or private")
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

// update is the store's form of a validated b.
func (b *spaceUpdateRequest) update() store.SpaceUpdate {
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

// updateSpace: title and emoji are edits (edit role, refused while locked);
// defaultLevel, editMode, visibility and mergeRules are the space's
// settings (admin): authoring.CheckSpaceUpdate.
func (s *Server) updateSpace(w http.ResponseWriter, r *http.Request) error {
	sp, role, err := s.space(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	var body spaceUpdateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if sp, err = s.author.UpdateSpace(r.Context(), sp, role, body.update()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Space(sp, role))
}

func (s *Server) duplicateSpace(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return err
	}
	dup, err := s.author.DuplicateSpace(r.Context(), sp, caller(r.Context()).ID)
	if err != nil {
		return err
	}
	return spaces.write(s, w, r, http.StatusCreated, dup)
}

// restoreSpace brings back a space deleted within the last 7 days; it needs
// the admin role on the space.
func (s *Server) restoreSpace(w http.ResponseWriter, r *http.Request) error {
	sp, err := s.db.Space(r.Context(), r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	role, err := spaces.role(s, r, sp)
	if err != nil {
		return err
	}
	if err := quire.RequireRole(role, quire.RoleAdmin, "space"); err != nil {
		return err
	}
	if sp, err = s.db.RestoreSpace(r.Context(), sp.ID); err != nil {
		return err
	}
	return spaces.write(s, w, r, http.StatusOK, sp)
}

// moveBody is the body of the move operations. Contract §4.6, §4.7.
type moveBody struct {
	Parent   quire.Optional[string] `json:"parent"`
	Position *struct {
		Before *pointerJSON `json:"before"`
		After  *pointerJSON `json:"after"`
	} `json:"position"`
}

// pointerJSON names a space or a collection: {"type":"space","space":id} or
// {"type":"collection","collection":id}.
type pointerJSON struct {
	Type       string `json:"type"`
	Space      string `json:"space"`
	Collection string `json:"collection"`
}

func (p *pointerJSON) sibling(field string) (*quire.Sibling, error) {
	if p == nil {
		return nil, nil
	}
	switch {
	case p.Type == "space" && p.Space != "":
		return &quire.Sibling{Kind: "space", ID: p.Space}, nil
	case p.Type == "collection" && p.Collection != "":
		return &quire.Sibling{Kind: "collection", ID: p.Collection}, nil
	}
	return nil, errorf(quire.CodeInvalid, `%s: must be {"type":"space","space":ID} or {"type":"collection","collection":ID}`, field)
}

// parse returns the target parent (current when absent) and position.
func (b *moveBody) parse(current string) (parent string, pos quire.Position, err error) {
	parent = current
	if b.Parent.Set {
		parent = b.Parent.Value // null: the top level
	}
	if b.Position != nil {
		if b.Position.Before != nil && b.Position.After != nil {
			return "", pos, errorf(quire.CodeInvalid, "position: give before or after, not both")
		}
		if pos.Before, err = b.Position.Before.sibling("position.before"); err != nil {
			return "", pos, err
		}
		if pos.After, err = b.Position.After.sibling("position.after"); err != nil {
			return "", pos, err
		}
	}
	return parent, pos, nil
}

// moveTarget reads a move body: the target parent (the current one when
// absent) and position.
func moveTarget(w http.ResponseWriter, r *http.Request, current string) (string, quire.Position, error) {
	var body moveBody
	if err := readJSON(w, r, &body); err != nil {
		return "", quire.Position{}, err
	}
	return body.parse(current)
}

func (s *Server) moveSpace(w http.ResponseWriter, r *http.Request) error {
	return spaces.move(s, w, r, (*authoring.Author).MoveSpace)
}

// transferRequest is the body of the transfer operations.
type transferRequest struct {
	Organization *string `json:"organization"`
}

func (b *transferRequest) Validate() error {
	return quire.CheckRequired("organization", b.Organization != nil)
}

func (s *Server) transferSpace(w http.ResponseWriter, r *http.Request) error {
	return spaces.transfer(s, w, r, (*authoring.Author).TransferSpace)
}
