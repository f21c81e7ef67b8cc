package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// The events of an integration (issue 19): what Quire recorded about its
// installations (installed, set up on a space or site, updated,
// uninstalled), for the admins of its organization, newest first. Quire
// runs no script, so every event succeeded and its trace has no logs.

// integrationForAdmin loads the integration in the path for an admin of its
// organization.
func (s *Server) integrationForAdmin(r *http.Request) (*quire.Integration, error) {
	in, owner, err := s.integration(r)
	if err != nil {
		return nil, err
	}
	if !owner.Admin() {
		return nil, errorf(quire.CodeForbidden, "only admins of the integration's organization may read its events")
	}
	return in, nil
}

func (s *Server) listIntegrationEvents(w http.ResponseWriter, r *http.Request) error {
	in, err := s.integrationForAdmin(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.IntegrationEvent], error) {
		return s.db.ListIntegrationEvents(ctx, in.Name, p)
	}, wire.IntegrationEventOf)
}

func (s *Server) getIntegrationEvent(w http.ResponseWriter, r *http.Request) error {
	in, err := s.integrationForAdmin(r)
	if err != nil {
		return err
	}
	ev, err := s.db.IntegrationEventByID(r.Context(), in.Name, r.PathValue("eventId"))
	if err != nil {
		return err
	}
	type logs struct {
		Logs []struct{} `json:"logs"`
	}
	return writeJSON(w, http.StatusOK, struct {
		Event wire.IntegrationEvent `json:"event"`
		Trace logs                  `json:"trace"`
	}{wire.IntegrationEventOf(ev), logs{Logs: []struct{}{}}})
}
