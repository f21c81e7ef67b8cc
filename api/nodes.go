package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// node is what a space or a collection holds that decides roles on it and
// where it sits.
type node struct {
	orgID, id, parentID string
	level               quire.DefaultLevel
	ancestors           []string
	deleted             bool
}

func spaceNode(sp *quire.Space) node {
	return node{sp.OrgID, sp.ID, sp.ParentID, sp.DefaultLevel, sp.Ancestors, !sp.DeletedAt.IsZero()}
}

func collectionNode(c *quire.Collection) node {
	return node{c.OrgID, c.ID, c.ParentID, c.DefaultLevel, c.Ancestors, !c.DeletedAt.IsZero()}
}

// located is a wire form with an address for the Location header.
type located interface{ Location() string }

// nodeKind is what the handlers that spaces and collections share need to
// know of one kind: T the domain type, J its wire form.
type nodeKind[T any, J located] struct {
	name   string // "space" or "collection", in messages
	param  string // the path parameter naming one
	get    func(*store.DB, context.Context, string) (T, error)
	node   func(T) node
	toJSON func(*Server, T, quire.Role) J
}

var (
	spaces = nodeKind[*quire.Space, wire.Space]{"space", "spaceId", (*store.DB).Space, spaceNode,
		func(s *Server, sp *quire.Space, r quire.Role) wire.Space { return s.wire.Space(sp, r) }}
	collections = nodeKind[*quire.Collection, wire.Collection]{"collection", "collectionId", (*store.DB).Collection, collectionNode,
		func(s *Server, c *quire.Collection, r quire.Role) wire.Collection { return s.wire.Collection(c, r) }}
)

// load loads the live one named in the path and the caller's role on it,
// answering 404 unless the caller can see it and 403 unless their role is at
// least need.
func (k nodeKind[T, J]) load(s *Server, r *http.Request, need quire.Role) (T, quire.Role, error) {
	var zero T
	x, err := k.get(s.db, r.Context(), r.PathValue(k.param))
	if err != nil {
		return zero, "", err
	}
	if k.node(x).deleted {
		return zero, "", errorf(quire.CodeNotFound, "%s not found", k.name)
	}
	role, err := k.role(s, r, x)
	if err != nil {
		return zero, "", err
	}
	return x, role, quire.RequireRole(role, need, k.name)
}

func (k nodeKind[T, J]) role(s *Server, r *http.Request, x T) (quire.Role, error) {
	n := k.node(x)
	return s.roleOn(r, n.orgID, n.id, n.level, n.ancestors)
}

// write answers x with status under the caller's role on it, freshly
// computed; a 201 also says where it is.
func (k nodeKind[T, J]) write(s *Server, w http.ResponseWriter, r *http.Request, status int, x T) error {
	role, err := k.role(s, r, x)
	if err != nil {
		return err
	}
	out := k.toJSON(s, x, role)
	if status == http.StatusCreated {
		return writeCreated(w, out.Location(), out)
	}
	return writeJSON(w, status, out)
}

// delete deletes the one in the path, which needs the admin role on it.
func (k nodeKind[T, J]) delete(s *Server, w http.ResponseWriter, r *http.Request, del func(*store.DB, context.Context, string) error) error {
	x, _, err := k.load(s, r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	if err := del(s.db, r.Context(), k.node(x).id); err != nil {
		return err
	}
	return noContent(w)
}

// move moves the one in the path to the parent and position in the body
// (authoring checks the caller may create there).
func (k nodeKind[T, J]) move(s *Server, w http.ResponseWriter, r *http.Request, mv func(*authoring.Author, context.Context, T, string, string, quire.Position) (T, error)) error {
	x, _, err := k.load(s, r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	parent, pos, err := moveTarget(w, r, k.node(x).parentID)
	if err != nil {
		return err
	}
	if x, err = mv(s.author, r.Context(), x, caller(r.Context()).ID, parent, pos); err != nil {
		return err
	}
	return k.write(s, w, r, http.StatusOK, x)
}

// transfer moves the one in the path to the organization in the body
// (authoring checks the caller is an admin of both).
func (k nodeKind[T, J]) transfer(s *Server, w http.ResponseWriter, r *http.Request, tr func(*authoring.Author, context.Context, T, string, string) (T, error)) error {
	x, _, err := k.load(s, r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	var body wire.TransferContent
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if x, err = tr(s.author, r.Context(), x, caller(r.Context()).ID, *body.Organization); err != nil {
		return err
	}
	return k.write(s, w, r, http.StatusOK, x)
}
