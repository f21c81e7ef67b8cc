package published

import "strings"

// Preview is what a preview path of a site space names: a change request,
// or an older revision, of its space (one of them is set).
type Preview struct {
	ChangeRequest string
	Revision      string
}

// Prefix is the preview's own segments, "~/changes/{id}/" or
// "~/revisions/{id}/", as they stand before the page path.
func (p Preview) Prefix() string {
	if p.ChangeRequest != "" {
		return "~/changes/" + p.ChangeRequest + "/"
	}
	return "~/revisions/" + p.Revision + "/"
}

// CutPreview cuts a preview's segments off the start of a page path
// (Location.PagePath): "~/changes/{id}" or "~/revisions/{id}", as GitBook
// addresses the preview of a change request or of an older revision below
// a site space. It is false, and pagePath is left whole, when pagePath
// names no preview.
func CutPreview(pagePath string) (p Preview, rest string, ok bool) {
	kind, after, _ := strings.Cut(pagePath, "/")
	if kind != "~" {
		return Preview{}, pagePath, false
	}
	kind, after, _ = strings.Cut(after, "/")
	id, rest, _ := strings.Cut(after, "/")
	if id == "" {
		return Preview{}, pagePath, false
	}
	switch kind {
	case "changes":
		p.ChangeRequest = id
	case "revisions":
		p.Revision = id
	default:
		return Preview{}, pagePath, false
	}
	return p, strings.Trim(rest, "/"), true
}
