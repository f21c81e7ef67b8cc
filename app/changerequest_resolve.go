package app

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
)

// Resolving a conflict: when Update from main or Merge finds pages (or
// files) changed differently on both sides, the page shows each one with
// both versions and a form: keep this change request's version, keep the
// space's, or (pages) edit the text by hand. Submitting updates the change
// request from the space with those choices, as Update from main does, and
// the request is then up to date, ready to merge.

// conflictMarker separates, in the hand-editing box, the change request's
// version (above) from the space's (below). A text that still holds it is
// refused, so the space's version is never saved by mistake.
const conflictMarker = "======= Above: this change request's version. Below: the space's. Keep what you want, then delete this line. ======="

// Choices of the resolve form, per page or file.
const (
	choiceRequest = "request"
	choiceSpace   = "space"
	choiceEdit    = "edit"
)

// conflictView is a page (or file) in conflict: the space's version and the
// request's, and the resolve form's fields for it.
type conflictView struct {
	ID, Title, Reason   string
	File                bool
	Main, Request       template.HTML
	HasMain, HasRequest bool
	Choice              string // the choice made, when the form comes back
	EditTitle, EditText string // the hand-editing box's title and text
}

// conflictViews shows each conflict of ce with both versions of its page,
// keeping what form (a resolve form sent back, or nil) chose and typed.
func (s *Server) conflictViews(r *http.Request, p *crPlace, ce *content.ConflictError, form url.Values) ([]conflictView, error) {
	main, err := s.cfg.Reader.Open(r.Context(), p.sp, p.sp.RevisionID, nil)
	if err != nil {
		return nil, err
	}
	_, theirs, err := s.views(r.Context(), p)
	if err != nil {
		return nil, err
	}
	out := make([]conflictView, 0, len(ce.Conflicts))
	for _, c := range ce.Conflicts {
		v := conflictView{ID: c.PageID, Title: c.Title, Reason: c.Reason}
		if c.PageID == "" {
			v.ID, v.File = c.FileID, true
		}
		var mp, rp *content.Page
		if !v.File {
			mp, rp = main.Page(c.PageID), theirs.Page(c.PageID)
		}
		if v.HasMain = mp != nil; v.HasMain {
			v.Main = template.HTML(template.HTMLEscapeString(mp.Markdown))
			v.EditTitle, v.EditText = mp.Title, mp.Markdown
		}
		if v.HasRequest = rp != nil; v.HasRequest {
			v.Request = template.HTML(template.HTMLEscapeString(rp.Markdown))
			v.EditTitle, v.EditText = rp.Title, rp.Markdown
		}
		if mp != nil && rp != nil {
			v.EditText = strings.TrimRight(rp.Markdown, "\n") + "\n\n" + conflictMarker + "\n\n" + mp.Markdown
		}
		if form != nil {
			v.Choice = form.Get("resolve-" + v.ID)
			if _, ok := form["markdown-"+v.ID]; ok {
				v.EditTitle, v.EditText = form.Get("title-"+v.ID), form.Get("markdown-"+v.ID)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// resolveCRConflicts updates the request from the space with the form's
// resolutions (the edit role on a space that is not locked, as Update from
// main). What stays in conflict, or a hand-edited text that does not pass,
// answers the page again with the form as it was sent.
func (s *Server) resolveCRConflicts(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	if err := quire.CheckEditable(p.sp); err != nil {
		return err
	}
	resolve, err := resolutions(r.PostForm)
	if err != nil {
		return s.resolveRefused(w, r, p, http.StatusBadRequest, err.Error()+".")
	}
	opts := store.UpdateOptions{Resolve: resolve, SpaceRevision: r.PostForm.Get("space-revision")}
	if _, err := s.cfg.Author.Resolve(r.Context(), p.sp, p.cr, p.me.ID, opts); err != nil {
		ce, ok := errors.AsType[*content.ConflictError](err)
		if !ok {
			return err
		}
		msg := "Some pages are still in conflict: choose how to resolve each one below."
		if opts.SpaceRevision != p.sp.RevisionID {
			msg = "The space changed while you were resolving: check the conflicts below again."
		}
		views, err := s.conflictViews(r, p, ce, r.PostForm)
		if err != nil {
			return err
		}
		return s.refused(w, r, p, http.StatusConflict, msg, views)
	}
	return back(w, r, p, "conflicts-resolved", "")
}

// resolutions reads the resolve form: for each id in "conflict", its
// choice in "resolve-ID" and, to edit a page by hand, its "title-ID" and
// "markdown-ID". An id without a choice stays unresolved.
func resolutions(f url.Values) (map[string]content.Resolution, error) {
	out := map[string]content.Resolution{}
	for _, id := range f["conflict"] {
		switch f.Get("resolve-" + id) {
		case choiceRequest: // in an update the request is theirs
			out[id] = content.Resolution{Keep: content.KeepTheirs}
		case choiceSpace:
			out[id] = content.Resolution{Keep: content.KeepOurs}
		case choiceEdit:
			title := strings.TrimSpace(f.Get("title-" + id))
			md := render.NormalizeLineEndings(f.Get("markdown-" + id))
			switch {
			case utf8.RuneCountInString(title) > edit.MaxTitle:
				return nil, quire.Errorf(quire.CodeInvalid, "The title is longer than %d characters", edit.MaxTitle)
			case len(md) > edit.MaxMarkdownSize:
				return nil, quire.Errorf(quire.CodeTooLarge, "The text is longer than %d bytes", edit.MaxMarkdownSize)
			case strings.Contains(md, conflictMarker):
				return nil, quire.Errorf(quire.CodeInvalid, "The text still holds the line that separates the two versions: "+
					"keep what you want of the space's version, then delete that line")
			}
			out[id] = content.Resolution{Keep: content.KeepEdited, Title: title, Markdown: md}
		}
	}
	return out, nil
}

// resolveRefused answers the page again with the conflicts as they stand
// now, the form as it was sent, and why it was refused.
func (s *Server) resolveRefused(w http.ResponseWriter, r *http.Request, p *crPlace, status int, msg string) error {
	conflicts, err := s.currentConflicts(r, p)
	if err != nil {
		return err
	}
	views, err := s.conflictViews(r, p, &content.ConflictError{Conflicts: conflicts}, r.PostForm)
	if err != nil {
		return err
	}
	return s.refused(w, r, p, status, msg, views)
}

// currentConflicts are the conflicts an update of p from the space would
// meet now, found without writing anything.
func (s *Server) currentConflicts(r *http.Request, p *crPlace) ([]content.Conflict, error) {
	if !p.outdated() {
		return nil, nil
	}
	h, err := s.db.Heads(r.Context(), p.sp.ID, p.cr.Base(), p.sp.RevisionID, p.cr.RevisionID)
	if err != nil {
		return nil, err
	}
	_, err = content.MergeHeads(h[0], h[1], h[2], nil)
	if ce, ok := errors.AsType[*content.ConflictError](err); ok {
		return ce.Conflicts, nil
	}
	return nil, err
}
