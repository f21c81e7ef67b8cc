package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/web"
	"github.com/quiredocs/quire/wire"
)

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

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

// viewHandler adapts a handler of a loaded view to a route.
func viewHandler(load func(*http.Request) (*revision.View, error), h func(http.ResponseWriter, *http.Request, *revision.View) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		v, err := load(r)
		if err != nil {
			return err
		}
		return h(w, r, v)
	}
}

// formatParams reads format, metadata and computed. Quire has no computed
// pages yet, so computed is checked and has no effect.
func formatParams(r *http.Request) (format, error) {
	var f format
	switch v := query(r).Get("format"); v {
	case "", "markdown":
	case "document":
		f.document = true
		f.docBytes = new(int)
		*f.docBytes = MaxAnswerDocumentBytes
	default:
		return f, errorf(quire.CodeInvalid, "format: must be markdown or document")
	}
	var err error
	if f.metadata, err = boolParam(r, "metadata", true); err != nil {
		return f, err
	}
	if _, err = boolParam(r, "computed", true); err != nil {
		return f, err
	}
	return f, nil
}

func (s *Server) getRevision(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, err := formatParams(r)
	if err != nil {
		return err
	}
	mergedFrom, err := s.mergedFrom(r, v)
	if err != nil {
		return err
	}
	// The pages, the bulk of the answer, are the page list's, encoded once
	// per revision (answers.go); the rest is small and written each time.
	list, err := s.reader.Lists().Get(r.Context(), revisionKey(v, f, "pages"), s.pageListOf(r.Context(), v, f))
	if err != nil {
		return err
	}
	rev := s.wire.RevisionHead(v.Space, v.Revision, v.Index().Files, mergedFrom)
	rev.Pages = []wire.Page{}
	head, err := json.Marshal(rev)
	if err != nil {
		return err
	}
	at := bytes.Index(head, []byte(emptyPages))
	pages, ok := trimParts(list.Body, []byte(`{"pages":`), []byte("}\n"))
	if at < 0 || !ok {
		return fmt.Errorf("revision answer: no room for the pages") // unreachable: both are ours
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	parts := append([][]byte{head[:at], []byte(`"pages":`)}, pages...)
	for _, part := range append(parts, head[at+len(emptyPages):], []byte("\n")) {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// trimParts is parts without prefix at their start and suffix at their
// end, sharing their bytes; ok is false when they do not begin and end so.
func trimParts(parts [][]byte, prefix, suffix []byte) (_ [][]byte, ok bool) {
	if len(parts) == 0 || !bytes.HasPrefix(parts[0], prefix) {
		return nil, false
	}
	out := slices.Clone(parts)
	out[0] = out[0][len(prefix):]
	last := len(out) - 1
	if !bytes.HasSuffix(out[last], suffix) {
		return nil, false
	}
	out[last] = out[last][:len(out[last])-len(suffix)]
	return out, true
}

// emptyPages is where the pages go in a revision's answer.
const emptyPages = `"pages":[]`

// mergedFrom is the change request whose merge made v's revision; nil when
// a merge did not make it.
func (s *Server) mergedFrom(r *http.Request, v *revision.View) (*wire.ChangeRequest, error) {
	if v.Revision.Type != store.RevisionMerge {
		return nil, nil
	}
	c, err := s.db.ChangeRequest(r.Context(), v.Space.ID, v.Revision.MergedFrom)
	if err != nil {
		return nil, err
	}
	j := s.wire.ChangeRequest(v.Space, c)
	return &j, nil
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
	list := store.PageOf(v.Index().Files, p, func(f *content.File) store.Cursor { return store.Cursor{Str: f.Name, ID: f.ID} })
	return writeList(w, list, func(f *content.File) wire.File { return s.wire.RevisionFile(v.Space.ID, v.Revision.ID, f) })
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	if _, err := formatParams(r); err != nil {
		return err
	}
	f, ok := v.Tree.Files[r.PathValue("fileId")]
	if !ok {
		return errorf(quire.CodeNotFound, "file not found")
	}
	return writeJSON(w, http.StatusOK, s.wire.RevisionFile(v.Space.ID, v.Revision.ID, f))
}

// downloadFile serves a file's bytes to whoever may read the space.
func (s *Server) downloadFile(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	f, ok := v.Tree.Files[r.PathValue("fileId")]
	if !ok {
		return errorf(quire.CodeNotFound, "file not found")
	}
	// Uploaded HTML, SVG or scripts must not run as part of this origin.
	ctype, disposition := web.FileType(f.ContentType)
	return s.serveBlob(w, r, f.Blob, ctype, mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}),
		"sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'", "private, max-age=31536000, immutable")
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
