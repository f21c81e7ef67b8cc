package app

import (
	"fmt"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Pages that urls.app links lead to whose full pages come later (site,
// specification and integration settings): each
// shows what it is, read-only, to whom the API would show it.

type fact struct{ Label, Value string }

type landingData struct {
	Kind, Title string
	Back        link
	Facts       []fact
	Links       []link
}

func (s *Server) landing(w http.ResponseWriter, r *http.Request, d landingData) error {
	return s.render(w, r, http.StatusOK, "landing", d.Title, d)
}

// commentPage leads to a comment of a space where it is shown: on its page.
func (s *Server) commentPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	sp, _, err := s.space(ctx, r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	c, err := s.db.Comment(ctx, store.CommentScope{SpaceID: sp.ID}, r.PathValue("commentId"))
	if err != nil {
		return err
	}
	to := quire.AppSpaceURL("", sp.ID)
	if c.PageID != "" {
		v, err := s.cfg.Reader.Open(ctx, sp, sp.RevisionID, nil)
		if err != nil {
			return err
		}
		if path := v.Path(c.PageID); path != "" {
			to = quire.AppPageURL("", sp.ID, path, "comment-"+c.ID)
		}
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// orgMember is the signed-in user's viewer of the organization of the
// path, refusing (404) who is not a member, nor a guest, of it.
func (s *Server) orgMember(r *http.Request) (*quire.Viewer, error) {
	v, err := s.viewer(r.Context(), r.PathValue("organizationId"))
	if err != nil {
		return nil, err
	}
	return v, quire.RequireRole(v.OrgRole, quire.RoleRead, "organization")
}

// openAPIPage shows an organization's API specification.
func (s *Server) openAPIPage(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.orgMember(r); err != nil {
		return err
	}
	spec, err := s.db.OpenAPISpec(r.Context(), r.PathValue("organizationId"), r.PathValue("slug"))
	if err != nil {
		return err
	}
	d := landingData{Kind: "API specification", Title: spec.Slug, Back: link{"Organization", quire.AppOrgURL("", spec.OrgID)},
		Facts: []fact{{"State", string(spec.State)}, {"Source", spec.SourceURL}}}
	return s.landing(w, r, d)
}

// installationPage shows an integration as installed in an organization
// (or not), to its members.
func (s *Server) installationPage(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.orgMember(r); err != nil {
		return err
	}
	return s.integrationPageWith(w, r, func(in *quire.Integration, d *landingData) error {
		inst, err := s.db.OrgIntegrationInstallation(r.Context(), r.PathValue("organizationId"), in.Name)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			d.Facts = append(d.Facts, fact{"Installed", "no"})
			return nil
		}
		if err != nil {
			return err
		}
		spaces, sites := "all", "all"
		if inst.SpaceSelection != "all" {
			spaces = fmt.Sprintf("%d selected", inst.Spaces)
		}
		if inst.SiteSelection != "all" {
			sites = "selected"
		}
		d.Facts = append(d.Facts, fact{"Installed", inst.Status + " since " + inst.CreatedAt.Format("2 January 2006")},
			fact{"Spaces", spaces}, fact{"Sites", sites})
		return nil
	})
}

// integrationPage shows an integration, to whom the API shows it.
func (s *Server) integrationPage(w http.ResponseWriter, r *http.Request) error {
	return s.integrationPageWith(w, r, nil)
}

// integrationPageWith is integrationPage with more facts from more.
func (s *Server) integrationPageWith(w http.ResponseWriter, r *http.Request, more func(*quire.Integration, *landingData) error) error {
	ctx := r.Context()
	in, err := s.db.Integration(ctx, r.PathValue("integrationName"))
	if err != nil {
		return err
	}
	_, err = s.db.Membership(ctx, in.OrgID, user(ctx).ID)
	if err != nil && quire.ErrorCode(err) != quire.CodeNotFound {
		return err
	}
	if !in.VisibleTo(err == nil) {
		return quire.Errorf(quire.CodeNotFound, "integration not found")
	}
	d := landingData{Kind: "Integration", Title: in.Title, Back: link{"Home", "/"},
		Facts: []fact{{"Name", in.Name}, {"Description", in.Description}, {"Version", fmt.Sprint(in.Version)}}}
	if more != nil {
		if err := more(in, &d); err != nil {
			return err
		}
	}
	return s.landing(w, r, d)
}
