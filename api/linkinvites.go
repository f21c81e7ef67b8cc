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

func (s *Server) createLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	var body wire.CreateOrganizationInvite
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	li := body.Invite(me.OrgID, me.User.ID)
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

func (s *Server) updateLinkInvite(w http.ResponseWriter, r *http.Request) error {
	me, li, t, err := s.linkInvite(r)
	if err != nil {
		return err
	}
	var body wire.UpdateOrganizationInvite
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	role, err := body.NewRole(li.Target)
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
