package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Custom hostnames (issue 19): a site's hostname (PATCH SITE hostname), as
// the published sites serve it (site.siteAtHost), with a DNS check that
// tells the operator what record to add: a CNAME to this server's own host.
// The check asks the system resolver only, with a timeout; it sends nothing
// to the hostname or anywhere else.

// Resolver looks names up; *net.Resolver is one.
type Resolver interface {
	LookupCNAME(ctx context.Context, host string) (string, error)
	LookupHost(ctx context.Context, host string) ([]string, error)
}

// dnsCheckTimeout bounds one DNS check, all its lookups together.
const dnsCheckTimeout = 3 * time.Second

// DNS statuses of the reference (CustomHostnameDnsStatus).
const (
	dnsPassed     = "dns_passed"
	dnsWrongCNAME = "dns_wrong_cname"
	dnsNoCNAME    = "dns_no_cname"
)

// checkDNS checks that hostname leads to target (this server's host): a
// CNAME to it, or, without a CNAME, an address of target's. The detail
// says what to change when it does not.
func checkDNS(ctx context.Context, res Resolver, hostname, target string) (status, detail string) {
	ctx, cancel := context.WithTimeout(ctx, dnsCheckTimeout)
	defer cancel()
	add := fmt.Sprintf("add a DNS record %s. CNAME %s.", hostname, target)
	cname, err := res.LookupCNAME(ctx, hostname)
	cname = strings.ToLower(strings.TrimSuffix(cname, "."))
	if err == nil && cname != "" && cname != hostname {
		if cname == target {
			return dnsPassed, fmt.Sprintf("%s is a CNAME of %s", hostname, target)
		}
		return dnsWrongCNAME, fmt.Sprintf("%s is a CNAME of %s, not of this server: change the record to %s. CNAME %s.", hostname, cname, hostname, target)
	}
	have, err := res.LookupHost(ctx, hostname)
	if err != nil || len(have) == 0 {
		return dnsNoCNAME, fmt.Sprintf("%s has no DNS record: %s", hostname, add)
	}
	want, err := res.LookupHost(ctx, target)
	if err == nil && slices.ContainsFunc(have, func(a string) bool { return slices.Contains(want, a) }) {
		return dnsPassed, fmt.Sprintf("%s has an address of %s", hostname, target)
	}
	return dnsNoCNAME, fmt.Sprintf("%s does not lead to this server: %s", hostname, add)
}

// customHostnameJSON is a CustomHostname of the reference, with what the
// operator needs to do besides (dns).
type customHostnameJSON struct {
	Object   string            `json:"object"`
	Hostname string            `json:"hostname"`
	Target   map[string]string `json:"target"`
	IsActive bool              `json:"isActive"`
	Status   string            `json:"status"`
	URLs     map[string]string `json:"urls"`
	DNS      hostnameDNSJSON   `json:"dns"`
}

type hostnameDNSJSON struct {
	Type      string `json:"type"`
	Name      string `json:"name"`
	Value     string `json:"value"`
	Message   string `json:"message"`
	CheckedAt string `json:"checkedAt"`
}

// customHostnameSite is the site whose hostname the path names, for a
// caller with need on it; not found for those who may not see it.
func (s *Server) customHostnameSite(r *http.Request, need quire.Role) (*quire.Site, string, error) {
	hostname := strings.ToLower(r.PathValue("hostname"))
	notFound := errorf(quire.CodeNotFound, "custom hostname not found")
	if quire.CheckHostname("hostname", hostname) != nil {
		return nil, hostname, notFound
	}
	id, err := s.db.SiteIDByHostname(r.Context(), hostname)
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

func (s *Server) recheckHostname(ctx context.Context, hostname string) (*store.HostnameCheck, error) {
	status, detail := checkDNS(ctx, s.resolver, hostname, s.dnsTarget())
	return s.db.SaveHostnameCheck(context.WithoutCancel(ctx), hostname, status, detail)
}

func (s *Server) getCustomHostname(w http.ResponseWriter, r *http.Request) error {
	site, hostname, err := s.customHostnameSite(r, quire.RoleRead)
	if err != nil {
		return err
	}
	check, err := s.db.HostnameCheck(r.Context(), hostname)
	if err == nil && check == nil { // never checked: check once now
		check, err = s.recheckHostname(r.Context(), hostname)
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, customHostnameJSON{
		Object: "custom-hostname", Hostname: hostname, Target: map[string]string{"type": "site", "site": site.ID},
		IsActive: site.Published, Status: check.Status, URLs: map[string]string{"location": s.url("/custom-hostnames/" + hostname)},
		DNS: hostnameDNSJSON{Type: "CNAME", Name: hostname, Value: s.dnsTarget(), Message: check.Detail, CheckedAt: timeJSON(check.CheckedAt)},
	})
}

// dnsRevalidateCustomHostname checks the hostname's DNS again.
func (s *Server) dnsRevalidateCustomHostname(w http.ResponseWriter, r *http.Request) error {
	if _, hostname, err := s.customHostnameSite(r, quire.RoleCreate); err != nil {
		return err
	} else if _, err := s.recheckHostname(r.Context(), hostname); err != nil {
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
	if !removed {
		return noContent(w)
	}
	w.WriteHeader(http.StatusResetContent)
	return nil
}

var _ Resolver = (*net.Resolver)(nil)
