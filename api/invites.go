package api

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Invites by e-mail (the reference's inviteUsersToOrganization) and joining
// with an invite (joinOrganizationWithInvite). Quire sends no mail: the
// answer gives the inviter each invite's key and link, in the extension
// field invites, to pass on. Organization admins invite; whoever holds a
// key joins with it, signed in as the address invited.

// maxInvites bounds the addresses of one request.
const maxInvites = 100

// inviteEmail is an entry of emails: an address, or {email, role}.
type inviteEmail struct {
	Email string
	Role  quire.Optional[string] // set only in the object form
}

func (e *inviteEmail) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Email)
	}
	var o struct {
		Email string                 `json:"email"`
		Role  quire.Optional[string] `json:"role"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return errorf(quire.CodeInvalid, "emails: each must be an e-mail address or an object with email and role")
	}
	e.Email, e.Role = o.Email, o.Role
	if !o.Role.Set {
		return errorf(quire.CodeInvalid, "emails: an object needs a role (null for a guest)")
	}
	return nil
}

// orgInviteRequest is the body of POST O/invites.
type orgInviteRequest struct {
	Emails []inviteEmail          `json:"emails"`
	Role   quire.Optional[string] `json:"role"`
	SSO    quire.Optional[bool]   `json:"sso"`
}

func (b *orgInviteRequest) Validate() error {
	if err := quire.CheckRequired("emails", b.Emails != nil); err != nil {
		return err
	}
	if len(b.Emails) == 0 || len(b.Emails) > maxInvites {
		return errorf(quire.CodeInvalid, "emails: must list 1 to %d addresses", maxInvites)
	}
	for i, e := range b.Emails {
		field := fmt.Sprintf("emails[%d]", i)
		if err := quire.CheckEmail(field, e.Email); err != nil {
			return err
		}
		if e.Role.Set {
			if _, err := quire.ParseRoleOrNull(field+".role", e.Role); err != nil {
				return err
			}
		}
	}
	if b.Role.Set {
		if _, err := quire.ParseRoleOrNull("role", b.Role); err != nil {
			return err
		}
	}
	return checkBool("sso", b.SSO)
}

// invites are the addresses with their roles: their own, else the body's,
// else the organization's default role.
func (b *orgInviteRequest) invites(def quire.Role) []store.NewInvite {
	if b.Role.Set {
		def, _ = quire.ParseRoleOrNull("role", b.Role)
	}
	out := make([]store.NewInvite, 0, len(b.Emails))
	for _, e := range b.Emails {
		role := def
		if e.Role.Set {
			role, _ = quire.ParseRoleOrNull("role", e.Role)
		}
		out = append(out, store.NewInvite{Email: e.Email, Role: role})
	}
	return out
}

func (s *Server) inviteUsers(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	var body orgInviteRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	org, err := s.db.Organization(r.Context(), me.OrgID)
	if err != nil {
		return err
	}
	made, err := s.db.CreateInvites(r.Context(), org.ID, me.User.ID, body.invites(org.DefaultRole), body.SSO.Value)
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
