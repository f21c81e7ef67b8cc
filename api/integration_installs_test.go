package api_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/quiredocs/quire/store"
)

// Installing integrations, installation tokens and the integration's
// events (issue 19), end to end; every answer is checked against the whole
// reference (authCall). Identifiers start with "inst".

type instOut struct {
	ID             string         `json:"id"`
	Status         string         `json:"status"`
	SpaceSelection string         `json:"space_selection"`
	Spaces         int            `json:"spaces"`
	Configuration  map[string]any `json:"configuration"`
	ExternalIDs    []string       `json:"externalIds"`
	Target         struct {
		Organization string `json:"organization"`
	} `json:"target"`
}

type instEventOut struct {
	ID             string         `json:"id"`
	IntegrationID  string         `json:"integrationId"`
	InstallationID string         `json:"installationId"`
	Status         string         `json:"status"`
	Payload        map[string]any `json:"payload"`
}

// instEventTypes lists the integration's event types, newest first.
func instEventTypes(t *testing.T, e *env, name string) []string {
	t.Helper()
	var list listOut[instEventOut]
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/"+name+"/events", nil, http.StatusOK).Decode(t, &list)
	types := []string{}
	for _, ev := range list.Items {
		types = append(types, ev.Payload["type"].(string))
	}
	if list.Count != len(types) {
		t.Errorf("events: count %d, %d items", list.Count, len(types))
	}
	return types
}

