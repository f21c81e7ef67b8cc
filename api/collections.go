package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// collection loads the live collection named in the path and the caller's
// role on it: 404 unless the caller can see it, 403 below need.
func (s *Server) collection(r *http.Request, need quire.Role) (*quire.Collection, quire.Role, error) {
	return collections.load(s, r, need)
}

func (s *Server) getCollection(w http.ResponseWriter, r *http.Request) error {
	c, role, err := s.collection(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Collection(c, role))
}

// deleteCollection deletes the collection and, restorably, everything in it.
func (s *Server) deleteCollection(w http.ResponseWriter, r *http.Request) error {
	return collections.delete(s, w, r, (*store.DB).DeleteCollection)
}

// collectionUpdateRequest is the body of PATCH /v1/collections/{collectionId}.
type collectionUpdateRequest struct {
	Title        quire.Optional[string] `json:"title"`
	Description  quire.Optional[string] `json:"description"` // null clears it
	DefaultLevel quire.Optional[string] `json:"defaultLevel"`
}

func (b *collectionUpdateRequest) Validate() error {
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

// update is the store's form of a validated b.
func (b *collectionUpdateRequest) update() store.CollectionUpdate {
	u := store.CollectionUpdate{Title: setValue(b.Title), Description: setValue(b.Description)}
	if b.DefaultLevel.Set {
		l, _ := quire.ParseDefaultLevelOrNull("defaultLevel", b.DefaultLevel)
		u.DefaultLevel = &l
	}
	return u
}

func (s *Server) updateCollection(w http.ResponseWriter, r *http.Request) error {
	c, role, err := s.collection(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	var body collectionUpdateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if c, err = s.db.UpdateCollection(r.Context(), c.ID, body.update()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Collection(c, role))
}

func (s *Server) listCollectionSpaces(w http.ResponseWriter, r *http.Request) error {
	c, _, err := s.collection(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return s.listSpacesOf(w, r, c.OrgID, func(ctx context.Context) (store.SpaceFilter, error) {
		v, err := s.db.Viewer(ctx, c.OrgID, caller(ctx).ID, nil)
		return store.SpaceFilter{ParentID: c.ID, VisibleTo: v}, err
	})
}

func (s *Server) moveCollection(w http.ResponseWriter, r *http.Request) error {
	return collections.move(s, w, r, (*authoring.Author).MoveCollection)
}

func (s *Server) transferCollection(w http.ResponseWriter, r *http.Request) error {
	return collections.transfer(s, w, r, (*authoring.Author).TransferCollection)
}

func (s *Server) listCollections(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.Collection], error) {
		nested, err := boolParam(r, "nested", true)
		if err != nil {
			return nil, err
		}
		return s.db.ListCollections(ctx, r.PathValue("organizationId"), store.CollectionFilter{VisibleTo: v, TopLevelOnly: !nested}, p)
	}, func(c *quire.Collection) wire.Collection {
		return s.wire.Collection(c, v.RoleOn(c.ID, c.DefaultLevel, c.Ancestors))
	})
}

// collectionCreateRequest is the body of POST O/collections: title
// "Untitled" and the top level (no parent) unless told otherwise.
type collectionCreateRequest struct {
	Title  *string `json:"title"`
	Parent *string `json:"parent"`
}

func (b *collectionCreateRequest) Validate() error {
	if b.Title == nil {
		return nil
	}
	return quire.CheckLen("title", *b.Title, 0, 50)
}

func (s *Server) createCollection(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	var body collectionCreateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	title, parent := "Untitled", ""
	if body.Title != nil {
		title = *body.Title
	}
	if body.Parent != nil {
		parent = *body.Parent
	}
	c, err := s.author.CreateCollection(r.Context(), v, r.PathValue("organizationId"), title, parent)
	if err != nil {
		return err
	}
	return collections.write(s, w, r, http.StatusCreated, c)
}
