package api

import (
	"mime"
	"net/http"
	"net/url"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/web"
)

func (s *Server) appHost() string {
	if u, err := url.Parse(s.publicURL); err == nil {
		return u.Host
	}
	return ""
}

// spaceView is the space's current content; reading needs the read role.
func (s *Server) spaceView(r *http.Request) (*revision.View, error) {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return nil, err
	}
	return s.reader.Open(r.Context(), sp, sp.RevisionID, nil)
}

// changeRequestView is a change request's current content.
func (s *Server) changeRequestView(r *http.Request) (*revision.View, error) {
	sp, c, err := s.changeRequest(r, quire.RoleRead)
	if err != nil {
		return nil, err
	}
	return s.reader.Open(r.Context(), sp, c.RevisionID, c)
}

// revisionView is any revision of the space, by id.
func (s *Server) revisionView(r *http.Request) (*revision.View, error) {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return nil, err
	}
	return s.reader.Open(r.Context(), sp, r.PathValue("revisionId"), nil)
}

// viewHandler adapts a handler of a loaded view to a route. A site
// token's visitor gets 404 for a page they do not see (checkPageSeen).
func viewHandler(load func(*http.Request) (*revision.View, error), h func(http.ResponseWriter, *http.Request, *revision.View) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		v, err := load(r)
		if err != nil {
			return err
		}
		if err := checkPageSeen(r, v); err != nil {
			return err
		}
		return h(w, r, v)
	}
}

// formatParams reads format, metadata and computed. Quire has no computed
// pages yet, so computed is checked and has no effect.
func formatParams(r *http.Request) (revision.Format, error) {
	var document bool
	switch v := query(r).Get("format"); v {
	case "", "markdown":
	case "document":
		document = true
	default:
		return revision.Format{}, errorf(quire.CodeInvalid, "format: must be markdown or document")
	}
	metadata, err := boolParam(r, "metadata", true)
	if err != nil {
		return revision.Format{}, err
	}
	if _, err = boolParam(r, "computed", true); err != nil {
		return revision.Format{}, err
	}
	return revision.NewFormat(document, metadata), nil
}

// getRevision answers a revision with its pages (revision.Reader.RevisionAnswer).
func (s *Server) getRevision(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	l, err := s.links(r.Context())
	if err != nil {
		return err
	}
	if ps, ok := pagesSeen(r.Context(), v); ok {
		// Made for this visitor, not kept: their claims hide pages.
		mergedFrom, err := s.reader.MergedFrom(r.Context(), l, v)
		if err != nil {
			return err
		}
		pages, err := v.PagesJSON(l, f)
		if err != nil {
			return err
		}
		rev := l.RevisionHead(v.Space, v.Revision, v.Index().Files, mergedFrom)
		rev.Pages = seenPagesJSON(pages, ps)
		return writeJSON(w, http.StatusOK, rev)
	}
	parts, err := s.reader.RevisionAnswer(r.Context(), l, v, f)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	for _, part := range parts {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) getPage(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	id := r.PathValue("pageId")
	if _, ok := v.Tree.Pages[id]; !ok {
		return errorf(quire.CodeNotFound, "page not found")
	}
	return s.writePage(w, r, v, id, f)
}

// getPageByPath finds a page by its path of slugs ("guides/install").
func (s *Server) getPageByPath(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	if _, err := boolParam(r, "cachedMetadata", false); err != nil {
		return err
	}
	raw := r.PathValue("pagePath")
	id, ok := v.PageAt(raw)
	if !ok {
		return errorf(quire.CodeNotFound, "no page at path %q", content.SlugPath(raw))
	}
	return s.writePage(w, r, v, id, f)
}

// listFiles lists a revision's files by name.
func (s *Server) listFiles(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	if _, err := formatParams(r); err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	l, err := s.links(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, v.FileList(l, p))
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	if _, err := formatParams(r); err != nil {
		return err
	}
	f, ok := v.Tree.Files[r.PathValue("fileId")]
	if !ok {
		return errorf(quire.CodeNotFound, "file not found")
	}
	l, err := s.links(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, v.FileJSON(l, f))
}

// downloadFile serves a file's bytes to whoever may read the space.
func (s *Server) downloadFile(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	return s.serveFile(w, r, v, r.PathValue("fileId"), "private, max-age=31536000, immutable")
}

// serveFile serves the bytes of file id of v, cached as cache says.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, v *revision.View, id, cache string) error {
	f, ok := v.Tree.Files[id]
	if !ok {
		return errorf(quire.CodeNotFound, "file not found")
	}
	// Uploaded HTML, SVG or scripts must not run as part of this origin.
	ctype, disposition := web.FileType(f.ContentType)
	return s.serveBlob(w, r, f.Blob, ctype, mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}),
		"sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'", cache)
}

// serveBlob serves a stored blob's bytes, never sniffed, with its content
// type, disposition (when not empty), content security policy and cache
// control, and the blob as its ETag.
func (s *Server) serveBlob(w http.ResponseWriter, r *http.Request, blob, contentType, disposition, csp, cache string) error {
	body, err := s.blobs.Open(r.Context(), blob)
	if err != nil {
		return err
	}
	defer body.Close()
	h := w.Header()
	h.Set("Content-Type", contentType)
	if disposition != "" {
		h.Set("Content-Disposition", disposition)
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", csp)
	h.Set("Cache-Control", cache)
	h.Set("ETag", `"`+blob+`"`)
	http.ServeContent(w, r, "", time.Time{}, body)
	return nil
}

func mimeDisposition(name string) string {
	return "inline; filename*=UTF-8''" + url.PathEscape(name)
}
