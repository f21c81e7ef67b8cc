package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// tokenList is an answer of GET …/tokens.
type tokenList struct {
	Items []struct {
		Object, ID, Label, CreatedAt string
		User                         struct{ ID string }
	}
	Count int
	Next  *struct{ Page string }
}

// TestAPITokens: a user lists their tokens (never the secrets) a page at a
// time and revokes them; an organization admin lists and revokes those of
// the accounts the organization manages and no other; members who are not
// admins are refused, outsiders see nothing; and a revoked token is
// refused at once on every server.
func TestAPITokens(t *testing.T) {
	t.Parallel()
	a, b := twoServers(t)
	idp := newFlow(t, a, testKeys()[0])
	managedToken := signedIn(t, idp.post(t, nil, idp.respond(t, idp.start(t), uniqueEmail("managed"), nil)))
	managedID := a.call(t, managedToken, "GET", "/v1/user", nil).want(t, http.StatusOK).JSON(t)["id"].(string)
	ciToken, err := a.db.CreateLabeledToken(t.Context(), managedID, "CI")
	if err != nil {
		t.Fatal(err)
	}
	member := a.addUser(t, "edit", "Mia Member")
	outsider := a.outsider(t)

	// The owner's list, a page at a time, newest first.
	var page1, page2 tokenList
	r := a.call(t, managedToken, "GET", "/v1/user/tokens?limit=1", nil).want(t, http.StatusOK)
	r.Decode(t, &page1)
	for _, secret := range []string{managedToken, ciToken} {
		if strings.Contains(string(r.Body), secret) {
			t.Fatal("a token list shows a secret")
		}
	}
	if page1.Count != 2 || len(page1.Items) != 1 || page1.Next == nil || page1.Items[0].ID != hashOf(ciToken) ||
		page1.Items[0].Label != "CI" || page1.Items[0].User.ID != managedID || page1.Items[0].Object != "api-token" || page1.Items[0].CreatedAt == "" {
		t.Fatalf("first page: %+v", page1)
	}
	a.call(t, managedToken, "GET", "/v1/user/tokens?limit=1&page="+url.QueryEscape(page1.Next.Page), nil).want(t, http.StatusOK).Decode(t, &page2)
	if len(page2.Items) != 1 || page2.Next != nil || page2.Items[0].ID != hashOf(managedToken) {
		t.Fatalf("second page: %+v", page2)
	}
	a.call(t, managedToken, "GET", "/v1/user/tokens?limit=0", nil).wantError(t, http.StatusBadRequest, "limit")

	// The owner revokes their own; another's is not theirs to name.
	a.call(t, managedToken, "DELETE", "/v1/user/tokens/"+hashOf(member.token), nil).wantError(t, http.StatusNotFound, "token not found")
	a.call(t, ciToken, "GET", "/v1/user", nil).want(t, http.StatusOK)
	b.call(t, ciToken, "GET", "/v1/user", nil).want(t, http.StatusOK)
	heard := b.db.Commits()
	a.call(t, managedToken, "DELETE", "/v1/user/tokens/"+hashOf(ciToken), nil).want(t, http.StatusNoContent)
	a.call(t, managedToken, "DELETE", "/v1/user/tokens/"+hashOf(ciToken), nil).wantError(t, http.StatusNotFound)
	a.call(t, ciToken, "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized)
	waitHeard(t, b.db, heard)
	b.call(t, ciToken, "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized)

	// The admin sees the managed account's tokens, not members' own.
	orgTokens := "/v1/orgs/" + a.org + "/tokens"
	var list tokenList
	a.call(t, a.admin.token, "GET", orgTokens, nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 1 || len(list.Items) != 1 || list.Items[0].ID != hashOf(managedToken) || list.Items[0].User.ID != managedID {
		t.Fatalf("organization's tokens: %+v", list)
	}
	a.call(t, member.token, "GET", orgTokens, nil).wantError(t, http.StatusForbidden, "admins")
	a.call(t, member.token, "DELETE", orgTokens+"/"+hashOf(managedToken), nil).wantError(t, http.StatusForbidden)
	a.call(t, outsider.token, "GET", orgTokens, nil).wantError(t, http.StatusNotFound, "organization not found")
	a.call(t, outsider.token, "DELETE", orgTokens+"/"+hashOf(managedToken), nil).wantError(t, http.StatusNotFound)
	a.call(t, a.admin.token, "DELETE", orgTokens+"/"+hashOf(member.token), nil).wantError(t, http.StatusNotFound, "token not found")
	a.call(t, member.token, "GET", "/v1/user", nil).want(t, http.StatusOK)

	// An admin's revocation holds at once on both servers.
	b.call(t, managedToken, "GET", "/v1/user", nil).want(t, http.StatusOK)
	heard = b.db.Commits()
	a.call(t, a.admin.token, "DELETE", orgTokens+"/"+hashOf(managedToken), nil).want(t, http.StatusNoContent)
	a.call(t, managedToken, "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized)
	waitHeard(t, b.db, heard)
	b.call(t, managedToken, "GET", "/v1/user", nil).wantError(t, http.StatusUnauthorized)
	a.call(t, a.admin.token, "GET", orgTokens, nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 0 || len(list.Items) != 0 {
		t.Fatalf("after revoking, the organization's tokens: %+v", list)
	}
}
