package authoring

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/store"
)

// Custom hostnames (issue 19): a site is served at its hostname once DNS
// proves the hostname its organization's, by a TXT record at
// _quire.<hostname> with the organization's token for it. A CNAME to this
// server would prove nothing: every organization's hostnames point here.

// DNS statuses of the reference (CustomHostnameDnsStatus), for the
// outcome of a check: the record proves the hostname; a verification
// record with another token is there; no record, or no answer.
const (
	DNSPassed     = "dns_passed"
	DNSWrongCNAME = "dns_wrong_cname"
	DNSNoCNAME    = "dns_no_cname"
)

// CheckHostname looks for the TXT record that proves h the site's own and
// keeps the outcome (store.DB.SaveHostnameCheck): the published sites
// serve a hostname only while it is proved, or for grace after it was last.
func CheckHostname(ctx context.Context, db *store.DB, dns *dnscheck.Checker, h store.SiteHostname, grace time.Duration) (*store.HostnameCheck, error) {
	token, err := db.VerificationToken(ctx, h.OrgID, h.Hostname)
	if err != nil {
		return nil, err
	}
	status := DNSNoCNAME
	res, err := dns.Verify(ctx, h.Hostname, token)
	switch {
	case err != nil: // no answer is no proof, nor proof of its absence: the grace covers it
		res.Detail = fmt.Sprintf("the DNS lookup failed (%v); %s", err, dnscheck.Instructions(h.Hostname, token))
	case res.Verified:
		status = DNSPassed
	case res.Wrong:
		status = DNSWrongCNAME
	}
	return db.SaveHostnameCheck(context.WithoutCancel(ctx), h.SiteID, h.Hostname, res.Verified, status, res.Detail, grace)
}

// Sites changes docs sites where a change reaches beyond the database: a
// custom hostname, proved by DNS.
type Sites struct {
	// DB holds the sites.
	DB *store.DB
	// DNS proves custom hostnames.
	DNS *dnscheck.Checker
	// Grace is how long a hostname stays served after its proof went away.
	Grace time.Duration
}

// CheckHostname checks the DNS of hostname, site's, now: the site is served
// at it as soon as its record is there.
func (s *Sites) CheckHostname(ctx context.Context, site *quire.Site, hostname string) (*store.HostnameCheck, error) {
	return CheckHostname(ctx, s.DB, s.DNS, store.SiteHostname{SiteID: site.ID, OrgID: site.OrgID, Hostname: hostname}, s.Grace)
}

// HostnameState is what is known of a site's custom hostname: the token
// its TXT record must hold, the last check, and since when it is proved
// (zero while it is not).
type HostnameState struct {
	Token      string
	Check      *store.HostnameCheck
	VerifiedAt time.Time
}

// Hostname is the state of hostname, site's; one never checked is checked
// once now.
func (s *Sites) Hostname(ctx context.Context, site *quire.Site, hostname string) (*HostnameState, error) {
	check, err := s.DB.HostnameCheck(ctx, hostname)
	if err == nil && check == nil {
		check, err = s.CheckHostname(ctx, site, hostname)
	}
	if err != nil {
		return nil, err
	}
	token, err := s.DB.VerificationToken(ctx, site.OrgID, hostname)
	if err != nil {
		return nil, err
	}
	verifiedAt, err := s.DB.HostnameVerifiedAt(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	return &HostnameState{Token: token, Check: check, VerifiedAt: verifiedAt}, nil
}

// UpdateSite applies u to site. A new hostname that another site holds
// without having proved it is site's when its organization's DNS proves it
// now (and it is served at once); else the conflict says which record to
// add. One that another site proved is a plain conflict.
func (s *Sites) UpdateSite(ctx context.Context, site *quire.Site, u store.SiteUpdate) (*quire.Site, error) {
	var claim *hostnameClaim
	if u.Hostname != nil && *u.Hostname != "" && *u.Hostname != site.Hostname {
		var err error
		if claim, err = s.claimHostname(ctx, site, *u.Hostname); err != nil {
			return nil, err
		}
		u.TakeHostname = claim != nil && claim.proved
	}
	updated, err := s.DB.UpdateSite(ctx, site.ID, u)
	if err != nil {
		return nil, claim.conflict(err)
	}
	if claim != nil && claim.proved { // proved just now: served at once
		if _, err := s.CheckHostname(ctx, updated, updated.Hostname); err != nil {
			return nil, err
		}
	}
	return updated, nil
}

// hostnameClaim is a site's claim of a hostname another site holds without
// having proved it: the claimant takes it if its organization proves it,
// else the conflict says how to.
type hostnameClaim struct {
	hostname, record string
	proved           bool
}

// claimHostname looks at who holds hostname, for site about to take it:
// nil when no other site does, or one that proved it (a plain conflict).
func (s *Sites) claimHostname(ctx context.Context, site *quire.Site, hostname string) (*hostnameClaim, error) {
	other, err := s.DB.SiteIDWithHostname(ctx, hostname)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if at, err := s.DB.HostnameVerifiedAt(ctx, other); err != nil || !at.IsZero() {
		return nil, err
	}
	token, err := s.DB.VerificationToken(ctx, site.OrgID, hostname)
	if err != nil {
		return nil, err
	}
	c := &hostnameClaim{hostname: hostname, record: fmt.Sprintf("%s. TXT %q", dnscheck.RecordName(hostname), dnscheck.RecordValue(token))}
	res, err := s.DNS.Verify(ctx, hostname, token)
	c.proved = err == nil && res.Verified // no answer is no proof: the conflict stands
	return c, nil
}

// conflict tells the claimant of a hostname held but not proved by another
// site how to take it.
func (c *hostnameClaim) conflict(err error) error {
	if c == nil || c.proved || quire.ErrorCode(err) != quire.CodeConflict || !strings.HasPrefix(err.Error(), "hostname:") {
		return err
	}
	return quire.Errorf(quire.CodeConflict, "hostname: %q is already used by another site, which has not proved it its own; if it is yours, add the DNS record %s and send again", c.hostname, c.record)
}
