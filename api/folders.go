package api

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Docs as code: a revision exported as a folder in GitBook's Git Sync layout
// (package gitsync), zipped or tarred as it is written; uploads to signed
// URLs (POST /orgs/{id}/storage/upload, the reference's shape); imports of
// uploaded zips and markdown files (source {"type":"file","files":[keys]}).

// MaxUploadBytes bounds one uploaded file: an import's zip.
const MaxUploadBytes = authoring.MaxUploadBytes

// exportFolder answers GET S/revisions/{revisionId}/export, S/content/export
// and CR/content/export (extras: the reference has no export): the
// revision's folder as a zip, or a .tar.gz when the Accept header asks for
// one (application/gzip, application/x-gtar or application/x-tar), streamed.
func (s *Server) exportFolder(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	tarGz := false
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part))
		switch mt {
		case "application/gzip", "application/x-gzip", "application/x-gtar", "application/x-tar", "application/x-compressed-tar":
			tarGz = true
		}
	}
	name := fmt.Sprintf("%s-%s", v.Space.ID, v.Revision.ID)
	cw := &countingWriter{w: w}
	var a *gitsync.Archive
	if tarGz {
		w.Header().Set("Content-Type", "application/gzip")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.tar.gz"`)
		a = gitsync.NewTarGz(cw)
	} else {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.zip"`)
		a = gitsync.NewZip(cw)
	}
	redirects, err := s.db.SpaceRedirects(r.Context(), v.Space.ID)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "private, no-store")
	err = gitsync.Export(r.Context(), v.Tree, redirects, s.blobs, a.Put)
	if err == nil {
		err = a.Close()
	}
	if err != nil && cw.n > 0 {
		// The answer has begun: the client must not take a cut archive for
		// a whole one.
		s.log.Error("export", "space", v.Space.ID, "revision", v.Revision.ID, "error", err)
		panic(http.ErrAbortHandler)
	}
	return err
}

// countingWriter counts what reaches the client.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// createUpload answers POST /orgs/{organizationId}/storage/upload: 201 with
// a URL on this server to PUT the bytes to within an hour, and the key that
// names them, for this organization only, for a day. Members who may
// create content (editors and above) may upload.
func (s *Server) createUpload(w http.ResponseWriter, r *http.Request) error {
	org, me, err := s.org(r)
	if err != nil {
		return err
	}
	if !me.Role.AtLeast(quire.RoleEdit) {
		return errorf(quire.CodeForbidden, "uploading needs the edit role in the organization")
	}
	body := wire.CreateUpload{MaxBytes: MaxUploadBytes, MaxFontBytes: authoring.MaxFontBytes}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	u, token, err := s.db.CreateUpload(r.Context(), store.Upload{OrgID: org.ID, CreatedBy: caller(r.Context()).ID, Kind: *body.Kind,
		Name: *body.File.Name, ContentType: *body.File.Type, Size: int64(*body.File.Size)})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, map[string]any{"object": "storage-signed-url",
		"url": s.publicURL + "/v1/storage/uploads/" + url.PathEscape(u.Key) + "?token=" + url.QueryEscape(token), "key": u.Key})
}

// putUpload answers PUT /v1/storage/uploads/{key}?token=…: the signed URL
// createUpload gave. The token stands for a token: no Authorization. At
// most the size declared is read.
func (s *Server) putUpload(w http.ResponseWriter, r *http.Request) error {
	u, err := s.db.UploadForToken(r.Context(), r.PathValue("key"), r.URL.Query().Get("token"))
	if err != nil {
		return err
	}
	s.allowBody(w, r, u.Size+1)
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, u.Size))
	if err != nil {
		return errorf(quire.CodeTooLarge, "the body is larger than the %d bytes declared", u.Size)
	}
	key, err := s.blobs.Put(r.Context(), data)
	if err != nil {
		return err
	}
	if err := s.db.FinishUpload(r.Context(), u.Key, key, int64(len(data))); err != nil {
		return err
	}
	w.Header().Set("ETag", `"`+key+`"`)
	w.WriteHeader(http.StatusOK)
	return nil
}

func readUpload(ctx context.Context, blobs blob.Store, key string) ([]byte, error) {
	return authoring.ReadUpload(ctx, blobs, key)
}
