package api_test

import (
	"net/http"
	"testing"
)

func TestSpacesSmoke(t *testing.T) {
	e := newEnv(t)
	tok := e.admin.token
	sp := e.call(t, tok, "POST", "/v1/orgs/"+e.org+"/spaces", map[string]any{"title": "Guide", "emoji": "📘"}).want(t, http.StatusCreated).JSON(t)
	id := sp["id"].(string)
	e.call(t, tok, "GET", "/v1/spaces/"+id, nil).want(t, http.StatusOK)
	e.call(t, tok, "GET", "/v1/orgs/"+e.org+"/spaces", nil).want(t, http.StatusOK)
	col := e.call(t, tok, "POST", "/v1/orgs/"+e.org+"/collections", map[string]any{"title": "Docs"}).want(t, http.StatusCreated).JSON(t)
	cid := col["id"].(string)
	e.call(t, tok, "POST", "/v1/spaces/"+id+"/move", map[string]any{"parent": cid}).want(t, http.StatusOK)
	e.call(t, tok, "GET", "/v1/collections/"+cid+"/spaces", nil).want(t, http.StatusOK)
	e.call(t, tok, "GET", "/v1/orgs/"+e.org+"/collections?nested=false", nil).want(t, http.StatusOK)
	g := e.addUser(t, "guest", "Gus Guest")
	e.call(t, g.token, "GET", "/v1/spaces/"+id, nil).want(t, http.StatusNotFound)
	e.call(t, tok, "POST", "/v1/collections/"+cid+"/permissions", map[string]any{"role": "edit", "users": []string{g.id}}).want(t, http.StatusNoContent)
	got := e.call(t, g.token, "GET", "/v1/spaces/"+id, nil).want(t, http.StatusOK).JSON(t)
	if p := got["permissions"].(map[string]any); p["edit"] != true || p["admin"] != false {
		t.Errorf("guest with inherited edit grant: permissions %v", p)
	}
	e.call(t, tok, "GET", "/v1/spaces/"+id+"/permissions/aggregate", nil).want(t, http.StatusOK)
	e.call(t, tok, "GET", "/v1/collections/"+cid+"/permissions/users", nil).want(t, http.StatusOK)
	e.call(t, tok, "GET", "/v1/collections/"+cid+"/permissions/teams", nil).want(t, http.StatusOK)
	e.call(t, tok, "GET", "/v1/orgs/"+e.org+"/members/"+g.id+"/spaces", nil).want(t, http.StatusOK)
	e.call(t, tok, "POST", "/v1/spaces/"+id+"/duplicate", nil).want(t, http.StatusCreated)
	e.call(t, tok, "PATCH", "/v1/spaces/"+id, map[string]any{"editMode": "locked", "visibility": "in-collection"}).want(t, http.StatusOK)
	e.call(t, tok, "PATCH", "/v1/spaces/"+id, map[string]any{"title": "x"}).want(t, http.StatusForbidden)
	e.call(t, tok, "DELETE", "/v1/spaces/"+id, nil).want(t, http.StatusNoContent)
	e.call(t, tok, "GET", "/v1/spaces/"+id, nil).want(t, http.StatusNotFound)
	e.call(t, tok, "POST", "/v1/spaces/"+id+"/restore", nil).want(t, http.StatusOK)
	e.call(t, tok, "DELETE", "/v1/collections/"+cid, nil).want(t, http.StatusNoContent)
}
