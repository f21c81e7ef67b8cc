package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/wire"
)

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	if err := s.db.Ping(r.Context()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) getCurrentUser(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.wire.User(caller(r.Context())))
}

// getUser shows a user to callers who share an organization with them.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) error {
	me, id := caller(r.Context()), r.PathValue("userId")
	if id != me.ID {
		shared, err := s.db.ShareOrganization(r.Context(), me.ID, id)
		if err != nil {
			return err
		}
		if !shared {
			return errorf(quire.CodeNotFound, "user not found")
		}
	}
	u, err := s.db.User(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.User(u))
}

func (s *Server) listOrgs(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.author.UserOrganizations(r.Context(), caller(r.Context()).ID, p)
	if err != nil {
		return err
	}
	return writeList(w, list, func(m authoring.Membership) wire.Organization { return s.wire.Organization(m.Org, m.Member) })
}

// createOrg answers POST /v1/orgs for those the --org-creation setting
// lets, up to MaxOrgsPerWindow an hour each.
func (s *Server) createOrg(w http.ResponseWriter, r *http.Request) error {
	me := caller(r.Context())
	if err := s.orgCreation.allow(r.Context(), s.db, me); err != nil {
		return err
	}
	var body wire.CreateOrganization
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	release, err := s.orgCreation.reserve(w, me.ID)
	if err != nil {
		return err
	}
	made, err := s.author.CreateOrganization(r.Context(), *body.Title, body.EmailDomains, me.ID)
	if made.Org == nil {
		release() // not created: it does not count
	}
	if err != nil {
		return err
	}
	out := s.wire.Organization(made.Org, made.Member)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getOrg(w http.ResponseWriter, r *http.Request) error {
	org, me, err := s.org(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Organization(org, me))
}

func (s *Server) updateOrg(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	var body wire.UpdateOrganization
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	m, err := s.author.UpdateOrganization(r.Context(), me, body.Update())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Organization(m.Org, m.Member))
}
