package app

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Invites: organization admins invite people by e-mail and make shareable
// link invites in the organization's settings, and whoever holds an
// invite's link joins at quire.AppJoinPath, signed in. Quire sends no mail,
// so each link is shown to the inviter once, when made, as the API answers
// it. The forms make the store calls of POST O/invites, POST and DELETE
// O/link-invites and POST O/invites/{inviteId}, with the same checks. A link
// never makes an account: the inviter holds it too.

// inviteRoutes registers the invite forms of the organization's settings
// and the join page.
func (s *Server) inviteRoutes() {
	s.handleSignedIn("POST "+orgSettingsPath+"/invites", s.createInvites)
	s.handleSignedIn("POST "+orgSettingsPath+"/link-invites", s.createLinkInvite)
	s.handleSignedIn("POST "+orgSettingsPath+"/link-invites/{inviteId}/delete", s.deleteLinkInvite)
	s.handleSignedIn("GET "+quire.AppJoinPath, s.joinPage)
	s.handleSignedIn("POST "+quire.AppJoinPath, s.join)
}

// maxInvites bounds the addresses of one form, as the API bounds a request.
const maxInvites = 100

// madeInvite is a link just made, shown once.
type madeInvite struct {
	Email, Role, URL string
	ExpiresAt        time.Time
}

// invitesView is the invites section of the organization's settings.
type invitesView struct {
	DefaultRole quire.Role
	LinksOn     bool // the organization's inviteLinks
	Links       []*quire.LinkInvite
	Made        []madeInvite // e-mail invites just made
	MadeLink    *madeInvite  // the link invite just made
}

// invitesView reads the organization's link invites, beside made, the
// links just made.
func (s *Server) invitesView(ctx context.Context, org *quire.Organization, made invitesView) (invitesView, error) {
	made.DefaultRole, made.LinksOn = org.DefaultRole, org.InviteLinks
	var err error
	made.Links, err = listAll(s.db.ListLinkInvites(ctx, org.ID, store.Page{Limit: maxListed}))
	return made, err
}

// roleName is how a page names a role: "guest" for none.
func roleName(r quire.Role) string {
	if r == quire.RoleGuest {
		return "guest"
	}
	return string(r)
}

// formEmails reads the addresses of the field name, separated by commas,
// spaces or lines: 1 to maxInvites, each checked as the API checks it.
func formEmails(r *http.Request, name string) ([]string, error) {
	emails := strings.FieldsFunc(r.PostForm.Get(name), func(c rune) bool { return c == ',' || c == ';' || c == ' ' || c == '\n' || c == '\r' || c == '\t' })
	if len(emails) == 0 || len(emails) > maxInvites {
		return nil, quire.Errorf(quire.CodeInvalid, "%s: must list 1 to %d addresses", name, maxInvites)
	}
	for _, e := range emails {
		if err := quire.CheckEmail(name, e); err != nil {
			return nil, err
		}
	}
	return emails, nil
}

// createInvites invites addresses with a role, as POST O/invites (admins
// only), and shows the settings again with each invite's link to pass on.
func (s *Server) createInvites(w http.ResponseWriter, r *http.Request) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	emails, err := formEmails(r, "emails")
	if err != nil {
		return err
	}
	role, err := formRole(r, "role")
	if err != nil {
		return err
	}
	invites := make([]store.NewInvite, len(emails))
	for i, e := range emails {
		invites[i] = store.NewInvite{Email: e, Role: role}
	}
	made, err := s.db.CreateInvites(r.Context(), me.OrgID, me.User.ID, invites, false)
	if err != nil {
		return err
	}
	var v invitesView
	for _, inv := range made {
		v.Made = append(v.Made, madeInvite{Email: inv.Email, Role: roleName(inv.Role), ExpiresAt: inv.ExpiresAt,
			URL: quire.InviteAppURL(s.cfg.PublicURL, inv.OrgID, inv.Key)})
	}
	return s.showOrgSettings(w, r, v)
}

