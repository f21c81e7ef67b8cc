package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Link invites (the reference's OrganizationInviteLink): shareable links
// to join the organization with a role, or one of its spaces or
// collections with a level. Whoever may administer the target makes,
// reads, changes and deletes them (organization admins for the
// organization); organization admins list those to the organization, the
// only ones the reference's list holds. The link's secret key
// is stored hashed, so it is shown once, in the creation's answer (Quire's
// extension fields key and url); joining is POST O/invites/{key}, and only
// while the organization's inviteLinks is true.

// linkInviteJSON shows li to me, whose role on its target t is t.Role
// (wire.Links.LinkInvite).
func (s *Server) linkInviteJSON(li *quire.LinkInvite, t authoring.InviteTarget, me *quire.Member) wire.LinkInvite {
	return s.wire.LinkInvite(li, wire.InviteTarget{Space: t.Space, Collection: t.Collection, Role: t.Role}, me)
}

// linkInviteCreateRequest is the body of POST O/link-invites: {role}, or
// {level, space}, or {level, collection}.
type linkInviteCreateRequest struct {
	Role       quire.Optional[string] `json:"role"`
	Level      quire.Optional[string] `json:"level"`
	Space      *string                `json:"space"`
	Collection *string                `json:"collection"`

	target   quire.InviteTarget // set by validate
	targetID string
	role     quire.Role
}

func (b *linkInviteCreateRequest) Validate() (err error) {
	switch {
	case b.Space != nil && b.Collection != nil:
		return errorf(quire.CodeInvalid, "space: give a space or a collection, not both")
	case b.Space != nil:
		b.target, b.targetID = quire.TargetSpace, *b.Space
	case b.Collection != nil:
		b.target, b.targetID = quire.TargetCollection, *b.Collection
	default:
		b.target = quire.TargetOrganization
		if err := quire.CheckRequired("role", b.Role.Set); err != nil {
			return err
		}
		b.role, err = quire.ParseRoleOrNull("role", b.Role)
		return err
	}
	b.role, err = contentLevel(b.Level)
	return err
}

// contentLevel reads the level a space or collection invite gives: a role,
// since guests of content have none.
func contentLevel(o quire.Optional[string]) (quire.Role, error) {
	if err := quire.CheckRequired("level", o.Set); err != nil {
		return quire.RoleGuest, err
	}
	role, ok := quire.ParseRole(o.Value)
	if !ok {
		return role, errorf(quire.CodeInvalid, "level: must be one of admin, create, review, edit, comment, read")
	}
	return role, nil
}

func (s *Server) createLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	var body linkInviteCreateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	li := quire.LinkInvite{OrgID: me.OrgID, Target: body.target, TargetID: body.targetID, Role: body.role, CreatedBy: me.User.ID}
	t, err := s.author.LinkInviteTarget(r.Context(), me, li.Target, li.TargetID)
	if err != nil {
		return err
	}
	made, err := s.db.CreateLinkInvite(r.Context(), li)
	if err != nil {
		return err
	}
	return writeCreated(w, s.url("/orgs/"+made.OrgID+"/link-invites/"+made.ID), s.linkInviteJSON(made, t, me))
}

// listLinkInvites lists the invites to the organization itself, as the
// reference's list does; those to spaces and collections are read by id.
func (s *Server) listLinkInvites(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*quire.LinkInvite], error) {
		return s.db.ListLinkInvites(ctx, me.OrgID, p)
	}, func(li *quire.LinkInvite) wire.LinkInvite {
		return s.linkInviteJSON(li, authoring.InviteTarget{Role: me.Role}, me)
	})
}

// linkInvite loads the caller's membership and the link invite in the
// path, which they must be able to administer.
func (s *Server) linkInvite(r *http.Request) (*quire.Member, *quire.LinkInvite, authoring.InviteTarget, error) {
	me, err := s.membership(r)
	if err != nil {
		return nil, nil, authoring.InviteTarget{}, err
	}
	li, err := s.db.LinkInvite(r.Context(), me.OrgID, r.PathValue("inviteId"))
	if err != nil {
		return me, nil, authoring.InviteTarget{}, err
	}
	t, err := s.author.LinkInviteTarget(r.Context(), me, li.Target, li.TargetID)
	return me, li, t, err
}

func (s *Server) getLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, li, t, err := s.linkInvite(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.linkInviteJSON(li, t, me))
}

// linkInviteUpdateRequest is the body of PATCH O/link-invites/{inviteId}:
// {role} for an organization invite, {level} for a space's or collection's.
type linkInviteUpdateRequest struct {
	Role  quire.Optional[string] `json:"role"`
	Level quire.Optional[string] `json:"level"`
}

func (b *linkInviteUpdateRequest) Validate() error {
	if b.Role.Set == b.Level.Set {
		return errorf(quire.CodeInvalid, "role: give role (an organization invite) or level (a space or collection invite)")
	}
	return nil
}

func (b *linkInviteUpdateRequest) role(target quire.InviteTarget) (quire.Role, error) {
	if target == quire.TargetOrganization {
		if !b.Role.Set {
			return quire.RoleGuest, errorf(quire.CodeInvalid, "role: is required for an organization invite")
		}
		return quire.ParseRoleOrNull("role", b.Role)
	}
	if !b.Level.Set {
		return quire.RoleGuest, errorf(quire.CodeInvalid, "level: is required for a %s invite", target)
	}
	return contentLevel(b.Level)
}

func (s *Server) updateLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, li, t, err := s.linkInvite(r)
	if err != nil {
		return err
	}
	var body linkInviteUpdateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	role, err := body.role(li.Target)
	if err != nil {
		return err
	}
	if li, err = s.db.UpdateLinkInvite(r.Context(), me.OrgID, li.ID, role); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.linkInviteJSON(li, t, me))
}

// deleteLinkInvite answers as the reference does: 205 when the invite was
// deleted, 204 when there was none (to an organization admin).
func (s *Server) deleteLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, li, _, err := s.linkInvite(r)
	if quire.ErrorCode(err) == quire.CodeNotFound && li == nil && me != nil {
		if err := requireAdmin(me); err != nil {
			return err
		}
		return noContent(w)
	}
	if err != nil {
		return err
	}
	if _, err := s.db.DeleteLinkInvite(r.Context(), me.OrgID, li.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusResetContent)
	return nil
}
