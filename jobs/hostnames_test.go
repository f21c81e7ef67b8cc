package jobs_test

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/dnscheck/dnstest"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestCheckHostnames: a hostname is served once its record proves it, not
// on another organization's token; a DNS server that does not answer, or
// the record gone, leaves it served for the grace period after it was last
// proved, and no longer.
func TestCheckHostnames(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	now := time.Now().UTC()
	db.Now = func() time.Time { return now }
	b, err := db.InitOrganization(ctx, "Org", "owner@example.com", "Owner")
	if err != nil {
		t.Fatal(err)
	}
	site, err := db.CreateSite(ctx, b.Organization.ID, store.NewSite{Type: quire.SiteBasic, Title: "Docs", Visibility: quire.VisibilityPublic})
	if err != nil {
		t.Fatal(err)
	}
	host := "docs.example.com"
	if _, err := db.UpdateSite(ctx, site.ID, store.SiteUpdate{Hostname: &host}); err != nil {
		t.Fatal(err)
	}
	zone := dnstest.Start(t)
	dns := dnscheck.New(zone.Addr)
	const grace = 72 * time.Hour
	served := func() bool {
		t.Helper()
		id, err := db.SiteIDByHostname(ctx, host)
		if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
			t.Fatal(err)
		}
		return id == site.ID
	}
	check := func(dns *dnscheck.Checker, wantFailed int) {
		t.Helper()
		if failed, err := jobs.CheckHostnames(ctx, db, dns, grace); err != nil || failed != wantFailed {
			t.Fatalf("check: %d failed, %v; want %d", failed, err, wantFailed)
		}
	}

	check(dns, 1)
	if served() {
		t.Fatal("served without its record")
	}
	other, err := db.VerificationToken(ctx, "another-org", host)
	if err != nil {
		t.Fatal(err)
	}
	zone.SetTXT("_quire."+host, dnscheck.RecordValue(other))
	check(dns, 1)
	if served() {
		t.Fatal("served on another organization's token")
	}
	token, err := db.VerificationToken(ctx, b.Organization.ID, host)
	if err != nil || token == other {
		t.Fatalf("token %q, %v", token, err)
	}
	zone.SetTXT("_quire."+host, dnscheck.RecordValue(token))
	check(dns, 0)
	if !served() {
		t.Fatal("not served with its record")
	}

	now = now.Add(time.Hour)
	check(dnscheck.New("127.0.0.1:1"), 1) // no answer: the grace holds
	if !served() {
		t.Error("un-served when DNS did not answer")
	}
	zone.SetTXT("_quire." + host)
	now = now.Add(grace - 2*time.Hour)
	check(dns, 1)
	if !served() {
		t.Error("un-served within the grace")
	}
	now = now.Add(2 * time.Hour)
	check(dns, 1)
	if served() {
		t.Error("still served past the grace")
	}
	if c, err := db.HostnameCheck(ctx, host); err != nil || c.Status != jobs.DNSNoCNAME || !c.CheckedAt.Equal(now.Truncate(time.Microsecond)) {
		t.Errorf("last check: %+v, %v", c, err)
	}
}
