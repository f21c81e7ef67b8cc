package app

import (
	"errors"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
)

// The change request page's forms. Each one loads the request for the role
// the API's operation needs, checks what that operation checks through the
// same quire and store functions, makes the same store call, and comes back
// to the page (303) saying what it did.

// changeRequestRoutes registers the change request page and its forms.
func (s *Server) changeRequestRoutes() {
	cr := quire.AppChangeRequestPath
	s.handleSignedIn("GET "+cr, s.changeRequestPage)
	s.handleSignedIn("POST "+cr+"/comments", s.postCRComment)
	s.handleSignedIn("POST "+cr+"/comments/{commentId}/replies", s.postCRReply)
	s.handleSignedIn("POST "+cr+"/comments/{commentId}/resolve", s.resolveCRComment)
	s.handleSignedIn("POST "+cr+"/comments/{commentId}/react", s.reactCRComment)
	s.handleSignedIn("POST "+cr+"/reviews", s.submitCRReview)
	s.handleSignedIn("POST "+cr+"/reviewers", s.requestCRReviewer)
	s.handleSignedIn("POST "+cr+"/update", s.updateCRFromMain)
	s.handleSignedIn("POST "+cr+"/merge", s.mergeCR)
	s.handleSignedInUpTo("POST "+cr+"/resolve", maxSaveBytes, s.resolveCRConflicts)
	s.handleSignedInUpTo("POST "+cr+"/describe", maxSaveBytes, s.describeCR)
}

// doneMessages are what the page says after each action, named in its
// query (?done=…): a fixed list, so no link can make the page say more.
var doneMessages = map[string]string{
	"commented": "Comment posted.", "replied": "Reply posted.", "resolved": "Comment resolved.",
	"reopened": "Comment reopened.", "reacted": "Reaction saved.", "reviewed": "Review submitted.",
	"requested": "Review requested.", "updated": "Updated from the space's current content.",
	"merged": "Merged into the space.", "described": "Subject and description saved.", "conflicts-resolved": "Conflicts resolved: updated from the space's current content.",
}

// back sends the browser to p's page after action done, at anchor.
func back(w http.ResponseWriter, r *http.Request, p *crPlace, done, anchor string) error {
	to := p.url() + "?done=" + done
	if anchor != "" {
		to += "#" + anchor
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// commentBody reads a form's markdown body as the API reads body.markdown.
func commentBody(r *http.Request, field string) (string, error) {
	md := render.NormalizeLineEndings(r.PostForm.Get(field))
	return md, quire.CheckCommentBody(field, md)
}

// postCRComment starts a thread (the comment role, as POST CR/comments).
func (s *Server) postCRComment(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleComment)
	if err != nil {
		return err
	}
	md, err := commentBody(r, "body")
	if err != nil {
		return err
	}
	c, err := s.db.CreateComment(r.Context(), store.NewComment{CommentScope: p.scope(), UserID: p.me.ID,
		Markdown: md, RevisionID: p.cr.RevisionID})
	if err != nil {
		return err
	}
	return back(w, r, p, "commented", "comment-"+c.ID)
}

// crComment loads the place and the comment of the path for need.
func (s *Server) crCommentOf(r *http.Request, need quire.Role) (*crPlace, *quire.Comment, error) {
	p, err := s.changeRequestPlace(r, need)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.db.Comment(r.Context(), p.scope(), r.PathValue("commentId"))
	return p, c, err
}

// postCRReply answers a comment (the comment role, as POST …/replies).
func (s *Server) postCRReply(w http.ResponseWriter, r *http.Request) error {
	p, c, err := s.crCommentOf(r, quire.RoleComment)
	if err != nil {
		return err
	}
	md, err := commentBody(r, "body")
	if err != nil {
		return err
	}
	reply, err := s.db.CreateComment(r.Context(), store.NewComment{CommentScope: p.scope(), ParentID: c.ID,
		UserID: p.me.ID, Markdown: md})
	if err != nil {
		return err
	}
	return back(w, r, p, "replied", "comment-"+reply.ID)
}

// resolveCRComment resolves or reopens a thread (the comment role, as PUT
// on a comment with resolved).
func (s *Server) resolveCRComment(w http.ResponseWriter, r *http.Request) error {
	p, c, err := s.crCommentOf(r, quire.RoleComment)
	if err != nil {
		return err
	}
	resolved := r.PostForm.Get("resolved") != "false"
	if _, err := s.db.UpdateComment(r.Context(), p.scope(), c, p.me.ID, store.CommentUpdate{Resolved: &resolved}); err != nil {
		return err
	}
	done := "resolved"
	if !resolved {
		done = "reopened"
	}
	return back(w, r, p, done, "comment-"+c.ID)
}

// reactCRComment adds or removes (remove=true) the caller's reaction (the
// comment role, as PUT on a comment with added or removed reactions).
func (s *Server) reactCRComment(w http.ResponseWriter, r *http.Request) error {
	p, c, err := s.crCommentOf(r, quire.RoleComment)
	if err != nil {
		return err
	}
	emoji := []string{r.PostForm.Get("emoji")}
	var u store.CommentUpdate
	if r.PostForm.Get("remove") == "true" {
		u.RemoveReactions = emoji
		err = quire.CheckReactions("removedReactions", emoji)
	} else {
		u.AddReactions = emoji
		err = quire.CheckReactions("addedReactions", emoji)
	}
	if err != nil {
		return err
	}
	if _, err := s.db.UpdateComment(r.Context(), p.scope(), c, p.me.ID, u); err != nil {
		return err
	}
	return back(w, r, p, "reacted", "comment-"+c.ID)
}

// submitCRReview records the caller's review, as POST CR/reviews: the
// review role or a request to review, and not the request's author.
func (s *Server) submitCRReview(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleRead)
	if err != nil {
		return err
	}
	if err := s.cfg.Author.CanReview(r.Context(), p.cr, p.role, p.me.ID); err != nil {
		return err
	}
	status, err := quire.ParseReviewStatus("status", r.PostForm.Get("status"))
	if err != nil {
		return err
	}
	md := render.NormalizeLineEndings(r.PostForm.Get("comment"))
	if strings.TrimSpace(md) == "" {
		md = ""
	}
	if _, err := s.cfg.Author.SubmitReview(r.Context(), p.sp, p.cr, p.role, p.me.ID, authoring.Review{Status: status, Comment: md}); err != nil {
		return err
	}
	return back(w, r, p, "reviewed", "reviews")
}