func TestIntegrationInstall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tickClock(e)
	editor := e.addUser(t, "edit", "Eddie Editor")
	out := e.outsider(t)
	b := integBody(e)
	b["visibility"] = "public"
	integPublish(t, e, e.admin.token, "installme", b)
	base := "/v1/integrations/installme/installations"

	// Installing: admins of the target organization, once.
	authCall(t, e, editor.token, "POST", base, map[string]any{"organization": e.org}, http.StatusForbidden)
	authCall(t, e, out.token, "POST", base, map[string]any{"organization": e.org}, http.StatusNotFound)
	e.call(t, e.admin.token, "POST", base, map[string]any{}).wantError(t, http.StatusBadRequest, "organization")
	var inst instOut
	authCall(t, e, e.admin.token, "POST", base, map[string]any{"organization": e.org}, http.StatusCreated).Decode(t, &inst)
	if inst.Status != "active" || inst.SpaceSelection != "all" || inst.Target.Organization != e.org || len(inst.ExternalIDs) != 0 {
		t.Errorf("installed: %+v", inst)
	}
	e.call(t, e.admin.token, "POST", base, map[string]any{"organization": e.org}).wantError(t, http.StatusConflict, "already installed")
	path := base + "/" + inst.ID

	// Reading: admins of the organization; others do not see it.
	authCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK)
	authCall(t, e, editor.token, "GET", path, nil, http.StatusNotFound)
	authCall(t, e, out.token, "GET", path, nil, http.StatusNotFound)
	authCall(t, e, e.admin.token, "GET", base+"/nope", nil, http.StatusNotFound)

	// Updating: bad fields are refused and change nothing.
	e.call(t, e.admin.token, "PATCH", path, map[string]any{"configuration": []int{1}}).wantError(t, http.StatusBadRequest, "configuration")
	e.call(t, e.admin.token, "PATCH", path, map[string]any{"externalIds": []string{"1", "2", "3", "4", "5", "6"}}).wantError(t, http.StatusBadRequest, "externalIds")
	e.call(t, e.admin.token, "PATCH", path, map[string]any{"space_selection": "some"}).wantError(t, http.StatusBadRequest, "space_selection")
	authCall(t, e, e.admin.token, "PATCH", path, map[string]any{"configuration": map[string]any{"k": "v"}, "externalIds": []string{"x1"}},
		http.StatusOK).Decode(t, &inst)
	if inst.Configuration["k"] != "v" || len(inst.ExternalIDs) != 1 {
		t.Errorf("updated: %+v", inst)
	}

	// Spaces and sites.
	space := siteNewSpace(t, e, "Guide")
	other := siteNewSpace(t, e, "Other")
	site := siteCreate(t, e, map[string]any{"title": "Docs", "spaces": []string{space}})
	authCall(t, e, e.admin.token, "POST", path+"/spaces", map[string]any{"space": space}, http.StatusCreated)
	e.call(t, e.admin.token, "POST", path+"/spaces", map[string]any{"space": space}).wantError(t, http.StatusConflict, "already")
	e.call(t, e.admin.token, "POST", path+"/spaces", map[string]any{}).wantError(t, http.StatusBadRequest, "space")
	authCall(t, e, e.admin.token, "POST", path+"/spaces", map[string]any{"space": "nosuchspace"}, http.StatusNotFound)
	authCall(t, e, editor.token, "POST", path+"/spaces", map[string]any{"space": other}, http.StatusNotFound)
	authCall(t, e, e.admin.token, "PATCH", path+"/spaces/"+space, map[string]any{"externalIds": []string{"sx"}}, http.StatusOK)
	authCall(t, e, e.admin.token, "GET", path+"/spaces/"+space, nil, http.StatusOK)
	authCall(t, e, e.admin.token, "GET", path+"/spaces/"+other, nil, http.StatusNotFound)
	var spaces listOut[map[string]any]
	authCall(t, e, e.admin.token, "GET", path+"/spaces", nil, http.StatusOK).Decode(t, &spaces)
	if spaces.Count != 1 || spaces.Items[0]["space"] != space {
		t.Errorf("space installations: %+v", spaces)
	}
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/installme/spaces?externalId=sx", nil, http.StatusOK).Decode(t, &spaces)
	if spaces.Count != 1 {
		t.Errorf("space installations with externalId sx: %+v", spaces)
	}
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/installme/spaces?externalId=s", nil, http.StatusOK).Decode(t, &spaces)
	if spaces.Count != 0 {
		t.Errorf("space installations with externalId s: %+v", spaces)
	}
	authCall(t, e, e.admin.token, "POST", path+"/sites", map[string]any{"siteId": site.ID}, http.StatusCreated)
	authCall(t, e, e.admin.token, "PATCH", path+"/sites/"+site.ID, map[string]any{"configuration": map[string]any{"a": 1}}, http.StatusOK)
	authCall(t, e, e.admin.token, "GET", path+"/sites", nil, http.StatusOK).Decode(t, &spaces)
	if spaces.Count != 1 || spaces.Items[0]["site"] != site.ID {
		t.Errorf("site installations: %+v", spaces)
	}
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/installme/sites", nil, http.StatusOK)
	authCall(t, e, e.admin.token, "GET", path, nil, http.StatusOK).Decode(t, &inst)
	if inst.Spaces != 1 {
		t.Errorf("spaces = %d, want 1", inst.Spaces)
	}

	// The organization's view.
	org := "/v1/orgs/" + e.org
	var installed listOut[map[string]any]
	authCall(t, e, e.admin.token, "GET", org+"/installations", nil, http.StatusOK).Decode(t, &installed)
	if installed.Count != 1 {
		t.Errorf("organization's installations: %+v", installed)
	}
	authCall(t, e, editor.token, "GET", org+"/installations", nil, http.StatusForbidden)
	authCall(t, e, out.token, "GET", org+"/installations", nil, http.StatusNotFound)
	authCall(t, e, editor.token, "GET", org+"/integrations/installations-status", nil, http.StatusOK).Decode(t, &installed)
	if installed.Count != 1 || installed.Items[0]["target"].(map[string]any)["type"] != "organization" {
		t.Errorf("installations-status: %+v", installed)
	}
	authCall(t, e, editor.token, "GET", org+"/integrations/installations-status?target=space&space="+space, nil, http.StatusOK).Decode(t, &installed)
	if installed.Count != 1 || installed.Items[0]["target"].(map[string]any)["spaceId"] != space {
		t.Errorf("installations-status of the space: %+v", installed)
	}
	e.call(t, editor.token, "GET", org+"/integrations/installations-status?space="+space, nil).wantError(t, http.StatusBadRequest, "space")
	authCall(t, e, editor.token, "GET", org+"/integrations/installme/installation_status", nil, http.StatusOK)
	integPublish(t, e, e.admin.token, "notinstalled", integBody(e))
	authCall(t, e, editor.token, "GET", org+"/integrations/notinstalled/installation_status", nil, http.StatusNotFound)
	var ints listOut[map[string]any]
	authCall(t, e, editor.token, "GET", org+"/integrations", nil, http.StatusOK).Decode(t, &ints)
	if ints.Count != 2 {
		t.Errorf("organization's integrations: %d, want the public one and its own private one", ints.Count)
	}
	authCall(t, e, editor.token, "GET", "/v1/spaces/"+space+"/integrations", nil, http.StatusOK).Decode(t, &ints)
	if ints.Count != 1 || ints.Items[0]["name"] != "installme" {
		t.Errorf("space's integrations: %+v", ints)
	}
	authCall(t, e, out.token, "GET", "/v1/spaces/"+space+"/integrations", nil, http.StatusNotFound)

	// Uninstalling: 205, then 204 once gone.
	authCall(t, e, e.admin.token, "DELETE", path+"/sites/"+site.ID, nil, http.StatusResetContent)
	authCall(t, e, e.admin.token, "DELETE", path+"/sites/"+site.ID, nil, http.StatusNoContent)
	authCall(t, e, e.admin.token, "DELETE", path+"/spaces/"+space, nil, http.StatusResetContent)
	authCall(t, e, editor.token, "DELETE", path, nil, http.StatusNotFound)
	authCall(t, e, e.admin.token, "DELETE", path, nil, http.StatusResetContent)
	authCall(t, e, e.admin.token, "GET", path, nil, http.StatusNotFound)

	// Every change was an event, newest first, readable one by one.
	want := []string{"installation_deleted", "space_installation_deleted", "site_installation_deleted", "site_installation_setup",
		"site_installation_setup", "space_installation_setup", "space_installation_setup", "installation_setup", "installation_setup"}
	got := instEventTypes(t, e, "installme")
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %v, want %v", got, want)
		}
	}
	var page listOut[instEventOut]
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/installme/events?limit=2", nil, http.StatusOK).Decode(t, &page)
	if len(page.Items) != 2 || page.Next == nil || page.Items[0].InstallationID != inst.ID || page.Items[0].Status != "success" {
		t.Fatalf("first page of events: %+v", page)
	}
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/installme/events?limit=2&page="+url.QueryEscape(page.Next.Page), nil, http.StatusOK).Decode(t, &page)
	if len(page.Items) != 2 || page.Items[0].Payload["type"] != want[2] {
		t.Errorf("second page of events: %+v", page)
	}
	var one struct {
		Event instEventOut `json:"event"`
		Trace struct {
			Logs []any `json:"logs"`
		} `json:"trace"`
	}
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/installme/events/"+page.Items[0].ID, nil, http.StatusOK).Decode(t, &one)
	if one.Event.ID != page.Items[0].ID || one.Event.IntegrationID != "installme" || one.Trace.Logs == nil {
		t.Errorf("event: %+v", one)
	}
	authCall(t, e, e.admin.token, "GET", "/v1/integrations/installme/events/nope", nil, http.StatusNotFound)
	authCall(t, e, editor.token, "GET", "/v1/integrations/installme/events", nil, http.StatusForbidden)
	authCall(t, e, out.token, "GET", "/v1/integrations/notinstalled/events", nil, http.StatusNotFound)
}

