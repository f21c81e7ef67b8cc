// Package gitsync writes a revision's content as a folder in the layout
// GitBook's Git Sync uses, and reads such a folder back into a tree:
//
//	.gitbook.yaml              root and structure (readme, summary), redirects
//	SUMMARY.md                 the tree and the titles
//	README.md                  the first page
//	guide/README.md            a page with children, in its folder
//	guide/install.md           a page without children
//	.gitbook/assets/logo.png   the files
//
// Pages keep what markdown cannot hold in YAML front matter; links between
// pages are relative ".md" links and links to files relative paths into
// .gitbook/assets. Export then Import then Export gives the same bytes.
// It does no I/O besides reading blobs on export.
package gitsync

import (
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
)

// Fixed names of the layout.
const (
	ConfigFile    = ".gitbook.yaml"
	AssetsDir     = ".gitbook/assets"
	DefaultReadme = "README.md"
	DefaultTOC    = "SUMMARY.md"
)

// assetPaths gives each file of t its path in the folder:
// .gitbook/assets/<name>, with a name taken by another file (compared
// without case) numbered as GitBook numbers it: "image (1).png". Files are
// named in the order of their names, then ids.
func assetPaths(t *content.Tree) map[string]string {
	ids := make([]string, 0, len(t.Files))
	for id := range t.Files {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := t.Files[ids[i]], t.Files[ids[j]]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.ID < b.ID
	})
	out := make(map[string]string, len(ids))
	used := make(map[string]bool, len(ids))
	for _, id := range ids {
		name := assetName(t.Files[id].Name, id)
		stem, ext := splitExt(name)
		n := name
		for i := 1; used[strings.ToLower(n)]; i++ {
			n = stem + " (" + strconv.Itoa(i) + ")" + ext
		}
		used[strings.ToLower(n)] = true
		out[id] = AssetsDir + "/" + n
	}
	return out
}

// assetName is a file name usable as one path segment: without slashes,
// control characters or leading dots; the id when nothing is left.
func assetName(name, id string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return '-'
		}
		return r
	}, strings.ToValidUTF8(name, "-"))
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	if name == "" {
		return id
	}
	return name
}

// splitExt splits a name before its extension ("" when none).
func splitExt(name string) (stem, ext string) {
	ext = path.Ext(name)
	if ext == name {
		return name, ""
	}
	return strings.TrimSuffix(name, ext), ext
}

// slugFromPath is the slug Import gives a page read from file p (relative
// to the root) with title: the file's name without ".md", or for a README
// its folder's name; the title's slug for the space's readme, or when the
// name is not a valid slug.
func slugFromPath(p, readme, title string) string {
	dir, base := path.Dir(p), path.Base(p)
	switch {
	case p == readme || dir == "." && strings.EqualFold(base, DefaultReadme):
		return quire.PageSlug(title)
	case strings.EqualFold(base, DefaultReadme):
		return validSlug(path.Base(dir), title)
	}
	return validSlug(strings.TrimSuffix(base, path.Ext(base)), title)
}

// validSlug is seg when it is a valid slug, else the slug made of it
// (of the title when seg is empty).
func validSlug(seg, title string) string {
	switch {
	case seg == "":
		return quire.PageSlug(title)
	case quire.CheckSlug(seg) != nil || !utf8.ValidString(seg):
		return quire.PageSlug(seg)
	}
	return seg
}

// relPath is the relative path from folder dir to file to, both relative
// to the root ("." for the root itself).
func relPath(dir, to string) string {
	var from []string
	if dir != "." && dir != "" {
		from = strings.Split(dir, "/")
	}
	dest := strings.Split(to, "/")
	i := 0
	for i < len(from) && i < len(dest)-1 && from[i] == dest[i] {
		i++
	}
	var b strings.Builder
	for range from[i:] {
		b.WriteString("../")
	}
	b.WriteString(strings.Join(dest[i:], "/"))
	return b.String()
}

// escapePath writes a path as a link destination: the characters that
// would end or change one are percent-encoded (Import decodes them).
func escapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte("%()<>\\#?\"'[]`&", c) >= 0 {
			b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unescapePath percent-decodes a link's path.
func unescapePath(p string) (string, error) { return url.PathUnescape(p) }

// joinPath resolves link path p, from folder dir or from the root when it
// starts with "/"; ok is false when it leaves the root.
func joinPath(dir, p string) (string, bool) {
	var full string
	if strings.HasPrefix(p, "/") {
		full = strings.TrimPrefix(path.Clean(p), "/")
	} else {
		full = path.Join(dir, p)
	}
	if full == "" || full == "." || full == ".." || strings.HasPrefix(full, "../") {
		return "", false
	}
	return full, true
}
