package app

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode"
)

// FuzzLocalPath holds localPath to a target that stays on this server once
// http.Redirect has written it and a browser has read it: a path, never
// "//" or a backslash (which browsers read as "/") after the first slash,
// no control characters (which browsers drop), and unchanged by the
// redirect's own cleaning.
func FuzzLocalPath(f *testing.F) {
	for _, s := range []string{"/", "/tokens", "/./\\evil.com", "//evil.com", "/\t/evil.com", "/a/../b?x=//y",
		"/%5Cevil.com", "https://evil.com", "/.//evil.com", "/x#/../..", "/..%2F..%2Fevil", "/?", "/a/./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, next string) {
		got := localPath(next)
		w := httptest.NewRecorder()
		http.Redirect(w, httptest.NewRequest("GET", "/signin", nil), got, http.StatusSeeOther)
		loc := w.Header().Get("Location")
		for _, target := range []string{got, loc} {
			u, err := url.Parse(target)
			if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") || strings.ContainsRune(target, '\\') ||
				strings.ContainsFunc(target, unicode.IsControl) || err != nil || u.Host != "" || u.Scheme != "" {
				t.Fatalf("localPath(%q) = %q, redirecting to %q", next, got, loc)
			}
		}
		// The redirect escapes what is not ASCII, and must change nothing else.
		if isASCII(got) && loc != got {
			t.Fatalf("localPath(%q) = %q, but the redirect says %q", next, got, loc)
		}
	})
}

func isASCII(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r > unicode.MaxASCII })
}
