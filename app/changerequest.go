package app

import (
	"context"
	"html/template"
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
)

// The change request page: subject, status and author; each changed page
// with a word diff of its markdown (inline, or side by side); comments and
// replies; reviews and requested reviewers; Update from main and Merge,
// with the merge rules still unmet. Every action is a form posted back to
// the page, checked as the API checks the same operation.

// maxChanges bounds the changed pages a change request's page lists.
const maxChanges = 200

// maxReviewerChoices bounds the members offered as reviewers.
const maxReviewerChoices = 200

// crPlace is a change request as one request sees it: its space, the
// caller's role on it and the caller.
type crPlace struct {
	sp   *quire.Space
	role quire.Role
	cr   *quire.ChangeRequest
	me   *quire.User
}

// changeRequestPlace loads the change request of the path for the
// signed-in user, requiring need on its space: 404 to who cannot read it,
// 403 below need, as the API answers.
func (s *Server) changeRequestPlace(r *http.Request, need quire.Role) (*crPlace, error) {
	ctx := r.Context()
	sp, role, err := s.space(ctx, r.PathValue("spaceId"))
	if err != nil {
		return nil, err
	}
	cr, err := s.db.ChangeRequest(ctx, sp.ID, r.PathValue("changeRequestId"))
	if err != nil {
		return nil, err
	}
	if err := quire.RequireRole(role, need, "space"); err != nil {
		return nil, err
	}
	return &crPlace{sp: sp, role: role, cr: cr, me: user(ctx)}, nil
}

// url is the change request's page.
func (p *crPlace) url() string { return quire.AppChangeRequestURL("", p.sp.ID, p.cr.ID) }

// scope is where the change request's comments live.
func (p *crPlace) scope() store.CommentScope {
	return store.CommentScope{SpaceID: p.sp.ID, ChangeRequestID: p.cr.ID}
}

// outdated says the space moved on since the request's base (the API's
// outdated).
func (p *crPlace) outdated() bool {
	return p.cr.Status != quire.StatusMerged && p.sp.RevisionID != p.cr.Base()
}

// crData is what the change request page shows.
type crData struct {
	Space       *quire.Space
	CR          *quire.ChangeRequest
	Description template.HTML // the description rendered; "" for none
	URL         string
	SpaceURL    string
	Outdated    bool
	Split       bool // side by side rather than inline
	Changes     []pageDiff
	MoreChanges int
	Comments    []crComment
	Reviews     []reviewView
	Requested   []reviewerView
	Choices     []link // members who may be asked to review: Title name, URL user id
	Unmet       []string
	Conflicts   []conflictView
	Message     string // what the last action did, or why it failed
	Failed      bool
	Can         crPermissions
}

// crPermissions are the actions the page offers, decided as the API
// decides them (its answers to a post are the rule; these hide buttons).
type crPermissions struct {
	Comment, Review, RequestReviewer, Update, Merge bool
	Describe                                        bool // set the subject and description
	Resolve                                         bool // conflicts, by the resolve form
}

// changeRequestPage shows a change request.
func (s *Server) changeRequestPage(w http.ResponseWriter, r *http.Request) error {
	p, err := s.changeRequestPlace(r, quire.RoleRead)
	if err != nil {
		return err
	}
	d, err := s.changeRequestData(r, p)
	if err != nil {
		return err
	}
	d.Message = doneMessages[r.URL.Query().Get("done")]
	return s.renderChangeRequest(w, r, http.StatusOK, d)
}

func (s *Server) renderChangeRequest(w http.ResponseWriter, r *http.Request, status int, d *crData) error {
	return s.render(w, r, status, "changerequest", crTitle(d.CR)+" · "+d.Space.Title, d)
}

func crTitle(c *quire.ChangeRequest) string {
	if c.Subject == "" {
		return "Change request #" + strconv.Itoa(c.Number)
	}
	return "#" + strconv.Itoa(c.Number) + " " + c.Subject
}

