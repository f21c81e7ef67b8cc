package quire

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ReviewStatus is a reviewer's decision (the reference's
// ChangeRequestReviewStatus).
type ReviewStatus string

// Review decisions.
const (
	ReviewApproved         ReviewStatus = "approved"
	ReviewChangesRequested ReviewStatus = "changes-requested"
)

// ParseReviewStatus reads a review decision in field.
func ParseReviewStatus(field, s string) (ReviewStatus, error) {
	if st := ReviewStatus(s); st == ReviewApproved || st == ReviewChangesRequested {
		return st, nil
	}
	return "", Errorf(CodeInvalid, "%s: must be approved or changes-requested", field)
}

// Review is a reviewer's decision on a change request at one of its
// revisions. It is Outdated once the same reviewer submitted another or was
// asked again; merge rules read only the reviews that are not.
type Review struct {
	ID              string
	ChangeRequestID string
	Reviewer        User
	RequestedBy     *User // nil: reviewed without being asked
	Status          ReviewStatus
	RevisionID      string
	CommentID       string // "" without a comment
	Outdated        bool
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// RequestedReviewer is a user asked to review a change request.
type RequestedReviewer struct {
	User        User
	RequestedBy User
	RevisionID  string // the request's revision when asked
	CreatedAt   time.Time
}

// Contributor is a user who wrote revisions of a change request: how many,
// and when last (its creator counts from the start, with none).
type Contributor struct {
	User      User
	Edits     int
	UpdatedAt time.Time
}

// CheckSpaceMergeRules validates a space's merge rules, the reference's
// MergeRulesSpaceConfiguration: {"type":"inherit"} or what CheckMergeRules
// takes.
func CheckSpaceMergeRules(field string, raw json.RawMessage, null bool) (json.RawMessage, error) {
	var v struct {
		Type string `json:"type"`
	}
	if !null && DecodeJSON(raw, &v) == nil && v.Type == "inherit" {
		return json.RawMessage(`{"type":"inherit"}`), nil
	}
	rules, err := CheckMergeRules(field, raw, null)
	if err != nil && !null && v.Type != "none" && v.Type != "rules" {
		return nil, Errorf(CodeInvalid, `%s.type: must be "inherit", "none" or "rules"`, field)
	}
	return rules, err
}

// MergeRule is one rule of the reference's MergeRule.
type MergeRule struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users"`
	Expression string   `json:"expression"`
	Message    string   `json:"message"`
}

// MergeRules are the rules that apply to a change request's merge: those
// of its space, or of its organization when the space inherits them.
// Rules == nil is none.
type MergeRules struct {
	Rules []MergeRule
}

// EffectiveMergeRules reads the rules that apply to a space's merges from
// its stored rules and its organization's (both as CheckSpaceMergeRules and
// CheckMergeRules keep them). Absent or unreadable rules are none, as
// merging was before rules were enforced.
func EffectiveMergeRules(space, org json.RawMessage) MergeRules {
	var v struct {
		Type  string      `json:"type"`
		Rules []MergeRule `json:"rules"`
	}
	if json.Unmarshal(space, &v) != nil || v.Type == "inherit" || v.Type == "" {
		v.Type, v.Rules = "", nil
		if json.Unmarshal(org, &v) != nil {
			return MergeRules{}
		}
	}
	if v.Type != "rules" {
		return MergeRules{}
	}
	if v.Rules == nil {
		v.Rules = []MergeRule{}
	}
	return MergeRules{Rules: v.Rules}
}

// MergeState is what merge rules are judged on.
type MergeState struct {
	ChangeRequest *ChangeRequest
	Outdated      bool      // the space has moved on since the request's base
	ActorID       string    // who merges
	Reviews       []*Review // the reviews that are not outdated
	// Custom evaluates a custom rule's expression; nil counts it unmet.
	Custom func(MergeRule) (bool, error)
}