// A private integration installs only on the organization that publishes it.
func TestIntegrationInstallPrivate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	integPublish(t, e, e.admin.token, "privy", integBody(e))
	b, err := e.db.InitOrganization(t.Context(), "Elsewhere", uniqueEmail("else"), "Elsa Else")
	if err != nil {
		t.Fatal(err)
	}
	// The admin of the publisher, also admin of another organization.
	if _, err := e.db.AddUser(t.Context(), b.Organization.ID, e.admin.email, "Ada Admin", "admin"); err != nil {
		t.Fatal(err)
	}
	e.call(t, e.admin.token, "POST", "/v1/integrations/privy/installations", map[string]any{"organization": b.Organization.ID}).
		wantError(t, http.StatusForbidden, "private")
	authCall(t, e, b.Token, "POST", "/v1/integrations/privy/installations", map[string]any{"organization": b.Organization.ID}, http.StatusNotFound)
}

// An installation token reaches what the installation was granted, and no
// more.
func TestInstallationToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor := e.addUser(t, "edit", "Eddie Editor")
	b := integBody(e) // scopes: space:content:read
	integPublish(t, e, e.admin.token, "reader", b)
	var inst instOut
	authCall(t, e, e.admin.token, "POST", "/v1/integrations/reader/installations", map[string]any{"organization": e.org}, http.StatusCreated).Decode(t, &inst)
	path := "/v1/integrations/reader/installations/" + inst.ID
	space := siteNewSpace(t, e, "Guide")
	other := siteNewSpace(t, e, "Other")

	authCall(t, e, editor.token, "POST", path+"/tokens", nil, http.StatusNotFound)
	var tok struct {
		Token string `json:"token"`
	}
	authCall(t, e, e.admin.token, "POST", path+"/tokens", nil, http.StatusOK).Decode(t, &tok)
	if tok.Token == "" {
		t.Fatal("no token")
	}

	// Within its scopes: reading spaces of its organization, and itself.
	authCall(t, e, tok.Token, "GET", "/v1/spaces/"+space, nil, http.StatusOK)
	authCall(t, e, tok.Token, "GET", "/v1/spaces/"+space+"/content", nil, http.StatusOK)
	authCall(t, e, tok.Token, "GET", path, nil, http.StatusOK)
	// Outside them: refused, though the installer may do it all.
	e.call(t, tok.Token, "PATCH", "/v1/spaces/"+space, map[string]any{"title": "Renamed"}).wantError(t, http.StatusForbidden, "space:metadata:write")
	e.call(t, tok.Token, "GET", "/v1/orgs/"+e.org+"/members", nil).wantError(t, http.StatusForbidden, "installation token")
	e.call(t, tok.Token, "GET", "/v1/user", nil).wantError(t, http.StatusForbidden, "installation token")
	e.call(t, tok.Token, "DELETE", path, nil).wantError(t, http.StatusForbidden, "installation token")
	e.call(t, tok.Token, "POST", path+"/tokens", nil).wantError(t, http.StatusForbidden, "installation token")
	e.call(t, tok.Token, "GET", "/v1/integrations/other/installations/"+inst.ID, nil).wantError(t, http.StatusForbidden, "own integration")
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+space, nil).want(t, http.StatusOK)
	// It may set its own configuration, not widen what it reaches.
	authCall(t, e, tok.Token, "PATCH", path, map[string]any{"configuration": map[string]any{"seen": true}}, http.StatusOK)
	e.call(t, tok.Token, "PATCH", path, map[string]any{"space_selection": "all"}).wantError(t, http.StatusForbidden, "space_selection")

	// Narrowed to selected spaces: only those set up.
	authCall(t, e, e.admin.token, "PATCH", path, map[string]any{"space_selection": "selected"}, http.StatusOK)
	authCall(t, e, e.admin.token, "POST", path+"/spaces", map[string]any{"space": space}, http.StatusCreated)
	authCall(t, e, tok.Token, "GET", "/v1/spaces/"+space, nil, http.StatusOK)
	e.call(t, tok.Token, "GET", "/v1/spaces/"+other, nil).wantError(t, http.StatusNotFound, "space not found")

	// Another organization's space is not found.
	outSpace := func() string {
		o, err := e.db.InitOrganization(t.Context(), "Other Org", uniqueEmail("o"), "O O")
		if err != nil {
			t.Fatal(err)
		}
		var sp struct {
			ID string `json:"id"`
		}
		e.call(t, o.Token, "POST", "/v1/orgs/"+o.Organization.ID+"/spaces", map[string]any{"title": "Theirs"}).want(t, http.StatusCreated).Decode(t, &sp)
		return sp.ID
	}()
	e.call(t, tok.Token, "GET", "/v1/spaces/"+outSpace, nil).wantError(t, http.StatusNotFound, "space not found")

	// An hour later, the token has expired.
	start := time.Now()
	e.db.Now = func() time.Time { return start.Add(store.InstallationTokenTTL + time.Minute) }
	e.call(t, tok.Token, "GET", "/v1/spaces/"+space, nil).wantError(t, http.StatusUnauthorized)
	e.db.Now = time.Now
	authCall(t, e, e.admin.token, "POST", path+"/tokens", nil, http.StatusOK).Decode(t, &tok)
	authCall(t, e, tok.Token, "GET", "/v1/spaces/"+space, nil, http.StatusOK)

	// Uninstalled, the token stops working.
	authCall(t, e, e.admin.token, "DELETE", path, nil, http.StatusResetContent)
	e.call(t, tok.Token, "GET", "/v1/spaces/"+space, nil).wantError(t, http.StatusUnauthorized)
}
