package api

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
)

// Custom hostnames (issue 19): a site's hostname (PATCH SITE hostname), as
// the published sites serve it (site.siteAtHost) once its DNS proves it the
// organization's: a TXT record at _quire.<hostname> with the organization's
// token for it (authoring.Sites, which also gives a hostname another site
// holds unproved to the site whose organization proves it). A CNAME to this
// server would prove nothing: every organization's hostnames point here.
// The answer says which records to add; an unproved hostname is pending:
// isActive false and a status other than dns_passed.

// sitesService is the service that changes sites, hostnames proved by this
// server's DNS checker.
func (s *Server) sitesService() *authoring.Sites {
	return &authoring.Sites{DB: s.db, DNS: s.dns, Grace: jobs.HostnameGrace}
}

// customHostnameSite is the site whose hostname the path names, for a
// caller with need on it; not found for those who may not see it.
func (s *Server) customHostnameSite(r *http.Request, need quire.Role) (*quire.Site, string, error) {
	hostname := strings.ToLower(r.PathValue("hostname"))
	notFound := errorf(quire.CodeNotFound, "custom hostname not found")
	if quire.CheckHostname("hostname", hostname) != nil {
		return nil, hostname, notFound
	}
	id, err := s.db.SiteIDWithHostname(r.Context(), hostname)
	if err != nil {
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return nil, hostname, notFound
		}
		return nil, hostname, err
	}
	found, err := s.db.Site(r.Context(), id)
	if err != nil {
		return nil, hostname, err
	}
	orgID := found.OrgID
	// The site's own loader makes the checks of SITE operations.
	rr := r.Clone(r.Context())
	rr.SetPathValue("organizationId", orgID)
	rr.SetPathValue("siteId", id)
	site, _, err := s.site(rr, need)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return nil, hostname, notFound
	}
	if a := store.AuditIntentOf(r.Context()); a != nil && err == nil {
		a.OrgID = orgID // the hostname is the site's organization's
	}
	return site, hostname, err
}

// dnsTarget is the host a custom hostname should lead to: this server's.
func (s *Server) dnsTarget() string { return strings.ToLower(hostOnly(s.appHost())) }

func (s *Server) getCustomHostname(w http.ResponseWriter, r *http.Request) error {
	site, hostname, err := s.customHostnameSite(r, quire.RoleRead)
	if err != nil {
		return err
	}
	h, err := s.sitesService().Hostname(r.Context(), site, hostname)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.CustomHostname(site, hostname, h.Token, h.Check, h.VerifiedAt, s.dnsTarget()))
}

// dnsRevalidateCustomHostname checks the hostname's DNS again: the site is
// served at it as soon as its record is there.
func (s *Server) dnsRevalidateCustomHostname(w http.ResponseWriter, r *http.Request) error {
	if site, hostname, err := s.customHostnameSite(r, quire.RoleCreate); err != nil {
		return err
	} else if _, err := s.sitesService().CheckHostname(r.Context(), site, hostname); err != nil {
		return err
	}
	return noContent(w)
}

// removeCustomHostname takes the hostname off its site: 205 when it did,
// 204 when no site the caller may see had it.
func (s *Server) removeCustomHostname(w http.ResponseWriter, r *http.Request) error {
	site, hostname, err := s.customHostnameSite(r, quire.RoleCreate)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return noContent(w)
	} else if err != nil {
		return err
	}
	removed, err := s.db.RemoveSiteHostname(r.Context(), site.ID, hostname)
	if err != nil {
		return err
	}
	return deleted(w, removed)
}
