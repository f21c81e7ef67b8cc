package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/wire"
)

// Invites by e-mail (the reference's inviteUsersToOrganization) and joining
// with an invite (joinOrganizationWithInvite). Quire sends no mail: the
// answer gives the inviter each invite's key and link, in the extension
// field invites, to pass on. Organization admins invite; whoever holds a
// key joins with it, signed in as the address invited.

func (s *Server) inviteUsers(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	var body wire.InviteUsersToOrganization
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	invitees := make([]authoring.Invitee, 0, len(body.Emails))
	for _, e := range body.Emails {
		invitees = append(invitees, authoring.Invitee{Email: e.Email, Role: wire.OptionalRole(e.Role)})
	}
	made, err := s.author.InviteMembers(r.Context(), me.OrgID, me.User.ID, invitees, wire.OptionalRole(body.Role), body.SSO.Value)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.InviteResult(made))
}

// joinWithInvite lets the caller join the organization with an invite's
// key: an e-mail invite's or a link invite's.
func (s *Server) joinWithInvite(w http.ResponseWriter, r *http.Request) error {
	key := r.PathValue("inviteId")
	if !quire.IsInviteKey(key) {
		return errorf(quire.CodeNotFound, "invite not found")
	}
	if err := s.db.JoinWithInvite(r.Context(), r.PathValue("organizationId"), key, caller(r.Context())); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, struct{}{})
}
