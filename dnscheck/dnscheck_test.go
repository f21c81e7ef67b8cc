package dnscheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/dnscheck/dnstest"
)

// TestVerify: the record with the token proves the name; none, or one with
// another token, does not, and says which record to add.
func TestVerify(t *testing.T) {
	t.Parallel()
	dns := dnstest.Start(t)
	c := dnscheck.New(dns.Addr)
	ctx := context.Background()
	check := func(name string) dnscheck.Result {
		t.Helper()
		r, err := c.Verify(ctx, name, "tok123")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := check("example.com"); r.Verified || r.Wrong || !strings.Contains(r.Detail, `_quire.example.com. TXT "quire-verification=tok123"`) {
		t.Errorf("no record: %+v", r)
	}
	dns.SetTXT("_quire.example.com", "v=spf1 -all", "quire-verification=other")
	if r := check("example.com"); r.Verified || !r.Wrong {
		t.Errorf("another token: %+v", r)
	}
	dns.SetTXT("_quire.example.com", "quire-verification=other", "quire-verification=tok123")
	if r := check("example.com"); !r.Verified {
		t.Errorf("the record: %+v", r)
	}
	// Only at _quire.<name>: the record on the name itself proves nothing.
	dns.SetTXT("other.example", "quire-verification=tok123")
	if r := check("other.example"); r.Verified {
		t.Errorf("record on the name itself: %+v", r)
	}
	// A server that does not answer is an error, not "unverified".
	dead := dnscheck.New("127.0.0.1:1")
	if _, err := dead.Verify(ctx, "example.com", "tok123"); err == nil || strings.Contains(err.Error(), "127.0.0.1") || strings.Contains(err.Error(), ":53") {
		t.Errorf("no DNS server: %v, want an error that names no resolver", err)
	}
}
