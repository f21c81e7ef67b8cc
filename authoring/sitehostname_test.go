package authoring_test

import (
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/dnscheck/dnstest"
	"github.com/quiredocs/quire/store"
)

// newSites is a fixture with the sites service over it, whose DNS is the
// zone returned.
func newSites(t *testing.T) (*fixture, *authoring.Sites, *dnstest.Server) {
	t.Helper()
	f := newFixture(t)
	zone := dnstest.Start(t)
	return f, &authoring.Sites{DB: f.db, DNS: dnscheck.New(zone.Addr), Grace: time.Hour}, zone
}

// TestUpdateSiteHostname: a hostname no site holds is set; one another
// site holds unproved is taken by the site whose organization's record
// proves it (and served at once), else the conflict names the record; one
// another site proved is a plain conflict.
func TestUpdateSiteHostname(t *testing.T) {
	t.Parallel()
	f, sites, zone := newSites(t)
	ctx := t.Context()
	first, _ := f.newSite(t)
	other, err := f.db.InitOrganization(ctx, "Other", "bob@example.com", "Bob")
	if err != nil {
		t.Fatal(err)
	}
	second, err := f.db.CreateSite(ctx, other.Organization.ID, store.NewSite{Type: quire.SiteBasic, Title: "Other", Visibility: quire.VisibilityPublic})
	if err != nil {
		t.Fatal(err)
	}
	const host = "docs.example.com"
	prove := func(site *quire.Site) {
		t.Helper()
		token, err := f.db.VerificationToken(ctx, site.OrgID, host)
		if err != nil {
			t.Fatal(err)
		}
		zone.SetTXT("_quire."+host, dnscheck.RecordValue(token))
	}
	for _, step := range []struct {
		name   string
		site   *quire.Site
		proved *quire.Site // whose record the zone holds; nil for none
		code   quire.Code  // of the error, "" for none
		msg    string      // in the error
		holder *quire.Site // the site served at host after, nil for none
	}{
		{"no site holds it", first, nil, "", "", nil},
		{"held unproved, no record", second, nil, quire.CodeConflict, "add the DNS record _quire." + host + `. TXT "`, nil},
		{"held unproved, the claimant's record", second, second, "", "", second},
		{"held and proved", first, first, quire.CodeConflict, "hostname: ", second},
	} {
		if step.proved != nil {
			prove(step.proved)
		}
		h := host
		updated, err := sites.UpdateSite(ctx, step.site, store.SiteUpdate{Hostname: &h})
		if quire.ErrorCode(err) != step.code || (err != nil && !strings.Contains(err.Error(), step.msg)) {
			t.Fatalf("%s: UpdateSite = %v, want code %q with %q", step.name, err, step.code, step.msg)
		}
		if step.name == "held and proved" && strings.Contains(err.Error(), "add the DNS record") {
			t.Fatalf("%s: %v, want a plain conflict", step.name, err)
		}
		if err == nil && updated.Hostname != host {
			t.Fatalf("%s: hostname %q, want %q", step.name, updated.Hostname, host)
		}
		id, err := f.db.SiteIDByHostname(ctx, host)
		if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
			t.Fatal(err)
		}
		want := ""
		if step.holder != nil {
			want = step.holder.ID
		}
		if id != want {
			t.Fatalf("%s: served by %q, want %q", step.name, id, want)
		}
	}
}

// TestHostnameState: a hostname never checked is checked once when asked
// about, and proved once its record is there and it is checked again.
func TestHostnameState(t *testing.T) {
	t.Parallel()
	f, sites, zone := newSites(t)
	ctx := t.Context()
	site, _ := f.newSite(t)
	const host = "docs.example.com"
	h := host
	if _, err := sites.UpdateSite(ctx, site, store.SiteUpdate{Hostname: &h}); err != nil {
		t.Fatal(err)
	}
	st, err := sites.Hostname(ctx, site, host)
	if err != nil || st.Token == "" || st.Check == nil || st.Check.Status != authoring.DNSNoCNAME || !st.VerifiedAt.IsZero() {
		t.Fatalf("Hostname = %+v, %v; want checked once, not proved", st, err)
	}
	zone.SetTXT("_quire."+host, dnscheck.RecordValue(st.Token))
	if again, err := sites.Hostname(ctx, site, host); err != nil || again.Check.Status != authoring.DNSNoCNAME {
		t.Fatalf("Hostname = %+v, %v; want the last check kept, not a new one", again, err)
	}
	if _, err := sites.CheckHostname(ctx, site, host); err != nil {
		t.Fatal(err)
	}
	st, err = sites.Hostname(ctx, site, host)
	if err != nil || st.Check.Status != authoring.DNSPassed || st.VerifiedAt.IsZero() {
		t.Fatalf("Hostname = %+v, %v; want proved", st, err)
	}
}