// changeRequestData reads everything the page shows of p.
func (s *Server) changeRequestData(r *http.Request, p *crPlace) (*crData, error) {
	ctx := r.Context()
	d := &crData{Space: p.sp, CR: p.cr, URL: p.url(), SpaceURL: quire.AppSpaceURL("", p.sp.ID),
		Outdated: p.outdated(), Split: r.URL.Query().Get("view") == "split"}
	var err error
	if d.Changes, d.MoreChanges, err = s.pageDiffs(ctx, p, d.Split); err != nil {
		return nil, err
	}
	if d.Comments, err = s.crComments(ctx, p); err != nil {
		return nil, err
	}
	if err := s.fillReviews(ctx, p, d); err != nil {
		return nil, err
	}
	open := p.cr.Status != quire.StatusMerged && p.cr.Status != quire.StatusArchived
	editable := quire.CheckEditable(p.sp) == nil
	d.Can = crPermissions{
		Comment:         p.role.AtLeast(quire.RoleComment),
		Review:          open && p.cr.CreatedBy.ID != p.me.ID && (p.role.AtLeast(quire.RoleReview) || isRequested(d.Requested, p.me.ID)),
		RequestReviewer: open && p.role.AtLeast(quire.RoleEdit),
		Update:          open && editable && d.Outdated && p.role.AtLeast(quire.RoleEdit),
		Resolve:         open && editable && p.role.AtLeast(quire.RoleEdit),
		Merge:           p.cr.Status != quire.StatusMerged && editable && p.role.AtLeast(quire.RoleReview),
		Describe:        p.role.AtLeast(quire.RoleEdit),
	}
	d.Description = descriptionHTML(p.cr.Description)
	if d.Can.Merge {
		if d.Unmet, err = s.unmetMergeRules(ctx, p); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// descriptionHTML is a change request's description rendered as pages and
// comments are (render.HTML), or its text escaped should rendering fail.
func descriptionHTML(markdown string) template.HTML {
	if markdown == "" {
		return ""
	}
	out, err := render.HTML(markdown, render.HTMLOptions{})
	if err != nil {
		return template.HTML(template.HTMLEscapeString(markdown))
	}
	return template.HTML(out.Body) // render.HTML's output is safe HTML
}

// unmetMergeRules are the merge rules a merge of p by its caller would not
// meet: authoring's judgement, the API's too.
func (s *Server) unmetMergeRules(ctx context.Context, p *crPlace) ([]string, error) {
	return s.cfg.Author.UnmetMergeRules(ctx, p.sp, p.cr, p.me.ID, s.mergeEnv(p))
}

// mergeEnv is what custom merge rules see for p's caller (the Author's
// RulesEnv, the API's shapes).
func (s *Server) mergeEnv(p *crPlace) authoring.MergeEnv {
	return s.cfg.Author.Env(p.role, p.me)
}

// views opens the two sides of p's changes: its base and its revision.
func (s *Server) views(ctx context.Context, p *crPlace) (before, after *revision.View, err error) {
	if before, err = s.cfg.Reader.Open(ctx, p.sp, p.cr.Base(), nil); err != nil {
		return nil, nil, err
	}
	after, err = s.cfg.Reader.Open(ctx, p.sp, p.cr.RevisionID, p.cr)
	return before, after, err
}

// pageDiff is a changed page: what happened to it and its markdown's diff.
type pageDiff struct {
	ID, Title, Path, URL string
	Marks                []string // added, removed, moved, renamed, edited
	Note                 string   // where it moved, what it was called
	Changed              bool     // its markdown changed
	InBefore, InAfter    bool     // which sides have the page
	Inline               template.HTML
	Before, After        template.HTML
}

// pageDiffs lists the pages p changes, one entry each, in content.Diff's
// order, with the diff of each one's markdown.
func (s *Server) pageDiffs(ctx context.Context, p *crPlace, split bool) ([]pageDiff, int, error) {
	before, after, err := s.views(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	changes, more := revision.Changes(before, after, maxChanges)
	var out []pageDiff
	at := map[string]int{}
	for _, c := range changes {
		if c.Page == nil {
			continue
		}
		i, seen := at[c.Page.ID]
		if !seen {
			i = len(out)
			at[c.Page.ID] = i
			out = append(out, pageDiff{ID: c.Page.ID, Title: c.Page.Title, Path: c.Page.Path})
			if c.Type != content.PageDeleted {
				out[i].URL = quire.AppRevisionURL("", p.sp.ID, p.cr.RevisionID) + "?page=" + c.Page.Path
			}
		}
		markChange(&out[i], c)
	}
	for i := range out {
		fillDiff(&out[i], before.Page(out[i].ID), after.Page(out[i].ID), split)
	}
	return out, more, nil
}

// markChange notes change c of page d.
func markChange(d *pageDiff, c revision.Change) {
	switch c.Type {
	case content.PageCreated:
		d.Marks = append(d.Marks, "added")
	case content.PageDeleted:
		d.Marks = append(d.Marks, "removed")
	case content.PageMoved:
		d.Marks = append(d.Marks, "moved")
		d.Note = "Moved from " + parentTitle(c.Moved[0]) + " to " + parentTitle(c.Moved[1]) + "."
	case content.PageEdited:
		if t, ok := c.Attributes["title"]; ok {
			d.Marks = append(d.Marks, "renamed")
			d.Note = "Was “" + t[0] + "”. " + d.Note
		}
		for k := range c.Attributes {
			if k != "title" {
				d.Marks = append(d.Marks, "edited")
				break
			}
		}
	}
}

func parentTitle(p *revision.ChangedPage) string {
	if p == nil {
		return "the top level"
	}
	return "“" + p.Title + "”"
}

// fillDiff sets the diff of a page's markdown from before to after (either
// nil when the page is not on that side).
func fillDiff(d *pageDiff, before, after *content.Page, split bool) {
	var a, b string
	if d.InBefore = before != nil; d.InBefore {
		a = before.Markdown
	}
	if d.InAfter = after != nil; d.InAfter {
		b = after.Markdown
	}
	wd := diffWords(a, b)
	if d.Changed = wd.changed(); !d.Changed {
		return
	}
	if split {
		d.Before, d.After = wd.sides()
	} else {
		d.Inline = wd.inline()
	}
}
