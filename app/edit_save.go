package app

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"path"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/edit"
)

// The editor's posts. Each change is written as the batch POST CR/content
// takes and read by edit.Parse, then applied by the same authoring.Author,
// so the editor can do no more than the API, and is checked alike.

// batch applies changes, given in the wire form of POST CR/content, to
// change request c as one new revision; with expect not "", only while the
// request's head is that revision.
func (s *Server) batch(r *http.Request, c *editTarget, expect string, changes ...map[string]any) (*applied, error) {
	body, err := json.Marshal(map[string]any{"changes": changes})
	if err != nil {
		return nil, err
	}
	parsed, err := edit.Parse(body)
	if err != nil {
		return nil, err
	}
	uid := user(r.Context()).ID
	out := &applied{}
	if expect != "" {
		out.CR, out.Result, err = s.cfg.Author.ApplyAt(r.Context(), c.sp, c.cr, uid, expect, parsed)
	} else {
		out.CR, out.Result, err = s.cfg.Author.Apply(r.Context(), c.sp, c.cr, uid, parsed)
	}
	return out, err
}

// wantsJSON reports whether the editor's script, not a plain form, posted.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}

// jsonError answers err to the editor's script as {"error": message}, with
// the status writeError would give it; more adds fields.
func (s *Server) jsonError(w http.ResponseWriter, r *http.Request, err error, more map[string]any) error {
	status, msg := s.errorAnswer(r, err)
	body := map[string]any{"error": msg}
	for k, v := range more {
		body[k] = v
	}
	return writeJSON(w, status, body)
}

// preview answers the form's markdown rendered as the form's page of the
// change request, as an HTML fragment.
func (s *Server) preview(w http.ResponseWriter, r *http.Request) error {
	c, err := s.editableCR(r)
	if err != nil {
		return err
	}
	v, err := s.cfg.Reader.Open(r.Context(), c.sp, c.cr.RevisionID, nil)
	if err != nil {
		return err
	}
	md := r.PostForm.Get("markdown")
	if len(md) > edit.MaxMarkdownSize {
		return quire.Errorf(quire.CodeTooLarge, "markdown: at most %d bytes", edit.MaxMarkdownSize)
	}
	out, err := previewOf(v, c.sp.ID, c.cr, r.PostForm.Get("page"), md)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	_, err = io.WriteString(w, string(out))
	return err
}

// savePage writes the form's title and markdown to its page, if the change
// request is still at the revision the form was based on; else 409, with
// the request's revision, for the writer to reload or overwrite.
func (s *Server) savePage(w http.ResponseWriter, r *http.Request) error {
	c, err := s.editableCR(r)
	if err != nil {
		return s.answer(w, r, err, nil)
	}
	f := r.PostForm
	if f.Get("base") == "" {
		return s.answer(w, r, quire.Errorf(quire.CodeInvalid, "base: required: the revision the page was read at"), nil)
	}
	change := map[string]any{"operation": "update_page", "page": f.Get("page"), "title": f.Get("title")}
	if _, ok := f["markdown"]; ok {
		change["document"] = map[string]any{"markdown": f.Get("markdown")}
	}
	res, err := s.batch(r, c, f.Get("base"), change)
	if quire.ErrorCode(err) == quire.CodeConflict {
		cur, curErr := s.db.ChangeRequest(r.Context(), c.sp.ID, c.cr.ID)
		if curErr != nil {
			return s.answer(w, r, curErr, nil)
		}
		if !wantsJSON(r) {
			return s.conflictEditor(w, r, c.sp, cur, f.Get("page"), f.Get("title"), change)
		}
		return s.answer(w, r, err, map[string]any{"revision": cur.RevisionID})
	}
	if err != nil {
		return s.answer(w, r, err, nil)
	}
	to, err := s.editURLOf(r, c, res, f.Get("page"))
	if err != nil {
		return s.answer(w, r, err, nil)
	}
	if wantsJSON(r) {
		return writeJSON(w, http.StatusOK, map[string]any{"revision": res.CR.RevisionID, "url": to})
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// answer answers an error of the editor's posts: as JSON to its script,
// else as the error page.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, err error, more map[string]any) error {
	if wantsJSON(r) {
		return s.jsonError(w, r, err, more)
	}
	return err
}

// maxFileName bounds an uploaded file's name, as edit does.
const maxFileName = edit.MaxFileName

// uploadFile adds the multipart form's file to the change request's files
// (insert_files) and answers the markdown that shows it. An upload made on
// the revision the editor is based on (base) moves that base on; otherwise
// it is applied all the same, and the answer says the base stays. The
// base comes in the query, the file alone in the body.
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.editableCR(r)
	if err != nil {
		return s.answer(w, r, err, nil)
	}
	name, data, contentType, err := readUpload(r)
	if err != nil {
		return s.answer(w, r, err, nil)
	}
	change := map[string]any{"operation": "insert_files", "files": []map[string]any{{
		"name": name, "contentType": contentType, "base64": base64.StdEncoding.EncodeToString(data)}}}
	base := r.URL.Query().Get("base")
	res, err := s.batch(r, c, base, change)
	onBase := err == nil && base != ""
	if quire.ErrorCode(err) == quire.CodeConflict {
		res, err = s.batch(r, c, "", change)
	}
	if err != nil {
		return s.answer(w, r, err, nil)
	}
	f := res.Result.Files[0]
	alt := strings.TrimSuffix(f.Name, path.Ext(f.Name))
	return writeJSON(w, http.StatusOK, map[string]any{
		"id": f.ID, "name": f.Name, "revision": res.CR.RevisionID, "onBase": onBase,
		"markdown": "![" + markdownText(alt) + "](/files/" + f.ID + ")",
	})
}

