package quire

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// integrationNamePattern is the reference's integrationName pattern.
var integrationNamePattern = regexp.MustCompile(`^[a-zA-Z0-9-_.]+$`)

// FuzzCheckIntegrationName: the name check accepts exactly the reference's
// pattern within 100 characters, but "." and ".."; refuses with a 400 naming
// the field; and what it accepts is one URL path segment as it is.
func FuzzCheckIntegrationName(f *testing.F) {
	for _, s := range []string{"slack", "my-integration_2.0", "A", ".", "..", "...", "", "with space", "a/b", "é",
		"a\x00", strings.Repeat("a", 100), strings.Repeat("a", 101), "%2F", "-", "_.-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := CheckIntegrationName("integrationName", name)
		want := integrationNamePattern.MatchString(name) && len(name) <= 100 && name != "." && name != ".."
		if (err == nil) != want {
			t.Fatalf("CheckIntegrationName(%q) = %v, want accepted %v", name, err, want)
		}
		if err != nil {
			if ErrorCode(err) != CodeInvalid || !strings.HasPrefix(ErrorMessage(err), "integrationName: ") {
				t.Fatalf("CheckIntegrationName(%q): error %q (code %s)", name, err, ErrorCode(err))
			}
			return
		}
		if url.PathEscape(name) != name {
			t.Fatalf("accepted %q, which is not a URL path segment as it is", name)
		}
	})
}

func TestUnfurlDomain(t *testing.T) {
	for pattern, want := range map[string]string{
		"https://www.figma.com/file/*": "www.figma.com",
		"https://*.figma.com/file/*":   "figma.com",
		"http://*.*.example.org":       "example.org",
		"youtube.com/watch*":           "youtube.com",
		"https://YouTu.be:443/*":       "youtu.be",
		"https://user@host.example/":   "host.example",
		"https://example.com?q=1":      "example.com",
		"*":                            "",
		"https:///path":                "",
		"https://exa mple.com/":        "",
		"":                             "",
	} {
		if got := UnfurlDomain(pattern); got != want {
			t.Errorf("UnfurlDomain(%q) = %q, want %q", pattern, got, want)
		}
	}
}

func TestDomainMatches(t *testing.T) {
	for domain, want := range map[string][]string{
		"a.b.figma.com": {"a.b.figma.com", "b.figma.com", "figma.com"},
		"Figma.COM":     {"figma.com"},
		"localhost":     {"localhost"},
		"youtu.be":      {"youtu.be"},
	} {
		if got := DomainMatches(domain); !slices.Equal(got, want) {
			t.Errorf("DomainMatches(%q) = %q, want %q", domain, got, want)
		}
	}
}

func TestCheckBlockDomain(t *testing.T) {
	for v, ok := range map[string]bool{"figma.com": true, "a-b_c.d": true, "": false, "a/b": false, "a b": false,
		strings.Repeat("a", 100): true, strings.Repeat("a", 101): false} {
		if err := CheckBlockDomain("blockDomain", v); (err == nil) != ok {
			t.Errorf("CheckBlockDomain(%q) = %v, want accepted %v", v, err, ok)
		}
	}
}

func TestIntegrationMatches(t *testing.T) {
	in := &Integration{Name: "slack-notify", Title: "Slack Notifications"}
	for _, tc := range []struct {
		search string
		want   bool
	}{
		{"", true},
		{"slack", true},
		{"SLACK-N", true},
		{"notif", true},
		{"Notifications", true},
		{"teams", false},
		{"slack notify", false},
	} {
		if got := in.Matches(tc.search); got != tc.want {
			t.Errorf("Matches(%q) = %v, want %v", tc.search, got, tc.want)
		}
	}
}
