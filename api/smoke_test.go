package api_test

import (
	"net/http"
	"testing"
)

func TestSmoke(t *testing.T) {
	e := newEnv(t)
	e.call(t, e.admin.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org, nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/members/"+e.admin.id, nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "PUT", "/v1/orgs/"+e.org+"/teams", map[string]any{"title": "Docs"}).want(t, http.StatusCreated)
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/teams", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/ping", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/user", nil).want(t, http.StatusOK)
	e.call(t, "", "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized)
}
