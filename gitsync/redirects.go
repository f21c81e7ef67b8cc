package gitsync

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"gopkg.in/yaml.v3"
)

// .gitbook.yaml's redirects: a former path of the space, relative to its
// root ("previous/page"), to the page file now holding it
// ("new-folder/page.md"). Quire keeps them as the space's (store
// SpaceRedirects), by page id, so that they follow a page that moves; an
// export writes each to its page's current file.

// MaxRedirects bounds the redirects of one .gitbook.yaml.
const MaxRedirects = 1000

// maxRedirectSource bounds a redirect's source, in bytes.
const maxRedirectSource = 512

// redirectSource is a source as kept: without slashes around. It is
// refused when empty, too long, or holding what a path of the site cannot
// (a query, a fragment, backslashes, control characters).
func redirectSource(raw string) (string, error) {
	s := strings.Trim(strings.TrimSpace(raw), "/")
	bad := s == "" || len(s) > maxRedirectSource || !utf8.ValidString(s) ||
		strings.ContainsAny(s, "?#\\") || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
	if bad {
		return "", quire.Errorf(quire.CodeInvalid, "%s: redirects: %q is not a path of the space", ConfigFile, raw)
	}
	return s, nil
}

// resolveRedirects maps the sources of cfg's redirects to the ids of the
// pages their files hold (byPath: page file, relative to the root → id). A
// redirect to a file that is no page of the folder is left out, as the
// published site could not follow it.
func resolveRedirects(raw map[string]string, byPath map[string]string) (map[string]string, error) {
	if len(raw) > MaxRedirects {
		return nil, quire.Errorf(quire.CodeTooLarge, "%s: redirects: at most %d", ConfigFile, MaxRedirects)
	}
	out := make(map[string]string, len(raw))
	seen := make(map[string]bool, len(raw))
	for src, to := range raw {
		s, err := redirectSource(src)
		if err != nil {
			return nil, err
		}
		if seen[s] {
			return nil, quire.Errorf(quire.CodeInvalid, "%s: redirects: %q is given twice", ConfigFile, s)
		}
		seen[s] = true
		to = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(to), "./"), "/")
		if id := byPath[to]; id != "" {
			out[s] = id
		}
	}
	return out, nil
}

// writeRedirects writes redirects (source → page id) as .gitbook.yaml's
// redirects section, by source, each to its page's file (paths: page id →
// Git path); those whose page is gone are left out. Nothing when none is
// left.
func writeRedirects(redirects, paths map[string]string) string {
	sources := make([]string, 0, len(redirects))
	for s, id := range redirects {
		if paths[id] != "" {
			sources = append(sources, s)
		}
	}
	if len(sources) == 0 {
		return ""
	}
	sort.Strings(sources)
	var b strings.Builder
	b.WriteString("\nredirects:\n")
	for _, s := range sources {
		b.WriteString("  " + yamlScalar(s) + ": " + yamlScalar(paths[redirects[s]]) + "\n")
	}
	return b.String()
}

// yamlScalar writes s as a YAML scalar on one line: plain when that reads
// back as s, quoted otherwise.
func yamlScalar(s string) string {
	out, err := yaml.Marshal(s)
	if err != nil || strings.Count(strings.TrimSuffix(string(out), "\n"), "\n") > 0 {
		return strconv.Quote(s) // YAML reads its escapes
	}
	return strings.TrimSuffix(string(out), "\n")
}
