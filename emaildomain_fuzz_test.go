package quire

import (
	"strings"
	"testing"
)

// FuzzCheckEmailDomain: whatever a form or the admin command sends, the
// check does not panic, and what it accepts is a lower-case DNS name of
// letters, digits, dots and hyphens, without empty labels: nothing that is
// a LIKE wildcard (store's managedByVerified matches addresses by it) nor
// that would move the _quire. record elsewhere.
func FuzzCheckEmailDomain(f *testing.F) {
	for _, s := range []string{"example.com", "a.b.example.co.uk", "Example.com", "example", "ex_ample.com", "ex%ample.com", ".example.com",
		"example.com.", "exa..mple.com", "-a.com", "a-.com", "xn--bcher-kva.example", "1.2.3.4", "a@b.com", strings.Repeat("a", 64) + ".com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		if CheckEmailDomain("domain", d) != nil {
			return
		}
		if strings.Trim(d, "abcdefghijklmnopqrstuvwxyz0123456789.-") != "" || strings.ToLower(d) != d {
			t.Fatalf("accepted %q: a character outside [a-z0-9.-]", d)
		}
		for _, label := range strings.Split(d, ".") {
			if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
				t.Fatalf("accepted %q: label %q", d, label)
			}
		}
	})
}
