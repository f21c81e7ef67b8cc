package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// Reviews, requested reviewers, contributors, commenters and merge rules
// are outside the reference's subset: their answers are checked against the
// whole reference document.

// fullCall calls as u, checks the answer against the whole reference and
// wants status; for an error, its message must hold each of errs.
func fullCall(t *testing.T, e *env, u user, method, path string, body any, status int, errs ...string) *response {
	t.Helper()
	res := e.call(t, u.token, method, path, body)
	if ref := fullReference(t); ref != nil {
		if err := ref.Check(method, strings.TrimPrefix(strings.SplitN(path, "?", 2)[0], "/v1"), res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	if status >= 400 {
		res.wantError(t, status, errs...)
	} else {
		res.want(t, status)
	}
	return res
}

// newCR opens a change request on space as u, with one page written by u,
// and returns its path.
func (e *env) newCR(t *testing.T, u user, spaceID, subject string) string {
	t.Helper()
	var c crOut
	e.call(t, u.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": subject}).
		want(t, http.StatusCreated).Decode(t, &c)
	path := "/v1/spaces/" + spaceID + "/change-requests/" + c.ID
	e.author(t, u.token, path, insertPage("", "# Page of "+subject+"\n\nText.\n")).want(t, http.StatusOK)
	return path
}

type reviewOut struct {
	ID          string `json:"id"`
	Status      string `json:"status"`
	Outdated    bool   `json:"outdated"`
	RequestedBy *struct {
		ID string `json:"id"`
	} `json:"requestedBy"`
	Comment *struct {
		ID   string `json:"id"`
		Body struct {
			Markdown string `json:"markdown"`
		} `json:"body"`
	} `json:"comment"`
	URLs struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// reviewFixture is a space with a change request by writer, and people
// with each role around it.
type reviewFixture struct {
	e                                             *env
	sp, cr, reviews                               string
	writer, reviewer, reader, commenter, outsider user
}

func TestReviews(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := &reviewFixture{e: e, sp: e.crSpace(t), writer: e.addUser(t, "edit", "Wes Writer"), reviewer: e.addUser(t, "review", "Rae Reviewer"),
		reader: e.addUser(t, "read", "Ray Reader"), commenter: e.addUser(t, "comment", "Cam Commenter"), outsider: e.outsider(t)}
	f.cr = e.newCR(t, f.writer, f.sp, "Fix typos")
	f.reviews = f.cr + "/reviews"
	first := f.submitting(t)
	f.requesting(t, first)
	f.contributing(t)
}

// submitting: who may see and submit reviews, validation, a review with a
// comment.
func (f *reviewFixture) submitting(t *testing.T) reviewOut {
	e, sp, cr, reviews := f.e, f.sp, f.cr, f.reviews
	writer, reviewer, reader, outsider := f.writer, f.reviewer, f.reader, f.outsider

	// Who may see and submit.
	fullCall(t, e, reader, "GET", reviews, nil, http.StatusOK)
	fullCall(t, e, outsider, "GET", reviews, nil, http.StatusNotFound)
	fullCall(t, e, outsider, "POST", reviews, map[string]any{"status": "approved"}, http.StatusNotFound)
	fullCall(t, e, reader, "POST", reviews, map[string]any{"status": "approved"}, http.StatusForbidden, "review role")
	fullCall(t, e, writer, "POST", reviews, map[string]any{"status": "approved"}, http.StatusForbidden)
	own := e.newCR(t, reviewer, sp, "Own work")
	fullCall(t, e, reviewer, "POST", own+"/reviews", map[string]any{"status": "approved"}, http.StatusForbidden, "author")

	// Validation names the field.
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{}, "status: is required"},
		{map[string]any{"status": "lgtm"}, "status: must be approved or changes-requested"},
		{map[string]any{"status": 1}, "status"},
		{map[string]any{"status": "approved", "comment": map[string]any{"markdown": " "}}, "comment.markdown"},
		{map[string]any{"status": "approved", "comment": "nice"}, "comment"},
	} {
		fullCall(t, e, reviewer, "POST", reviews, tc.body, http.StatusBadRequest, tc.want)
	}

	// A review with a comment: the comment is posted in the request's comments.
	var first reviewOut
	res := fullCall(t, e, reviewer, "POST", reviews, map[string]any{"status": "approved", "comment": map[string]any{"markdown": "Looks good."}}, http.StatusCreated)
	res.Decode(t, &first)
	if first.Status != "approved" || first.Outdated || first.RequestedBy != nil || first.Comment == nil || first.Comment.Body.Markdown != "Looks good." {
		t.Errorf("review %s", res.Body)
	}
	if loc := res.Header.Get("Location"); loc == "" || loc != first.URLs.Location {
		t.Errorf("Location %q, urls.location %q", loc, first.URLs.Location)
	}
	fullCall(t, e, reader, "GET", reviews+"/"+first.ID, nil, http.StatusOK)
	fullCall(t, e, reader, "GET", reviews+"/"+first.ID+"?format=document", nil, http.StatusOK)
	fullCall(t, e, reader, "GET", reviews+"/nosuchreview", nil, http.StatusNotFound)
	fullCall(t, e, outsider, "GET", reviews+"/"+first.ID, nil, http.StatusNotFound)
	run(t, e, []scenario{
		{path: cr + "/comments", as: reader, want: []check{field("items.#.id", []string{first.Comment.ID})}},
	})
	return first
}

// requesting: asking for reviews needs edit; a reader asked may review;
// asking again outdates a review.
func (f *reviewFixture) requesting(t *testing.T, first reviewOut) {
	e, cr, reviews := f.e, f.cr, f.reviews
	writer, reviewer, reader, outsider := f.writer, f.reviewer, f.reader, f.outsider
	rr := cr + "/requested-reviewers"
	fullCall(t, e, reader, "POST", rr, map[string]any{"users": []string{reviewer.id}}, http.StatusForbidden)
	fullCall(t, e, outsider, "POST", rr, map[string]any{"users": []string{reviewer.id}}, http.StatusNotFound)
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]any{}, "users: must list at least one"},
		{map[string]any{"users": []string{}}, "users: must list at least one"},
		{map[string]any{"users": []string{reader.id, ""}}, "users[1]"},
		{map[string]any{"users": []string{outsider.id}}, "users[0]: no member"},
		{map[string]any{"users": []string{reader.id, writer.id}}, "users[1]: the author"},
		{map[string]any{"users": []string{reader.id}, "subject": strings.Repeat("s", 101)}, "subject"},
	} {
		fullCall(t, e, writer, "POST", rr, tc.body, http.StatusBadRequest, tc.want)
	}
	res := fullCall(t, e, writer, "POST", rr, map[string]any{"users": []string{reader.id, reviewer.id, reader.id}, "subject": "Fix typos, please"}, http.StatusOK)
	if got := res.JSON(t)["users"].([]any); len(got) != 2 {
		t.Errorf("asked %d users, want 2 (once each)", len(got))
	}
	run(t, e, []scenario{
		// Asked at once, they are listed by id.
		{name: "asked", path: rr, as: reader, want: []check{field("items.#.user.id", sorted(reader.id, reviewer.id)),
			field("items.#.requestedBy.id", []string{writer.id, writer.id}), field("count", 2)}},
		{name: "subject set", path: cr, as: reader, want: []check{field("subject", "Fix typos, please")}},
		// Asking the reviewer again outdated their review.
		{name: "outdated", path: reviews + "?outdated=true", as: reader, want: []check{field("items.#.id", []string{first.ID})}},
		{name: "bad outdated", path: reviews + "?outdated=1", as: reader, status: http.StatusBadRequest, errs: []string{"outdated"}},
	})
	var second reviewOut
	fullCall(t, e, reader, "POST", reviews, map[string]any{"status": "changes-requested"}, http.StatusCreated).Decode(t, &second)
	if second.RequestedBy == nil || second.RequestedBy.ID != writer.id || second.Comment != nil {
		t.Errorf("review of a reader asked: %+v", second)
	}
	run(t, e, []scenario{
		{name: "current", path: reviews + "?outdated=false", as: reader, want: []check{field("items.#.id", []string{second.ID})}},
		{name: "all", path: reviews + "?limit=1", as: reader, want: []check{field("items.#.id", []string{second.ID}), field("count", 2), nonzero("next.page")}},
	})

	// Withdrawing: 205, then 204; readers may not.
	fullCall(t, e, reader, "DELETE", rr+"/"+reviewer.id, nil, http.StatusForbidden)
	fullCall(t, e, writer, "DELETE", rr+"/"+reviewer.id, nil, http.StatusResetContent)
	fullCall(t, e, writer, "DELETE", rr+"/"+reviewer.id, nil, http.StatusNoContent)
	run(t, e, []scenario{{name: "after removal", path: rr, as: reader, want: []check{field("items.#.user.id", []string{reader.id})}}})
}

