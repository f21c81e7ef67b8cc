package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Invites, link invites and one's own profile are outside the reference's
// subset: authCall checks their answers against the whole reference.

type invitationOut struct {
	Email     string  `json:"email"`
	Role      *string `json:"role"`
	Key       string  `json:"key"`
	URL       string  `json:"url"`
	ExpiresAt string  `json:"expiresAt"`
}

type inviteResultOut struct {
	Users   []string        `json:"users"`
	Invited int             `json:"invited"`
	Invites []invitationOut `json:"invites"`
}

// refCall calls as token's holder and checks the answer, whatever its
// status, against the whole reference.
func refCall(t *testing.T, e *env, token, method, path string, body any) *response {
	t.Helper()
	res := e.call(t, token, method, path, body)
	if ref := fullReference(t); ref != nil {
		bare, _, _ := strings.Cut(strings.TrimPrefix(path, "/v1"), "?")
		if err := ref.Check(method, bare, res.Status, res.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
	return res
}

func strPtr(s string) *string { return &s }

// invite invites emails (strings or {email, role} objects) as the admin.
func invite(t *testing.T, e *env, body map[string]any) inviteResultOut {
	t.Helper()
	var out inviteResultOut
	authCall(t, e, e.admin.token, "POST", "/v1/orgs/"+e.org+"/invites", body, http.StatusOK).Decode(t, &out)
	return out
}

// memberRole is the organization role of userID as the admin reads it
// ("guest" for null), or "" when they are not a member.
func memberRole(t *testing.T, e *env, userID string) string {
	t.Helper()
	res := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+userID, nil)
	if res.Status == http.StatusNotFound {
		return ""
	}
	role, _ := res.want(t, http.StatusOK).JSON(t)["role"].(string)
	if role == "" {
		return "guest"
	}
	return role
}

func TestInviteByEmail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor, ann, bob := e.addUser(t, "edit", "Ed Editor"), e.outsider(t), e.outsider(t)
	path := "/v1/orgs/" + e.org + "/invites"

	got := invite(t, e, map[string]any{"emails": []any{ann.email, map[string]any{"email": strings.ToUpper(bob.email), "role": "edit"}, editor.email, ann.email}, "role": "read"})
	if got.Invited != 2 || len(got.Invites) != 2 || len(got.Users) != 0 {
		t.Fatalf("invited %+v, want ann and bob (the member and the repeat passed over)", got)
	}
	annInv, bobInv := got.Invites[0], got.Invites[1]
	if diff := cmp.Diff(invitationOut{Email: ann.email, Role: strPtr("read"), Key: annInv.Key, URL: testPublicURL + "/o/" + e.org + "/join/" + annInv.Key, ExpiresAt: annInv.ExpiresAt}, annInv); diff != "" {
		t.Errorf("ann's invite (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(annInv.Key, "qinv_") || bobInv.Email != bob.email || *bobInv.Role != "edit" || annInv.Key == bobInv.Key {
		t.Errorf("invites %+v", got.Invites)
	}
	if exp, err := time.Parse(time.RFC3339, annInv.ExpiresAt); err != nil || time.Until(exp) < 6*24*time.Hour {
		t.Errorf("expiresAt %q, want a week from now", annInv.ExpiresAt)
	}

	join := func(u user, key string) *response {
		return refCall(t, e, u.token, "POST", path+"/"+key, nil)
	}
	run(t, e, []scenario{
		{name: "a member who is not an admin may not invite", as: editor, method: "POST", path: path, body: map[string]any{"emails": []string{"x@example.com"}}, status: 403},
		{name: "an outsider sees no organization", as: ann, method: "POST", path: path, body: map[string]any{"emails": []string{"x@example.com"}}, status: 404},
		{name: "emails are required", method: "POST", path: path, body: map[string]any{"role": "read"}, status: 400, errs: []string{"emails"}},
		{name: "an address is checked", method: "POST", path: path, body: map[string]any{"emails": []string{"not an address"}}, status: 400, errs: []string{"emails[0]"}},
		{name: "an object needs a role", method: "POST", path: path, body: map[string]any{"emails": []any{map[string]any{"email": "x@example.com"}}}, status: 400, errs: []string{"role"}},
		{name: "a role is checked", method: "POST", path: path, body: map[string]any{"emails": []string{"x@example.com"}, "role": "owner"}, status: 400, errs: []string{"role"}},
		{name: "bob may not use ann's invite", as: bob, method: "POST", path: path + "/" + annInv.Key, status: 403, errs: []string{"another e-mail address"}},
		{name: "an unknown key", as: ann, method: "POST", path: path + "/qinv_AAAAAAAAAAAAAAAAAAAAAAAAAA", status: 404},
		{name: "not a key", as: ann, method: "POST", path: path + "/whatever", status: 404},
		{name: "a key of another organization", as: ann, method: "POST", path: "/v1/orgs/nope/invites/" + annInv.Key, status: 404},
	})
	join(ann, annInv.Key).want(t, http.StatusOK)
	if got := memberRole(t, e, ann.id); got != "read" {
		t.Errorf("ann joined as %q, want read", got)
	}
	join(ann, annInv.Key).wantError(t, http.StatusConflict, "already been used")

	// A week later bob's invite has expired; a fresh one, with sso, works.
	later := time.Now().Add(8 * 24 * time.Hour)
	e.db.Now = func() time.Time { return later }
	join(bob, bobInv.Key).wantError(t, http.StatusConflict, "expired")
	if memberRole(t, e, bob.id) != "" {
		t.Fatalf("bob joined with an expired invite")
	}
	again := invite(t, e, map[string]any{"emails": []string{bob.email}, "sso": true})
	join(bob, again.Invites[0].Key).want(t, http.StatusOK)
	m := e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+bob.id, nil).want(t, http.StatusOK).JSON(t)
	if m["role"] != nil || m["sso"] != true {
		t.Errorf("bob joined as %v (sso %v), want the default role (guest) and sso", m["role"], m["sso"])
	}
}

