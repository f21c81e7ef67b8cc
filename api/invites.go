package api

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
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

// invitees are the addresses of a validated b with their roles, and the
// role of those without one (nil: the organization's default role).
func (b *orgInviteRequest) invitees() ([]authoring.Invitee, *quire.Role) {
	out := make([]authoring.Invitee, 0, len(b.Emails))
	for _, e := range b.Emails {
		out = append(out, authoring.Invitee{Email: e.Email, Role: optionalRole(e.Role)})
	}
	return out, optionalRole(b.Role)
}

// optionalRole is a validated role or null (guest), nil when not given.
func optionalRole(o quire.Optional[string]) *quire.Role {
	if !o.Set {
		return nil
	}
	role, _ := quire.ParseRoleOrNull("role", o)
	return &role
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
	invitees, role := body.invitees()
	made, err := s.author.InviteMembers(r.Context(), me.OrgID, me.User.ID, invitees, role, body.SSO.Value)
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
