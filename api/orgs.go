package api

import (
	"encoding/json"
	"net/http"
	"regexp"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	if err := s.db.Ping(r.Context()); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) getCurrentUser(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.userJSON(caller(r.Context())))
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
	return writeJSON(w, http.StatusOK, s.userJSON(u))
}

func (s *Server) listOrgs(w http.ResponseWriter, r *http.Request) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	me := caller(r.Context())
	list, err := s.db.ListUserOrganizations(r.Context(), me.ID, p)
	if err != nil {
		return err
	}
	// Permissions are per organization; the caller's memberships are few.
	members := map[string]*quire.Member{}
	for _, o := range list.Items {
		if members[o.ID], err = s.db.Member(r.Context(), o.ID, me.ID); err != nil {
			return err
		}
	}
	return writeList(w, list, func(o *quire.Organization) orgJSON { return s.orgJSON(o, members[o.ID]) })
}

// orgTitlePattern is the reference's OrganizationTitle: no blank ends.
var orgTitlePattern = regexp.MustCompile(`^\S(.*\S)?$`)

func checkOrgTitle(title string) error {
	if err := quire.CheckLen("title", title, 2, 255); err != nil {
		return err
	}
	if !orgTitlePattern.MatchString(title) {
		return errorf(quire.CodeInvalid, "title: must not start or end with spaces")
	}
	return nil
}

// orgCreateRequest is the body of POST /v1/orgs.
type orgCreateRequest struct {
	Title        *string  `json:"title"`
	EmailDomains []string `json:"emailDomains"`
}

func (b *orgCreateRequest) validate() error {
	if err := quire.CheckRequired("title", b.Title != nil); err != nil {
		return err
	}
	return quire.FirstError(checkOrgTitle(*b.Title), checkEmailDomains(b.EmailDomains))
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
	org, err := s.db.CreateOrganization(r.Context(), *body.Title, body.EmailDomains, me.ID)
	if err != nil {
		release()
		return err
	}
	member, err := s.db.Member(r.Context(), org.ID, me.ID)
	if err != nil {
		return err
	}
	out := s.orgJSON(org, member)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getOrg(w http.ResponseWriter, r *http.Request) error {
	org, me, err := s.org(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.orgJSON(org, me))
}

var domainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

func checkEmailDomains(domains []string) error {
	if len(domains) > 100 {
		return errorf(quire.CodeInvalid, "emailDomains: must have at most 100 entries")
	}
	for i, d := range domains {
		if !domainPattern.MatchString(d) {
			return errorf(quire.CodeInvalid, "emailDomains[%d]: must be a lower-case domain name such as example.com", i)
		}
	}
	return nil
}

var hostnamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*[a-z0-9]$`)

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

// validate checks the fields given, in this order, and re-encodes mergeRules.
// A null hostname removes it and a null defaultRole means guest; the other
// fields may not be null.
func (b *orgUpdateRequest) validate() error {
	if b.Title.Set {
		if b.Title.Null {
			return errorf(quire.CodeInvalid, "title: must be a string")
		}
		if err := checkOrgTitle(b.Title.Value); err != nil {
			return err
		}
	}
	if b.EmailDomains.Set {
		if err := checkEmailDomains(b.EmailDomains.Value); err != nil {
			return err
		}
	}
	if h := b.Hostname.Value; b.Hostname.Set && (h != "" || !b.Hostname.Null) {
		if err := quire.CheckLen("hostname", h, 3, 32); err != nil {
			return err
		}
		if !hostnamePattern.MatchString(h) {
			return errorf(quire.CodeInvalid, "hostname: must be lower-case letters, digits and inner hyphens")
		}
	}
	if b.DefaultRole.HasValue() {
		if _, ok := quire.ParseRole(b.DefaultRole.Value); !ok {
			return errorf(quire.CodeInvalid, "defaultRole: must be one of admin, create, review, edit, comment, read or null")
		}
	}
	if err := quire.FirstError(checkBool("sso", b.SSO), checkBool("ai", b.AI), checkBool("inviteLinks", b.InviteLinks)); err != nil {
		return err
	}
	if b.MergeRules.Set {
		rules, err := checkMergeRules(b.MergeRules.Value, b.MergeRules.Null)
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
		role := quire.RoleGuest
		if !b.DefaultRole.Null {
			role, _ = quire.ParseRole(b.DefaultRole.Value)
		}
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
	org, err := s.db.UpdateOrganization(r.Context(), me.OrgID, body.update())
	if err != nil {
		return err
	}
	if me, err = s.db.Member(r.Context(), me.OrgID, me.User.ID); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.orgJSON(org, me))
}

// mergeRuleNames are the rules of the reference's MergeRule.
var mergeRuleNames = map[string]bool{
	"require_specific_reviewers": true, "require_one_of_specific_reviewers": true, "allow_bypass": true,
	"require_at_least_one_review": true, "require_at_least_one_approved_review": true,
	"require_all_reviews_approved": true, "require_agent_review": true, "require_up_to_date_change_request": true,
	"require_change_request_subject": true, "require_change_request_description": true,
	"require_author_to_merge": true, "custom": true,
}

// checkMergeRules validates {"type":"none"} or {"type":"rules","rules":[{"rule":…}, …]}
// and returns it re-encoded, each rule kept as given.
func checkMergeRules(raw json.RawMessage, null bool) (json.RawMessage, error) {
	var v struct {
		Type  string            `json:"type"`
		Rules []json.RawMessage `json:"rules"`
	}
	if null || decodeJSON(raw, &v) != nil {
		return nil, errorf(quire.CodeInvalid, `mergeRules: must be {"type":"none"} or {"type":"rules","rules":[…]}`)
	}
	switch v.Type {
	case "none":
		return json.RawMessage(`{"type":"none"}`), nil
	case "rules":
		if v.Rules == nil {
			v.Rules = []json.RawMessage{}
		}
		for i, raw := range v.Rules {
			if err := checkMergeRule(i, raw); err != nil {
				return nil, err
			}
		}
		return json.Marshal(v)
	}
	return nil, errorf(quire.CodeInvalid, `mergeRules.type: must be "none" or "rules"`)
}

// checkMergeRule validates one rule of the reference's MergeRule: the
// reviewer rules need users, a custom rule an expression of at most 1024
// characters, so that what is stored is what the reference describes.
func checkMergeRule(i int, raw json.RawMessage) error {
	var rule struct {
		Rule       string          `json:"rule"`
		Users      json.RawMessage `json:"users"`
		Expression json.RawMessage `json:"expression"`
		Message    json.RawMessage `json:"message"`
	}
	if decodeJSON(raw, &rule) != nil || !mergeRuleNames[rule.Rule] {
		return errorf(quire.CodeInvalid, "mergeRules.rules[%d].rule: must be a known merge rule", i)
	}
	switch rule.Rule {
	case "require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass":
		var users []string
		if json.Unmarshal(rule.Users, &users) != nil || users == nil {
			return errorf(quire.CodeInvalid, "mergeRules.rules[%d].users: must be an array of user ids", i)
		}
	case "custom":
		var expr string
		if json.Unmarshal(rule.Expression, &expr) != nil || utf8.RuneCountInString(expr) > 1024 {
			return errorf(quire.CodeInvalid, "mergeRules.rules[%d].expression: must be a string of at most 1024 characters", i)
		}
		var msg string
		if rule.Message != nil && json.Unmarshal(rule.Message, &msg) != nil {
			return errorf(quire.CodeInvalid, "mergeRules.rules[%d].message: must be a string", i)
		}
	}
	return nil
}
