package app

import (
	"context"
	"html/template"
	"net/http"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
)

// The organization page's recent change requests, and its ask box: a
// question answered from the spaces the user reads, by the ask package
// (quoting the best section without a model), with its sources linked to
// their pages in the app.

// recentLength is how many change requests the organization page lists.
const recentLength = 10

type crView struct {
	Number        int
	Subject, URL  string
	Space, Status string
	By            string
	Updated       time.Time
}

// recentChanges lists the open and merged change requests of the spaces of
// orgID the user reads, last updated first, as GET O/change-requests does.
func (s *Server) recentChanges(ctx context.Context, orgID string) ([]crView, error) {
	v, err := s.viewer(ctx, orgID)
	if err != nil {
		return nil, err
	}
	f := store.OrgChangeRequestFilter{VisibleTo: v, Statuses: []quire.ChangeRequestStatus{quire.StatusOpen, quire.StatusMerged}}
	list, err := s.db.ListOrgChangeRequests(ctx, orgID, f, store.Page{Limit: recentLength})
	if err != nil {
		return nil, err
	}
	titles := map[string]string{}
	out := make([]crView, 0, len(list.Items))
	for _, c := range list.Items {
		if _, ok := titles[c.SpaceID]; !ok {
			sp, err := s.db.Space(ctx, c.SpaceID)
			if err != nil {
				return nil, err
			}
			titles[c.SpaceID] = sp.Title
		}
		out = append(out, crView{Number: c.Number, Subject: c.Subject, URL: quire.AppChangeRequestURL("", c.SpaceID, c.ID),
			Space: titles[c.SpaceID], Status: string(c.Status), By: c.CreatedBy.DisplayName, Updated: c.UpdatedAt})
	}
	return out, nil
}

type askData struct {
	*orgData
	Answer  template.HTML
	Sources []link
}

// askPage answers the question q from the organization's content the user
// reads, as POST O/ask does.
func (s *Server) askPage(w http.ResponseWriter, r *http.Request) error {
	d, err := s.orgData(r, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	d.Question = r.URL.Query().Get("q")
	ad := askData{orgData: d}
	if ad.Question != "" {
		if err := s.askAnswer(r, &ad); err != nil {
			return err
		}
	}
	return s.render(w, r, http.StatusOK, "ask", "Ask · "+d.Org.Title, ad)
}

// askAnswer fills d with the answer to its question and the sources.
func (s *Server) askAnswer(r *http.Request, d *askData) error {
	if err := ask.CheckQuestion("q", d.Question); err != nil {
		return err
	}
	ctx := r.Context()
	v, err := s.viewer(ctx, d.Org.ID)
	if err != nil {
		return err
	}
	a := s.cfg.Asker
	sources, err := a.Sources(ctx, d.Org.ID, v, d.Question)
	if err != nil {
		return err
	}
	answer, err := a.Answer(ctx, ask.Question{Text: d.Question}, sources, nil)
	if err != nil {
		return err
	}
	out, err := render.HTML(answer.Markdown, render.HTMLOptions{})
	if err != nil {
		return err
	}
	d.Answer = template.HTML(out.Body) // render.HTML's output is safe HTML
	for _, i := range answer.Used {
		src := sources[i]
		d.Sources = append(d.Sources, link{Title: src.Label(), URL: src.URL}) // the page in the app
	}
	return nil
}