// Unmet lists, in order, the rules st does not meet, each as
// "<rule>: <what is missing>". A rule allow_bypass naming the actor lets
// every merge through.
func (m MergeRules) Unmet(st MergeState) []string {
	for _, r := range m.Rules {
		if r.Rule == "allow_bypass" && slices.Contains(r.Users, st.ActorID) {
			return nil
		}
	}
	var out []string
	for _, r := range m.Rules {
		if msg := st.unmet(r); msg != "" {
			out = append(out, r.Rule+": "+msg)
		}
	}
	return out
}

// approvedBy reports whether user's current review approves.
func (st MergeState) approvedBy(user string) bool {
	return slices.ContainsFunc(st.Reviews, func(r *Review) bool { return r.Reviewer.ID == user && r.Status == ReviewApproved })
}

// unmet says what rule r misses in st, or "" when it is met.
func (st MergeState) unmet(r MergeRule) string {
	approved := slices.ContainsFunc(st.Reviews, func(r *Review) bool { return r.Status == ReviewApproved })
	switch r.Rule {
	case "require_specific_reviewers":
		var missing []string
		for _, u := range r.Users {
			if !st.approvedBy(u) {
				missing = append(missing, u)
			}
		}
		if len(missing) > 0 {
			return "needs an approving review from each of the users " + strings.Join(missing, ", ")
		}
	case "require_one_of_specific_reviewers":
		if !slices.ContainsFunc(r.Users, st.approvedBy) {
			return "needs an approving review from one of the users " + strings.Join(r.Users, ", ")
		}
	case "require_at_least_one_review":
		if len(st.Reviews) == 0 {
			return "needs at least one review"
		}
	case "require_at_least_one_approved_review":
		if !approved {
			return "needs at least one approving review"
		}
	case "require_all_reviews_approved":
		if slices.ContainsFunc(st.Reviews, func(r *Review) bool { return r.Status != ReviewApproved }) {
			return "a review requests changes"
		}
	case "require_agent_review":
		return "needs a review by an AI agent, which this server does not run"
	case "require_up_to_date_change_request":
		if st.Outdated {
			return "the change request is not up to date with the space: update it first"
		}
	case "require_change_request_subject":
		if strings.TrimSpace(st.ChangeRequest.Subject) == "" {
			return "the change request needs a subject"
		}
	case "require_change_request_description":
		if strings.TrimSpace(st.ChangeRequest.Description) == "" {
			return "the change request needs a description"
		}
	case "require_author_to_merge":
		if st.ActorID != st.ChangeRequest.CreatedBy.ID {
			return "only the change request's author may merge it"
		}
	case "custom":
		return st.unmetCustom(r)
	}
	return ""
}

func (st MergeState) unmetCustom(r MergeRule) string {
	ok := false
	var err error
	if st.Custom != nil {
		ok, err = st.Custom(r)
	}
	switch {
	case err != nil:
		return fmt.Sprintf("expression %q: %v", r.Expression, err)
	case ok:
		return ""
	case r.Message != "":
		return r.Message
	}
	return fmt.Sprintf("expression %q is not true", r.Expression)
}

// MergeRulesError is the refusal (403) of a merge that the rules unmet
// (as MergeRules.Unmet lists them) do not allow, naming each; nil for none.
func MergeRulesError(unmet []string) error {
	if len(unmet) == 0 {
		return nil
	}
	return Errorf(CodeForbidden, "merge rules not met: %s", strings.Join(unmet, "; "))
}

// CheckCanReview refuses (403) a review of c by userID, whose role on the
// space is role and who was asked to review it or not. Reference: "Only
// users who are requested reviewers or have space review permissions can
// submit a review." The request's author may not review it: approving
// one's own change would satisfy review rules alone.
func CheckCanReview(role Role, asked bool, c *ChangeRequest, userID string) error {
	if !role.AtLeast(RoleReview) && !asked {
		return Errorf(CodeForbidden, "reviewing needs the review role on the space, or a request to review")
	}
	if c.CreatedBy.ID == userID {
		return Errorf(CodeForbidden, "the author of a change request cannot review it")
	}
	return nil
}
