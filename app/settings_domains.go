package app

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/store"
)

// The e-mail domains an organization proved it owns, on its settings'
// single sign-on card: its identity providers sign in addresses there and
// nowhere else (store.checkSSODomain). A domain is proved by a TXT record
// with the organization's token for it, which the page shows; the operator
// may vouch for one instead (quire admin verify-domain).

const ssoDomainsPath = ssoSettingsPath + "/domains"

// domainsView is the card's list: the domains proved, and those waiting
// for their record (the organization's e-mail domains not proved yet, and
// the one the admin asked about), with the record to add.
type domainsView struct {
	Verified []store.VerifiedDomain
	Pending  []pendingDomain
}

type pendingDomain struct {
	Domain, RecordName, RecordValue string
}

func (s *Server) domainsView(ctx context.Context, org *quire.Organization, asked string) (domainsView, error) {
	var v domainsView
	var err error
	if v.Verified, err = s.db.VerifiedEmailDomains(ctx, org.ID); err != nil {
		return v, err
	}
	candidates := slices.Clone(org.EmailDomains)
	if quire.CheckEmailDomain("domain", asked) == nil {
		candidates = append(candidates, asked)
	}
	for _, d := range candidates {
		if slices.ContainsFunc(v.Verified, func(vd store.VerifiedDomain) bool { return vd.Domain == d }) ||
			slices.ContainsFunc(v.Pending, func(p pendingDomain) bool { return p.Domain == d }) {
			continue
		}
		token, err := s.db.VerificationToken(ctx, org.ID, d)
		if err != nil {
			return v, err
		}
		v.Pending = append(v.Pending, pendingDomain{Domain: d, RecordName: dnscheck.RecordName(d), RecordValue: dnscheck.RecordValue(token)})
	}
	return v, nil
}

// adminDomain is the organization admin posting a domain form, and the
// form's domain, lower case, refusing what is none.
func (s *Server) adminDomain(r *http.Request) (*quire.Member, string, error) {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return nil, "", err
	}
	d := strings.ToLower(strings.TrimSpace(r.PostForm.Get("domain")))
	return me, d, quire.CheckEmailDomain("domain", d)
}

// verifyEmailDomain checks the domain's TXT record now and records the
// domain proved when it is there; else it says which record to add.
func (s *Server) verifyEmailDomain(w http.ResponseWriter, r *http.Request) error {
	me, domain, err := s.adminDomain(r)
	if err != nil {
		return err
	}
	token, err := s.db.VerificationToken(r.Context(), me.OrgID, domain)
	if err != nil {
		return err
	}
	res, err := s.cfg.DNS.Verify(r.Context(), domain, token)
	if err != nil {
		return quire.Errorf(quire.CodeBadGateway, "domain: the DNS lookup failed (%v); try again later", err)
	}
	if !res.Verified {
		return quire.Errorf(quire.CodeInvalid, "domain: %s", res.Detail)
	}
	if err := s.db.VerifyEmailDomain(r.Context(), me.OrgID, domain, store.VerifiedByDNS); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}

// removeEmailDomain forgets a proved domain: the identity providers no
// longer sign in addresses there.
func (s *Server) removeEmailDomain(w http.ResponseWriter, r *http.Request) error {
	me, domain, err := s.adminDomain(r)
	if err != nil {
		return err
	}
	if _, err := s.db.RemoveVerifiedEmailDomain(r.Context(), me.OrgID, domain); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}
