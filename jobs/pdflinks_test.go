package jobs_test

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/store/storetest"
)

// TestPDFLinks: a link signed by one server is good on another of the same
// database until it expires; any field altered, or a signature not in
// base64url, is refused.
func TestPDFLinks(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	now := time.Unix(1_800_000_000, 0)
	link := jobs.PDFLink{Space: "s1", Revision: "r1", ChangeRequest: "c1", Page: "p1", Only: true, Expires: now.Add(time.Hour).Unix()}
	sig, err := (&jobs.PDFPrinter{DB: db}).SignPDFLink(ctx, link)
	if err != nil {
		t.Fatal(err)
	}
	other := &jobs.PDFPrinter{DB: db}
	altered := func(change func(*jobs.PDFLink)) jobs.PDFLink { l := link; change(&l); return l }
	tests := []struct {
		name string
		link jobs.PDFLink
		sig  string
		at   time.Time
		ok   bool
	}{
		{"as signed", link, sig, now, true},
		{"expired", link, sig, now.Add(time.Hour), false},
		{"another space", altered(func(l *jobs.PDFLink) { l.Space = "s2" }), sig, now, false},
		{"another revision", altered(func(l *jobs.PDFLink) { l.Revision = "r2" }), sig, now, false},
		{"no change request", altered(func(l *jobs.PDFLink) { l.ChangeRequest = "" }), sig, now, false},
		{"another page", altered(func(l *jobs.PDFLink) { l.Page = "p2" }), sig, now, false},
		{"not only", altered(func(l *jobs.PDFLink) { l.Only = false }), sig, now, false},
		{"expiring later", altered(func(l *jobs.PDFLink) { l.Expires++ }), sig, now, false},
		{"no signature", link, "", now, false},
		{"not base64url", link, "a+b/", now, false},
	}
	for _, tt := range tests {
		err := other.CheckPDFLink(ctx, tt.link, tt.sig, tt.at)
		if tt.ok && err != nil || !tt.ok && quire.ErrorCode(err) != quire.CodeForbidden {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
