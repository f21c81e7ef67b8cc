package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

type profileOut struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	PhotoURL    string `json:"photoURL"`
}

func TestUpdateOwnProfile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor, outsider := e.addUser(t, "edit", "Ed Editor"), e.outsider(t)
	me := "/v1/users/" + editor.id

	// The token cache must not keep the old name: GET /user reads it at once.
	e.call(t, editor.token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	var got profileOut
	refCall(t, e, editor.token, "PATCH", me, map[string]any{"displayName": "Édith Writer", "photoURL": "https://img.example.com/e.png"}).want(t, http.StatusOK).Decode(t, &got)
	if got.ID != editor.id || got.DisplayName != "Édith Writer" || got.PhotoURL != "https://img.example.com/e.png" {
		t.Errorf("after PATCH %+v", got)
	}
	got = profileOut{}
	e.call(t, editor.token, "GET", "/v1/user", nil).want(t, http.StatusOK).Decode(t, &got)
	if got.DisplayName != "Édith Writer" {
		t.Errorf("GET /user after PATCH: %+v", got)
	}
	// Member lists search and sort by the new name.
	if l := e.fetchMembers(t, e.admin.token, url.Values{"search": {"édith"}}); l.Count != 1 || l.Items[0].User.ID != editor.id {
		t.Errorf("members matching the new name: %+v", l)
	}
	got = profileOut{}
	refCall(t, e, editor.token, "PATCH", me, map[string]any{"photoURL": nil}).want(t, http.StatusOK).Decode(t, &got)
	if got.PhotoURL != "" || got.DisplayName != "Édith Writer" {
		t.Errorf("after removing the photo %+v", got)
	}

	run(t, e, []scenario{
		{name: "someone else's profile", as: editor, method: "PATCH", path: "/v1/users/" + e.admin.id, body: map[string]any{"displayName": "Mallory"}, status: 403},
		{name: "a stranger's profile", as: outsider, method: "PATCH", path: me, body: map[string]any{"displayName": "Mallory"}, status: 404},
		{name: "an unknown user", as: editor, method: "PATCH", path: "/v1/users/nope", body: map[string]any{"displayName": "X"}, status: 404},
		{name: "nothing to change", as: editor, method: "PATCH", path: me, body: map[string]any{}, status: 400, errs: []string{"displayName"}},
		{name: "an empty name", as: editor, method: "PATCH", path: me, body: map[string]any{"displayName": ""}, status: 400, errs: []string{"displayName"}},
		{name: "a null name", as: editor, method: "PATCH", path: me, body: map[string]any{"displayName": nil}, status: 400, errs: []string{"displayName"}},
		{name: "a long name", as: editor, method: "PATCH", path: me, body: map[string]any{"displayName": strings.Repeat("n", 65)}, status: 400, errs: []string{"displayName"}},
		{name: "a control character", as: editor, method: "PATCH", path: me, body: map[string]any{"displayName": "a\x07b"}, status: 400, errs: []string{"displayName"}},
		{name: "a script URL", as: editor, method: "PATCH", path: me, body: map[string]any{"photoURL": "javascript:alert(1)"}, status: 400, errs: []string{"photoURL"}},
		{name: "a relative URL", as: editor, method: "PATCH", path: me, body: map[string]any{"photoURL": "/me.png"}, status: 400, errs: []string{"photoURL"}},
		{name: "a long URL", as: editor, method: "PATCH", path: me, body: map[string]any{"photoURL": "https://x.example.com/" + strings.Repeat("a", 2048)}, status: 400, errs: []string{"photoURL"}},
		{name: "no token", as: anonymous, method: "PATCH", path: me, body: map[string]any{"displayName": "X"}, status: 401},
	})
	if got := e.call(t, e.admin.token, "GET", "/v1/users/"+e.admin.id, nil).JSON(t)["displayName"]; got != "Ada Admin" {
		t.Errorf("the admin's name became %v", got)
	}
}
