package api

import (
	"fmt"
	"math"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Import runs (issue 19, /org/{organizationId}/imports): a website imported
// into a space or a change request as a durable job (store/importruns.go),
// carried out by the import worker (jobs/imports.go). Starting one needs
// the role the synchronous import needs (imports.go): edit on a change
// request, review on a space (its pages go through a request merged at
// once); reading one, read on its space; cancelling one, edit.

// importTarget loads the space id of the caller's organization and their
// role on it; 404 naming field unless they can see it.
func (s *Server) importTarget(r *http.Request, orgID, id, field string) (*quire.Space, quire.Role, error) {
	sp, err := s.db.Space(r.Context(), id)
	if quire.ErrorCode(err) == quire.CodeNotFound || (err == nil && (sp.OrgID != orgID || !sp.DeletedAt.IsZero())) {
		return nil, "", errorf(quire.CodeNotFound, "%s: space not found", field)
	}
	if err != nil {
		return nil, "", err
	}
	n := spaceNode(sp)
	role, err := s.roleOn(r, n.orgID, n.id, n.level, n.ancestors)
	if err == nil && !role.AtLeast(quire.RoleRead) {
		err = errorf(quire.CodeNotFound, "%s: space not found", field)
	}
	return sp, role, err
}

func (s *Server) startImportRun(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.orgViewer(r); err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	var body wire.StartImportRun
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	sp, role, err := s.importTarget(r, orgID, *body.Target.Space, "target.space")
	if err != nil {
		return err
	}
	in := authoring.RunStart{Space: sp, Role: role, SourceURL: body.SourceURL(), By: authoring.Actor{User: caller(r.Context()), Role: role}}
	if body.Target.ChangeRequest != nil {
		in.ChangeRequest = *body.Target.ChangeRequest
	}
	if body.Site != nil {
		in.Site = *body.Site
	}
	run, err := s.author.StartImportRun(r.Context(), in)
	if err != nil {
		return err
	}
	out := s.wire.ImportRun(run)
	return writeCreated(w, out.URLs.Location, out)
}

// importRun loads the run in the path and the caller's role on its space:
// 404 unless they may read it.
func (s *Server) importRun(r *http.Request) (*store.ImportRun, quire.Role, error) {
	if _, err := s.orgViewer(r); err != nil {
		return nil, "", err
	}
	run, err := s.db.ImportRun(r.Context(), r.PathValue("organizationId"), r.PathValue("importRunId"))
	if err != nil {
		return nil, "", err
	}
	_, role, err := s.importTarget(r, run.OrgID, run.SpaceID, "importRunId")
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return nil, "", errorf(quire.CodeNotFound, "import run not found")
	}
	return run, role, err
}

func (s *Server) getImportRun(w http.ResponseWriter, r *http.Request) error {
	run, _, err := s.importRun(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.ImportRun(run))
}

func (s *Server) cancelImportRun(w http.ResponseWriter, r *http.Request) error {
	run, role, err := s.importRun(r)
	if err != nil {
		return err
	}
	if err := quire.RequireRole(role, quire.RoleEdit, "space"); err != nil {
		return err
	}
	if run, err = s.db.CancelImportRun(r.Context(), run.OrgID, run.ID); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.ImportRun(run))
}

func (s *Server) listImportRuns(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.orgViewer(r); err != nil {
		return err
	}
	orgID, q := r.PathValue("organizationId"), query(r)
	f := store.ImportRunFilter{SpaceID: q.Get("space"), ChangeRequestID: q.Get("changeRequest"), SiteID: q.Get("site"), Status: q.Get("status")}
	switch f.Status {
	case "", "active", store.ImportPending, store.ImportInProgress, store.ImportCompleted, store.ImportFailed, store.ImportCancelled:
	default:
		return errorf(quire.CodeInvalid, "status: must be active, pending, in-progress, completed, failed or cancelled")
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	runs, err := s.db.ImportRuns(r.Context(), orgID, f)
	if err != nil {
		return err
	}
	// Only the runs into spaces the caller may read; the organization keeps
	// a bounded number of runs, so they are filtered in memory.
	readable := map[string]bool{}
	var seen []*store.ImportRun
	for _, run := range runs {
		ok, known := readable[run.SpaceID]
		if !known {
			_, _, err := s.importTarget(r, orgID, run.SpaceID, "space")
			if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
				return err
			}
			ok = err == nil
			readable[run.SpaceID] = ok
		}
		if ok {
			seen = append(seen, run)
		}
	}
	list := store.PageOf(seen, p, importRunCursor)
	return writeList(w, list, s.wire.ImportRun)
}

// importRunCursor sorts runs most recent first, as PageOf's ascending
// order: the key is the time counted down from the largest, fixed width.
func importRunCursor(run *store.ImportRun) store.Cursor {
	return store.Cursor{Str: fmt.Sprintf("%019d", math.MaxInt64-run.CreatedAt.UnixMicro()), ID: run.ID}
}
