package quire

import (
	"strings"
	"testing"
)

func TestCheckChars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v         string
		line, txt string // "" when allowed, else a part of the message
	}{
		{"Getting started", "", ""},
		{"Ünïcödé 📘 日本語", "", ""},
		{"", "", ""},
		{"a\x00b", "control characters", "control characters"},
		{"\x01", "control characters", "control characters"},
		{"bell\a", "control characters", "control characters"},
		{"esc\x1b[31m", "control characters", "control characters"},
		{"\x1f", "control characters", "control characters"},
		{"del\x7f", "control characters", "control characters"},
		{"c1\u0080", "control characters", "control characters"},
		{"c1\u0085", "control characters", "control characters"}, // NEL
		{"c1\u009f", "control characters", "control characters"},
		{"\u00a0no-break space", "", ""},
		{"tab\there", "control characters", ""},
		{"two\nlines", "control characters", ""},
		{"windows\r\nlines", "control characters", ""},
		{"bad \xff utf-8", "valid UTF-8", "valid UTF-8"},
		{"cut \xe6\x97", "valid UTF-8", "valid UTF-8"},
		{"replacement \uFFFD is fine", "", ""},
		{"invoice\u202Efdp.exe", "direction of text (U+202E)", ""},
		{"\u202Aembedded", "direction of text (U+202A)", ""},
		{"isolate\u2066x\u2069", "direction of text (U+2066)", ""},
		{"pop\u2069", "direction of text (U+2069)", ""},
		{"marks \u200F\u200E and arabic عربي are fine", "", ""},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			multiline bool
			want      string
		}{{false, tt.line}, {true, tt.txt}} {
			err := CheckChars("title", tt.v, c.multiline)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("CheckChars(%q, multiline %v) = %v, want nil", tt.v, c.multiline, err)
			case c.want != "" && (err == nil || ErrorCode(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "title: ") || !strings.Contains(err.Error(), c.want)):
				t.Errorf("CheckChars(%q, multiline %v) = %v, want an invalid error naming title: %s", tt.v, c.multiline, err, c.want)
			}
		}
	}
}

func TestCheckLenAndText(t *testing.T) {
	t.Parallel()
	if err := CheckLen("title", "a\x00", 1, 10); err == nil || err.Error() != "title: must not contain control characters" {
		t.Errorf("CheckLen with NUL: %v", err)
	}
	if err := CheckLen("title", "two\nlines", 1, 10); err == nil {
		t.Error("CheckLen allowed a line feed")
	}
	if err := CheckText("description", "two\nlines\tand a tab", 1, 30); err != nil {
		t.Errorf("CheckText: %v", err)
	}
	if err := CheckText("description", "nul\x00", 1, 30); err == nil {
		t.Error("CheckText allowed NUL")
	}
	if err := CheckText("description", "too long", 1, 3); err == nil || !strings.Contains(err.Error(), "1 to 3 characters") {
		t.Errorf("CheckText length: %v", err)
	}
	if err := CheckEmail("email", "a\x00@example.com"); err == nil || !strings.Contains(err.Error(), "control characters") {
		t.Errorf("CheckEmail with NUL: %v", err)
	}
}

// errText is err's message, or "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestFieldChecks: each field check accepts what it should, and names the
// field and the rule in what it refuses.
func TestFieldChecks(t *testing.T) {
	t.Parallel()
	level := func(v string, null bool) error {
		_, err := ParseDefaultLevelOrNull("defaultLevel", Optional[string]{Set: true, Null: null, Value: v})
		return err
	}
	mode := func(v string) error { _, err := ParseEditMode("editMode", v); return err }
	team := func(v string) error { _, err := ParseTeamRole("role", v); return err }
	tests := []struct {
		name string
		err  error
		want string // "" when allowed
	}{
		{"edit mode", mode("locked"), ""},
		{"edit mode bad", mode("frozen"), "editMode: must be live or locked"},
		{"level role", level("read", false), ""},
		{"level inherit", level("inherit", false), ""},
		{"level null", level("", true), ""},
		{"level bad", level("guest", false), "defaultLevel: must be a role (admin, create, review, edit, comment, read), inherit or null"},
		{"team owner", team("owner"), ""},
		{"team bad", team("admin"), "role: must be owner or member"},
		{"spec url", CheckSpecURL("source.url", "https://example.com/openapi.json"), ""},
		{"spec url relative", CheckSpecURL("source.url", "/openapi.json"),
			"source.url: must be an http or https URL of at most 2048 characters, without credentials"},
		{"spec url credentials", CheckSpecURL("source.url", "https://u:p@example.com/"),
			"source.url: must be an http or https URL of at most 2048 characters, without credentials"},
		{"spec text", CheckSpecText("source.text", "openapi: 3.1.0"), ""},
		{"spec text empty", CheckSpecText("source.text", ""), "source.text: must be 1 to 10485760 bytes"},
		{"spec text NUL", CheckSpecText("source.text", "a\x00b"), "source.text: must not contain NUL characters"},
		{"query", CheckQuery("query", strings.Repeat("é", 10), 10), ""},
		{"query empty", CheckQuery("query", "", 10), "query: is required"},
		{"query long", CheckQuery("query", strings.Repeat("é", 11), 10), "query: must be at most 10 characters"},
		{"title", CheckOrgTitle("title", "Acme"), ""},
		{"title short", CheckOrgTitle("title", "A"), "title: must be 2 to 255 characters"},
		{"title blank end", CheckOrgTitle("title", "Acme "), "title: must not start or end with spaces"},
		{"domains", CheckEmailDomains("emailDomains", []string{"example.com", "mail.example.co.uk"}), ""},
		{"domains none", CheckEmailDomains("emailDomains", nil), ""},
		{"domain upper", CheckEmailDomains("emailDomains", []string{"example.com", "Example.com"}),
			"emailDomains[1]: must be a lower-case domain name such as example.com"},
		{"domains many", CheckEmailDomains("emailDomains", make([]string, 101)), "emailDomains: must have at most 100 entries"},
		{"hostname", CheckOrgHostname("hostname", "acme-docs"), ""},
		{"hostname short", CheckOrgHostname("hostname", "ab"), "hostname: must be 3 to 32 characters"},
		{"hostname hyphen", CheckOrgHostname("hostname", "-acme"), "hostname: must be lower-case letters, digits and inner hyphens"},
	}
	for _, tt := range tests {
		if got := errText(tt.err); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