// contributing: contributors and commenters, then a merged request refuses
// reviews and requests.
func (f *reviewFixture) contributing(t *testing.T) {
	e, sp, cr, reviews, rr := f.e, f.sp, f.cr, f.reviews, f.cr+"/requested-reviewers"
	writer, reviewer, reader, commenter, outsider := f.writer, f.reviewer, f.reader, f.commenter, f.outsider
	e.author(t, writer.token, cr, insertPage("", "# Second\n")).want(t, http.StatusOK)
	e.call(t, commenter.token, "POST", "/v1/spaces/"+sp+"/comments", map[string]any{"body": map[string]any{"markdown": "On the space"}}).want(t, http.StatusOK)
	fullCall(t, e, reader, "GET", cr+"/contributors", nil, http.StatusOK)
	fullCall(t, e, reader, "GET", cr+"/commenters", nil, http.StatusOK)
	fullCall(t, e, reader, "GET", "/v1/spaces/"+sp+"/commenters", nil, http.StatusOK)
	run(t, e, []scenario{
		{path: cr + "/contributors", as: reader, want: []check{field("items.#.user.id", []string{writer.id}),
			field("items.#.count", []int{2}), field("items.#.actionType", []string{"edit"})}},
		{path: cr + "/commenters", as: reader, want: []check{field("items.#.user.id", []string{reviewer.id}), field("items.#.object", []string{"member"})}},
		{path: "/v1/spaces/" + sp + "/commenters", as: reader, want: []check{field("items.#.user.id", []string{commenter.id})}},
		{path: cr + "/contributors", as: outsider, status: http.StatusNotFound},
		{path: cr + "/commenters", as: outsider, status: http.StatusNotFound},
		{path: "/v1/spaces/" + sp + "/commenters", as: outsider, status: http.StatusNotFound},
		{path: "/v1/spaces/" + sp + "/commenters?page=not-a-cursor", as: reader, status: http.StatusBadRequest, errs: []string{"page"}},
	})

	// A merged request takes no more reviews or requests.
	fullCall(t, e, e.admin, "POST", cr+"/merge", nil, http.StatusOK)
	fullCall(t, e, reviewer, "POST", reviews, map[string]any{"status": "approved"}, http.StatusBadRequest, "already merged")
	fullCall(t, e, writer, "POST", rr, map[string]any{"users": []string{reviewer.id}}, http.StatusBadRequest, "already merged")
}

