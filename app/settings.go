package app

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/store"
)

// Settings: a space's (title, emoji, visibility, who has which role on
// it), an organization's (members, teams, SSO providers) and its docs
// sites. Every form posts to the same store calls, behind the same checks,
// as the API's operations: 404 for what the user may not see, 403 for what
// they see but may not do.

// settingsRoutes registers the settings and sites pages and their forms.
func (s *Server) settingsRoutes() {
	if s.cfg.Asker == nil { // answers quote the best source
		s.cfg.Asker = ask.New(s.db, s.cfg.Reader, nil, "")
	}
	s.handleSignedIn("GET "+spaceSettingsPath, s.spaceSettingsPage)
	s.handleSignedIn("POST "+spaceSettingsPath, s.updateSpaceSettings)
	s.handleSignedIn("POST "+spaceSettingsPath+"/users", s.grantUser)
	s.handleSignedIn("POST "+spaceSettingsPath+"/teams", s.grantTeam)

	s.handleSignedIn("GET "+orgSettingsPath, s.orgSettingsPage)
	s.handleSignedIn("POST "+orgSettingsPath+"/members/{userId}/role", s.changeMemberRole)
	s.handleSignedIn("POST "+orgSettingsPath+"/members/{userId}/remove", s.removeMember)
	s.handleSignedIn("POST "+orgSettingsPath+"/teams", s.createTeam)
	s.handleSignedIn("POST "+orgSettingsPath+"/teams/{teamId}/members", s.addTeamMember)
	s.handleSignedIn("POST "+orgSettingsPath+"/teams/{teamId}/members/{userId}/remove", s.removeTeamMember)
	s.ssoSettingsRoutes()

	s.handleSignedIn("GET "+sitesPath, s.sitesPage)
	s.handleSignedIn("POST "+sitesPath, s.createSite)
	s.handleSignedIn("POST "+quire.AppSitePath+"/spaces", s.addSiteSpace)
	s.handleSignedIn("POST "+quire.AppSitePath+"/sections", s.addSiteSection)
	s.handleSignedIn("POST "+quire.AppSitePath+"/publish", s.publishSite)
	s.handleSignedIn("POST "+quire.AppSitePath+"/hostname-check", s.checkSiteHostname)

	s.handleSignedIn("GET "+quire.AppOrgPath+"/ask", s.askPage)
}

// The settings pages' addresses. A space's settings sit under "~", which
// no page path holds, so that they never hide a page of the space.
const (
	spaceSettingsPath = quire.AppSpacePath + "/~settings"
	orgSettingsPath   = quire.AppOrgPath + "/settings"
	sitesPath         = quire.AppOrgPath + "/sites"
)

// roleChoices are the roles a form offers, strongest first.
var roleChoices = []quire.Role{quire.RoleAdmin, quire.RoleCreate, quire.RoleReview, quire.RoleEdit, quire.RoleComment, quire.RoleRead}

// formRole reads a role from the form field name: one of the six, or
// "none" (or nothing) for RoleGuest, which removes a grant.
func formRole(r *http.Request, name string) (quire.Role, error) {
	v := strings.TrimSpace(r.PostForm.Get(name))
	if v == "" || v == "none" || v == "guest" {
		return quire.RoleGuest, nil
	}
	role, ok := quire.ParseRole(v)
	if !ok {
		return "", quire.Errorf(quire.CodeInvalid, "%s: must be one of admin, create, review, edit, comment, read or none", name)
	}
	return role, nil
}

// formValue is a required, trimmed form field of at most max characters.
func formValue(r *http.Request, name string, min, max int) (string, error) {
	v := strings.TrimSpace(r.PostForm.Get(name))
	return v, quire.CheckLen(name, v, min, max)
}

// backTo answers a form done with a redirect to the page it came from.
func backTo(w http.ResponseWriter, r *http.Request, path string) error {
	http.Redirect(w, r, path, http.StatusSeeOther)
	return nil
}

// orgMembership is the signed-in user's membership of the organization in the
// path: 404 for who is not a member, as the API answers.
func (s *Server) orgMembership(r *http.Request) (*quire.Member, error) {
	me, err := s.db.Membership(r.Context(), r.PathValue("organizationId"), user(r.Context()).ID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return nil, quire.Errorf(quire.CodeNotFound, "organization not found")
	}
	return me, err
}

// requireOrgAdmin is orgMembership for what only the organization's admins may do.
func (s *Server) requireOrgAdmin(r *http.Request) (*quire.Member, error) {
	me, err := s.orgMembership(r)
	if err == nil && me.Role != quire.RoleAdmin {
		err = quire.Errorf(quire.CodeForbidden, "only organization admins may do this")
	}
	return me, err
}

// listAll reads up to maxListed items of a list.
func listAll[T any](list *store.List[T], err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}
