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

func (s *Server) updateCollection(w http.ResponseWriter, r *http.Request) error {
	c, role, err := s.collection(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	var body wire.UpdateCollection
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if c, err = s.db.UpdateCollection(r.Context(), c.ID, body.Update()); err != nil {
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
		v, err := s.viewer(ctx, c.OrgID, nil)
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

func (s *Server) createCollection(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	var body wire.CreateCollection
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	title, parent := body.TitleAndParent()
	c, err := s.author.CreateCollection(r.Context(), v, r.PathValue("organizationId"), title, parent)
	if err != nil {
		return err
	}
	return collections.write(s, w, r, http.StatusCreated, c)
}