func sorted(ids ...string) []string {
	slices.Sort(ids)
	return ids
}

// TestMergeRules: each rule kind refuses a merge (403, naming it) until it
// is met; none, or no rules set, merges as before; a space's own rules
// replace its organization's, which it inherits by default.
// mergeRuleCase is a space with one merge rule (none when rule is nil), a
// change request by author, what happens before merging, the refusal
// expected, and what makes the merge allowed (nil: nothing does).
type mergeRuleCase struct {
	name    string
	rule    map[string]any // the space's one rule; nil for {"type":"none"}
	subject string         // "" for "Change"
	before  func(t *testing.T, cr string)
	by      user // who merges; the admin when zero
	refuse  []string
	fix     func(t *testing.T, cr string)
}

func mergeRuleCases(e *env, author, vic, val user) []mergeRuleCase {
	review := func(u user, status string) func(t *testing.T, cr string) {
		return func(t *testing.T, cr string) {
			fullCall(t, e, u, "POST", cr+"/reviews", map[string]any{"status": status}, http.StatusCreated)
		}
	}
	users := func(ids ...string) []string { return ids }
	return []mergeRuleCase{
		{name: "none"},
		{name: "at least one review", rule: map[string]any{"rule": "require_at_least_one_review"},
			refuse: []string{"require_at_least_one_review", "at least one review"}, fix: review(vic, "changes-requested")},
		{name: "at least one approved", rule: map[string]any{"rule": "require_at_least_one_approved_review"}, before: review(vic, "changes-requested"),
			refuse: []string{"require_at_least_one_approved_review"}, fix: review(val, "approved")},
		{name: "all approved", rule: map[string]any{"rule": "require_all_reviews_approved"}, before: review(vic, "changes-requested"),
			refuse: []string{"require_all_reviews_approved"}, fix: review(vic, "approved")},
		{name: "specific reviewers", rule: map[string]any{"rule": "require_specific_reviewers", "users": users(vic.id, val.id)}, before: review(vic, "approved"),
			refuse: []string{"require_specific_reviewers", val.id}, fix: review(val, "approved")},
		{name: "one of specific reviewers", rule: map[string]any{"rule": "require_one_of_specific_reviewers", "users": users(vic.id, val.id)},
			before: review(e.admin, "approved"), refuse: []string{"require_one_of_specific_reviewers"}, fix: review(val, "approved")},
		{name: "up to date", rule: map[string]any{"rule": "require_up_to_date_change_request"},
			before: func(t *testing.T, cr string) {
				other := e.newCR(t, e.admin, strings.Split(cr, "/")[3], "Other")
				fullCall(t, e, e.admin, "PATCH", "/v1/spaces/"+strings.Split(cr, "/")[3], map[string]any{"mergeRules": map[string]any{"type": "none"}}, http.StatusOK)
				fullCall(t, e, e.admin, "POST", other+"/merge", nil, http.StatusOK)
				fullCall(t, e, e.admin, "PATCH", "/v1/spaces/"+strings.Split(cr, "/")[3], map[string]any{"mergeRules": map[string]any{"type": "rules",
					"rules": []any{map[string]any{"rule": "require_up_to_date_change_request"}}}}, http.StatusOK)
			},
			refuse: []string{"require_up_to_date_change_request"},
			fix: func(t *testing.T, cr string) {
				e.call(t, author.token, "POST", cr+"/update", nil).want(t, http.StatusOK)
			}},
		{name: "subject", rule: map[string]any{"rule": "require_change_request_subject"}, subject: " ",
			refuse: []string{"require_change_request_subject"},
			fix: func(t *testing.T, cr string) {
				e.call(t, author.token, "PATCH", cr, map[string]any{"subject": "Now with a subject"}).want(t, http.StatusOK)
			}},
		{name: "author merges", rule: map[string]any{"rule": "require_author_to_merge"}, refuse: []string{"require_author_to_merge"},
			fix: func(*testing.T, string) {}, by: author},
		{name: "custom", rule: map[string]any{"rule": "custom", "expression": `changeRequest.subject == "Ship it" && actor.id != ""`, "message": "say Ship it"},
			refuse: []string{"custom: say Ship it"},
			fix: func(t *testing.T, cr string) {
				e.call(t, author.token, "PATCH", cr, map[string]any{"subject": "Ship it"}).want(t, http.StatusOK)
			}},
		{name: "custom on reviews", rule: map[string]any{"rule": "custom", "expression": `len(reviews) > 0 && reviews[0].status == "approved"`},
			refuse: []string{"custom: expression", "is not true"}, fix: review(vic, "approved")},
		{name: "custom that fails", rule: map[string]any{"rule": "custom", "expression": `nosuchname.x`}, refuse: []string{"custom: expression", "does not compile"}},
		{name: "agent review", rule: map[string]any{"rule": "require_agent_review"}, refuse: []string{"require_agent_review"}},
		{name: "description", rule: map[string]any{"rule": "require_change_request_description"}, refuse: []string{"require_change_request_description: the change request needs a description"},
			fix: func(t *testing.T, cr string) {
				e.call(t, author.token, "PATCH", cr, map[string]any{"description": paragraphDoc("Why: the docs were wrong.")}).want(t, http.StatusOK)
			}},
	}
}

func TestMergeRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	author, vic, val := e.addUser(t, "review", "Rita Author"), e.addUser(t, "review", "Vic Reviewer"), e.addUser(t, "review", "Val Reviewer")
	for _, tc := range mergeRuleCases(e, author, vic, val) {
		t.Run(tc.name, func(t *testing.T) {
			sp := e.crSpace(t)
			rules := map[string]any{"type": "none"}
			if tc.rule != nil {
				rules = map[string]any{"type": "rules", "rules": []any{tc.rule}}
			}
			run(t, e, []scenario{{method: "PATCH", path: "/v1/spaces/" + sp, body: map[string]any{"mergeRules": rules}, want: []check{field("mergeRules", rules)}}})
			subject := tc.subject
			if subject == "" {
				subject = "Change"
			}
			cr := e.newCR(t, author, sp, subject)
			if tc.before != nil {
				tc.before(t, cr)
			}
			by := tc.by
			if by == (user{}) {
				by = e.admin
			}
			if tc.refuse != nil {
				fullCall(t, e, e.admin, "POST", cr+"/merge", nil, http.StatusForbidden, append([]string{"merge rules not met"}, tc.refuse...)...)
				if tc.fix == nil {
					return
				}
				tc.fix(t, cr)
			}
			fullCall(t, e, by, "POST", cr+"/merge", nil, http.StatusOK)
		})
	}
}

