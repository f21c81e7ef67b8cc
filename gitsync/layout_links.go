package gitsync

import (
	"strings"

	"github.com/yuin/goldmark"
)

// A stored body links to pages and files as /pages/<id> and /files/<id>
// (edit resolves what a writer types to those); in the folder they are
// relative paths. Import and Export translate every destination of a body
// with render.RewriteTargets: markdown links and images, and the paths
// GitBook's blocks carry in attributes ({% file src %}, {% embed url %},
// {% content-ref url %}, <img src>, <a href>).

// mdParser is goldmark's CommonMark parser, as render's; it is safe for
// concurrent use.
var mdParser = goldmark.New().Parser()

// splitTarget cuts a destination into its path and what follows it
// ("#fragment" or "?query…", with the separator).
func splitTarget(t string) (p, rest string) {
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		return t[:i], t[i:]
	}
	return t, ""
}
