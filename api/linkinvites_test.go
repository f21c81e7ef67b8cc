package api_test

import (
	"net/http"
	"strings"
	"testing"
)

type linkInviteOut struct {
	Object    string  `json:"object"`
	ID        string  `json:"id"`
	Role      *string `json:"role"`
	Level     *string `json:"level"`
	Redundant bool    `json:"redundant"`
	Space     *struct {
		ID string `json:"id"`
	} `json:"space"`
	Collection *struct {
		ID string `json:"id"`
	} `json:"collection"`
	Key string `json:"key"`
	URL string `json:"url"`
}

func createLinkInvite(t *testing.T, e *env, as user, body map[string]any) linkInviteOut {
	t.Helper()
	var out linkInviteOut
	res := refCall(t, e, as.token, "POST", "/v1/orgs/"+e.org+"/link-invites", body).want(t, http.StatusCreated)
	res.Decode(t, &out)
	if !strings.HasPrefix(out.Key, "qinv_") || out.URL != testPublicURL+"/o/"+e.org+"/join/"+out.Key || out.Object != "invite" {
		t.Errorf("created %+v", out)
	}
	if loc := res.Header.Get("Location"); loc != testPublicURL+"/v1/orgs/"+e.org+"/link-invites/"+out.ID {
		t.Errorf("Location %q", loc)
	}
	return out
}