// TestMergeRulesInheritAndBypass: spaces inherit their organization's rules
// until they set their own; allow_bypass lets its users through.
func TestMergeRulesInheritAndBypass(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	author, boss, editor, reader := e.addUser(t, "review", "Rita Author"), e.addUser(t, "review", "Bo Boss"), e.addUser(t, "edit", "Ed Editor"), e.addUser(t, "read", "Ray Reader")
	sp := e.crSpace(t)
	orgRules := map[string]any{"type": "rules", "rules": []any{
		map[string]any{"rule": "require_at_least_one_approved_review"}, map[string]any{"rule": "allow_bypass", "users": []string{boss.id}}}}
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"mergeRules": orgRules}).want(t, http.StatusOK)
	run(t, e, []scenario{
		{path: "/v1/spaces/" + sp, as: reader, want: []check{field("mergeRules", map[string]any{"type": "inherit"})}},
		// Setting a space's rules is for its admins, and validated.
		{method: "PATCH", path: "/v1/spaces/" + sp, as: editor, body: map[string]any{"mergeRules": map[string]any{"type": "none"}},
			status: http.StatusForbidden, errs: []string{"mergeRules"}},
		{method: "PATCH", path: "/v1/spaces/" + sp, body: map[string]any{"mergeRules": map[string]any{"type": "some"}},
			status: http.StatusBadRequest, errs: []string{"mergeRules.type"}},
		{method: "PATCH", path: "/v1/spaces/" + sp, body: map[string]any{"mergeRules": nil}, status: http.StatusBadRequest, errs: []string{"mergeRules"}},
		{method: "PATCH", path: "/v1/spaces/" + sp, body: map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "nope"}}}},
			status: http.StatusBadRequest, errs: []string{"mergeRules.rules[0].rule"}},
	})
	cr := e.newCR(t, author, sp, "Inherited")
	fullCall(t, e, e.admin, "POST", cr+"/merge", nil, http.StatusForbidden, "require_at_least_one_approved_review")
	fullCall(t, e, reader, "POST", cr+"/merge", nil, http.StatusForbidden)
	fullCall(t, e, e.outsider(t), "POST", cr+"/merge", nil, http.StatusNotFound)
	fullCall(t, e, boss, "POST", cr+"/merge", nil, http.StatusOK) // bypass

	// The space's own none replaces the organization's rules; inherit restores them.
	cr = e.newCR(t, author, sp, "Own rules")
	run(t, e, []scenario{{method: "PATCH", path: "/v1/spaces/" + sp, body: map[string]any{"mergeRules": map[string]any{"type": "inherit"}},
		want: []check{field("mergeRules", map[string]any{"type": "inherit"})}}})
	fullCall(t, e, e.admin, "POST", cr+"/merge", nil, http.StatusForbidden, "require_at_least_one_approved_review")
	e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+sp, map[string]any{"mergeRules": map[string]any{"type": "none"}}).want(t, http.StatusOK)
	fullCall(t, e, e.admin, "POST", cr+"/merge", nil, http.StatusOK)
}

// TestMergeRulesGuardImport: importing into a space merges at once, so the
// rules in force must allow an unreviewed merge. A refused import, of a
// website, of uploaded files or as a run, changes nothing: the space keeps
// its revision and its change requests, and no run is left.
func TestMergeRulesGuardImport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := e.crSpace(t)
	refused := []string{"merge rules not met", "require_at_least_one_review"}
	var before crSpaceCounts
	run(t, e, []scenario{
		{method: "PATCH", path: "/v1/spaces/" + sp, body: map[string]any{"mergeRules": map[string]any{"type": "rules",
			"rules": []any{map[string]any{"rule": "require_at_least_one_review"}}}}, want: []check{into(&before)}},
		{method: "POST", path: "/v1/spaces/" + sp + "/content/import", body: map[string]any{"url": "http://127.0.0.1:1/", "source": "website"},
			status: http.StatusForbidden, errs: refused},
		{method: "POST", path: "/v1/spaces/" + sp + "/content/import", body: map[string]any{"source": map[string]any{"type": "file", "files": []string{"upload"}}},
			status: http.StatusForbidden, errs: refused},
		{method: "POST", path: "/v1/org/" + e.org + "/imports", body: websiteRun("http://127.0.0.1:1/", sp),
			status: http.StatusForbidden, errs: refused},
	})
	run(t, e, []scenario{
		{path: "/v1/spaces/" + sp, want: []check{field("revision", before.Revision), field("changeRequests", before.ChangeRequests)}},
		{path: "/v1/org/" + e.org + "/imports", want: []check{field("count", 0)}},
	})
}