// readUpload reads the multipart form's one file, "file".
func readUpload(r *http.Request) (name string, data []byte, contentType string, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, "", quire.Errorf(quire.CodeInvalid, "file: send one file as multipart/form-data")
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return "", nil, "", quire.Errorf(quire.CodeInvalid, "file: required")
		}
		if err != nil {
			return "", nil, "", uploadProblem(err)
		}
		if p.FormName() == "file" {
			return readFilePart(p)
		}
	}
}

func readFilePart(p *multipart.Part) (string, []byte, string, error) {
	data, err := io.ReadAll(io.LimitReader(p, edit.MaxInlineFile+1))
	if err != nil {
		return "", nil, "", uploadProblem(err)
	}
	if len(data) > edit.MaxInlineFile {
		return "", nil, "", quire.Errorf(quire.CodeTooLarge, "file: at most 1 MiB")
	}
	name := path.Base(strings.ReplaceAll(p.FileName(), "\\", "/"))
	if name == "." || name == "/" || name == "" {
		name = "image"
	}
	if len(name) > maxFileName {
		name = name[len(name)-maxFileName:]
	}
	return name, data, p.Header.Get("Content-Type"), nil
}

func uploadProblem(err error) error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return quire.Errorf(quire.CodeTooLarge, "file: at most 1 MiB")
	}
	return quire.Errorf(quire.CodeInvalid, "file: the upload could not be read")
}

// markdownText escapes what would end an image's alt text.
func markdownText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}

// conflictEditor answers a plain form's save that someone else's save
// overtook: the editor again, at the request's revision now, holding the
// writer's title and text, so that saving again overwrites theirs and
// reloading drops the writer's (409).
func (s *Server) conflictEditor(w http.ResponseWriter, r *http.Request, sp *quire.Space, cur *quire.ChangeRequest, pageID, title string, change map[string]any) error {
	v, err := s.cfg.Reader.Open(r.Context(), sp, cur.RevisionID, nil)
	if err != nil {
		return err
	}
	if v.Page(pageID) == nil { // deleted by the other save
		return quire.Errorf(quire.CodeConflict, "this page was deleted by another save of the change request")
	}
	d, err := s.editorDataOf(v, cur, pageID)
	if err != nil {
		return err
	}
	d.Conflict, d.ReloadURL = true, quire.AppEditURL("", sp.ID, cur.ID, v.Path(pageID))
	d.Page.Title = title
	if doc, ok := change["document"].(map[string]any); ok {
		d.Page.Markdown, _ = doc["markdown"].(string)
		if d.Preview, err = previewOf(v, sp.ID, cur, pageID, d.Page.Markdown); err != nil {
			return err
		}
	}
	return s.renderEditor(w, r, http.StatusConflict, d)
}