// TestInviteRaisesNeverLowers: a member who joins with an invite keeps
// their membership, their role raised when the invite's is stronger.
func TestInviteRaisesNeverLowers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.outsider(t)
	otherOrg := e.call(t, other.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).JSON(t)["items"].([]any)[0].(map[string]any)["id"].(string)
	o := &env{db: e.db, srv: e.srv, org: otherOrg, admin: other}
	writer := o.addUser(t, "edit", "Wanda Writer")
	inv := invite(t, o, map[string]any{"emails": []any{map[string]any{"email": writer.email, "role": "admin"}}})
	if inv.Invited != 0 {
		t.Fatalf("a member was invited: %+v", inv)
	}
	// Invited before joining another way: the invite still raises.
	ann := e.outsider(t)
	inv = invite(t, o, map[string]any{"emails": []string{ann.email}, "role": "comment"})
	if _, err := e.db.AddUser(t.Context(), otherOrg, ann.email, "", "admin"); err != nil {
		t.Fatal(err)
	}
	authCall(t, o, ann.token, "POST", "/v1/orgs/"+otherOrg+"/invites/"+inv.Invites[0].Key, nil, http.StatusOK)
	if got := memberRole(t, o, ann.id); got != "admin" {
		t.Errorf("ann is %q after joining with a weaker invite, want admin kept", got)
	}
}

// TestInviteManagedAccount: an account another organization's single
// sign-on manages cannot join, by e-mail invite or by link (409, as
// quire admin add-user answers).
func TestInviteManagedAccount(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	mallory := a.outsider(t)
	orgB := a.call(t, mallory.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).JSON(t)["items"].([]any)[0].(map[string]any)["id"].(string)
	b := &env{db: a.db, srv: a.srv, org: orgB, admin: mallory}
	idp := newFlow(t, b, testKeys()[0])
	email := uniqueEmail("managed")
	token := signedIn(t, idp.post(t, nil, idp.respond(t, idp.start(t), email, nil)))
	managed := user{email: email, token: token}

	inv := invite(t, a, map[string]any{"emails": []string{email}, "role": "edit"})
	refCall(t, a, token, "POST", "/v1/orgs/"+a.org+"/invites/"+inv.Invites[0].Key, nil).wantError(t, http.StatusConflict, "managed by another organization")

	a.call(t, a.admin.token, "PATCH", "/v1/orgs/"+a.org, map[string]any{"inviteLinks": true}).want(t, http.StatusOK)
	link := createLinkInvite(t, a, a.admin, map[string]any{"role": "read"})
	run(t, a, []scenario{
		{name: "by link", as: managed, method: "POST", path: "/v1/orgs/" + a.org + "/invites/" + link.Key, status: 409, errs: []string{"managed by another organization"}},
		{name: "still outside", as: managed, path: "/v1/orgs/" + a.org, status: 404},
	})
	// The invite was not used up by the refusal: no one else can take it anyway.
	refCall(t, a, token, "POST", "/v1/orgs/"+a.org+"/invites/"+inv.Invites[0].Key, nil).wantError(t, http.StatusConflict, "managed")
}
