package outbound

import (
	"strings"
	"testing"
)

// TestRemotesCheck: http(s) remotes with a host are taken, file:// ones
// only when the operator allows them, other schemes never; a refusal never
// repeats the URL, which may carry credentials.
func TestRemotesCheck(t *testing.T) {
	for _, c := range []struct {
		url       string
		allowFile bool
		ok        bool
	}{
		{"https://user:tok3n@github.com/acme/docs.git", false, true},
		{"http://git.example.com/docs.git", false, true},
		{"https:///docs.git", false, false},
		{"file:///srv/git/docs.git", false, false},
		{"file:///srv/git/docs.git", true, true},
		{"file://user:tok3n@host/srv/docs.git", true, false},
		{"ssh://git@github.com/acme/docs.git", false, true},
		{"ssh://git@github.com:2222/acme/docs.git", false, true},
		{"ssh://git:tok3n@github.com/acme/docs.git", false, false},
		{"ssh://git@github.com/", false, false},
		{"ssh:///docs.git", false, false},
		{"git@github.com:acme/docs.git", false, true},
		{"github.com:docs.git", false, true},
		{"git@github.com:", false, false},
		{"git@-oProxyCommand=x:docs.git", false, false},
		{"./relative:path/docs.git", true, false},
		{"git://github.com/acme/docs.git", true, false},
		{"/srv/git/docs.git", true, false},
		{"%zz://tok3n", true, false},
	} {
		_, err := Remotes{AllowFile: c.allowFile}.Check(c.url)
		if (err == nil) != c.ok {
			t.Errorf("Check(%q, allowFile %v) = %v, want ok %v", c.url, c.allowFile, err, c.ok)
		}
		if err != nil && strings.Contains(err.Error(), "tok3n") {
			t.Errorf("Check(%q) repeats the URL's credentials: %v", c.url, err)
		}
	}
}
