package api

import (
	"encoding/json"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	if err := s.db.Ping(r.Context()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) getCurrentUser(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.wire.User(caller(r.Context())))
}

// getUser shows a user to callers who share an organization with them.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) error {
	me, id := caller(r.Context()), r.PathValue("userId")
	if id != me.ID {
		shared, err := s.db.ShareOrganization(r.Context(), me.ID, id)
		if err != nil {
			return err
		}
		if !shared {
			return errorf(quire.CodeNotFound, "user not found")
		}
	}
	u, err := s.db.User(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.User(u))
}

func (s *Server) listOrgs(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.author.UserOrganizations(r.Context(), caller(r.Context()).ID, p)
	if err != nil {
		return err
	}
	return writeList(w, list, func(m authoring.Membership) wire.Organization { return s.wire.Organization(m.Org, m.Member) })
}

// orgCreateRequest is the body of POST /v1/orgs.
type orgCreateRequest struct {
	Title        *string  `json:"title"`
	EmailDomains []string `json:"emailDomains"`
}

func (b *orgCreateRequest) Validate() error {
	if err := quire.CheckRequired("title", b.Title != nil); err != nil {
		return err
	}
	return quire.FirstError(quire.CheckOrgTitle("title", *b.Title), quire.CheckEmailDomains("emailDomains", b.EmailDomains))
}

// createOrg answers POST /v1/orgs for those the --org-creation setting
// lets, up to MaxOrgsPerWindow an hour each.
func (s *Server) createOrg(w http.ResponseWriter, r *http.Request) error {
	me := caller(r.Context())
	if err := s.orgCreation.allow(r.Context(), s.db, me); err != nil {
		return err
	}
	var body orgCreateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	release, err := s.orgCreation.reserve(w, me.ID)
	if err != nil {
		return err
	}
	made, err := s.author.CreateOrganization(r.Context(), *body.Title, body.EmailDomains, me.ID)
	if made.Org == nil {
		release() // not created: it does not count
	}
	if err != nil {
		return err
	}
	out := s.wire.Organization(made.Org, made.Member)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getOrg(w http.ResponseWriter, r *http.Request) error {
	org, me, err := s.org(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Organization(org, me))
}

// orgUpdateRequest is the body of PATCH /v1/orgs/{organizationId}.
type orgUpdateRequest struct {
	Title        quire.Optional[string]          `json:"title"`
	EmailDomains quire.Optional[[]string]        `json:"emailDomains"`
	Hostname     quire.Optional[string]          `json:"hostname"`
	DefaultRole  quire.Optional[string]          `json:"defaultRole"`
	SSO          quire.Optional[bool]            `json:"sso"`
	AI           quire.Optional[bool]            `json:"ai"`
	InviteLinks  quire.Optional[bool]            `json:"inviteLinks"`
	MergeRules   quire.Optional[json.RawMessage] `json:"mergeRules"`
}

// Validate checks the fields given, in this order, and re-encodes mergeRules.
// A null hostname removes it and a null defaultRole means guest; the other
// fields may not be null.
func (b *orgUpdateRequest) Validate() error {
	if b.Title.Set {
		if b.Title.Null {
			return errorf(quire.CodeInvalid, "title: must be a string")
		}
		if err := quire.CheckOrgTitle("title", b.Title.Value); err != nil {
			return err
		}
	}
	if b.EmailDomains.Set {
		if err := quire.CheckEmailDomains("emailDomains", b.EmailDomains.Value); err != nil {
			return err
		}
	}
	if h := b.Hostname.Value; b.Hostname.Set && (h != "" || !b.Hostname.Null) {
		if err := quire.CheckOrgHostname("hostname", h); err != nil {
			return err
		}
	}
	if _, err := quire.ParseRoleOrNull("defaultRole", b.DefaultRole); b.DefaultRole.Set && err != nil {
		return err
	}
	if err := quire.FirstError(checkBool("sso", b.SSO), checkBool("ai", b.AI), checkBool("inviteLinks", b.InviteLinks)); err != nil {
		return err
	}
	if b.MergeRules.Set {
		rules, err := quire.CheckMergeRules("mergeRules", b.MergeRules.Value, b.MergeRules.Null)
		if err != nil {
			return err
		}
		b.MergeRules.Value = rules
	}
	return nil
}

// update is the store's form of a validated b.
func (b *orgUpdateRequest) update() store.OrganizationUpdate {
	u := store.OrganizationUpdate{
		Title: setValue(b.Title), Hostname: setValue(b.Hostname),
		SSO: setValue(b.SSO), AI: setValue(b.AI), InviteLinks: setValue(b.InviteLinks),
	}
	if b.EmailDomains.Set {
		domains := b.EmailDomains.Value
		if domains == nil {
			domains = []string{}
		}
		u.EmailDomains = &domains
	}
	if b.DefaultRole.Set {
		role, _ := quire.ParseRoleOrNull("defaultRole", b.DefaultRole)
		u.DefaultRole = &role
	}
	if b.MergeRules.Set {
		u.MergeRules = b.MergeRules.Value
	}
	return u
}

func (s *Server) updateOrg(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	var body orgUpdateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	m, err := s.author.UpdateOrganization(r.Context(), me, body.update())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Organization(m.Org, m.Member))
}
