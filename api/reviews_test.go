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

func TestReviews(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := e.crSpace(t)
	writer, reviewer := e.addUser(t, "edit", "Wes Writer"), e.addUser(t, "review", "Rae Reviewer")
	reader, commenter, outsider := e.addUser(t, "read", "Ray Reader"), e.addUser(t, "comment", "Cam Commenter"), e.outsider(t)
	cr := e.newCR(t, writer, sp, "Fix typos")
	reviews := cr + "/reviews"

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

	// Requested reviewers: asking needs edit; a reader asked may review.
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
	res = fullCall(t, e, writer, "POST", rr, map[string]any{"users": []string{reader.id, reviewer.id, reader.id}, "subject": "Fix typos, please"}, http.StatusOK)
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

	// Contributors and commenters.
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