// requestCRReviewer asks a member to review (the edit role, as POST
// CR/requested-reviewers).
func (s *Server) requestCRReviewer(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	u := r.PostForm.Get("user")
	if err := quire.CheckLen("user", u, 1, 128); err != nil {
		return err
	}
	if _, err := s.cfg.Author.RequestReviewers(r.Context(), p.sp, p.cr, p.me.ID,
		authoring.ReviewRequest{Users: []string{u}, Field: func(int) string { return "user" }}); err != nil {
		return err
	}
	return back(w, r, p, "requested", "reviews")
}

// updateCRFromMain pulls the space's content into the request (the edit
// role on a space that is not locked, as POST CR/update).
func (s *Server) updateCRFromMain(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	if err := quire.CheckEditable(p.sp); err != nil {
		return err
	}
	if _, err := s.cfg.Author.Update(r.Context(), p.sp, p.cr, p.me.ID); err != nil {
		return s.conflictOr(w, r, p, err)
	}
	return back(w, r, p, "updated", "")
}

// mergeCR merges the request (the review role and the merge rules, as POST
// CR/merge). Unmet rules answer the page, 403, naming each.
func (s *Server) mergeCR(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleReview)
	if err != nil {
		return err
	}
	if _, err := s.cfg.Author.Merge(r.Context(), p.sp, p.cr, p.actor()); err != nil {
		if re, ok := errors.AsType[*authoring.RulesError](err); ok {
			return s.refused(w, r, p, http.StatusForbidden, "Merge refused: merge rules not met: "+strings.Join(re.Unmet, "; ")+".", nil)
		}
		return s.conflictOr(w, r, p, err)
	}
	return back(w, r, p, "merged", "")
}

// conflictOr answers a merge conflict with the page showing the pages in
// conflict (409), and any other error as such.
func (s *Server) conflictOr(w http.ResponseWriter, r *http.Request, p *crPlace, err error) error {
	ce, ok := errors.AsType[*content.ConflictError](err)
	if !ok {
		return err
	}
	views, err := s.conflictViews(r, p, ce, nil)
	if err != nil {
		return err
	}
	return s.refused(w, r, p, http.StatusConflict, "The change request conflicts with the space's current content: "+
		"choose how to resolve each page below.", views)
}

// refused answers the page again with status and why the action failed.
func (s *Server) refused(w http.ResponseWriter, r *http.Request, p *crPlace, status int, msg string, conflicts []conflictView) error {
	d, err := s.changeRequestData(r, p)
	if err != nil {
		return err
	}
	d.Message, d.Failed, d.Conflicts = msg, true, conflicts
	return s.renderChangeRequest(w, r, status, d)
}

// describeCR sets the subject and the description (the edit role, as PATCH
// CR with subject and description). The description is markdown, checked
// and kept as the API keeps the markdown of the JSON document it takes
// (edit.Markdown); an empty one clears it.
func (s *Server) describeCR(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	subject := r.PostForm.Get("subject")
	if err := quire.CheckChangeRequestSubject(subject); err != nil {
		return err
	}
	description, err := edit.Markdown("description", r.PostForm.Get("description"))
	if err != nil {
		return err
	}
	if _, err := s.cfg.Author.EditChangeRequest(r.Context(), p.sp, p.cr, p.me.ID,
		authoring.ChangeRequestEdit{Subject: &subject, Description: &description}); err != nil {
		return err
	}
	return back(w, r, p, "described", "")
}