func TestLinkInvites(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor, outsider := e.addUser(t, "edit", "Ed Editor"), e.outsider(t)
	space := colCreateSpace(t, e, "Guide", "")
	col := colCreate(t, e, e.admin.token, "Team docs", "")
	spaceAdmin := e.addUser(t, "guest", "Sam Spaceadmin")
	colGrant(t, e, "space", space.ID, "admin", []string{spaceAdmin.id}, nil)
	base := "/v1/orgs/" + e.org + "/link-invites"

	org := createLinkInvite(t, e, e.admin, map[string]any{"role": "comment"})
	if org.Role == nil || *org.Role != "comment" || org.Level != nil || !org.Redundant || org.Space != nil {
		t.Errorf("organization invite %+v", org)
	}
	sp := createLinkInvite(t, e, spaceAdmin, map[string]any{"level": "edit", "space": space.ID})
	if sp.Level == nil || *sp.Level != "edit" || sp.Role != nil || sp.Space == nil || sp.Space.ID != space.ID || !sp.Redundant {
		t.Errorf("space invite %+v", sp)
	}
	c := createLinkInvite(t, e, e.admin, map[string]any{"level": "read", "collection": col.ID})
	if c.Collection == nil || c.Collection.ID != col.ID {
		t.Errorf("collection invite %+v", c)
	}
	run(t, e, []scenario{
		{name: "members who are not admins make no organization invite", as: editor, method: "POST", path: base, body: map[string]any{"role": "read"}, status: 403},
		{name: "nor a space invite without admin on it", as: editor, method: "POST", path: base, body: map[string]any{"level": "read", "space": space.ID}, status: 403},
		{name: "a space admin makes no organization invite", as: spaceAdmin, method: "POST", path: base, body: map[string]any{"role": "read"}, status: 403},
		{name: "outsiders see nothing", as: outsider, method: "POST", path: base, body: map[string]any{"role": "read"}, status: 404},
		{name: "outsiders list nothing", as: outsider, path: base, status: 404},
		{name: "members who are not admins list nothing", as: editor, path: base, status: 403},
		{name: "role is required", method: "POST", path: base, body: map[string]any{}, status: 400, errs: []string{"role"}},
		{name: "a space invite needs a level", method: "POST", path: base, body: map[string]any{"space": space.ID, "role": "read"}, status: 400, errs: []string{"level"}},
		{name: "a space invite's level is a role", method: "POST", path: base, body: map[string]any{"space": space.ID, "level": nil}, status: 400, errs: []string{"level"}},
		{name: "an unknown space", method: "POST", path: base, body: map[string]any{"space": "nope", "level": "read"}, status: 404},
		{name: "a space invite is the space admin's", as: spaceAdmin, path: base + "/" + sp.ID},
		{name: "not the organization's", as: spaceAdmin, path: base + "/" + org.ID, status: 403},
		{name: "an unknown invite", path: base + "/nope", status: 404},
		{name: "PATCH an organization invite with a level", method: "PATCH", path: base + "/" + org.ID, body: map[string]any{"level": "read"}, status: 400, errs: []string{"role"}},
		{name: "PATCH a space invite with a role", method: "PATCH", path: base + "/" + sp.ID, body: map[string]any{"role": "read"}, status: 400, errs: []string{"level"}},
		{name: "PATCH with both", method: "PATCH", path: base + "/" + org.ID, body: map[string]any{"role": "read", "level": "read"}, status: 400},
		{name: "members who are not admins change nothing", as: editor, method: "PATCH", path: base + "/" + org.ID, body: map[string]any{"role": "admin"}, status: 403},
		{name: "nor delete", as: editor, method: "DELETE", path: base + "/" + org.ID, status: 403},
	})

	// The list holds the invites to the organization, as the reference's does.
	org2 := createLinkInvite(t, e, e.admin, map[string]any{"role": nil})
	if org2.Role != nil || !strings.Contains(string(e.call(t, e.admin.token, "GET", base+"/"+org2.ID, nil).Body), `"role":null`) {
		t.Errorf("a guest invite %+v", org2)
	}
	var list listOut[linkInviteOut]
	refCall(t, e, e.admin.token, "GET", base+"?limit=1", nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 2 || len(list.Items) != 1 || list.Next == nil || list.Items[0].ID != org.ID || list.Items[0].Key != "" {
		t.Fatalf("first page %+v", list)
	}
	next := list.Next.Page
	list = listOut[linkInviteOut]{}
	refCall(t, e, e.admin.token, "GET", base+"?limit=1&page="+next, nil).want(t, http.StatusOK).Decode(t, &list)
	if len(list.Items) != 1 || list.Items[0].ID != org2.ID || list.Next != nil {
		t.Fatalf("second page %+v", list)
	}

	var got linkInviteOut
	refCall(t, e, e.admin.token, "PATCH", base+"/"+org.ID, map[string]any{"role": "edit"}).want(t, http.StatusOK).Decode(t, &got)
	if got.Role == nil || *got.Role != "edit" || got.Key != "" {
		t.Errorf("after PATCH %+v", got)
	}
	refCall(t, e, e.admin.token, "GET", base+"/"+org.ID, nil).want(t, http.StatusOK)
	linkInviteJoins(t, e, org, sp, c, space.ID, col.ID)
	// Deleted, a link joins no one.
	refCall(t, e, e.admin.token, "DELETE", base+"/"+org.ID, nil).want(t, http.StatusResetContent)
	refCall(t, e, e.admin.token, "DELETE", base+"/"+org.ID, nil).want(t, http.StatusNoContent)
	join := func(key string) *response {
		return refCall(t, e, outsider.token, "POST", "/v1/orgs/"+e.org+"/invites/"+key, nil)
	}
	join(org.Key).wantError(t, http.StatusNotFound, "invite not found")
	if memberRole(t, e, outsider.id) != "" {
		t.Error("the outsider joined through a deleted link")
	}
	refCall(t, e, spaceAdmin.token, "DELETE", base+"/"+sp.ID, nil).want(t, http.StatusResetContent)
	join(sp.Key).wantError(t, http.StatusNotFound)
}

// linkInviteJoins joins through the organization's, the space's and the
// collection's link invites, once the organization enables invite links.
func linkInviteJoins(t *testing.T, e *env, org, sp, c linkInviteOut, spaceID, colID string) {
	t.Helper()
	// Joining: only while the organization's invite links are enabled.
	ann, bob := e.outsider(t), e.outsider(t)
	join := func(u user, key string) *response {
		return refCall(t, e, u.token, "POST", "/v1/orgs/"+e.org+"/invites/"+key, nil)
	}
	join(ann, org.Key).wantError(t, http.StatusForbidden, "invite links are disabled")
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org, map[string]any{"inviteLinks": true}).want(t, http.StatusOK)
	join(ann, org.Key).want(t, http.StatusOK)
	if r := memberRole(t, e, ann.id); r != "edit" {
		t.Errorf("ann joined as %q, want edit", r)
	}
	join(bob, sp.Key).want(t, http.StatusOK)
	if r := memberRole(t, e, bob.id); r != "guest" {
		t.Errorf("bob joined as %q, want a guest", r)
	}
	perms := e.call(t, bob.token, "GET", "/v1/spaces/"+spaceID, nil).want(t, http.StatusOK).JSON(t)["permissions"].(map[string]any)
	if perms["edit"] != true || perms["admin"] != false {
		t.Errorf("bob's permissions on the space: %v", perms)
	}
	e.call(t, bob.token, "GET", "/v1/collections/"+colID, nil).wantError(t, http.StatusNotFound)
	join(bob, c.Key).want(t, http.StatusOK)
	e.call(t, bob.token, "GET", "/v1/collections/"+colID, nil).want(t, http.StatusOK)
	join(ann, org.Key).want(t, http.StatusOK) // a link is used again and again

}
