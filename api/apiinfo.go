package api

import (
	"net/http"
	"runtime/debug"
	"sync"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// GET /v1/ (the reference's GET /): the release and build of this server,
// from what the Go toolchain recorded in the binary, and what it can do.
func (s *Server) getAPIInfo(w http.ResponseWriter, r *http.Request) error {
	version, build := buildInfo()
	features := []string{"git-sync", "audit-log", "saml", "webhooks", "pdf"}
	if s.blobs != nil {
		features = append(features, "files")
	}
	if s.asker.Cites() {
		features = append(features, "ai-model")
	}
	return writeJSON(w, http.StatusOK, map[string]any{"version": version, "build": build, "features": features})
}

// buildInfo is the module's version ("devel" for a build from a work tree)
// and the time of the commit it was built from (else "").
var buildInfo = sync.OnceValues(func() (version, build string) {
	version, build = "devel", ""
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		version = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.time":
			build = s.Value
		case "vcs.revision":
			if version == "devel" && len(s.Value) >= 12 {
				version = "devel-" + s.Value[:12]
			}
		}
	}
	return
})

// GET /v1/email-domains/{emailDomain}/orgs: the organizations a caller may
// join by their address (POST O/join). The caller asks of their own
// address's domain only: who takes which domain is not told to others.
func (s *Server) listOrgsForEmailDomain(w http.ResponseWriter, r *http.Request) error {
	domain := quire.NormalizeEmail(r.PathValue("emailDomain"))
	me := caller(r.Context())
	orgs := []wire.Organization{}
	if domain == store.EmailDomain(me.Email) {
		found, err := s.db.OrganizationsForEmailDomain(r.Context(), domain)
		if err != nil {
			return err
		}
		for _, o := range found {
			m, err := s.db.Membership(r.Context(), o.ID, me.ID)
			if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
				return err
			}
			orgs = append(orgs, s.wire.Organization(o, m))
		}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"organizations": orgs})
}

// POST O/join: the caller joins an organization that takes their
// address's domain, with its default role.
func (s *Server) joinOrg(w http.ResponseWriter, r *http.Request) error {
	if err := s.db.JoinByEmailDomain(r.Context(), r.PathValue("organizationId"), caller(r.Context())); err != nil {
		return err
	}
	return noContent(w)
}

// GET /v1/subdomains/{subdomain}: the organization whose hostname (GitBook's
// subdomain) it is, for its members; to anyone else the subdomain is not
// found, as who holds which name is not told to others.
func (s *Server) getSubdomain(w http.ResponseWriter, r *http.Request) error {
	sub := r.PathValue("subdomain")
	if err := quire.CheckOrgHostname("subdomain", sub); err != nil {
		return err
	}
	o, err := s.db.OrganizationByHostname(r.Context(), sub)
	var m *quire.Member
	if err == nil {
		m, err = s.db.Membership(r.Context(), o.ID, caller(r.Context()).ID)
	}
	if quire.ErrorCode(err) == quire.CodeNotFound || (err == nil && m.Disabled) {
		return errorf(quire.CodeNotFound, "subdomain not found")
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"object": "subdomain", "subdomain": sub, "isActive": true,
		"target": map[string]any{"type": "organization", "organization": o.ID}})
}
