package app

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// A space's settings, for its admins: title, emoji and visibility (as
// PATCH S changes them) and the roles members and teams are granted on it
// (as the permissions operations grant them).

type grantRow struct {
	ID, Name string
	Role     quire.Role
}

type spaceSettingsData struct {
	Space        *quire.Space
	Visibilities []quire.Visibility
	Roles        []quire.Role
	Users        []grantRow // granted a role
	Teams        []grantRow
	Members      []grantRow // who may be granted one
	AllTeams     []grantRow
}

// adminSpace loads the space of the path for its admins: 404 unless the
// user reads it, 403 unless they are its admin.
func (s *Server) adminSpace(r *http.Request) (*quire.Space, store.Content, error) {
	sp, role, err := s.space(r.Context(), r.PathValue("spaceId"))
	if err == nil {
		err = quire.RequireRole(role, quire.RoleAdmin, "space")
	}
	if err != nil {
		return nil, store.Content{}, err
	}
	return sp, store.Content{Kind: "space", ID: sp.ID, OrgID: sp.OrgID, Level: sp.DefaultLevel, Ancestors: sp.Ancestors}, nil
}

func (s *Server) spaceSettingsPage(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.adminSpace(r)
	if err != nil {
		return err
	}
	d := spaceSettingsData{Space: sp, Roles: roleChoices, Visibilities: spaceVisibilities(sp)}
	if err := s.fillGrants(r, sp, &d); err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "settings-space", "Settings · "+sp.Title, d)
}

// spaceVisibilities are those a space may have: in-collection only inside
// a collection.
func spaceVisibilities(sp *quire.Space) []quire.Visibility {
	out := []quire.Visibility{quire.VisibilityPrivate, quire.VisibilityPublic, quire.VisibilityUnlisted, quire.VisibilityShareLink, quire.VisibilityVisitorAuth}
	if sp.ParentID != "" {
		out = append(out, quire.VisibilityInCollection)
	}
	return out
}

// fillGrants lists the space's grants, and the members and teams of its
// organization who could be granted a role.
func (s *Server) fillGrants(r *http.Request, sp *quire.Space, d *spaceSettingsData) error {
	ctx, all := r.Context(), store.Page{Limit: maxListed}
	users, err := listAll(s.db.ListUserGrants(ctx, sp.ID, all))
	if err != nil {
		return err
	}
	for _, g := range users {
		d.Users = append(d.Users, grantRow{ID: g.User.ID, Name: g.User.DisplayName, Role: g.Role})
	}
	teams, err := listAll(s.db.ListTeamGrants(ctx, sp.ID, all))
	if err != nil {
		return err
	}
	for _, g := range teams {
		d.Teams = append(d.Teams, grantRow{ID: g.Team.ID, Name: g.Team.Title, Role: g.Role})
	}
	members, err := listAll(s.db.ListMembers(ctx, sp.OrgID, store.MemberFilter{}, all))
	if err != nil {
		return err
	}
	for _, m := range members {
		d.Members = append(d.Members, grantRow{ID: m.User.ID, Name: m.User.DisplayName + " (" + m.User.Email + ")"})
	}
	orgTeams, err := listAll(s.db.ListTeams(ctx, sp.OrgID, store.TeamFilter{}, all))
	for _, t := range orgTeams {
		d.AllTeams = append(d.AllTeams, grantRow{ID: t.ID, Name: t.Title})
	}
	return err
}

// updateSpaceSettings changes the title, emoji and visibility, with PATCH
// S's rules: title and emoji are refused while the space is locked.
func (s *Server) updateSpaceSettings(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.adminSpace(r)
	if err != nil {
		return err
	}
	u, err := spaceUpdate(r, sp)
	if err != nil {
		return err
	}
	if *u.Title != sp.Title || *u.Emoji != sp.Emoji { // an edit, as PATCH S counts it
		if err := quire.CheckEditable(sp); err != nil {
			return err
		}
	}
	if _, err := s.db.UpdateSpace(r.Context(), sp.ID, u); err != nil {
		return err
	}
	return backTo(w, r, quire.AppPath(spaceSettingsPath, sp.ID))
}

// spaceUpdate reads the settings form as PATCH S validates its body.
func spaceUpdate(r *http.Request, sp *quire.Space) (store.SpaceUpdate, error) {
	title, err := formValue(r, "title", 0, 50)
	if err != nil {
		return store.SpaceUpdate{}, err
	}
	emoji, err := formValue(r, "emoji", 0, 50) // empty removes it
	if err != nil {
		return store.SpaceUpdate{}, err
	}
	vis, ok := quire.ParseVisibility(r.PostForm.Get("visibility"))
	if !ok {
		return store.SpaceUpdate{}, quire.Errorf(quire.CodeInvalid, "visibility: must be public, unlisted, share-link, visitor-auth, in-collection or private")
	}
	if vis == quire.VisibilityInCollection && sp.ParentID == "" {
		return store.SpaceUpdate{}, quire.Errorf(quire.CodeInvalid, "visibility: in-collection is only for spaces inside a collection")
	}
	return store.SpaceUpdate{Title: &title, Emoji: &emoji, Visibility: &vis}, nil
}

// grantUser sets a member's role on the space; "none" removes their grant.
func (s *Server) grantUser(w http.ResponseWriter, r *http.Request) error {
	return s.grant(w, r, "user")
}

// grantTeam sets a team's role on the space; "none" removes its grant.
func (s *Server) grantTeam(w http.ResponseWriter, r *http.Request) error {
	return s.grant(w, r, "team")
}

func (s *Server) grant(w http.ResponseWriter, r *http.Request, kind string) error {
	sp, c, err := s.adminSpace(r)
	if err != nil {
		return err
	}
	role, err := formRole(r, "role")
	if err != nil {
		return err
	}
	id, err := formValue(r, kind, 1, 256)
	if err != nil {
		return err
	}
	users, teams := []string{id}, []string(nil)
	if kind == "team" {
		users, teams = nil, []string{id}
	}
	if err := s.db.GrantRoles(r.Context(), c, users, teams, role); err != nil {
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return quire.Errorf(quire.CodeInvalid, "%s: not in the organization", kind)
		}
		return err
	}
	return backTo(w, r, quire.AppPath(spaceSettingsPath, sp.ID))
}
