package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// API specifications, contract §4.16. Any member but a guest reads them;
// members with the create or admin role (the organization's
// createOpenAPISpec permission) create, change and delete them. Processing
// happens in the background (jobs.ProcessSpecs): responses show its state.

// MaxSpecBodyBytes bounds a POST or PUT body of an API specification: a text
// source of up to quire.MaxSpecBytes, with room for JSON escapes.
const MaxSpecBodyBytes = 2*quire.MaxSpecBytes + 64<<10

// specMember returns the caller's membership of the organization in the
// path if they may read its specs, and, with edit, change them.
func (s *Server) specMember(r *http.Request, edit bool) (*quire.Member, error) {
	me, err := s.membership(r)
	if err != nil {
		return nil, err
	}
	return me, quire.CheckSpecAccess(me, edit)
}

func (s *Server) listSpecs(w http.ResponseWriter, r *http.Request) error {
	me, err := s.specMember(r, false)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.OpenAPISpec], error) {
		return s.db.ListOpenAPISpecs(ctx, me.OrgID, p)
	}, func(spec *quire.OpenAPISpec) wire.Spec { return s.wire.Spec(spec, me) })
}

func (s *Server) createSpec(w http.ResponseWriter, r *http.Request) error {
	me, err := s.specMember(r, true)
	if err != nil {
		return err
	}
	var body wire.CreateOpenAPISpec
	if err := readRequestLimit(w, r, MaxSpecBodyBytes, &body); err != nil {
		return err
	}
	p, err := s.db.CreateOpenAPISpec(r.Context(), me.OrgID, *body.Slug, body.SpecSource())
	if err != nil {
		return err
	}
	out := s.wire.Spec(p, me)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getSpec(w http.ResponseWriter, r *http.Request) error {
	me, err := s.specMember(r, false)
	if err != nil {
		return err
	}
	p, err := s.db.OpenAPISpec(r.Context(), me.OrgID, r.PathValue("specSlug"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Spec(p, me))
}

// putSpec creates the spec (201) or gives it a new source (200); either
// way it is processed again, which is how a URL source is fetched anew.
func (s *Server) putSpec(w http.ResponseWriter, r *http.Request) error {
	me, err := s.specMember(r, true)
	if err != nil {
		return err
	}
	slug := r.PathValue("specSlug")
	if err := quire.CheckSpecSlug("specSlug", slug); err != nil {
		return err
	}
	var body wire.CreateOrUpdateOpenAPISpec
	if err := readRequestLimit(w, r, MaxSpecBodyBytes, &body); err != nil {
		return err
	}
	p, created, err := s.db.PutOpenAPISpec(r.Context(), me.OrgID, slug, body.SpecSource())
	if err != nil {
		return err
	}
	out := s.wire.Spec(p, me)
	if !created {
		return writeJSON(w, http.StatusOK, out)
	}
	return writeCreated(w, out.URLs.Location, out)
}

// deleteSpec answers as the reference does: 205 when the spec was deleted,
// 204 when there was none.
func (s *Server) deleteSpec(w http.ResponseWriter, r *http.Request) error {
	me, err := s.specMember(r, true)
	if err != nil {
		return err
	}
	deleted, err := s.db.DeleteOpenAPISpec(r.Context(), me.OrgID, r.PathValue("specSlug"))
	if err != nil {
		return err
	}
	return resetOrNoContent(w, deleted)
}