// createLinkInvite makes a link invite to the organization with a role, as
// POST O/link-invites with {role}, and shows its link once.
func (s *Server) createLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	role, err := formRole(r, "role")
	if err != nil {
		return err
	}
	li, err := s.db.CreateLinkInvite(r.Context(), quire.LinkInvite{OrgID: me.OrgID, Target: quire.TargetOrganization, Role: role, CreatedBy: me.User.ID})
	if err != nil {
		return err
	}
	return s.showOrgSettings(w, r, invitesView{MadeLink: &madeInvite{Role: roleName(li.Role), URL: quire.InviteAppURL(s.cfg.PublicURL, li.OrgID, li.Key)}})
}

// deleteLinkInvite deletes one of the organization's link invites, as
// DELETE O/link-invites/{inviteId}: its link joins no one after.
func (s *Server) deleteLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, err := s.requireOrgAdmin(r)
	if err != nil {
		return err
	}
	li, err := s.db.LinkInvite(r.Context(), me.OrgID, r.PathValue("inviteId"))
	if err != nil {
		return err
	}
	if li.Target != quire.TargetOrganization { // the page lists only these
		return quire.Errorf(quire.CodeNotFound, "invite not found")
	}
	if _, err := s.db.DeleteLinkInvite(r.Context(), me.OrgID, li.ID); err != nil {
		return err
	}
	return backTo(w, r, orgSettingsURL(me.OrgID))
}

// joinData is the join page: what the invite offers.
type joinData struct {
	Org    *quire.Organization
	Role   string
	Target string // "" for the organization, else the space's or collection's title
	Kind   quire.InviteTarget
	Member *quire.Member // the user's membership, nil for none
}

// invite loads the organization and the offer of the invite in the path:
// 404 for a key that is not one of its invites, whoever asks, so that the
// page tells nothing to who holds no key.
func (s *Server) invite(r *http.Request) (*quire.Organization, *store.InviteOffer, error) {
	orgID, key := r.PathValue("organizationId"), r.PathValue("inviteId")
	if !quire.IsInviteKey(key) {
		return nil, nil, quire.Errorf(quire.CodeNotFound, "invite not found")
	}
	offer, err := s.db.InviteOffer(r.Context(), orgID, key)
	if err != nil {
		return nil, nil, err
	}
	org, err := s.db.Organization(r.Context(), orgID)
	return org, offer, err
}

// joinPage shows a signed-in holder of an invite's link the organization
// and the role it offers, and a button to join; an invite they could not
// use is refused as POST O/invites/{inviteId} would refuse it.
func (s *Server) joinPage(w http.ResponseWriter, r *http.Request) error {
	org, offer, err := s.invite(r)
	if err != nil {
		return err
	}
	u := user(r.Context())
	if err := offer.Refusal(org, u, s.now()); err != nil {
		return err
	}
	d := joinData{Org: org}
	if offer.Link == nil {
		d.Role = roleName(offer.Invite.Role)
	} else {
		d.Role, d.Kind = roleName(offer.Link.Role), offer.Link.Target
		switch offer.Link.Target {
		case quire.TargetSpace:
			sp, err := s.db.Space(r.Context(), offer.Link.TargetID)
			if err != nil {
				return err
			}
			d.Target = sp.Title
		case quire.TargetCollection:
			c, err := s.db.Collection(r.Context(), offer.Link.TargetID)
			if err != nil {
				return err
			}
			d.Target = c.Title
		}
	}
	if m, err := s.db.Membership(r.Context(), org.ID, u.ID); err == nil {
		d.Member = m
	} else if quire.ErrorCode(err) != quire.CodeNotFound {
		return err
	}
	return s.render(w, r, http.StatusOK, "join", "Join "+org.Title, d)
}

// join uses the invite of the path for the signed-in user, through the
// store call of POST O/invites/{inviteId}, and opens what they joined.
func (s *Server) join(w http.ResponseWriter, r *http.Request) error {
	org, offer, err := s.invite(r)
	if err != nil {
		return err
	}
	if err := s.db.JoinWithInvite(r.Context(), org.ID, r.PathValue("inviteId"), user(r.Context())); err != nil {
		return err
	}
	to := quire.AppOrgURL("", org.ID)
	if li := offer.Link; li != nil && li.Target == quire.TargetSpace {
		to = quire.AppSpaceURL("", li.TargetID)
	} else if li != nil && li.Target == quire.TargetCollection {
		to = quire.AppCollectionURL("", li.TargetID)
	}
	return backTo(w, r, to)
}
