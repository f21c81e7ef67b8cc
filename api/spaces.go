package api

import (
	"context"
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
	v, err := s.viewer(r.Context(), orgID, append(append([]string{}, ancestors...), id))
	if err != nil {
		return "", err
	}
	return v.RoleOn(id, level, ancestors), nil
}

// orgViewer loads the caller's viewer for all content of the organization in
// the path; callers outside it get 404.
func (s *Server) orgViewer(r *http.Request) (*quire.Viewer, error) {
	v, err := s.viewer(r.Context(), r.PathValue("organizationId"), nil)
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

func (s *Server) createSpace(w http.ResponseWriter, r *http.Request) error {
	v, err := s.orgViewer(r)
	if err != nil {
		return err
	}
	var body wire.CreateSpace
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	sp, err := s.author.CreateSpace(r.Context(), v, r.PathValue("organizationId"), body.NewSpace())
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

// updateSpace: title and emoji are edits (edit role, refused while locked);
// defaultLevel, editMode, visibility and mergeRules are the space's
// settings (admin): authoring.CheckSpaceUpdate.
func (s *Server) updateSpace(w http.ResponseWriter, r *http.Request) error {
	sp, role, err := s.space(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	var body wire.UpdateSpace
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	if sp, err = s.author.UpdateSpace(r.Context(), sp, role, body.Update()); err != nil {
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

// moveTarget reads a move body: the target parent (the current one when
// absent) and position.
func moveTarget(w http.ResponseWriter, r *http.Request, current string) (string, quire.Position, error) {
	var body wire.MoveContent
	if err := readRequest(w, r, &body); err != nil {
		return "", quire.Position{}, err
	}
	parent, pos := body.Target(current)
	return parent, pos, nil
}

func (s *Server) moveSpace(w http.ResponseWriter, r *http.Request) error {
	return spaces.move(s, w, r, (*authoring.Author).MoveSpace)
}

func (s *Server) transferSpace(w http.ResponseWriter, r *http.Request) error {
	return spaces.transfer(s, w, r, (*authoring.Author).TransferSpace)
}
